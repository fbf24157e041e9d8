"""Errors in scripts (``spider run``, a script on standard input) and at the prompt point at
the word at fault of a line that reads but fails, as game files do: its character and a
caret under it; an error inside a position code typed on the line counts its character in
the line. Real scripts in tmp_path, run by ``main``; the real REPL through prompt_toolkit's
pipe input (``drive`` of tests/tui/test_repl.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spider_cli.app.session import Session
from spider_cli.cli.main import main
from spider_cli.language.files import positions
from spider_cli.rules.errors import caret_line
from tests.helpers import drive
from tests.helpers import repl_moves as moves

START = "new 5 suits 1"
"""Deal 5 of the 1-suit game: its piles end with 4s 4s 9s 10s 6s 5s 8s 5s Ks 2s."""

CODE = positions.position_code(Session.new_game(seed=5, suits=1).game)
"""Deal 5 of the 1-suit game as a position code."""


def run_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], *lines: str) -> list[str]:
    """The lines ``spider run`` writes on standard error for a script of ``lines``, which
    it refuses (status 1)."""
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n")
    assert main(["run", str(script)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{script}:")
    return [line.removeprefix(f"{script}:") for line in err.splitlines()]


@pytest.mark.parametrize(
    ("lines", "at", "message"),
    [
        ([START, "4s from 1 to 7"], "7", "4s cannot go onto 8s"),
        ([START, "4s from 11 to 3"], "11 to 3", "there is no pile 11"),
        ([START, "Ks from 9 onto 4s in 3"], "4s in 3", "4s is not at the bottom of pile 3"),
        ([START, "Qs from 9 to 1"], "Qs from 9 to 1", "pile 9 has no Qs in its movable run"),
        ([START, "4s 1 7"], "7", "4s cannot go onto 8s"),
        ([START, "remove 12"], "12", "there is no pile 12"),
        ([START, "assume 3 Ks"], "Ks", "Ks cannot be an unknown card"),
        ([START, "set sixth maybe"], "maybe", "sixth can be"),
        (["   set  autoremove  maybe"], "maybe", "autoremove can be"),
        (["set colour red"], "colour red", "no setting called 'colour'"),
    ],
)
def test_spider_run_points_at_the_word_at_fault(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    lines: list[str],
    at: str,
    message: str,
) -> None:
    number = len(lines)
    column = len(lines[-1]) - len(at) + 1
    said = run_error(tmp_path, capsys, *lines)
    assert said[-3].startswith(f"{number}: error: character {column}: {message}"), said
    assert said[-2:] == [lines[-1], " " * (column - 1) + "^"]


def test_spider_run_says_an_error_about_no_word_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An error about the whole command has no word to point at: no character, no caret."""
    assert run_error(tmp_path, capsys, "undo") == [
        "1: error: nothing to undo: this is the start of the game"
    ]


@pytest.mark.parametrize("before", ["load ", "  load   ", 'load "'])
def test_a_position_code_in_a_script_line_counts_its_character_in_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], before: str
) -> None:
    bad = CODE[:-2] + "x" + CODE[-1]  # the last card's rank
    line = before + bad + ('"' if before.endswith('"') else "")
    said = run_error(tmp_path, capsys, line)
    word = "x" + CODE[-1]
    column = line.index(word) + 1
    assert said[0].startswith(f"1: error: character {column}: '{word}' is not a card"), said
    assert "\n".join(said[1:]) == caret_line(line, column)  # the line cut around the caret
    shown, caret = said[1:]
    assert shown[caret.index("^") :].startswith(word)


def test_a_card_too_many_in_a_script_lines_code_is_pointed_at_in_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = "load spider:4/50/-/5:6d/5:6d/5:6d/5:Kh/4:As/4:2s/4:3s/4:4s/4:5s/4:7s"
    said = run_error(tmp_path, capsys, "# a comment", line)
    column = line.rindex("6d") + 1
    assert said[0].startswith(
        f"2: error: character {column}: 6d is one copy too many: the deck has 2 and 6d is "
        "already in piles 1 and 2: correct one of them"
    ), said
    assert said[1:] == [line, " " * (column - 1) + "^"]


def test_a_script_on_standard_input_points_at_the_word_at_fault(tmp_path: Path) -> None:
    """``spider < script``: standard input that is not a terminal is run as a script."""
    done = subprocess.run(
        [sys.executable, "-m", "spider_cli"],
        input=f"{START}\n4s from 1 to 7\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"SPIDER_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"},
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "<stdin>:2: error: character 14: 4s cannot go onto 8s",
        "4s from 1 to 7",
        " " * 13 + "^",
    ]


# ---------------------------------------------------------------------------------------------
# The prompt


def caret_and_error(repl_transcript: list[str]) -> tuple[str, str]:
    """The first error the REPL said, and the line before it (a caret's, if any)."""
    error = next(line for line in repl_transcript if line.startswith("error: "))
    return repl_transcript[repl_transcript.index(error) - 1], error


def test_the_prompt_puts_a_caret_under_the_word_at_fault(home: Path) -> None:
    _, repl = drive("8d from 7 to 2\r4h from 1 to 8\rquit\r")
    caret, error = caret_and_error(list(repl.transcript))
    assert error == "error: 8d cannot go onto 4h\n"
    assert caret == " " * len("spider> 8d from 7 to ") + "^\n"
    assert moves(repl) == ["4h from 1 to 8"]  # the game goes on


def test_the_prompt_says_an_error_about_no_word_without_a_caret(home: Path) -> None:
    _, repl = drive("undo\rquit\r")
    caret, error = caret_and_error(list(repl.transcript))
    assert error == "error: nothing to undo: this is the start of the game\n"
    assert "^" not in caret


def test_a_position_code_typed_at_the_prompt_is_pointed_at_in_the_line(home: Path) -> None:
    """The caret goes under the card in the line typed, and the message no longer says
    'line 1, character N' of the code."""
    bad = CODE[:-2] + "x" + CODE[-1]
    typed = f"load {bad}"
    _, repl = drive(f"{typed}\r4h from 1 to 8\rquit\r")
    caret, error = caret_and_error(list(repl.transcript))
    word = "x" + CODE[-1]
    assert error.startswith(f"error: '{word}' is not a card: ")
    assert caret == " " * len(f"spider> {typed[: typed.index(word)]}") + "^\n"
    assert moves(repl) == ["4h from 1 to 8"]  # deal 5 of four suits, kept
