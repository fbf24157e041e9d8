"""The board's analysis view through prompt_toolkit's pipe input: ``review`` opens it, the
arrow keys step the game, the curve's cursor and the tableau follow, Enter plays on from the
position as a new game, q gives the game back exactly as it was; ``>`` steps a line found."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.formatted_text.utils import fragment_list_to_text

from spider_cli.app.files.gamelog import GameLog, Result
from spider_cli.app.session import Session
from spider_cli.language import gamefiles
from spider_cli.language.gamefiles import PositionOrigin
from spider_cli.rules.engine import Game, Move
from spider_cli.tui.board import Board
from tests.helpers import SEED, on_board, said

RIGHT, LEFT, HOME, END = "\x1b[C", "\x1b[D", "\x1b[H", "\x1b[F"
TEXTS = ["4h from 1 to 8", "8d from 7 to 3", "9-8d from 3 to 4"]
PLAYED = [f"{text}\r" for text in TEXTS]


@pytest.fixture
def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Session:
    monkeypatch.setenv("SPIDER_HOME", str(tmp_path / "home"))
    return Session.new_game(seed=SEED, base_dir=tmp_path, log=GameLog(tmp_path / "games.db"))


def _screen(board: Board) -> str:
    return fragment_list_to_text(board._tableau())


def _cursor(board: Board) -> int:
    """The column of the curve's cursor cell on its row."""
    for line in _rows(board):
        if any("curve-cursor" in style for style, *_ in line):
            return sum(len(text) for style, text, *_ in line[: _at(line)])
    raise AssertionError("no cursor on the curve")


def _at(line: list[tuple[str, str]]) -> int:
    return next(k for k, (style, *_) in enumerate(line) if "curve-cursor" in style)


def _rows(board: Board) -> list[list[tuple[str, str]]]:
    rows: list[list[tuple[str, str]]] = [[]]
    for style, text, *_ in board._tableau():
        if text == "\n":
            rows.append([])
        else:
            rows[-1].append((style, text))
    return rows


def test_review_opens_the_view_and_steps_the_game(session: Session) -> None:
    status, board = on_board([*PLAYED, "review\r"], session)
    assert status == 0
    study = board.study
    assert study is not None and study.review is not None
    start = _screen(board)
    assert "Before move 1 of 3" in start and "played 4h from 1 to 8" in start
    assert _cursor(board) == 5  # the first cell, after the row's number
    study.step(1)
    after = _screen(board)
    assert "Before move 2 of 3" in after and "played 8d from 7 to 3" in after
    assert _cursor(board) == 6 and after != start
    study.end()
    assert "After move 3, the last" in _screen(board)
    assert board.session.game.moves_made == 3


def test_the_status_line_is_of_the_position_the_view_stands_on(session: Session) -> None:
    _, board = on_board([*PLAYED, "review\r"], session)
    assert board.study is not None
    line = fragment_list_to_text(board._status())
    assert "moves 0" in line and "^Z" not in line  # the view's keys are its own
    board.study.end()
    assert "moves 3" in fragment_list_to_text(board._status())
    board.study = None
    assert "^Z" in fragment_list_to_text(board._status())  # the game in play again


def test_the_keys_step_and_q_gives_the_game_back_as_it_was(session: Session) -> None:
    _, board = on_board([*PLAYED, "review\r", RIGHT, RIGHT, END, LEFT, HOME, "n", "q"], session)
    assert board.study is None
    game = board.session.game
    assert game.moves_made == 3 and not game._redo
    assert [e.text for e in board.session.history()] == TEXTS
    assert "error" not in said(board)


def test_enter_plays_on_from_the_position_and_leaves_the_game_reviewed(session: Session) -> None:
    reviewed = session.game
    _, board = on_board([*PLAYED, "review\r", RIGHT, "\r", "7 3\r"], session)
    assert board.study is None
    new = board.session.game
    assert new is not reviewed and new.moves_made == 1
    played_on = session.games_log().entry(2)  # a game from a position, as a file loaded
    assert not played_on.numbered and played_on.deal == "game 1 at 1" and played_on.moves == 1
    new.pop()
    assert isinstance(board.session.origin, PositionOrigin)
    assert "A new game from the position after move 1 of game 1" in said(board)
    again = _fresh(session)
    for line in TEXTS:
        again.execute(line)
    assert new.key() == _after(again.game, 1).key()
    assert reviewed.move_stack == again.game.move_stack and not reviewed._redo  # untouched
    assert reviewed.key() == again.game.key()
    entry = session.games_log().entry(1)  # in progress, as it was: 'open 1' brings it back
    assert entry.result is Result.IN_PROGRESS and entry.moves == 3
    assert gamefiles.read(entry.game_file).steps == gamefiles.read(again.files.game_file()).steps


