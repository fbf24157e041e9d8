"""The prompt's manners in both modes: listing the settings, asking before a file is
replaced, Ctrl-C at a question, a refused reveal, suggestions, the default file name, and
the exit statuses of every subcommand.

The line mode runs through prompt_toolkit's pipe input (``drive`` of test_repl), the board
through its pipe-input harness (``play`` of test_board), the command line through
``cli.main(argv)``.
"""

from __future__ import annotations

import io
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.renderer import Renderer

from spider_cli.app.keeping import Keeper
from spider_cli.app.session import Session
from spider_cli.cli import main as cli
from spider_cli.language.gamefiles import DealOrigin
from spider_cli.language.help import help_text
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.errors import SpiderError
from spider_cli.tui.board import Board
from spider_cli.tui.completion import LegalSuggestions, SpiderCompleter
from spider_cli.tui.highlight import highlight_line
from spider_cli.tui.player import Prompt
from spider_cli.tui.repl import Repl
from tests.helpers import drive, said
from tests.helpers import repl_moves as moves
from tests.helpers import said as board_said
from tests.tui.test_board import card, click, play
from tests.tui.test_repl import journal_fails

# ---------------------------------------------------------------------------------------------
# set alone


def test_set_alone_lists_each_setting_with_its_value_and_choices() -> None:
    session = Session.new_game(seed=1)
    assert session.execute("set").text == (
        "autoremove off  (set autoremove on|off)\nsixth left  (set sixth left|spread)\n"
        "suits 4  (set suits 1|2|4)\nlevel quick  (set level plain|quick|strong|expert|judge)"
    )
    session.execute("set autoremove on")
    session.execute("SET sixth spread")
    session.execute("set suits 2")
    session.execute("set level Judge")
    assert session.execute("set").text.splitlines() == [
        "autoremove on  (set autoremove on|off)",
        "sixth spread  (set sixth left|spread)",
        "suits 2  (set suits 1|2|4)",
        "level judge  (set level plain|quick|strong|expert|judge)",
    ]


def test_set_alone_at_the_prompt_and_on_the_board(home: Path) -> None:
    _status, repl = drive("set\rquit\r")
    assert "autoremove off  (set autoremove on|off)" in said(repl)
    _status, board = play([":set\r", "q\r"])
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
    journal_fails(home)  # leaving asks for a name
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
    steps = [":save old.spider\r", "\x03", "save old.spider\r", "y\r", "\x03", "q\r"]
    status, board = play(steps)
    text = board_said(board)
    assert status == 0
    assert text.count("old.spider exists. Replace it? [y/N] ") == 2
    assert "old.spider is kept as it was: nothing saved" in text
    assert "saved to old.spider" in text
    assert Path("old.spider").read_text().startswith("# spider game")


def test_a_name_no_file_can_have_is_said_at_the_save_question_on_the_board(home: Path) -> None:
    journal_fails(home)  # leaving asks for a name
    steps = [click(*card(0, 5)), "q\r", "y\r", "~nosuchuser/a\r", "mine.spider\r"]
    status, board = play(steps)
    assert status == 0
    assert "error: ~nosuchuser/a: there is no user called nosuchuser" in board_said(board)
    assert Path("mine.spider").exists()


def test_the_board_asks_before_its_quit_save_replaces_a_file(home: Path) -> None:
    Path("game-5.spider").write_text("precious\n")
    journal_fails(home)  # leaving asks for a name
    steps = [click(*card(0, 5)), "q\r", "y\r", "\r", "n\r", "mine.spider\r"]
    status, board = play(steps)
    assert status == 0
    assert "game-5.spider exists. Replace it? [y/N] n" in board_said(board)
    assert Path("game-5.spider").read_text() == "precious\n"
    assert "4h from 1 to 6" in Path("mine.spider").read_text()


# ---------------------------------------------------------------------------------------------
# Ctrl-C at a question, and a refused reveal


def test_ctrl_c_at_the_new_deal_question_on_the_board_keeps_the_game(home: Path) -> None:
    status, board = play([click(*card(0, 5)), "n\r", "\x03", "new 7\r", "\r", "q\r"])
    assert status == 0
    assert moves(board) == ["4h from 1 to 6"]  # Ctrl-C, then Enter (no): the game goes on
    assert "Abandon this game (1 move) for a new deal? [y/N] ^C" in board_said(board)
    assert "Abandon this game (1 move) for a new deal? [y/N] \n" in board_said(board) + "\n"


