"""The prompt's manners in both modes: listing the settings, asking before a file is
replaced, Ctrl-C at a question, a refused reveal, suggestions, the default file name, and
the exit statuses of every subcommand.

The line mode runs through prompt_toolkit's pipe input (``drive`` of test_repl), the board
through its pipe-input harness (``play`` of test_board), the command line through
``cli.main(argv)``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_board import card, click, play
from test_board import said as board_said
from test_repl import drive, moves, said

from spider_cli.app import cli
from spider_cli.app.session import Session
from spider_cli.rules.deals import DealSource, Source
from spider_cli.tui.repl import Repl


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SPIDER_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "home"


# ---------------------------------------------------------------------------------------------
# set alone


def test_set_alone_lists_each_setting_with_its_value_and_choices() -> None:
    session = Session.new_game(seed=1)
    assert session.execute("set").text == (
        "autoremove off  (set autoremove on|off)\nsixth left  (set sixth left|spread)"
    )
    session.execute("set autoremove on")
    session.execute("SET sixth spread")
    assert session.execute("set").text.splitlines() == [
        "autoremove on  (set autoremove on|off)",
        "sixth spread  (set sixth left|spread)",
    ]


def test_set_alone_at_the_prompt_and_on_the_board(home: Path) -> None:
    _status, repl = drive("set\rquit\r")
    assert "autoremove off  (set autoremove on|off)" in said(repl)
    _status, board = play([":set\r", "q"])
    assert "sixth left  (set sixth left|spread)" in board_said(board)


# ---------------------------------------------------------------------------------------------
# save over a file


def test_a_script_must_say_save_bang_to_replace_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "old.spider").write_text("precious\n")
    script = tmp_path / "s.txt"
    script.write_text("new 5\n4h from 1 to 8\nsave old.spider\n")
    assert cli.main(["run", str(script)]) == 1
    assert "s.txt:3: error: old.spider exists: 'save! old.spider' replaces it" in (
        capsys.readouterr().err
    )
    assert (tmp_path / "old.spider").read_text() == "precious\n"
    script.write_text("new 5\n4h from 1 to 8\nsave! old.spider\nsave new.spider\n")
    assert cli.main(["run", str(script)]) == 0
    assert (tmp_path / "old.spider").read_text() == (tmp_path / "new.spider").read_text()
    assert "4h from 1 to 8" in (tmp_path / "old.spider").read_text()


def test_save_over_a_file_asks_at_the_prompt(home: Path) -> None:
    Path("old.spider").write_text("precious\n")
    keys = (
        "4h from 1 to 8\r"
        "save old.spider\r"  # asked: Enter is no
        "\r"
        "save old.spider\r"  # asked again: Ctrl-C is no
        "\x03"
        "save old.spider\r"  # yes
        "y\r"
        "7 3\r"
        "save old.spider\r"  # the game's own file now: no question
        "quit\r"
    )
    status, repl = drive(keys)
    text = said(repl)
    assert status == 0
    assert text.count("old.spider exists. Replace it? [y/N] ") == 3
    assert text.count("error: old.spider is kept as it was: nothing saved") == 2
    assert "saved to old.spider" in text
    assert "8d from 7 to 3" in Path("old.spider").read_text()


def test_save_bang_replaces_without_asking_and_the_quit_save_asks_for_another_file(
    home: Path,
) -> None:
    Path("a.spider").write_text("precious\n")
    Path("game-5.spider").write_text("precious too\n")
    keys = (
        "4h from 1 to 8\r"
        "save! a.spider\r"
        "7 3\r"
        "quit\r"
        "y\r"  # save it?
        "game-5.spider\r"  # exists, and is not this game's file
        "n\r"
        "\r"  # the default name again: the game's own file, a.spider
    )
    status, repl = drive(keys)
    text = said(repl)
    assert status == 0 and "Replace it?" in text
    assert Path("game-5.spider").read_text() == "precious too\n"
    assert "8d from 7 to 3" in Path("a.spider").read_text()


def test_save_over_a_file_asks_on_the_board(home: Path) -> None:
    Path("old.spider").write_text("precious\n")
    steps = [":save old.spider\r", "\x03", "save old.spider\r", "y\r", "\x03", "q"]
    status, board = play(steps)
    text = board_said(board)
    assert status == 0
    assert text.count("old.spider exists. Replace it? [y/N] ") == 2
    assert "old.spider is kept as it was: nothing saved" in text
    assert "saved to old.spider" in text
    assert Path("old.spider").read_text().startswith("# spider game")


def test_the_board_asks_before_its_quit_save_replaces_a_file(home: Path) -> None:
    Path("game-5.spider").write_text("precious\n")
    steps = [click(*card(0, 5)), "q", "y\r", "\r", "n\r", "mine.spider\r"]
    status, board = play(steps)
    assert status == 0
    assert "game-5.spider exists. Replace it? [y/N] n" in board_said(board)
    assert Path("game-5.spider").read_text() == "precious\n"
    assert "4h from 1 to 6" in Path("mine.spider").read_text()


# ---------------------------------------------------------------------------------------------
# Ctrl-C at a question, and a refused reveal


def test_ctrl_c_at_the_new_deal_question_on_the_board_keeps_the_game(home: Path) -> None:
    status, board = play([click(*card(0, 5)), "n", "\x03", "q", "n\r"])
    assert status == 0
    assert moves(board) == ["4h from 1 to 6"]
    assert "Start a new deal (4 suits)? [y/N] ^C" in board_said(board)


def test_a_refused_reveal_is_said_and_asked_again_on_an_empty_line(home: Path) -> None:
    from test_repl import UNKNOWN_START

    Path("intro.txt").write_text(UNKNOWN_START)
    session = Session.new_game(seed=0, base_dir=Path.cwd())
    session.load("intro.txt")
    first = next(a for a in session.game.legal_moves() if session.game.unknown_reveals(a))
    line = session.choices()[session.game.legal_moves().index(first)].text
    _status, repl = drive(f"{line}\rZz\r\r\x04n\r", session=session)
    question = next(entry for entry in repl.transcript if "turns up:" in entry)
    asked = [entry for entry in repl.transcript if entry.startswith(question.split(")")[0])]
    assert asked[0].endswith(") Zz")
    assert asked[1].endswith(") ")  # the line asked again is empty, not "Zz"
    assert "not a card an unknown card can be (Tab lists them)" in said(repl)
    assert moves(repl) == [line]


# ---------------------------------------------------------------------------------------------
# The default file name


@pytest.mark.parametrize(
    ("deal", "name"),
    [
        (14934, "game-14934.spider"),
        (DealSource(Source.PYSOL, 14934, 4), "game-pysol-14934.spider"),
        (DealSource(Source.KPAT, 7, 4), "game-kpat-7.spider"),
    ],
)
def test_the_default_file_name_says_whose_deal_it_is(deal: int | DealSource, name: str) -> None:
    assert Repl(Session.new_game(seed=deal))._default_name() == name
