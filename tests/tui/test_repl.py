"""The interactive game: the real PromptSession driven by prompt_toolkit's pipe input.

Each test types keys into ``create_pipe_input()`` (Enter is ``\\r``, Ctrl-C ``\\x03``, Ctrl-D
``\\x04``), runs the REPL inside ``create_app_session`` with a ``DummyOutput``, and checks the
results: the game, the files written, and the REPL's transcript of what it printed. The
input is closed after the keys, so a test that runs out of keys ends (Ctrl-D) instead of
waiting. ``SPIDER_HOME`` points every user file at a temporary directory.
"""

from __future__ import annotations

import os
import re
import select
import signal
import stat
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from spider_cli.app import examples
from spider_cli.app.files.gamelog import GameLog, Result
from spider_cli.app.journal import Journal
from spider_cli.app.session import Session
from spider_cli.language.gamefiles import DealOrigin
from spider_cli.language.help import TOPICS
from spider_cli.rules.cards import Card
from spider_cli.rules.engine import Game, Remove
from spider_cli.tui import wrapping
from spider_cli.tui.highlight import highlight_line
from spider_cli.tui.player import Answer, Prompt, Stop, pool_completer
from spider_cli.tui.repl import (
    HISTORY_FILE,
    Repl,
    _trim_history,
    open_history,
)
from tests.helpers import SEED, complete, drive, said
from tests.helpers import repl_moves as moves

UNKNOWN_START = examples.find("intro-deal").read_text()
"""The manual's first tableau: every face-down card unknown."""


def results() -> list[tuple[Result, int]]:
    """The history's games, the newest first: each one's result and moves."""
    return [(entry.result, entry.moves) for entry in GameLog().recent()]


# ---------------------------------------------------------------------------------------------
# A whole session


def test_a_whole_session_in_several_notations(home: Path) -> None:
    keys = (
        "4h from 1 to 8\r"  # the manual's notation
        "7 3\r"  # quick form: the longest run that fits
        "Jh frm 8 to 9\r"  # a parse error
        "Ks from 9 to 1\r"  # a refused move
        "9-8d from 3 to 4\r"  # a run
        "undo\r"
        "redo\r"
        "deal\r"
        "d\r"
        "undo\r"
        "save game-5.spider\r"
        "quit\r"
    )
    status, repl = drive(keys)
    text = said(repl)
    assert status == 0
    assert moves(repl) == ["4h from 1 to 8", "8d from 7 to 3", "9-8d from 3 to 4", "deal"]
    assert "pile 1 turns up Kd" in text and "pile 7 turns up 7c" in text
    assert "error: say where from and where to" in text
    caret = next(line for line in repl.transcript if line.strip() == "^")
    assert caret.index("^") == len("spider> Jh ")  # under "frm"
    assert "error: a King can only go into a space" in text
    assert "took back 9-8d from 3 to 4" in text and "replayed 9-8d from 3 to 4" in text
    assert "4 deals left" in text
    assert "[Y/n]" not in text  # saved: nothing to ask
    saved = Path("game-5.spider").read_text()
    assert saved.splitlines()[1:6] == [
        "new 5 suits 4",
        "4h from 1 to 8",
        "8d from 7 to 3",
        "9-8d from 3 to 4",
        "deal",
    ]


def test_a_long_unknown_command_is_quoted_by_its_first_characters(home: Path) -> None:
    _, repl = drive("x" * 300 + "\rquit\r")
    error = next(line for line in repl.transcript if line.startswith("error: "))
    assert error == f"error: unknown command '{'x' * 30}…' (type help for the commands)\n"
    caret = repl.transcript[repl.transcript.index(error) - 1]
    assert caret == " " * len("spider> ") + "^\n"  # under the first letter typed


def test_the_caret_counts_a_wide_character_typed_before_the_error_as_two_columns(
    home: Path,
) -> None:
    """漢字 takes four columns of the terminal: the caret goes under 'extra', where the
    terminal shows it; the message still counts characters (the ninth)."""
    _, repl = drive("load 漢字 extra\rquit\r")
    error = next(line for line in repl.transcript if line.startswith("error: "))
    assert error.startswith("error: load takes a file name")
    caret = repl.transcript[repl.transcript.index(error) - 1]
    assert caret == " " * (len("spider> load ") + 4 + len(" ")) + "^\n"


def test_a_game_files_line_with_wide_characters_has_its_caret_under_the_word(
    home: Path,
) -> None:
    Path("wide.spider").write_text(
        "# spider game file, version 1\nnew 5 suits 1\n4s (漢字を) from 1 to 7\n"
    )
    _, repl = drive("load wide.spider\rquit\r")
    error = next(line for line in repl.transcript if line.startswith("error: "))
    assert error.startswith("error: wide.spider:3:20: in the game file: 4s cannot go")
    line, caret = repl.transcript[repl.transcript.index(error) + 1].splitlines()
    assert line == "4s (漢字を) from 1 to 7"
    assert caret == " " * (len("4s (") + 6 + len(") from 1 to ")) + "^"  # 漢字を: 6