def test_a_refused_reveal_is_said_and_asked_again_on_an_empty_line(home: Path) -> None:
    from tests.tui.test_repl import UNKNOWN_START

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
    assert Keeper(Session.new_game(seed=deal)).default_name() == name


# ---------------------------------------------------------------------------------------------
# spider show on a script


def test_show_prints_a_script_and_load_says_scripts_are_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "moves.spider"
    script.write_text("# a script\nnew 5\n4h from 1 to 8\n\ndeal\n")
    assert cli.main(["show", str(script)]) == 0
    assert capsys.readouterr().out == "# a script\nnew 5\n4h from 1 to 8\n\ndeal\n"
    assert cli.main(["run", str(script)]) == 0
    session = Session.new_game(seed=1, base_dir=tmp_path)
    with pytest.raises(SpiderError, match="is a script of commands") as caught:
        session.load("moves.spider")
    assert "'run moves.spider' runs it in this game, 'spider run moves.spider'" in str(caught.value)
    (tmp_path / "bad.txt").write_text("Kh Qh\nnot a row\n")  # neither: the position's error
    assert cli.main(["show", str(tmp_path / "bad.txt")]) == 1
    assert "is a script" not in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# Exit statuses: 0 done, 1 refused, 2 the command line, 70 a bug, 130 Ctrl-C


