"""The board's analysis view in a real terminal (tmux): ``review`` after a short game opens
it, the arrow keys step the game (the curve's cursor and the tableau move), q gives the
game back exactly as it was, and Enter plays on from a position as a new game. Skipped when
tmux is not installed."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from spider_cli.analysis import native
from tests.e2e.test_tmux import TMUX, Tmux

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

KEYS = "Enter: play on from here"


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    terminal = Tmux(tmp_path / "tmux.sock")
    yield terminal
    subprocess.run(
        [TMUX or "tmux", "-S", str(terminal.socket), "kill-server"], capture_output=True, timeout=10
    )


def _cursor(tmux: Tmux) -> int:
    """The column of the curve's cursor: the cell drawn reversed on the curve's row."""
    for line in tmux.screen(escapes=True).splitlines():
        if re.match(r"^ +0 ", re.sub(r"\x1b\[[0-9;]*m", "", line)) and "\x1b[1;7m" in line:
            before = line.split("\x1b[1;7m", 1)[0]
            return len(re.sub(r"\x1b\[[0-9;]*m", "", before))
    raise AssertionError(f"no cursor on the curve:\n{tmux.screen()}")


def _gone(tmux: Tmux, text: str, timeout: float = 60) -> str:
    """The screen once ``text`` has left it."""
    deadline = time.monotonic() + timeout
    while text in (screen := tmux.screen()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} still on the screen:\n{screen}")
        time.sleep(0.05)
    return screen


def _tableau(screen: str) -> str:
    return screen.split("Before move", 1)[0].split("After move", 1)[0]


def test_the_analysis_view_steps_plays_on_and_gives_the_game_back(
    tmux: Tmux, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    tmux.start(
        f"cd {shlex.quote(str(tmp_path))} && env SPIDER_HOME={shlex.quote(str(home))} "
        f"TERM=xterm-256color {shlex.quote(sys.executable)} -m spider_cli --seed 5",
        rows=30,
    )
    tmux.wait(r"moves 0  \|")
    for line in ("4h from 1 to 8", "7 3", "9-8d from 3 to 4"):
        tmux.enter(line)
    playing = tmux.wait(r"moves 3  \|")
    board = playing.split(" deals left")[0]

    tmux.enter("review")
    first = tmux.wait(r"Before move 1 of 3 \(chance \d+%\): played 4h from 1 to 8")
    assert KEYS in first and _cursor(tmux) == 5
    tmux.keys("Right")
    second = tmux.wait(r"Before move 2 of 3 .*: played 8d from 7 to 3")
    assert _cursor(tmux) == 6  # the cursor moved on the curve
    assert _tableau(second) != _tableau(first)  # and the board changed with it
    tmux.keys("End")
    tmux.wait(r"After move 3, the last")
    assert _cursor(tmux) == 8
    tmux.keys("Home")
    tmux.wait(r"Before move 1 of 3")

    tmux.keys("q")  # back to the game in play, as it was
    back = _gone(tmux, KEYS)
    assert re.search(r"moves 3  \|", back) and back.split(" deals left")[0] == board

    tmux.enter("review")
    tmux.wait("Before move 1 of 3")
    tmux.keys("Right")
    tmux.wait("Before move 2 of 3")
    tmux.keys("Enter")  # play on from the position after move 1
    screen = tmux.wait(r"A new game from the position after move 1 of game 1")
    assert re.search(r"moves 0  \|", screen) and "'open 1' brings game 1 back" in screen
    tmux.enter("hint")  # the line a hint found, stepped with > before apply
    tmux.wait(r"'apply'")
    tmux.keys(">")
    tmux.wait(r"The line found here: position 0 of \d+, next ")
    tmux.keys("Right")
    tmux.wait(r"The line found here: position 1 of \d+")
    tmux.keys("Escape")
    screen = _gone(tmux, KEYS)
    assert re.search(r"moves 0  \|", screen)
    tmux.enter("games")
    screen = tmux.wait(r"'open N' brings game N back")
    assert re.search(r"^ +1 .* 3 .*in progress$", screen, re.MULTILINE)
    tmux.enter("quit")
    screen = tmux.wait("SPIDER-EXITED 0")
    assert "Traceback" not in screen


def test_a_real_review_jumps_to_its_marks_and_steps_the_win_from_where_it_was_lost(
    tmux: Tmux, tmp_path: Path
) -> None:
    # The README's game: the blind player at 200 positions a search on our 2-suit deal 41,
    # lost at move 91 with every card known, its first mark at move 34.
    if not (native.built() and native.wanted()):  # (its searches path against path: test_core_*)
        pytest.skip("a real review takes minutes on the Python path")
    game = Path(__file__).resolve().parents[2] / "docs" / "games" / "deal-41-2-suits.spider"
    home = tmp_path / "home"
    tmux.start(
        f"cd {shlex.quote(str(tmp_path))} && env SPIDER_HOME={shlex.quote(str(home))} "
        f"TERM=xterm-256color {shlex.quote(sys.executable)} -m spider_cli "
        f"{shlex.quote(str(game))}",
        columns=100,
        rows=34,
    )
    playing = tmux.wait(r"moves 94  \|")
    board = playing.split(" deals left")[0]
    tmux.enter("review")
    tmux.wait(r"Before move 1 of 94", timeout=180)
    tmux.keys("n")
    screen = tmux.wait(r"Before move 34 of 94 .*: played K-10h from 10 to 7")
    assert "blunder, gave up" in screen and re.search(r"moves 33  \|", screen)
    tmux.keys("w")  # the win from the position before the move the deal was lost at
    screen = tmux.wait(r"A win from before move 91: position 0 of \d+, next ")
    assert re.search(r"moves 90  \|", screen)
    tmux.keys("Right")
    tmux.wait(r"A win from before move 91: position 1 of \d+")
    tmux.keys("w")  # back to the game reviewed, at the move the deal was lost at
    tmux.wait(r"Before move 91 of 94")
    tmux.keys("p")
    tmux.wait(r"Before move 83 of 94 .*: played K-3h from 9 to 6")
    tmux.keys("q")
    back = _gone(tmux, KEYS)
    assert re.search(r"moves 94  \|", back) and back.split(" deals left")[0] == board
    tmux.enter("quit")
    assert "Traceback" not in tmux.wait("SPIDER-EXITED 0")
