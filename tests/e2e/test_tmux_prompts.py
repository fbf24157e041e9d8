"""The board's questions and ``auto`` in a real terminal (tmux, as in test_tmux): the game
in progress offered back inside the board, and Ctrl-C stopping ``auto`` between moves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.test_tmux import TMUX, Tmux, _spider, tmux  # noqa: F401  (tmux: the fixture)

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def test_the_board_offers_the_game_in_progress_back_without_leaving_the_screen(
    tmux: Tmux,  # noqa: F811
    tmp_path: Path,
) -> None:
    tmux.start(f"{_spider(tmp_path)} --seed 5")
    tmux.wait("spider>")
    tmux.type("4h from 1 to 8")
    tmux.keys("Enter")
    tmux.wait("pile 1 turns up Kd")
    tmux.enter("q")  # leaves at once: the journal keeps the game
    tmux.wait("SPIDER-EXITED 0")
    tmux.restart(_spider(tmp_path))
    screen = tmux.wait(r"Continue the game in progress \(deal \S+, \d suits?, 1 move\)\? \[Y/n\]")
    assert re.search(r"^1 +2 +3 +4 +5 +6 +7 +8 +9 +10 *$", screen, re.MULTILINE)  # the board
    assert screen.splitlines()[0].startswith("hand ")
    assert re.search(r"moves 1  \|  score 10", screen)  # the status of the game offered
    tmux.keys("Enter")
    screen = tmux.wait("continued after move 1")
    assert re.search(r"moves 1 ", screen)
    tmux.type("quit")
    tmux.keys("Enter")
    screen = tmux.wait("SPIDER-EXITED 0")  # never saved: the journal keeps it, no question
    assert "[Y/n]" not in screen and "Traceback" not in screen


def test_ctrl_c_stops_auto_on_the_board_between_moves(
    tmux: Tmux,  # noqa: F811
    tmp_path: Path,
) -> None:
    tmux.start(f"{_spider(tmp_path)} --seed 5")  # auto plays 19 moves here before a deal
    tmux.wait("spider>")
    tmux.type("auto")
    tmux.keys("Enter")
    tmux.wait(r"moves [1-9] ")  # the status line is drawn again while auto plays
    tmux.keys("C-c")
    screen = tmux.wait("auto stops: stopped")
    assert "Traceback" not in screen and "SPIDER-EXITED" not in screen
    tmux.keys("C-z")  # undoes (the program is not suspended)
    tmux.wait("took back")