@pytest.fixture
def stdin(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Standard input as text that is not a terminal (so ``spider`` runs it as a script)."""

    def give(text: str) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))

    return give


def test_exit_statuses_of_play(home: Path, stdin: Callable[[str], None]) -> None:
    stdin("4h from 1 to 8\n")
    assert cli.main(["--seed", "5"]) == 0
    stdin("Ks from 9 to 1\n")  # an illegal move
    assert cli.main(["--seed", "5"]) == 1
    assert cli.main(["missing.spider"]) == 1
    assert cli.main(["--seed", "x"]) == 2
    assert cli.main(["--suits", "3"]) == 2
    assert cli.main(["--bogus"]) == 2
    assert cli.main(["play", "a.txt", "b.txt"]) == 2
    assert drive("", name="missing.spider")[0] == 1  # at a terminal, in line mode
    assert play([], name="missing.spider")[0] == 1  # and on the board


def test_exit_statuses_of_run_show_and_examples(home: Path, stdin: Callable[[str], None]) -> None:
    Path("ok.txt").write_text("4h from 1 to 8\n")
    Path("bad.txt").write_text("4h from 1 to 8\nfrm 3 to 4\n")
    assert cli.main(["run", "ok.txt"]) == 1  # deal 0 has no 4h there
    Path("ok.txt").write_text("new 5\n4h from 1 to 8\n")
    assert cli.main(["run", "ok.txt"]) == 0
    assert cli.main(["run", "bad.txt"]) == 1
    assert cli.main(["run", "missing.txt"]) == 1
    stdin("new 5\n4h from 1 to 8\nexpect missing.txt\n")
    assert cli.main(["run", "-"]) == 1
    assert cli.main(["run"]) == 2
    assert cli.main(["show", "intro-deal"]) == 0
    assert cli.main(["show", "pysol:3"]) == 0
    assert cli.main(["show", "missing.txt"]) == 1
    assert cli.main(["show", "intro-deal", "--lines", "--markdown"]) == 2
    assert cli.main(["examples"]) == 0
    assert cli.main(["examples", "more"]) == 2


def test_exit_statuses_of_solve_and_bench(home: Path) -> None:
    assert cli.main(["solve", "problem-1", "turn", "up", "a", "card", "in", "pile", "3"]) == 0
    assert cli.main(["solve", "missing.txt"]) == 2  # grep's: 1 is "impossible"
    assert cli.main(["solve", "problem-1", "fly"]) == 2
    assert cli.main(["solve"]) == 2
    assert cli.main(["bench", "--seeds", "x"]) == 2
    assert cli.main(["bench", "--seeds", "1", "--blind", "--budget", "0"]) == 2
    assert cli.main(["bench", "--seeds", "1", "--db", str(home.parent)]) == 1  # a directory


def test_spider_help_tells_the_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    text = capsys.readouterr().out
    assert "Exit status: 0 done, 1 refused" in text and "130 Ctrl-C" in text


def test_exit_statuses_of_an_interruption_and_a_bug(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted() -> int:
        raise KeyboardInterrupt

    def broken() -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli, "list_examples", interrupted)
    assert cli.main(["examples"]) == 130
    monkeypatch.setattr(cli, "list_examples", broken)
    assert cli.main(["examples"]) == 70
    assert "spider: internal error (RuntimeError: a bug); please report it" in (
        capsys.readouterr().err
    )


# ---------------------------------------------------------------------------------------------
# Suggestions from the history


def suggestion(session: Session, lines: list[str], typed: str) -> str | None:
    """The grey suggestion offered after ``typed``, with ``lines`` in the history."""
    history = InMemoryHistory()
    for line in lines:
        history.append_string(line)
    suggest = LegalSuggestions(session)
    buffer = Buffer(history=history, auto_suggest=suggest)
    found = suggest.get_suggestion(buffer, Document(typed))
    return None if found is None else typed + found.text


def test_history_suggestions_skip_moves_that_are_illegal_now() -> None:
    session = Session.new_game(seed=5)
    lines = ["4h from 1 to 6", "4h from 1 to 8", "help keys", "hlep"]
    assert suggestion(session, lines, "4h") == "4h from 1 to 8"  # the newest, legal
    session.execute("4h from 1 to 8")
    assert suggestion(session, lines, "4h") is None  # the 4h has left pile 1
    session.execute("undo")
    session.execute("4h from 1 to 6")
    assert suggestion(session, lines, "4") is None
    assert suggestion(session, lines, "h") == "help keys"  # not "hlep": it does not read
    assert suggestion(session, [*lines, "undo", "d"], "u") == "undo"  # not a move: offered
    assert suggestion(session, lines, "") is None


def test_both_modes_suggest_only_what_is_legal(home: Path) -> None:
    session = Session.new_game(seed=5)
    assert isinstance(Repl(session).prompt_session.auto_suggest, LegalSuggestions)
    _status, board = play(["q\r"], session=session)
    assert isinstance(board.buffer.auto_suggest, LegalSuggestions)


# ---------------------------------------------------------------------------------------------
# auto on the board


def rendering(monkeypatch: pytest.MonkeyPatch, session: Session, then: Callable[[int], None]):
    """Record the moves made at every drawing of the screen; ``then`` gets each count."""
    drawn: list[int] = []
    original = Renderer.render

    def render(self: Renderer, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        drawn.append(session.game.moves_made)
        then(drawn[-1])

    monkeypatch.setattr(Renderer, "render", render)
    return drawn


def test_auto_on_the_board_draws_the_tableau_after_every_move(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.new_game(seed=5, base_dir=Path.cwd())
    drawn = rendering(monkeypatch, session, lambda moves: None)
    _status, board = play([":auto 3\r", "\x03", "q\r"], session=session)
    assert len(moves(board)) == 3
    assert [n for k, n in enumerate(drawn) if n and n != drawn[k - 1]] == [1, 2, 3]
    text = board_said(board)
    assert "auto: hint's moves, one at a time (Ctrl-C stops)" in text
    assert "auto stops: 3 moves played" in text
    assert all(entry in text for entry in moves(board))


def test_ctrl_c_stops_auto_on_the_board_with_the_game_as_it_is(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.new_game(seed=5, base_dir=Path.cwd())

    def interrupt(moves: int) -> None:
        if moves == 2 and board_auto[0]:
            board_auto[0] = False
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C as the terminal sends it

    board_auto = [True]
    rendering(monkeypatch, session, interrupt)
    _status, board = play([":auto 10\r", "\x03", "q\r"], session=session)
    assert len(moves(board)) == 2
    assert "auto stops: stopped by Ctrl-C; the 2 moves it played are kept" in board_said(board)


# ---------------------------------------------------------------------------------------------
# The game in progress offered back on the board


@pytest.fixture
def offered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board started as ``spider`` with no arguments starts it (the journal offered);
    a question at a plain prompt, outside the board, fails the test."""
    start = Board.start
    monkeypatch.setattr(Board, "start", lambda self, name=None: start(self, name, True))

    def plain_prompt(self: Repl, question: Prompt) -> None:
        raise AssertionError(f"asked outside the board: {question.text}")

    monkeypatch.setattr(Repl, "answer", plain_prompt)


@pytest.mark.parametrize("answer", ["\r", "y\r", "\x03"])
def test_the_board_offers_the_game_in_progress_back_in_its_own_line(
    home: Path, offered: None, answer: str
) -> None:
    drive("4h from 1 to 8\r7 3\r\x04n\r")
    session = Session.new_game(seed=99, base_dir=Path.cwd())
    steps = [answer, "\x1a", "q\r"]  # Ctrl-Z undoes
    status, board = play(steps, session=session)
    text = board_said(board)
    assert status == 0
    assert "Continue the game in progress (deal 5, 4 suits, 2 moves)? [Y/n] " in text
    assert "continued after move 2" in text
    assert moves(board) == ["4h from 1 to 8"]  # the journaled game, one move undone


def test_declining_the_game_in_progress_on_the_board_keeps_it_aside(
    home: Path, offered: None
) -> None:
    drive("4h from 1 to 8\r\x04n\r")
    session = Session.new_game(seed=99, base_dir=Path.cwd())
    status, board = play(["n\r", "q\r"], session=session)
    assert status == 0 and moves(board) == []
    assert "Continue the game in progress (deal 5, 4 suits, 1 move)? [Y/n] n" in board_said(board)
    assert "That game is kept in" in board_said(board)
    assert (home / "previous.spider").exists()
    assert board.session.origin == DealOrigin(99)


def test_the_board_offers_every_game_left_in_a_journal(home: Path, offered: None) -> None:
    drive("4h from 1 to 8\r\x04n\r")
    os.replace(home / "current.spider", home / "current-2.spider")  # a second spider's
    drive("4h from 1 to 8\r7 3\r\x04n\r")
    os.utime(home / "current.spider", (1, 1))  # the older of the two
    session = Session.new_game(seed=99, base_dir=Path.cwd())
    status, board = play(["n\r", "y\r", "q\r"], session=session)
    text = board_said(board)
    assert status == 0 and text.index(", 1 move)? [Y/n] n") < text.index(", 2 moves)? [Y/n] y")
    assert moves(board) == ["4h from 1 to 8", "8d from 7 to 3"]
    assert (home / "previous-2.spider").exists()


def test_ctrl_c_at_the_line_modes_resume_question_goes_on_with_the_game(home: Path) -> None:
    drive("4h from 1 to 8\r\x04n\r")
    _status, repl = drive("\x03quit\rn\r", session=Session.new_game(seed=99), offer_journal=True)
    assert "Continue the game in progress (deal 5, 4 suits, 1 move)? [Y/n] ^C" in said(repl)
    assert moves(repl) == ["4h from 1 to 8"]


def test_save_bang_is_completed_highlighted_and_in_the_help() -> None:
    completer = SpiderCompleter(Session.new_game(seed=5))
    found = completer.get_completions(Document("sa"), CompleteEvent())
    assert [c.text for c in found] == ["save", "save!"]
    assert highlight_line("save! a.spider")[0] == ("class:input.keyword", "save!")
    assert "save! FILE" in help_text() and "'save!' replaces it" in help_text("files")
    assert "set (list them)" in help_text()


def test_the_board_opens_no_menu_on_an_empty_line_unless_tab_asks(home: Path) -> None:
    """A completion left pending by a line typed and entered at once runs on the emptied
    line: it must not open the menu over the replies (Tab still lists everything)."""
    _status, board = play(["q\r"], session=Session.new_game(seed=5))
    completer = board.buffer.completer
    assert completer is not None

    def offered(text: str, tab: bool) -> list[str]:
        event = CompleteEvent(text_inserted=not tab, completion_requested=tab)
        return [c.text for c in completer.get_completions(Document(text), event)]

    assert offered("", tab=False) == []
    assert "hint" in offered("", tab=True)
    assert "hint" in offered("hi", tab=False)
