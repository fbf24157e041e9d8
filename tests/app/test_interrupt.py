"""Ctrl-C never stops the game in the middle of a move (spider_cli.app.interrupt)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from spider_cli.app import interrupt
from spider_cli.app.interrupt import HELD
from spider_cli.app.session import Session
from spider_cli.rules.engine import Game, Move


@pytest.fixture
def handler() -> Iterator[None]:
    previous = interrupt.install()
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _ctrl_c() -> None:
    os.kill(os.getpid(), signal.SIGINT)


def test_ctrl_c_outside_a_held_block_stops_at_once(handler: None) -> None:
    with pytest.raises(KeyboardInterrupt):
        _ctrl_c()
        pytest.fail("the interrupt should have been raised already")


def test_ctrl_c_in_a_held_block_waits_for_its_end(handler: None) -> None:
    done = []
    with pytest.raises(KeyboardInterrupt), HELD:
        with HELD:  # blocks nest: only the outermost end raises
            _ctrl_c()
            done.append("inner")
        done.append("outer")
    assert done == ["inner", "outer"]
    assert not HELD.pending and not HELD.depth


def test_an_error_leaving_a_held_block_is_not_replaced(handler: None) -> None:
    with pytest.raises(ValueError), HELD:
        _ctrl_c()
        raise ValueError("a bug")
    assert not HELD.pending


def _first_turning_move(game: Game) -> Move:
    """A legal move that turns a card up (the engine flips it inside push)."""
    for move in game.legal_moves():
        if (
            isinstance(move, Move)
            and len(game.piles[move.src]) - move.count == game.down[move.src]
            and game.down[move.src]
        ):
            return move
    raise AssertionError("no move turns a card up in this deal")


def test_ctrl_c_during_a_move_leaves_the_move_whole(
    handler: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.new_game(2, suits=1)
    move = _first_turning_move(session.game)
    expected = Session.new_game(2, suits=1).game
    expected.push(move)

    real_flip = Game._flip

    def flip_after_ctrl_c(self: Game, pile: int) -> object:
        _ctrl_c()  # halfway through push: the cards moved, the card not yet turned up
        return real_flip(self, pile)

    monkeypatch.setattr(Game, "_flip", flip_after_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        session.move(move)
    monkeypatch.undo()
    game = session.game
    assert game.moves_made == 1
    assert (game.piles, game.down) == (expected.piles, expected.down)
    session.undo()
    assert (game.piles, game.down) == (
        Session.new_game(2, suits=1).game.piles,
        [5, 5, 5, 5] + [4] * 6,
    )


# ---------------------------------------------------------------------------------------------
# A terminal waiting for keys: a signal is kept out of its event loop


@pytest.fixture
def ending() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP handled as while a person plays."""
    previous = interrupt.install()
    try:
        with interrupt.terminating():
            yield
    finally:
        signal.signal(signal.SIGINT, previous)
        HELD.pending = None


def test_a_signal_while_waiting_wakes_the_loop_and_is_raised_as_the_wait_ends(
    ending: None,
) -> None:
    woken: list[BaseException] = []
    done = []
    with pytest.raises(interrupt.Terminated) as ended, interrupt.waiting(woken.append):
        os.kill(os.getpid(), signal.SIGTERM)
        done.append("the loop goes on until woken")
    assert done == ["the loop goes on until woken"]
    assert [type(error) for error in woken] == [interrupt.Terminated]
    assert ended.value is woken[0] and HELD.pending is None and HELD.wake is None


def test_a_command_run_while_waiting_is_stopped_at_once(ending: None) -> None:
    woken: list[BaseException] = []
    with interrupt.waiting(woken.append):
        with pytest.raises(KeyboardInterrupt), interrupt.acting():
            _ctrl_c()
            pytest.fail("the interrupt should have been raised already")
        with pytest.raises(KeyboardInterrupt), interrupt.acting(), HELD:
            _ctrl_c()  # within a move: as the move ends, still within the command
        assert not HELD.acting
    assert woken == [] and HELD.pending is None


def test_a_signal_kept_before_a_command_stops_it_before_it_begins(ending: None) -> None:
    began = []
    with pytest.raises(interrupt.Terminated), interrupt.waiting(lambda error: None):
        os.kill(os.getpid(), signal.SIGHUP)
        with interrupt.acting():
            began.append("the command")
    assert began == [] and HELD.pending is None


def test_a_move_ended_while_waiting_hands_its_signal_to_the_loop(ending: None) -> None:
    woken: list[BaseException] = []
    with pytest.raises(KeyboardInterrupt), interrupt.waiting(woken.append):
        with HELD:
            _ctrl_c()
        assert [type(error) for error in woken] == [KeyboardInterrupt]


def test_an_ending_kept_while_waiting_outranks_what_leaves_the_wait(ending: None) -> None:
    with pytest.raises(interrupt.Terminated), interrupt.waiting(lambda error: None):
        os.kill(os.getpid(), signal.SIGTERM)
        raise EOFError  # the terminal's loop ended otherwise meanwhile
    with pytest.raises(interrupt.Terminated), interrupt.waiting(lambda error: None):
        _ctrl_c()
        os.kill(os.getpid(), signal.SIGTERM)
    with pytest.raises(ValueError), interrupt.waiting(lambda error: None):
        _ctrl_c()
        raise ValueError("a Ctrl-C kept does not hide an error")
    assert HELD.pending is None
