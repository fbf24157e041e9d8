"""End to end in a real terminal: ``spider`` inside tmux, played by send-keys, read by
capture-pane. Skipped when tmux is not installed (``.ci/run`` installs it)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


class Tmux:
    """One tmux server of our own (its own socket), one window (80 by 30 unless asked)."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket

    def run(self, *args: str) -> str:
        result = subprocess.run(
            [TMUX or "tmux", "-u", "-S", str(self.socket), *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return result.stdout

    def start(self, command: str, columns: int = 80, rows: int = 30) -> None:
        self.run(
            "new-session",
            "-d",
            "-x",
            str(columns),
            "-y",
            str(rows),
            "-s",
            "spider",
            f"{command}; echo SPIDER-EXITED $?; sleep 60",
        )

    def restart(self, command: str) -> None:
        """Run another command in the same window, on a cleared screen (killing the session
        would let the server exit, racing the next one to start on the same socket)."""
        self.run(
            "respawn-pane",
            "-k",
            "-t",
            "spider",
            f"clear; {command}; echo SPIDER-EXITED $?; sleep 60",
        )

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "spider", *keys)

    def type(self, text: str) -> None:
        self.run("send-keys", "-t", "spider", "-l", text)

    def enter(self, line: str) -> None:
        """Type ``line`` and Enter in one write, as a paste does (and as a busy machine reads
        typing): the program gets both at once."""
        self.run("send-keys", "-t", "spider", "-l", line + "\r")

    def screen(self, escapes: bool = False) -> str:
        return self.run("capture-pane", "-p", "-t", "spider", *(["-e"] if escapes else []))

    def wait(self, pattern: str, timeout: float = 90) -> str:
        """The screen once it shows ``pattern``; the timeout is only a cap for a hung
        program, generous so that a loaded machine never fails the test."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if re.search(pattern, screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} not on the screen:\n{screen}")
            time.sleep(0.05)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    terminal = Tmux(tmp_path / "tmux.sock")
    yield terminal
    subprocess.run(
        [TMUX or "tmux", "-S", str(terminal.socket), "kill-server"], capture_output=True, timeout=10
    )


def test_play_save_quit_and_resume_in_a_terminal(tmux: Tmux, tmp_path: Path) -> None:
    home = tmp_path / "home"
    spider = (
        f"cd {shlex.quote(str(tmp_path))} && env SPIDER_HOME={shlex.quote(str(home))} "
        f"TERM=xterm-256color {shlex.quote(sys.executable)} -m spider_cli --line"
    )
    tmux.start(f"{spider} --seed 5")
    screen = tmux.wait(r"moves 0  \|  score 0")
    assert "New here? Type 'help'" in screen and "spider>" in screen
    assert re.search(r"^1 +2 +3 +4 +5 +6 +7 +8 +9 +10$", screen, re.MULTILINE)
    assert "deals left 5  |  removed 0/8  |  moves 0  |  score 0" in screen  # the status line

    tmux.type("4h from 1 to 8")
    tmux.keys("Enter")
    screen = tmux.wait(r"moves 1  \|  score 10")
    assert "4h from 1 to 8\n  pile 1 turns up Kd\nspider>" in screen
    assert re.search(r"^K♦ +▒▒ +▒▒ +▒▒ +6♦ +5♥ +8♦ +5♠ +K♠ +2♣$", screen, re.MULTILINE)

    tmux.type("Jh frm 8")  # not entered: the part that cannot parse shows as an error
    tmux.wait("spider> Jh frm 8")
    time.sleep(0.2)
    typed = next(
        line
        for line in tmux.screen(escapes=True).splitlines()
        if "frm 8" in line and "spider>" in line
    )
    assert re.search(r"\x1b\[[0-9;]*4[;m][^\n]*frm 8", typed)  # underlined...
    assert re.search(r"\x1b\[[0-9;]*31m[^\n]*frm 8", typed)  # ...and red
    tmux.keys("C-c")  # clears the line

    for line in ("7 3", "undo", "help"):
        tmux.type(line)
        tmux.keys("Enter")
    screen = tmux.wait("New to Spider\\?")
    assert "error" not in screen

    tmux.type("save game-5.spider")
    tmux.keys("Enter")
    tmux.wait("saved to game-5.spider")
    tmux.type("quit")
    tmux.keys("Enter")
    screen = tmux.wait("SPIDER-EXITED 0")  # saved: no question
    assert "[Y/n]" not in screen
    assert (tmp_path / "game-5.spider").read_text().splitlines()[1:4] == [
        "set autoremove on",  # a player's default: the file says so
        "new 5 suits 4",
        "4h from 1 to 8",
    ]

    tmux.restart(spider)
    tmux.wait(r"Continue the game in progress \(deal \S+, \d suits?, 1 move\)\? \[Y/n\]")
    tmux.keys("Enter")
    screen = tmux.wait(r"moves 1  \|  score 10")
    assert "continued after move 1" in screen
    tmux.type("quit")
    tmux.keys("Enter")
    screen = tmux.wait("SPIDER-EXITED 0")  # saved and unchanged: no question
    assert "Save it?" not in screen and "Traceback" not in screen


def test_ctrl_c_stops_a_long_search_and_the_game_goes_on(tmux: Tmux, tmp_path: Path) -> None:
    home = tmp_path / "home"
    tmux.start(
        f"cd {shlex.quote(str(tmp_path))} && env SPIDER_HOME={shlex.quote(str(home))} "
        f"TERM=xterm-256color {shlex.quote(sys.executable)} -m spider_cli --line problem-2"
    )
    tmux.wait("spider>")
    tmux.type("solve turn up a card, no deal, keep 1 space, limit 50000000")  # minutes of search
    tmux.keys("Enter")
    tmux.wait(r"searching\.\.\. \d+ s \(Ctrl-C stops\)")  # the search says it is working
    tmux.keys("C-c")
    tmux.wait("interrupted")
    tmux.type("7h from 5 to 10")
    tmux.keys("Enter")
    screen = tmux.wait(r"moves 1  \|")
    assert "Traceback" not in screen and "SPIDER-EXITED" not in screen


def test_the_board_reviews_a_game(tmux: Tmux, tmp_path: Path) -> None:
    home = tmp_path / "home"
    tmux.start(
        f"cd {shlex.quote(str(tmp_path))} && env SPIDER_HOME={shlex.quote(str(home))} "
        f"TERM=xterm-256color {shlex.quote(sys.executable)} -m spider_cli --seed 5",
        rows=24,
    )
    tmux.wait(r"moves 0  \|")
    for line in ("4h from 1 to 8", "7 3"):
        tmux.enter(line)
    tmux.wait(r"moves 2  \|")
    tmux.enter("review")
    screen = tmux.wait("chance of a win")
    assert "error" not in screen and "won from the start" in screen
    tmux.enter("review 2")
    screen = tmux.wait("played: 8d from 7 to 3")
    assert "the review did not mark this move" in screen
    assert re.search(r"moves 2  \|", screen)  # the game is as it was
    tmux.enter("quit")
    screen = tmux.wait("SPIDER-EXITED 0")
    assert "Traceback" not in screen


def test_the_line_mode_breaks_replies_between_words(tmux: Tmux, tmp_path: Path) -> None:
    """At 40 columns the replies of ``spider --line`` are broken between words, the rows
    after a line's first under the description of its term ("History:    undo [N], ...")."""
    from spider_cli.app.session import Session

    text = Session.new_game(seed=5).execute("help").text  # what the line mode prints
    home = tmp_path / "home"
    tmux.start(
        f"cd {shlex.quote(str(tmp_path))} && env SPIDER_HOME={shlex.quote(str(home))} "
        f"TERM=xterm-256color {shlex.quote(sys.executable)} -m spider_cli --line --seed 5",
        columns=40,
        rows=80,
    )
    tmux.wait("spider>")
    tmux.enter("help")
    screen = tmux.wait(r"More: 'help TOPIC'[^\n]*\n(.*\n)*spider> *\n")
    rows = screen.split("spider> help\n", 1)[1].split("\nspider>", 1)[0].splitlines()
    words = re.sub(r"\|\s+", "|", " ".join(rows)).split()  # "[rules|notation|" goes on
    assert words == text.split()  # no word cut in two
    assert max(map(len, rows)) <= 40 and len(rows) > len(text.splitlines())
    history = next(n for n, row in enumerate(rows) if row.startswith("History:"))
    assert rows[history + 1].startswith(" " * 12 + "(same hand")
    # The caret under a typed line is not broken between words: under the first x, on the
    # row below the two the line takes (as the terminal broke them).
    tmux.enter("Jh from 8 to " + "x" * 40)
    screen = tmux.wait(r"spider> Jh from 8 to x{19}\nx{21}\n {21}\^\nerror: ")
    assert "Traceback" not in screen


# ---------------------------------------------------------------------------------------------
# The full-screen board


def _spider(tmp_path: Path) -> str:
    home = tmp_path / "home"
    return (
        f"cd {shlex.quote(str(tmp_path))} && env SPIDER_HOME={shlex.quote(str(home))} "
        f"TERM=xterm-256color {shlex.quote(sys.executable)} -m spider_cli"
    )


def click(column: int, row: int) -> str:
    """A left click at a cell (0-based), as an xterm in SGR mouse mode reports it."""
    return f"\x1b[<0;{column + 1};{row + 1}M\x1b[<0;{column + 1};{row + 1}m"


STATUS = re.compile(
    r"^ (deals left 5  \|  removed 0/8  \|  moves (0|1)  \|  score (0|12)"
    r"|deals left 5 \| removed 0/8 \| moves (0|1) \| score (0|12)"
    r"|deals 5 \| (removed|off) 0/8 \| moves (0|1) \| score (0|12))"
    r"( +\| +(time )?\d+:\d\d)?"  # the time played
    r"(  (keys: )?\^Z \^Y \? !|  \^Z undo  \^Y redo  \? hint  ! play it)? *$",
    re.MULTILINE,
)
"""The status line at the start, in any of its wordings (a cut word does not match)."""


@pytest.mark.parametrize(("columns", "rows"), [(40, 20), (60, 30), (80, 24), (160, 50)])
def test_the_board_at_four_sizes_and_a_click(
    tmux: Tmux, tmp_path: Path, columns: int, rows: int
) -> None:
    tmux.start(f"{_spider(tmp_path)} --seed 5", columns, rows)
    screen = tmux.wait(r"spider>")
    lines = screen.splitlines()
    numbers = next(n for n, line in enumerate(lines) if line.startswith("1 "))
    assert re.fullmatch(r"1 +2 +3 +4 +5 +6 +7 +8 +9 +10 *", lines[numbers])  # one row
    assert all(line.count("▒▒") == 10 for line in lines[numbers + 1 : numbers + 5])
    assert STATUS.search(screen), screen
    (tmp_path / f"board-{columns}x{rows}.txt").write_text(screen)

    bottom = numbers + 6  # pile 1: five face-down cards, then the 4h
    tmux.type(click(0, bottom))
    screen = tmux.wait(r"pile 1 turns up Kd")
    assert "4h from 1 to 6" in screen
    assert STATUS.search(screen), screen
    assert screen.splitlines()[0].startswith("hand ")  # the tableau stays in place
    tmux.keys("C-z")
    tmux.wait("took back 4h from 1 to 6")
    tmux.keys("C-y")
    tmux.wait("replayed 4h from 1 to 6")
    tmux.type("h")  # a letter writes the command line: Enter runs it
    time.sleep(0.3)
    assert "spider> h" in tmux.screen()
    tmux.keys("Enter")
    tmux.wait(r"\d+ to \d+: ")  # the hint
    tmux.enter("q")
    screen = tmux.wait("SPIDER-EXITED 0")  # no question: the journal keeps the game
    assert "[Y/n]" not in screen and "Traceback" not in screen
    assert "4h from 1 to 6" in (tmp_path / "home" / "current.spider").read_text()


def test_a_narrow_terminal_shows_every_pile_or_says_which_it_leaves_out(
    tmux: Tmux, tmp_path: Path
) -> None:
    """At 38 columns the ten piles fit in columns of three (a ten written T♥) and a click
    plays; narrowed to 24 while playing, the board says which piles it leaves out."""
    tmux.start(f"{_spider(tmp_path)} --seed 5", 38, 30)
    screen = tmux.wait(r"spider>")
    lines = screen.splitlines()
    numbers = lines.index("1  2  3  4  5  6  7  8  9  10")
    assert all(line.split() == ["▒▒"] * 10 for line in lines[numbers + 1 : numbers + 5])
    assert lines[numbers + 6].split() == ["4♥", "4♥", "9♦", "T♥"]
    tmux.type(click(0, numbers + 6))  # the 4h of pile 1
    screen = tmux.wait(r"pile 1 turns up Kd")
    tmux.run("resize-window", "-t", "spider", "-x", "24")
    screen = tmux.wait(r"piles 9-10 not shown:\s*\n\s*all ten need 29 columns")
    assert re.search(r"^1  2  3  4  5  6  7  8 *$", screen, re.MULTILINE)
    assert all(len(line.rstrip()) <= 24 for line in screen.splitlines())
    tmux.enter("q")
    screen = tmux.wait("SPIDER-EXITED 0")
    assert "Traceback" not in screen


def test_ctrl_c_stops_a_long_search_on_the_board(tmux: Tmux, tmp_path: Path) -> None:
    tmux.start(f"{_spider(tmp_path)} problem-2")
    tmux.wait("spider>")
    # Typed and entered in one piece: a completion left pending by the typing must not open
    # a menu over the replies when the search is done.
    tmux.enter("solve turn up a card, no deal, keep 1 space, limit 50000000")  # minutes
    tmux.wait(r"searching\.\.\. [1-9]\d* s \(Ctrl-C stops\)")  # it counts its seconds
    tmux.keys("C-c")
    screen = tmux.wait(r"interrupted; the game is as it was\s+spider> *$")
    tmux.type("7h from 5 to 10")
    tmux.keys("Enter")
    screen = tmux.wait(r"moves 1")
    assert "Traceback" not in screen and "SPIDER-EXITED" not in screen
