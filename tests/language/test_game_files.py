"""Errors in game files point at the word at fault: its line, its column, and a caret under
it, whether the line does not read or reads but cannot be played (real files in tmp_path,
loaded as ``load`` and ``spider show`` load them)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from spider_cli.app.session import Session
from spider_cli.cli.main import main
from spider_cli.language import gamefiles
from spider_cli.language.files import positions
from spider_cli.language.gamefiles import DealOrigin
from spider_cli.rules.errors import NotationError

START = "new 5 suits 1"
"""Deal 5 of the 1-suit game: its piles end with 4s 4s 9s 10s 6s 5s 8s 5s Ks 2s."""


def load_error(tmp_path: Path, *lines: str) -> NotationError:
    """The error of loading a game file of ``lines`` into a session, which keeps its game."""
    (tmp_path / "bad.spider").write_text("\n".join([gamefiles.MAGIC, *lines]) + "\n")
    session = Session.new_game(seed=1, base_dir=tmp_path)
    with pytest.raises(NotationError) as caught:
        session.load("bad.spider")
    assert session.origin == DealOrigin(1) and session.game.moves_made == 0
    return caught.value


def under_caret(error: NotationError) -> str:
    """The text the caret of the error's context points at, to the end of the line."""
    shown, caret = error.context.split("\n")
    return shown[caret.index("^") :]


@pytest.mark.parametrize(
    ("lines", "at", "message"),
    [
        # moves the rules refuse: the pile they go to, the pile they leave, the cards named
        ([START, "4s from 1 to 7"], "7", "4s cannot go onto 8s"),
        ([START, "4s from 11 to 3"], "11 to 3", "there is no pile 11"),
        ([START, "4s from 1 to 12"], "12", "there is no pile 12"),
        ([START, "Ks from 9 onto 4s in 3"], "4s in 3", "4s is not at the bottom of pile 3"),
        ([START, "Qs from 9 to 1"], "Qs from 9 to 1", "pile 9 has no Qs in its movable run"),
        ([START, "Ks from 9 to 1"], "1", "a King can only go into a space"),
        ([START, "4s 1 7"], "7", "4s cannot go onto 8s"),
        ([START, "1 7"], "7", "can go onto 8s"),
        ([START, "remove spades"], "spades", "no pile ends with the spades"),
        ([START, "remove 12"], "12", "there is no pile 12"),
        ([START, "assume 11 Ks"], "11 Ks", "there is no pile 11"),
        ([START, "assume 3 Ks"], "Ks", "Ks cannot be an unknown card"),
        # settings: the name or the value
        ([START, "set sixth maybe"], "maybe", "sixth can be"),
        (["set colour red", START], "colour red", "no setting called 'colour'"),
        (["   set  autoremove  maybe", START], "maybe", "autoremove can be"),
        # the start: the deal, what is asked of it, the file
        (["new 5 winnable suits 1"], "winnable suits 1", "names its deal by number"),
        (["new 5 --difficulty easy"], "--difficulty easy", "names its deal by number"),
        (["new 99999999999999999999 suits 1"], "99999999999999999999 suits 1", "deal numbers"),
        (["load mine.txt"], "mine.txt", "starts from a deal number or a position code"),
        # the whole line: the caret under its first word, after any blanks
        ([START, "  score"], "score", "holds only its start, moves"),
        ([START, "new 6"], "new 6", "only one start"),
    ],
)
def test_an_error_in_a_game_file_points_at_the_word_at_fault(
    tmp_path: Path, lines: list[str], at: str, message: str
) -> None:
    error = load_error(tmp_path, *lines)
    line = max(n for n, text in enumerate(lines, start=2) if text.endswith(at))
    assert message in error.message and error.line == line
    assert under_caret(error) == at
    assert error.column == len(lines[line - 2]) - len(at) + 1


def test_a_tab_counts_one_character_before_the_word_at_fault(tmp_path: Path) -> None:
    error = load_error(tmp_path, START, "4s\tfrom 1\tto 7")
    assert error.column == 14 and error.context == "4s      from 1  to 7\n" + " " * 19 + "^"


def test_an_error_in_a_position_code_counts_its_column_in_the_line(tmp_path: Path) -> None:
    """The code's own column would say where in the code; the message names the line's."""
    code = positions.position_code(Session.new_game(seed=5, suits=1).game)
    bad = code[:-2] + "x" + code[-1]  # the last card's rank
    line = f'  load  "{bad}"'
    error = load_error(tmp_path, line)
    word = error.message.removeprefix("in the game file: '").partition("'")[0]
    assert error.message.endswith(f"'{word}' is not a card: " + error.message.split(": ", 3)[-1])
    assert word.endswith("x" + code[-1]) and under_caret(error) == f'{word}"'
    assert error.column == line.index(word) + 1


def test_spider_show_names_the_line_and_the_character_of_a_refused_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.spider"
    path.write_text(f"{gamefiles.MAGIC}\n{START}\n4s from 1 to 7\n")
    assert main(["show", str(path)]) == 1
    assert capsys.readouterr().err.splitlines()[-3:] == [
        f"{path}:3: error: character 14: in the game file: 4s cannot go onto 8s",
        "4s from 1 to 7",
        "             ^",
    ]


def shown_at(text: str, column: int) -> str:
    """The character a terminal shows at 0-based ``column`` of ``text`` (a wide character
    takes two columns)."""
    at = 0
    for char in text:
        at += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if at > column:
            return char
    return ""


def test_a_wide_character_before_the_word_at_fault_takes_two_columns(tmp_path: Path) -> None:
    error = load_error(tmp_path, START, "4s (漢字を) from 1 to 7")
    assert error.column == 20  # characters, as the message counts them
    line, caret = error.context.split("\n")
    assert line == "4s (漢字を) from 1 to 7" and caret == " " * 22 + "^"  # terminal columns


@pytest.mark.parametrize("gap", [" ", "  "])
@pytest.mark.parametrize("remark", ["(", "(x"])
def test_a_long_line_of_wide_characters_is_cut_around_the_caret(
    tmp_path: Path, gap: str, remark: str
) -> None:
    """A line wider than a message shows is cut around the caret; a wide character cut in
    two at the window's edge shows as a blank, so the caret stays under the word (the gap
    and the remark's parentheses cut the characters at the edges in two, or not)."""
    line = f"4s ({'漢' * 70}) from 1{gap}to 7 {remark}{'字' * 40})"
    error = load_error(tmp_path, START, line)
    shown, caret = error.context.split("\n")
    assert shown.startswith("…") and shown.endswith("…")
    assert sum(2 if unicodedata.east_asian_width(c) == "W" else 1 for c in shown) in (101, 102)
    assert shown_at(shown, caret.index("^")) == "7"
    assert shown_at(shown, caret.index("^") - 2) == "o"  # of "to 7"
    assert shown_at(shown, caret.index("^") + 2) == "("


def test_spider_run_puts_the_caret_under_a_word_after_wide_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "wide.txt"
    script.write_text("new 5 suits 1\n4s (漢字) frm 1 to 7\n")
    assert main(["run", str(script)]) == 1
    assert capsys.readouterr().err.splitlines()[-2:] == [
        "4s (漢字) frm 1 to 7",
        " " * len("4s (漢字) ") + "  ^",  # 漢字: four columns, two characters
    ]