def test_the_screen_after_a_move_is_the_tableau_and_what_changed(home: Path) -> None:
    _, repl = drive("4h from 1 to 8\rquit\rn\r")
    after = repl.transcript[repl.transcript.index("4h from 1 to 8\n  pile 1 turns up Kd\n") - 1]
    assert after.splitlines()[1].split() == [str(n) for n in range(1, 11)]
    assert "K♦" in after and "4♥" in after
    assert all(len(line) <= 80 for line in after.splitlines())


def test_save_and_resume_from_the_file(home: Path) -> None:
    status, repl = drive("4h from 1 to 8\r7 3\rsave mine.spider\rquit\r")
    assert status == 0
    assert "Save it?" not in said(repl)  # saved: nothing to ask
    status, again = drive("9-8d from 3 to 4\rquit\rn\r", name="mine.spider")
    assert moves(again) == ["4h from 1 to 8", "8d from 7 to 3", "9-8d from 3 to 4"]
    assert "Not saved. The game stays in the journal" in said(again)


def test_a_colour_code_typed_at_the_prompt_is_not_taken_for_the_mouse(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, repl = drive("\x1b[31m1 6\r\x1b[M\x01abquit\r")
    assert status == 0
    assert moves(repl) == moves(drive("1 6\rquit\r")[1]) != []
    assert "Exception" not in capsys.readouterr().out + said(repl)


def test_ctrl_c_clears_the_line_and_ctrl_d_leaves(home: Path) -> None:
    status, repl = drive("4h from 1 to 8\x03\x04n\r")
    assert status == 0 and moves(repl) == []
    assert "error" not in said(repl)


def test_quitting_asks_to_update_a_file_behind_and_ctrl_c_keeps_playing(home: Path) -> None:
    _, repl = drive("save mine.spider\r4h from 1 to 8\r\x04\x03score\rquit\rn\r")
    text = said(repl)
    assert text.count("mine.spider is behind this game. Update it? [Y/n]") == 2
    assert "(still playing)" in text and "score 10" in text
    assert "4h from 1 to 8" not in Path("mine.spider").read_text()


def journal_fails(home: Path) -> None:
    """Make the journal impossible to write (a file where its directory goes): leaving
    then asks to save, and for a name."""
    home.parent.mkdir(parents=True, exist_ok=True)
    home.write_text("a file where the directory should be")


def test_a_failed_save_asks_for_another_name(home: Path) -> None:
    journal_fails(home)
    _, repl = drive("4h from 1 to 8\rquit\ry\rno/such/dir/x.spider\rok.spider\r")
    assert "The journal could not keep this game. Save it? [Y/n] y" in said(repl)
    assert "error: cannot save" in said(repl)
    assert Path("ok.spider").exists()


def test_a_game_with_no_moves_leaves_without_a_question(home: Path) -> None:
    status, repl = drive("score\rquit\r")
    assert status == 0 and "Save it?" not in said(repl)


def test_replay_steps_from_the_start_back_and_stops_on_q(home: Path) -> None:
    _, repl = drive("4h from 1 to 8\r7 3\r9-8d from 3 to 4\rreplay\r\r\rbbq\rquit\rn\r")
    text = said(repl)
    assert "replay: the start (3 moves to go)" in text
    assert "move 1/3: 4h from 1 to 8\n  pile 1 turns up Kd" in text
    assert "move 2/3: 8d from 7 to 3" in text and "move 3/3" not in text
    assert "back to move 1/3 (took back 8d from 7 to 3)" in text  # b at once, no Enter
    assert "back to move 0/3 (took back 4h from 1 to 8)" in text
    assert "back at the current position (move 3)" in text
    assert repl.session.game.moves_made == 3 and repl.session.game.piles[3][-2:] == [
        Card.parse("9d"),
        Card.parse("8d"),
    ]


def shown_at(monkeypatch: pytest.MonkeyPatch, session: Session) -> list[tuple[int, str]]:
    """Everything the REPL says, each with the moves made when it was said."""
    shown: list[tuple[int, str]] = []
    say = Repl.say

    def recording(self: Repl, text: object, style: str = "", wrapped: bool = True) -> None:
        say(self, text, style, wrapped)  # type: ignore[arg-type]
        shown.append((session.game.moves_made, self.transcript[-1]))

    monkeypatch.setattr(Repl, "say", recording)
    return shown


def test_auto_shows_each_move_as_it_is_played(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session.new_game(seed=SEED, base_dir=Path.cwd())
    shown = shown_at(monkeypatch, session)
    _, repl = drive("auto 3\rquit\rn\r", session)
    played = moves(repl)
    assert len(played) == 3
    texts = [text for _made, text in shown]
    for number, move in enumerate(played, start=1):
        at = next(k for k, text in enumerate(texts) if text.startswith(move + "\n"))
        assert shown[at][0] == number  # said before the next move is played...
        assert texts[at - 1].splitlines()[1].split() == [str(n) for n in range(1, 11)]
    final = next(text for text in reversed(texts) if "auto stops" in text)  # ...and at the end
    assert all(move in final for move in played)
    assert final.endswith("auto stops: 3 moves played\n")
    assert "auto: hint's moves, one at a time (Ctrl-C stops)" in said(repl)


def test_ctrl_c_stops_auto_in_line_mode_and_keeps_the_moves(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.new_game(seed=SEED, base_dir=Path.cwd())
    show_played = Repl.show_played

    def interrupted(self: Repl, *args: object) -> None:
        show_played(self, *args)  # type: ignore[arg-type]
        if session.game.moves_made == 2:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C as the terminal sends it

    monkeypatch.setattr(Repl, "show_played", interrupted)
    _, repl = drive("auto 10\rscore\rquit\rn\r", session)
    assert len(moves(repl)) == 2
    text = said(repl)
    assert (
        "auto stops: stopped by Ctrl-C; the 2 moves it played are kept ('undo 2' takes them back)"
        in text
    )
    assert "interrupted; the game is as it was" not in text
    assert "\nscore " in text  # and the game went on


def test_show_pile_expands_one_pile(home: Path) -> None:
    _, repl = drive("7 3\rshow 3\rquit\rn\r")
    expanded = "pile 3: 5 face down, 2 face up\n  ▒▒ ▒▒ ▒▒ ▒▒ ▒▒ | 9♦ 8♦\n  can move: 9-8d"
    assert expanded in said(repl)


def test_help_explains_the_game_and_its_notation(home: Path) -> None:
    _, repl = drive("help\rhelp notation\rhelp keys\rquit\r")
    text = said(repl)
    assert "New to Spider?" in text and "8-6s from 3 to 10" in text and "Ctrl-C" in text


# ---------------------------------------------------------------------------------------------
# Unknown cards


def test_the_reveal_question_takes_a_card_from_the_pool(home: Path) -> None:
    Path("start.txt").write_text(UNKNOWN_START)
    keys = "Jh from 8 to 9\rzz\r\x156s\r10d from 2 to 9\r\rquit\rn\r"
    _, repl = drive(keys, name="start.txt")
    text = said(repl)
    assert "pile 8 turns up: (Enter for a random card, or type one) 6s" in text
    assert "pile 8 turns up 6s" in text
    assert repl.session.game.piles[7][-1] == Card.parse("6s")
    assert "pile 2 turns up" in text  # Enter: a random card from the pool
    first = repl.session.history()[0]
    assert (first.text, first.reveals) == ("Jh from 8 to 9", ((7, Card.parse("6s")),))


def test_ctrl_d_at_the_reveal_question_deals_the_rest_at_random(home: Path) -> None:
    Path("start.txt").write_text(UNKNOWN_START)
    _, repl = drive("deal\rKs\r\x04quit\rn\r", name="start.txt")
    assert said(repl).count("turns up: (Enter for a random card") == 2
    assert repl.session.game.piles[0][-1] == Card.parse("Ks")
    assert all(pile[-1] for pile in repl.session.game.piles)  # ten cards dealt, all known now


def test_the_reveal_question_completes_from_the_pool(home: Path) -> None:
    pool = [Card.parse(c) for c in ("6s", "Kh", "6d", "Kh")]
    offered = [
        c.text
        for c in pool_completer(pool).get_completions(
            Document("6"), CompleteEvent(completion_requested=True)
        )
    ]
    assert offered == ["6s", "6d"]
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("kh\r\x03")
        pipe.close()
        repl = Repl(Session.new_game(seed=0), journal=Journal(), history=InMemoryHistory())
        answers: list[Answer] = []
        question = Prompt("pile 3 turns up: ", answers.append, pool_completer(pool))
        repl.answer(question)
        repl.answer(question)
        assert answers == ["kh", Stop.CANCEL]  # Ctrl-C: a random card


# ---------------------------------------------------------------------------------------------
# Journal and statistics


def test_the_journal_offers_the_game_back(home: Path) -> None:
    drive("4h from 1 to 8\r7 3\r\x04n\r")
    assert Journal().read().moves == 2  # type: ignore[union-attr]
    _, repl = drive("\rquit\rn\r", session=Session.new_game(seed=99), offer_journal=True)
    text = said(repl)
    asked = text.index("Continue the game in progress (deal 5, 4 suits, 2 moves)? [Y/n] ")
    # the game offered is drawn above the question, with its status line: not a blank screen
    assert -1 < text.find("moves 2") < asked and -1 < text.find("8♦") < asked
    assert moves(repl) == ["4h from 1 to 8", "8d from 7 to 3"]
    assert "continued after move 2" in said(repl)


def test_quitting_keeps_the_game_and_asks_only_when_a_named_file_is_behind(home: Path) -> None:
    status, repl = drive("4h from 1 to 8\rquit\r")
    assert status == 0 and "[Y/n]" not in said(repl)
    assert "the game is always kept" in said(repl)  # the welcome says so
    assert Journal().read().moves == 1  # type: ignore[union-attr]
    _, repl = drive("\rsave mine.spider\r7 3\rquit\rn\r", offer_journal=True)
    assert "mine.spider is behind this game. Update it? [Y/n] n" in said(repl)
    assert "Not saved. The game stays in the journal" in said(repl)
    # The journal remembers the file it is ahead of: asked again after the game comes back.
    _, repl = drive("\r9-8d from 3 to 4\rquit\r\r", offer_journal=True)
    assert "mine.spider is behind this game. Update it? [Y/n] " in said(repl)
    assert Path("mine.spider").read_text().splitlines()[1:5] == [
        "new 5 suits 4",
        "4h from 1 to 8",
        "8d from 7 to 3",
        "9-8d from 3 to 4",
    ]


def test_declining_the_journal_keeps_the_game_aside_and_counts_it(home: Path) -> None:
    drive("4h from 1 to 8\r\x04n\r")
    _, repl = drive("n\rquit\r", session=Session.new_game(seed=99), offer_journal=True)
    assert moves(repl) == []
    assert (home / "previous.spider").exists() and not (home / "current.spider").exists()
    assert results() == [(Result.ABANDONED, 1)]


def _journal(path: Path, moves: list[str], age: float) -> None:
    """A journal of deal 5 after ``moves``, last written ``age`` seconds ago."""
    session = Session.new_game(seed=SEED)
    for move in moves:
        session.execute(move)
    path.write_text(session.files.game_file())
    os.utime(path, (time.time() - age, time.time() - age))


def test_every_game_left_in_a_journal_is_offered_back_the_newest_first(home: Path) -> None:
    """Two spiders left games (the second in current-2.spider): both are offered."""
    home.mkdir(parents=True)
    _journal(home / "current.spider", ["4h from 1 to 8"], age=60)
    _journal(home / "current-2.spider", ["4h from 1 to 8", "7 3", "9-8d from 3 to 4"], age=5)
    _, repl = drive("n\ry\rquit\rn\r", session=Session.new_game(seed=99), offer_journal=True)
    question = r"Continue the game in progress \(deal \S+, \d suits?, (\d) moves?\)"
    asked = re.findall(question, said(repl))
    assert asked == ["3", "1"]
    assert moves(repl) == ["4h from 1 to 8"]
    assert (home / "previous-2.spider").exists() and not (home / "current-2.spider").exists()
    assert results() == [(Result.IN_PROGRESS, 1), (Result.ABANDONED, 3)]
    _, again = drive("y\rquit\rn\r", session=Session.new_game(seed=99), offer_journal=True)
    assert moves(again) == ["4h from 1 to 8"]  # the game taken up, and nothing more


def test_a_damaged_journal_is_set_aside_and_a_new_game_starts(home: Path) -> None:
    home.mkdir(parents=True)
    (home / "current.spider").write_text("# spider game file, version 1\nnew 5\nKs to 1\n")
    status, repl = drive("y\rquit\r", offer_journal=True)
    assert status == 0 and "could not be read back" in said(repl)
    assert (home / "previous.spider").exists() and moves(repl) == []


def test_a_damaged_journal_says_the_word_at_fault_under_its_sentence(home: Path) -> None:
    home.mkdir(parents=True)
    damaged = "# spider game file, version 1\nnew 5\n4h from 1 to 8\n8d from 7 to 2\n"
    (home / "current.spider").write_text(damaged)
    _, repl = drive("y\rquit\r", offer_journal=True)
    said_lines = said(repl).splitlines()
    sentence = next(n for n, line in enumerate(said_lines) if "could not be read back" in line)
    assert said_lines[sentence].startswith(
        "The game in progress could not be read back (current.spider:4:14: in the game "
        "file: 8d cannot go onto 4h); it is kept in "
    )
    assert said_lines[sentence + 1 : sentence + 3] == ["8d from 7 to 2", " " * 13 + "^"]


class Terminal(DummyOutput):
    """A terminal ``columns`` wide that keeps the text written to it."""

    def __init__(self, columns: int) -> None:
        self.columns = columns
        self.written: list[str] = []

    def get_size(self) -> Size:
        return Size(rows=24, columns=self.columns)

    def write(self, data: str) -> None:
        self.written.append(data)


def test_a_long_line_of_a_damaged_journal_is_cut_around_its_caret(home: Path) -> None:
    """At 40 columns the journal's line is cut around the caret, as its caret row is: broken
    between words, it left the caret under other text."""
    home.mkdir(parents=True)
    remark = "(a remark long enough to need more than one row of the screen)"
    damaged = f"# spider game file, version 1\nnew 5\n{remark} 4h from 1 to 7 {remark}\n"
    (home / "current.spider").write_text(damaged)
    terminal = Terminal(40)
    drive("y\rquit\r", offer_journal=True, output=terminal)
    rows = "".join(terminal.written).splitlines()
    caret = next(n for n, row in enumerate(rows) if row.strip() == "^")
    line = rows[caret - 1]
    assert len(line) <= 40 and line.startswith("…") and line.endswith("…")
    assert line[rows[caret].index("^") - len("to ") :].startswith("to 7 (")


def test_a_damaged_journal_that_cannot_be_set_aside_is_said_so(home: Path) -> None:
    home.mkdir(parents=True)
    (home / "current.spider").write_text("# spider game file, version 1\nnew 5\nKs to 1\n")
    os.mkfifo(home / "previous.spider")
    status, repl = drive("y\rquit\r", offer_journal=True)
    assert status == 0 and "could not be read back" in said(repl)
    assert "None" not in said(repl) and "nor kept aside" in said(repl)
    assert stat.S_ISFIFO((home / "previous.spider").lstat().st_mode)


def test_a_data_directory_that_is_a_file_offers_no_game(home: Path) -> None:
    home.parent.mkdir(parents=True, exist_ok=True)
    home.write_text("a file where the directory should be")
    status, repl = drive("quit\r", offer_journal=True)
    assert status == 0 and "None" not in said(repl)
    assert "Continue the game" not in said(repl)


def test_a_journal_that_cannot_be_written_is_said_once(home: Path) -> None:
    journal_fails(home)
    _, repl = drive("4h from 1 to 8\r7 3\rquit\rn\r")
    assert said(repl).count("cannot keep the journal") == 1
    assert moves(repl) == ["4h from 1 to 8", "8d from 7 to 3"]
    assert "could not be written: this game is lost when spider ends" in said(repl)
    assert "stays in the journal" not in said(repl)


def test_new_sets_the_old_game_aside_and_counts_it(home: Path) -> None:
    _, repl = drive("4h from 1 to 8\rnew 7\ry\rstats\rquit\r")
    assert "Abandon this game (1 move) for a new deal? [y/N] y" in said(repl)
    assert "(the previous game, 1 move, is kept in" in said(repl)
    assert (home / "previous.spider").read_text().splitlines()[1:3] == [
        "new 5 suits 4",
        "4h from 1 to 8",
    ]
    assert re.search(r"4 suits\s+1\s+0\s+0%\s+0\s+0\s+10\s+-", said(repl))


def test_a_typed_new_asks_first_and_no_keeps_the_game(home: Path) -> None:
    _, repl = drive("4h from 1 to 8\rnew 7\r\rn 7\rn\rquit\r")
    assert said(repl).count("Abandon this game (1 move) for a new deal? [y/N] ") == 2
    assert repl.session.origin == DealOrigin(5) and repl.session.game.moves_made == 1


def test_resign_records_the_game_as_lost_and_a_new_deal_asks_nothing(home: Path) -> None:
    _, repl = drive("4h from 1 to 8\r7 3\rresign\rnew 7\rquit\r")
    text = said(repl)
    assert "resigned after 2 moves: the game is lost" in text
    assert "(recorded as lost: game 1 of the history)" in text
    assert "Abandon this game" not in text  # it is over: nothing to abandon
    assert results() == [(Result.LOST, 2)]
    assert repl.session.origin == DealOrigin(7)


def test_the_one_letter_commands_and_a_leading_colon_in_the_line_mode(home: Path) -> None:
    _, repl = drive("4h from 1 to 8\ru\rr\r:undo\rd\rh\rq\r")
    text = said(repl)
    assert "unknown command" not in text
    assert text.count("took back 4h from 1 to 8") == 2 and "replayed 4h from 1 to 8" in text
    assert "4 deals left" in text  # d
    assert re.search(r"\n\w+ from \d+ to \d+: ", text)  # h: a hint
    assert repl.status == 0  # q


def test_a_won_game_is_counted_and_leaves_the_journal(home: Path) -> None:
    session = Session.new_game(seed=1)
    session.game = _one_move_from_a_win()
    _, repl = drive("2 8\rquit\rn\r", session=session)
    assert "you have won! score 1000" in said(repl)
    # the moment of the win: its figures, the streak it makes, and what to do next
    assert "You have won (deal 1, 4 suits)! Score 1000, 1 move" in said(repl)
    assert "That makes your first win in a row; 1 of 1 games won (100%)." in said(repl)
    assert "Next: 'new' deals another, 'review' shows where the game turned" in said(repl)
    assert results() == [(Result.WON, 1)]
    assert GameLog().recent()[0].score == 1000
    assert not (home / "current.spider").exists()


def test_a_lost_game_is_counted_once(home: Path) -> None:
    session = Session.new_game(seed=3)
    session.game = _lost()
    assert session.game.is_lost()
    _, repl = drive("score\rstats\rquit\r", session=session)
    assert "lost: no moves left" in wrapping.plain(repl.toolbar())
    assert results() == [(Result.LOST, 0)]


def test_a_damaged_old_statistics_file_is_set_aside_with_a_warning(home: Path) -> None:
    home.mkdir(parents=True)
    (home / "stats.json").write_text("{not json")
    _, repl = drive("stats\rstats\rquit\r")
    assert said(repl).count("the old statistics file was damaged") == 1
    assert (home / "stats.json.damaged").exists() and not (home / "stats.json").exists()
    assert "no games counted yet" in said(repl)


ODD_NAMES = ["my#pos.txt", "a(b).txt", "it's here.txt", "both \"kinds' of quotes.txt"]
"""File names the command language would need quotes for (or could not read at all)."""


@pytest.mark.parametrize("name", ODD_NAMES)
def test_any_file_name_loads_and_saves_at_the_prompt(home: Path, name: str) -> None:
    Path(name).write_text(UNKNOWN_START)
    saved = "saved " + name.replace(".txt", ".spider")
    journal_fails(home)  # so that leaving asks for a name: typed there as it is
    status, repl = drive(f"Jh from 8 to 9\r6s\rquit\ry\r{saved}\r", name=name)
    assert status == 0 and "error" not in said(repl)
    assert f"saved to {saved}" in said(repl)
    _, again = drive("quit\r", name=saved)
    assert moves(again) == ["Jh from 8 to 9"]
    assert again.player.keeper.saved_as == str(Path(saved).resolve())


def test_user_files_follow_spider_home(home: Path) -> None:
    history = open_history()
    history.store_string("deal")
    assert (home / "history").read_text().strip().endswith("+deal")
    assert Journal().path == home / "current.spider"


def _one_move_from_a_win() -> Game:
    """Eight complete suits in piles, the last Ace of clubs one move away on pile 2."""
    suits = [0, 1, 2, 3, 0, 1, 2, 3]
    piles = [[Card.of(r, s) for r in range(13, 0, -1)] for s in suits] + [[], []]
    piles[1].append(piles[7].pop())
    return Game(piles, [0] * 10, [], suits=4)


def _lost() -> Game:
    """No hand, no space, every pile ending with a lone Ace or a King: no move is left."""
    deck = [Card.of(r, s) for s in (0, 1, 2, 3, 0, 1, 2, 3) for r in range(1, 14)]
    aces = [c for c in deck if c.rank == 1]
    kings = [c for c in deck if c.rank == 13]
    rest = [c for c in deck if c.rank not in (1, 13)] + kings[2:]
    rest.sort(key=lambda c: (c.rank % 2, c.suit, c.rank))  # no 2 right above its Ace
    piles: list[list[int]] = [rest[i::10] for i in range(10)]
    for i, last in enumerate(aces + kings[:2]):
        piles[i].append(last)
    return Game(piles, [0] * 10, [], suits=4)


# ---------------------------------------------------------------------------------------------
# The line being typed


def test_highlighting_marks_what_cannot_parse() -> None:
    styles = dict((text, style) for style, text in highlight_line("Jh frm 8 to 9"))
    assert styles["Jh"] == "class:suit.hearts"
    assert styles["frm 8 to 9"] == "class:input.error"
    assert ("class:input.pending", "fr") in highlight_line("Jh fr")  # still being typed
    assert ("class:input.error", "xyz") in highlight_line("xyz")
    fragments = highlight_line("8-6s from 3 to 10 (natural) # note")
    assert ("class:suit.spades", "8-6s") in fragments
    assert ("class:input.remark", "(natural)") in fragments
    assert ("class:input.comment", "# note") in fragments


def test_completion_offers_commands_piles_and_the_runs_that_can_move() -> None:
    session = Session.new_game(seed=SEED)
    assert "deal" in complete(session, "de") and "replay" in complete(session, "re")
    assert complete(session, "7 ") == ["3"]  # 8d onto 9d
    for line in ("4h from 1 to 8", "7 3"):
        session.execute(line)
    assert complete(session, "9-") == ["9-8d"]
    assert complete(session, "9-8d from ") == ["3"]
    assert complete(session, "9-8d from 3 to ")[:2] == ["4", "10h"]  # pile 4, or its card
    assert complete(session, "help ") == list(TOPICS)
    assert complete(session, "set autoremove o") == ["on", "off"]


def test_completion_offers_the_cards_to_free() -> None:
    session = Session.new_game(seed=0)
    session.execute("load problem-2")
    assert complete(session, "solve fr") == ["free"]
    assert complete(session, "solve free the 6") == ["6d", "6s", "6h", "6c"]  # fewest on top


def test_completion_after_assume_offers_the_pool(home: Path) -> None:
    Path("start.txt").write_text(UNKNOWN_START)
    session = Session.new_game(seed=0, base_dir=Path.cwd())
    session.execute("load start.txt")
    offered = complete(session, "assume 8 ")
    assert "6s" in offered and len(offered) == len(set(offered))


# ---------------------------------------------------------------------------------------------
# Real processes: a script on standard input, and a process killed mid-game


def test_standard_input_that_is_not_a_terminal_runs_as_a_script(home: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "spider_cli"],
        input="new 5\n4h from 1 to 8\nscore\n",
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == "score 10" and "\x1b" not in result.stdout


class _Terminal:
    """A process on a pseudo-terminal, 80 by 30, read until a pattern shows up."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        pty = pytest.importorskip("pty")  # POSIX only, as are the three below
        fcntl = pytest.importorskip("fcntl")
        termios = pytest.importorskip("termios")
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 80, 0, 0))
        self.process = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        os.close(slave)
        self.seen = ""

    def expect(self, pattern: str, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.seen):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{pattern!r} not seen in:\n{self.seen[-2000:]}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    chunk = ""
                self.seen += re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]|\x1b[=>]", "", chunk)

    def send(self, text: str) -> None:
        os.write(self.master, text.encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        os.close(self.master)


def test_a_killed_game_is_offered_back_with_every_move(home: Path) -> None:
    env = {**os.environ, "SPIDER_HOME": str(home), "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm"}
    command = [sys.executable, "-m", "spider_cli", "--line"]
    first = _Terminal([*command, "--seed", "5"], env)
    try:
        first.expect("spider>")
        journal = home / "current.spider"
        played = [
            ("4h from 1 to 8", "pile 1 turns up Kd"),
            ("7 3", "pile 7 turns up 7c"),
            ("9-8d from 3 to 4", "pile 3 turns up Kc"),
        ]
        for line, turned in played:
            first.send(line + "\r")
            first.expect(turned)
        deadline = time.monotonic() + 10
        while "9-8d from 3 to 4" not in (journal.read_text() if journal.exists() else ""):
            assert time.monotonic() < deadline, "the journal never caught up"
            time.sleep(0.05)
        os.killpg(first.process.pid, signal.SIGKILL)
        first.process.wait(10)
    finally:
        first.close()
    second = _Terminal(command, env)
    try:
        second.expect(r"Continue the game in progress \(deal \S+, \d suits?, 3 moves\)\? \[Y/n\]")
        second.send("\r")
        second.expect("continued after move 3")
        second.send("replay\r")
        second.expect("replay 0/3")
        second.send("\r\r\r")
        second.expect("move 3/3: 9-8d from 3 to 4")
        second.expect("replay over")
    finally:
        second.close()


def test_the_history_file_keeps_its_last_entries(tmp_path: Path) -> None:
    history = open_history(tmp_path)
    for k in range(30):
        history.store_string(f"{k} 5")
    _trim_history(tmp_path / HISTORY_FILE, keep=10)
    kept = list(open_history(tmp_path).load_history_strings())
    assert kept == [f"{k} 5" for k in range(29, 19, -1)]  # newest first, the last ten


def test_the_history_file_is_never_read_or_written_through_a_link(home: Path) -> None:
    """A link at the history's name (in a shared SPIDER_HOME, another user's) is left alone:
    the prompt's history is kept in memory instead."""
    home.mkdir()
    theirs = home.parent / "theirs.txt"
    theirs.write_text("\n# 2024-01-01\n+secret\n")
    (home / HISTORY_FILE).symlink_to(theirs)
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("score\rcode\rquit\r")
        pipe.close()
        repl = Repl(Session.new_game(seed=0), journal=Journal(), history=open_history())
        assert repl.start() == 0
    assert theirs.read_text() == "\n# 2024-01-01\n+secret\n"
    assert (home / HISTORY_FILE).is_symlink()
    assert list(repl.history.get_strings()) == ["score", "code", "quit"]


def test_a_file_name_with_a_control_character_is_said_escaped(home: Path) -> None:
    """(A right-to-left override: typed, an escape character would be read as keys.)"""
    _, repl = drive('save "a\u202eb.spider"\rload "a\u202eb.spider"\rquit\r')
    assert "\u202e" not in said(repl)
    assert "saved to a\\u202eb.spider" in said(repl)
    assert "resumed a\\u202eb.spider: 0 moves replayed" in said(repl)


def test_settings_are_kept_for_the_next_start_and_complete_suits_go_by_default(
    home: Path,
) -> None:
    from spider_cli.app.files import preferences
    from spider_cli.language.settings import Settings
    from spider_cli.tui import main

    def start(suits: int | None = None) -> Game:
        """The game 'spider' (or 'spider --suits N') starts with, at a terminal."""
        started: list[Repl] = []
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Repl, "run", lambda repl: started.append(repl) or 0)
            main.play_at_terminal(None, None, suits, False, line_mode=True)
        return started[0].session.game

    assert preferences.load() == Settings(autoremove=True)  # a player's default
    assert Session().settings == Settings()  # scripts and files: the manual's own rules
    game = start()
    assert game.suits == 4 and game.autoremove
    drive("set autoremove off\rset suits 2\rset level strong\rquit\r")
    assert preferences.load() == Settings(autoremove=False, suits=2, level="strong")
    game = start()  # the next start
    assert game.suits == 2 and not game.autoremove
    assert start(4).suits == 4  # --suits 4 says otherwise


def test_the_slow_path_is_said_once(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spider_cli.analysis import native
    from spider_cli.app.words.notes import NOT_BUILT, slow_note

    monkeypatch.delenv("SPIDER_PURE", raising=False)  # (a player who chose it is not told)
    slow = native.Unused(native.Reason.DOES_NOT_LOAD, "slow")
    monkeypatch.setattr(native, "warning", lambda: slow)  # the core is still used
    monkeypatch.setattr(native, "missing", lambda: False)  # installed (also where it is not)
    _, repl = drive("new 5 winnable\rnew 6 winnable\rquit\r")
    assert said(repl).count(slow_note(slow)) == 1  # at the first long search only
    monkeypatch.setattr(native, "missing", lambda: True)  # left out at install time
    _, repl = drive("new 5 winnable\rquit\r")
    assert said(repl).count(f"{slow_note(NOT_BUILT)}.") == 1  # in the welcome
    assert slow_note(slow) not in said(repl)


def test_a_position_file_with_a_card_too_many_is_said_at_that_card(home: Path) -> None:
    """The third 8c of a file is pointed at, line, character and caret; the game goes on."""
    bottoms = ["8c", "Kd", "8c", "Qh", "8c", "Qs", "Js", "Jh", "10s", "9d"]
    Path("three.txt").write_text(
        "".join(
            f"{i}: " + "-- " * (5 if i <= 4 else 4) + b + "\n" for i, b in enumerate(bottoms, 1)
        )
    )
    _, repl = drive("load three.txt\r4h from 1 to 8\rquit\r")
    error = next(line for line in repl.transcript if line.startswith("error: "))
    assert error.startswith(
        "error: three.txt:5:16: 8c is one copy too many: the deck has 2 and "
        "8c is already in piles 1 and 3"
    )
    line, caret = repl.transcript[repl.transcript.index(error) + 1].splitlines()
    assert line == "5: -- -- -- -- 8c" and caret == " " * 15 + "^"
    assert moves(repl) == ["4h from 1 to 8"]  # deal 5 is kept, and played on


def test_the_status_line_is_worded_to_fit_the_terminal(home: Path) -> None:
    """The line mode's status line takes the shorter wordings, as the board's does, when
    the terminal is narrow (it used to run past the edge at 46 columns)."""

    class Narrow(DummyOutput):
        def get_size(self) -> Size:
            return Size(rows=24, columns=40)

    _, repl = drive("quit\r")
    with create_app_session(output=DummyOutput()):
        wide = wrapping.plain(repl.toolbar())
    with create_app_session(output=Narrow()):
        narrow = wrapping.plain(repl.toolbar())
    assert "deals left 5" in wide
    assert len(narrow) <= 40 and "5" in narrow and "deals left" not in narrow


def test_a_setting_is_not_a_move_and_a_file_keeps_the_rules_the_game_was_played_under(
    home: Path,
) -> None:
    # a setting changed after saving: nothing to update, the file stays as saved
    _, repl = drive(
        "set autoremove on\r4h from 1 to 8\rsave! mine.spider\rset autoremove off\rquit\r"
    )
    assert "[Y/n]" not in said(repl)
    saved = (Path.cwd() / "mine.spider").read_text().splitlines()
    assert saved[1] == "set autoremove on" and "set autoremove off" not in saved
    # moves under each rule: the file says where the rule changed, and plays the game back
    session = Session.new_game(seed=SEED, base_dir=Path.cwd())
    session.game = _one_move_from_a_win()
    session.game.push(Remove(0))  # by hand: autoremove off
    session.execute("set autoremove on")
    session.execute("2 8")  # the last suit goes at once
    assert session.game.is_won() and session.game.rules() == [False, True]
    text = session.files.game_file()
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    # (the first line names the deal: the game began with the rule off, so no line says so)
    assert lines[1:] == ["remove the spades from 1", "set autoremove on", "Ac from 2 to 8"]


def test_review_n_draws_the_position_before_the_move_as_the_line_mode_draws_one(
    home: Path,
) -> None:
    _, repl = drive("4h from 1 to 8\r7 3\rreview 2\rq\r")
    text = said(repl)
    shown = text[text.rindex("hand ") :]  # the last drawing: the position before move 2
    assert "Before move 2" in shown and "played: 8d from 7 to 3" in shown
    assert "8♦" in shown.split("Before move 2")[0]  # 8d still on pile 7, as the tableau draws it
    assert "suits: 4" not in shown and " 1: " not in shown  # the tableau, not a text layout
    assert repl.session.game.moves_made == 2  # the game is as it was