def _after(game: Game, k: int) -> Game:
    work = game.copy()
    while work.moves_made > k:
        work.pop()
    return work


def _fresh(session: Session) -> Session:
    return Session.new_game(seed=SEED, base_dir=session.base_dir, log=session.log)


def test_the_line_a_hint_found_is_stepped_with_the_greater_than_key(session: Session) -> None:
    _, board = on_board(["hint\r", ">"], session)
    study = board.study
    assert study is not None and study.found and study.review is None
    assert study.cursor.last > study.cursor.first
    assert "The line found here: position 0 of" in _screen(board)
    _, board = on_board([">"], _fresh(session))
    assert board.study is None and "no line found here to step through" in said(board)


def test_marks_and_the_winning_line_step_with_their_keys(session: Session) -> None:
    """n and p jump between the review's marks, w steps the winning line at the move the
    deal was lost at and back (a review made of the game's own moves, as
    tests/app/test_stepping.py makes one: the board takes it as the review it keeps)."""
    from spider_cli.analysis.review import Severity
    from tests.app.test_stepping import _review
    from tests.helpers import play_randomly

    play_randomly(session.game, 14, 7)
    game = session.game
    review = _review(game, {4: Severity.MISTAKE, 9: Severity.BLUNDER}, 6)
    session.analysis.reviewed = ((game.key(), game.moves_made), review)
    _, board = on_board(["review\r", "n"], session)
    assert board.study is not None
    screen = _screen(board)
    assert "Before move 4 of 14" in screen and "mistake, gave up 20.0 points" in screen
    assert " kept " in screen and "this move" in screen and "n/p: mark  w: the win" in screen
    moment = board.study.moment()
    better, played = moment.better, moment.move
    assert isinstance(better, Move) and isinstance(played, Move)
    styled = {  # the piles of the cards drawn in each move's style
        kind: {f[2].spot.pile for f in board._tableau() if len(f) == 3 and kind in f[0]}
        for kind in ("class:hinted", "class:better")
    }
    assert styled["class:hinted"] == {played.src, played.dst}
    assert styled["class:better"] == {better.src, better.dst} - {played.src, played.dst} != set()
    signs = next(line for line in screen.splitlines() if line.startswith("     ") and "m" in line)
    assert signs[5 + 3] == "m" and signs[5 + 8] == "b" and signs[5 + 5] == "x"
    _, board = on_board(["review\r", "n", "n", "p", "w", RIGHT, RIGHT], session)
    screen = _screen(board)
    assert "A win from before move 6: position 2 of" in screen and "w: back to the game" in screen
    assert board.session.game is game and board.study is not None and board.study.line is not None
    facts = (game.key(), tuple(game.move_stack))
    _, board = on_board(["review\r", "n", "w", RIGHT, END, "w", "p", "q"], session)
    assert board.study is None and (game.key(), tuple(game.move_stack)) == facts
    assert "error" not in said(board)


def test_a_command_typed_in_the_view_closes_it_and_runs(session: Session) -> None:
    """A letter the view does not take starts a command, as on the board; Enter runs it."""
    _, board = on_board([*PLAYED, "review\r", RIGHT, "review 2\r"], session)
    assert board.study is None and "played: 8d from 7 to 3" in said(board)
    assert board.session.game.moves_made == 3


def test_a_review_read_back_from_the_history_opens_the_view(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spider_cli.analysis import review

    on_board([*PLAYED, "review\r", "q"], session)  # made, and kept with game 1
    made: list[object] = []
    monkeypatch.setattr(review, "review", lambda *args, **kw: made.append(args))
    again = _fresh(session)
    _, board = on_board(["open 1\r", "review\r", END], again)
    study = board.study
    assert study is not None and study.review is not None and study.game.at == 3
    assert "After move 3, the last" in _screen(board)
    assert [e.text for e in board.session.history()] == TEXTS
    assert not made  # read back, not made again
    assert not made  # read back, not made again
