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
