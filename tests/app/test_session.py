"""The command interpreter, game files and ``spider run``, with real files in temporary folders."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spider_cli.app import examples
from spider_cli.app.journal import Journal
from spider_cli.app.results import LoadKind
from spider_cli.app.session import Session
from spider_cli.app.words.replies import played_text
from spider_cli.cli.main import main, run_scripts
from spider_cli.language import gamefiles
from spider_cli.language.commands import Assume, DealCommand, MoveCommand, ObviousCommand
from spider_cli.language.files import positions
from spider_cli.language.gamefiles import DealOrigin, PositionOrigin
from spider_cli.rules.cards import Card
from spider_cli.rules.engine import Game, Move
from spider_cli.rules.errors import IllegalMoveError, NotationError, SpiderError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(tmp_path: Path, script: str, **files: str) -> tuple[int, str, str]:
    for name, text in files.items():
        (tmp_path / name.replace("_", ".")).write_text(text)
    path = tmp_path / "script.spider"
    path.write_text(script)
    out, err = io.StringIO(), io.StringIO()
    status = run_scripts([str(path)], out, err)
    return status, out.getvalue(), err.getvalue()


START = examples.find("intro-deal").read_text()
"""The manual's first tableau (examples/intro-deal.txt): every face-down card unknown."""


def test_script_plays_the_manuals_opening_and_checks_the_result(tmp_path: Path) -> None:
    expected = """\
stock: 50
--   --   --   --   --   --   --   --   --   --
--   --   --   --   --   --   --   --   --   --
--   --   --   --   --   --   --   --   --   --
--   --   --   --   --   --   --   6s   --   --
--   10d  As   --   3h   9s   --        Qh   --
6d             4s             3c        Jh   7c
"""
    # the manual's first move: Jh from 8 to 9, turning up the 6s
    status, _, err = run(
        tmp_path,
        "load start.txt\nassume 8 6s\nJh from 8 to 9\nexpect after.txt\n",
        start_txt=START,
        after_txt=expected,
    )
    assert (status, err) == (0, "")


def test_a_failing_line_reports_file_line_and_reason(tmp_path: Path) -> None:
    status, _, err = run(tmp_path, "load start.txt\n\n4s from 4 to 7\n", start_txt=START)
    assert status == 1
    assert err.startswith(
        f"{tmp_path / 'script.spider'}:3: error: character 14: 4s cannot go onto 3c"
    )  # the caret under the 7, the pile the move cannot go to
    assert err.splitlines()[1:] == ["4s from 4 to 7", " " * 13 + "^"]


def test_expect_lists_each_pile_that_differs(tmp_path: Path) -> None:
    status, _, err = run(
        tmp_path,
        "load start.txt\nexpect other.txt\n",
        start_txt=START,
        other_txt=START.replace("10d", "Jd"),
    )
    assert status == 1 and "pile 2" in err


def test_expect_with_a_game_file_says_what_the_file_is(tmp_path: Path) -> None:
    """A game file given to expect is named as one, not misread as a position."""
    status, _, err = run(tmp_path, "new 5\nsave g.spider\nexpect g.spider\n")
    assert status == 1
    assert err.startswith(f"{tmp_path / 'script.spider'}:3: error: g.spider is a game file")
    assert "cannot read" not in err


def test_a_parse_error_shows_the_character_and_a_caret(tmp_path: Path) -> None:
    status, _, err = run(tmp_path, "load start.txt\nJh frm 8 to 9\n", start_txt=START)
    assert status == 1 and ":2: error: character" in err and "^" in err


def test_a_long_word_in_a_script_or_a_file_it_loads_is_quoted_short(tmp_path: Path) -> None:
    """A message repeats the first 30 characters of a word (and '…'); the line shown under
    it is cut too, its caret in place."""
    word = "x" * 300
    status, _, err = run(tmp_path, f"score\nset {word} on\n{word}\n")
    script = tmp_path / "script.spider"
    assert status == 1
    assert err.startswith(
        f"{script}:2: error: character 5: no setting called '{'x' * 30}…' (settings:"
    )
    assert err.splitlines()[1:] == [f"set {'x' * 96}…", "    ^"]
    status, _, err = run(tmp_path, f"score\n{word}\n")
    first, shown, caret = err.splitlines()
    assert first == (
        f"{script}:2: error: character 1: unknown command '{'x' * 30}…'"  # (no prompt: no help)
    )
    assert shown == "x" * 100 + "…" and caret == "^"
    bad = START.splitlines()
    bad[9] = bad[9].replace("Jh", "J" + "h" * 200)
    status, _, err = run(tmp_path, "load bad.txt\n", bad_txt="\n".join(bad) + "\n")
    column = bad[9].index("J" + "h" * 200) + 1
    assert f"bad.txt:10:{column}: '{'J' + 'h' * 29}…' is not a card:" in err


def test_an_error_in_a_file_a_script_loads_names_that_files_line(tmp_path: Path) -> None:
    """The script's line is where the error was met; the line and character are the file's."""
    bad = START.splitlines()
    bad[9] = bad[9].replace("Jh", "Jx")
    status, _, err = run(tmp_path, "score\nload bad.txt\n", bad_txt="\n".join(bad) + "\n")
    script = tmp_path / "script.spider"
    column = bad[9].index("Jx") + 1
    assert status == 1
    assert err.startswith(f"{script}:2: error: bad.txt:10:{column}: 'Jx' is")
    assert err.endswith(f"\n{bad[9]}\n{' ' * (column - 1)}^\n")
    status, _, err = run(tmp_path, "score\nJh frm 8 to 9\n")  # an error in the script's line
    assert err.startswith(f"{script}:2: error: character 4: say where from and where to")


def play_randomly(session: Session, steps: int, choose) -> None:
    for _ in range(steps):
        moves = session.game.legal_moves()
        if not moves:
            return
        session.play(choose(moves))


@given(seed=st.integers(0, 10**6), data=st.data())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_save_then_resume_gives_the_same_game(tmp_path_factory, seed: int, data) -> None:
    folder = tmp_path_factory.mktemp("games")
    session = Session.new_game(seed=seed, suits=data.draw(st.sampled_from([1, 2, 4])))
    play_randomly(session, data.draw(st.integers(0, 40)), lambda m: data.draw(st.sampled_from(m)))
    session.execute(f"save {folder / 'g.txt'}")
    other = Session.new_game(seed=1)
    other.execute(f"load {folder / 'g.txt'}")
    assert other.game.key() == session.game.key()
    assert other.history() == session.history()
    assert other.game.score() == session.game.score()


def test_unknown_cards_drawn_in_play_are_saved_and_replayed(tmp_path: Path) -> None:
    (tmp_path / "start.txt").write_text(START)
    session = Session.new_game(seed=0, base_dir=tmp_path)
    session.execute("load start.txt")
    for line in ["Jh from 8 to 9", "10d from 2 to 9", "3c from 7 to 2"]:
        try:
            session.execute(line)
        except SpiderError:
            break
    session.execute("save game.txt")
    text = (tmp_path / "game.txt").read_text()
    assert text.startswith(gamefiles.MAGIC) and "assume 8 " in text
    other = Session.new_game(seed=3, base_dir=tmp_path)
    other.execute("load game.txt")
    assert other.game.key() == session.game.key()


def test_a_damaged_game_file_is_refused_and_the_game_survives(tmp_path: Path) -> None:
    session = Session.new_game(seed=5, base_dir=tmp_path)
    play_randomly(session, 5, lambda m: m[0])
    session.execute("save game.txt")
    text = (tmp_path / "game.txt").read_text().splitlines()
    text[3] = "Kh from 1 to 2 and then some"
    (tmp_path / "bad.txt").write_text("\n".join(text))
    victim = Session.new_game(seed=9, base_dir=tmp_path)
    victim.play(victim.game.legal_moves()[0])
    before = victim.game.key()
    with pytest.raises(NotationError) as caught:
        victim.execute("load bad.txt")
    assert caught.value.line == 4 and caught.value.column > 0
    assert victim.game.key() == before and victim.game.moves_made == 1


def test_save_is_atomic_when_writing_fails(tmp_path: Path, monkeypatch) -> None:
    session = Session.new_game(seed=5, base_dir=tmp_path)
    session.execute("save game.txt")
    original = (tmp_path / "game.txt").read_text()
    session.play(session.game.legal_moves()[0])

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)  # the crash comes mid-save
    with pytest.raises(SpiderError, match=r"cannot save game\.txt: the disk is full"):
        session.execute("save! game.txt")  # a script must say save! to replace a file
    assert (tmp_path / "game.txt").read_text() == original
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]
    assert session.changed  # the unsaved game is still marked unsaved


def test_undo_redo_restart_at_the_prompt() -> None:
    session = Session.new_game(seed=2)
    start = session.game.key()
    play_randomly(session, 6, lambda m: m[-1])
    end = session.game.key()
    session.execute("undo 2")
    session.execute("redo 2")
    assert session.game.key() == end
    session.execute("restart")
    assert session.game.key() == start
    session.execute("redo 99")
    assert session.game.key() == end
    with pytest.raises(SpiderError, match="nothing to redo"):
        session.execute("redo")


@given(st.text(max_size=60))
@settings(max_examples=300, deadline=None)
def test_the_interpreter_never_raises_anything_but_a_players_error(text: str) -> None:
    session = Session.new_game(seed=4, base_dir=Path("/nonexistent-spider-dir"))
    before = session.game.key()
    try:
        session.execute(text)
    except SpiderError:
        assert session.game.key() == before


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("deal", "cannot deal: pile 1 is a space"),
        ("Kh from 2 to 3", "a King can only go into a space"),
        ("9s from 4 to 2", "pile 4 has no 9s in its movable run"),
        ("Jc-3h from 5 to 1", "Jc-3h is not a same-suit run"),
    ],
)
def test_rule_errors_name_the_reason(line: str, message: str) -> None:
    text = [
        "",
        "Kh",
        "-- 5c",
        "-- -- Qd 8s",
        "-- Jc 10c 9c 8c 7c 6c 5c 4c 3h",
        "-- Ad",
        "-- 2d",
        "-- 3d",
        "-- 4d",
        "-- 5d",
    ]
    piles = [[0 if t == "--" else Card.parse(t) for t in pile.split()] for pile in text]
    down = [pile.count(0) for pile in piles]
    known = sum(len(p) for p in piles) + 10
    piles[9] = [0] * (104 - known) + piles[9]
    down[9] += 104 - known
    session = Session.of_position(Game(piles, down, [0] * 10))
    with pytest.raises(SpiderError) as caught:
        session.execute(line)
    assert message in str(caught.value)


def test_spider_run_from_a_fresh_process_reads_standard_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spider_cli", "run", "-"],
        input="new 3\nscore\nmvoe 1 2\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "score 0" in done.stdout
    assert done.stderr.startswith("<stdin>:3: error:")
    assert "Traceback" not in done.stderr


def test_a_reader_that_leaves_early_gets_no_complaint() -> None:
    """``spider show problem-5 | head -1``: the pipe closes before spider writes."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    done = subprocess.run(
        [sys.executable, "-m", "spider_cli", "show", "problem-5"],
        stdout=write_end,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


def test_the_manuals_clubs_and_hearts_problem_replays() -> None:
    out, err = io.StringIO(), io.StringIO()
    status = run_scripts([str(EXAMPLES / "problem-3-hearts.spider")], out, err)
    assert (status, err.getvalue()) == (0, "")


@pytest.mark.parametrize("name", ["my#pos.txt", "a(b).txt", "it's here.txt", 'say "hi".txt'])
def test_spider_show_and_play_read_files_of_any_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    (tmp_path / name).write_text(START)
    monkeypatch.chdir(tmp_path)
    assert main(["show", name]) == 0
    assert capsys.readouterr().out.startswith("stock: 50\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("Jh from 8 to 9\nscore\n"))
    assert main(["play", name]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("score ")


def test_spider_run_loads_no_terminal_solver_or_hints_for_a_plain_script(tmp_path: Path) -> None:
    """A script of moves starts fast: the REPL's prompt_toolkit and the searches stay unloaded,
    and so does :mod:`dataclasses` (the values on the way are :class:`Value` types, whose
    classes cost far less to define: see spider_cli/rules/values.py)."""
    script = tmp_path / "one.spider"
    script.write_text("new 5\n4h from 1 to 8\n")
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "spider_cli", "run", str(script)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    loaded = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "spider_cli.app.session" in loaded and "spider_cli.language.notation" in loaded
    unwanted = {
        "prompt_toolkit",
        "spider_cli.analysis.solve.solver",
        "spider_cli.analysis.hints",
        "dataclasses",
    }
    assert not loaded & unwanted


# ---------------------------------------------------------------------------------------------
# The typed API: what a full-screen board or another program calls


def test_moves_by_engine_value_or_command_say_what_they_changed() -> None:
    session = Session.new_game(seed=5)
    played = session.move(Move(0, 7, 1))  # 4h from 1 to 8, as a mouse drag would give it
    assert played.text == "4h from 1 to 8"
    assert played.turned_up == ((0, Card.parse("Kd")),)
    assert played.removed == () and not played.won and played.score is None  # not over
    obvious = session.move(ObviousCommand(7))  # pile 7 clicked: 8d onto 9d
    assert obvious.action == Move(6, 2, 1) and obvious.turned_up == ((6, Card.parse("7c")),)
    typed = session.move(MoveCommand(src=3, dst=4))  # "3 4"
    assert typed.text == "9-8d from 3 to 4"
    dealt = session.deal()
    assert dealt.deals_left == 4 and "4 deals left" in played_text(dealt)
    with pytest.raises(IllegalMoveError):
        session.remove()
    assert session.game.moves_made == 4


def test_undo_redo_and_restart_return_what_they_took_back_and_replayed() -> None:
    session = Session.new_game(seed=5)
    texts = [session.move(MoveCommand(src=s, dst=d)).text for s, d in ((1, 8), (7, 3), (3, 4))]
    assert [entry.text for entry in session.history()] == texts
    taken = session.undo(2)
    assert [m.text for m in taken.moves] == texts[:0:-1] and not taken.restart
    again = session.redo(5)  # only two to replay
    assert [p.text for p in again.moves] == texts[1:]
    assert again.moves[0].turned_up == ((6, Card.parse("7c")),)
    everything = session.restart()
    assert everything.restart and len(everything.moves) == 3 and session.history() == []
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        session.undo()


def test_the_origin_is_a_value_and_a_numbered_deal_is_analysed_blind(tmp_path: Path) -> None:
    session = Session.new_game(seed=8, suits=2)
    assert session.origin == DealOrigin(8, 2, "left")
    assert session.analysis.analysed().unknown_count() == 44 + 50
    (tmp_path / "start.txt").write_text(START)
    session.base_dir = tmp_path
    loaded = session.load("start.txt")
    assert (loaded.kind, loaded.name, loaded.path) == (
        LoadKind.POSITION_FILE,
        "start.txt",
        tmp_path / "start.txt",
    )
    assert isinstance(session.origin, PositionOrigin)
    assert session.analysis.analysed() is session.game
    code = positions.position_code(session.game)
    assert session.load(code).kind is LoadKind.POSITION_CODE and session.origin.code == code
    assert session.load("problem-3").kind is LoadKind.EXAMPLE
    assert session.status().origin == session.origin


def test_a_game_file_is_read_into_a_typed_record_with_line_numbers() -> None:
    text = (
        f"{gamefiles.MAGIC}\nset sixth spread\nnew 5 suits 2\n\n"
        "assume 8 6s\n4h from 1 to 8\n# a remark\ndeal\nassume 3 Kh\n"
    )
    record = gamefiles.read(text)
    assert record.origin == DealOrigin(5, 2, "spread") and record.start == (3, "new 5 suits 2")
    first, second = record.steps
    assert first.action.line == 6 and isinstance(first.action.command, MoveCommand)
    assert [a.line for a in first.assumptions] == [5]
    assert second.action.command == DealCommand() and second.assumptions == ()
    assert [(a.line, a.command) for a in record.pending] == [(9, Assume(3, Card.parse("Kh")))]


@pytest.mark.parametrize(
    ("lines", "line", "message"),
    [
        (["new 5", "new 6"], 3, "only one start"),
        (["4h from 1 to 8"], 2, "does not say how the game starts"),
        (["new", "deal"], 2, "starts from a deal number or a position code"),
        (["new 5", "score"], 3, "holds only its start, moves"),
        (["new 5", "4h from 1 to 8", "4h from 8 to 1"], 4, "cannot go onto"),
    ],
)
def test_a_bad_game_file_names_the_line(
    tmp_path: Path, lines: list[str], line: int, message: str
) -> None:
    (tmp_path / "bad.spider").write_text("\n".join([gamefiles.MAGIC, *lines]) + "\n")
    session = Session.new_game(seed=1, base_dir=tmp_path)
    with pytest.raises(NotationError, match=message) as caught:
        session.load("bad.spider")
    assert caught.value.line == line and session.origin == DealOrigin(1)


def test_a_saved_deal_resumes_the_same_whatever_the_loading_sessions_settings(
    tmp_path: Path,
) -> None:
    session = Session.new_game(seed=5, base_dir=tmp_path)
    session.move(Move(0, 7, 1))
    session.save("left.spider")
    other = Session.new_game(seed=1, base_dir=tmp_path)
    other.execute("set sixth spread")
    loaded = other.load("left.spider")
    assert (loaded.kind, loaded.moves) == (LoadKind.GAME_FILE, 1)
    assert other.game.key() == session.game.key() and other.origin == DealOrigin(5, 4, "left")


@given(seed=st.integers(0, 10**6), picks=st.lists(st.integers(0, 10**6), max_size=60))
@settings(max_examples=30, deadline=None)
def test_the_history_is_the_engines_moves_in_notation(seed: int, picks: list[int]) -> None:
    """Whatever is played, taken back and replayed, history() lists what is on the stack."""
    session = Session.new_game(seed=seed, suits=1)
    played: list[str] = []
    for pick in picks:
        if pick % 7 == 0 and played:
            session.undo()
            played.pop()
            continue
        moves = session.game.legal_moves()
        if not moves:
            break
        played.append(session.play(moves[pick % len(moves)]).text)
    assert [entry.text for entry in session.history()] == played
    assert session.status().moves == len(played)


def test_auto_plays_hints_moves_up_to_n() -> None:
    session = Session.new_game(3, 1)
    reply = session.execute("auto 5")
    assert session.game.moves_made == 5
    assert reply.text.endswith("auto stops: 5 moves played")
    assert len(reply.result.moves) == 5


def test_auto_stops_when_a_deal_is_due() -> None:
    session = Session.new_game(3, 1)
    reply = session.execute("auto")
    assert reply.text.endswith("a deal is due ('deal')")
    assert session.game.stock and session.game.moves_made > 0


def test_auto_stopped_by_ctrl_c_leaves_the_game_as_it_is() -> None:
    session = Session.new_game(3, 1)

    def each(played: object) -> None:
        if session.game.moves_made == 2:
            raise KeyboardInterrupt

    auto = session.auto(10, each)
    assert (len(auto.moves), session.game.moves_made) == (2, 2)
    assert auto.stopped == (
        "stopped by Ctrl-C; the 2 moves it played are kept ('undo 2' takes them back)"
    )
    with pytest.raises(SpiderError, match="no line to apply"):
        session.apply()


def test_auto_needs_a_positive_number() -> None:
    with pytest.raises(SpiderError, match="positive"):
        Session.new_game(3, 1).execute("auto 0")


@pytest.mark.parametrize("autoremove", ["off", "on"])
def test_the_win_is_announced_once(autoremove: str) -> None:
    spades = [Card.parse(f"{r}s") for r in "K Q J 10 9 8 7 6 5 4 3 2".split()]
    piles: list[list[int]] = [spades, [Card.parse("As")]] + [[] for _ in range(8)]
    game = Game(piles, [0] * 10, [], [0, 1, 1, 2, 2, 3, 3])
    session = Session.of_position(game)
    session.execute(f"set autoremove {autoremove}")
    texts = [session.execute("As from 2 to 1").text]
    if session.status().ready:
        texts.append(session.execute("remove").text)
    assert "\n".join(texts).count("you have won") == 1
    assert texts[0].endswith("you have won! score 990")
    with pytest.raises(SpiderError):
        session.execute("remove")


def _back_and_forth(times: int) -> Session:
    """Eight complete suits in piles 1-8, the Ace of pile 1 moved to pile 9 and back
    ``times`` times: a game as long as a player likes."""
    suits = [0, 1, 2, 3, 0, 1, 2, 3]
    piles = [[Card.of(r, s) for r in range(13, 0, -1)] for s in suits] + [[], []]
    session = Session.of_position(Game(piles, [0] * 10, [], suits=4))
    for _ in range(times):
        session.play(Move(0, 8, 1))
        session.play(Move(8, 0, 1))
    return session


@pytest.mark.parametrize("command", ["undo 100000", "redo 100000"])
def test_taking_back_or_replaying_thousands_of_moves_says_so_in_a_line(command: str) -> None:
    session = _back_and_forth(2000)
    if command.startswith("redo"):
        session.restart()
    text = session.execute(command).text
    assert session.game.moves_made == (0 if command.startswith("undo") else 4000)
    assert len(text) < 400 and "\n" not in text
    assert text.endswith("and 3,990 more")


def test_a_game_too_long_to_load_back_is_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What spider saves it can load: one limit for both (made small here: 16 MB is over
    800,000 moves)."""
    from spider_cli.language.files import textfiles

    monkeypatch.setattr(textfiles, "MAX_FILE_BYTES", 4000)
    session = _back_and_forth(40)
    assert len(session.files.game_file()) < 4000
    session.save(tmp_path / "fits.spider")
    assert Session().load(tmp_path / "fits.spider").moves == 80
    session = _back_and_forth(100)
    with pytest.raises(SpiderError, match=r"long\.spider: the game file would be over 4,000"):
        session.save(tmp_path / "long.spider")
    assert not (tmp_path / "long.spider").exists()
    journal = Journal(tmp_path / "data")
    assert journal.update(session) == (
        "the game is not journaled: its file would be over 4,000 bytes, more than spider reads back"
    )
    assert not journal.path.exists()


def test_every_command_is_declared_in_the_union_and_handled() -> None:
    """The ``Command`` union, the command types declared with ``@command`` and the table of
    handlers name the same commands: a new command cannot be read but not run, or run but
    missing from the type the reader returns. (``set`` alone reads as ``ListSettings``,
    which shares the word of ``Set``.)"""
    from typing import get_args

    from spider_cli.app.handlers import COMMANDS
    from spider_cli.app.interpreter import Shown
    from spider_cli.language import commands, registry

    union = set(get_args(commands.Command))
    assert union == {*registry.KINDS, commands.ListSettings}
    assert len(registry.KINDS) == len(set(registry.KINDS))
    assert set(COMMANDS.handlers) == {*union, None}  # None: an action chosen with the mouse
    assert COMMANDS.shown(commands.Help()) is Shown.READ
    assert COMMANDS.streams(commands.Auto()) and not COMMANDS.streams(commands.Hint())


def test_the_parts_return_what_they_found_and_the_session_applies_it(tmp_path: Path) -> None:
    """Files and Analysis never change the session's game: a file read comes back as the
    game it began, the line found as the moves to play; the session takes them over."""
    session = Session.new_game(seed=3, suits=1, base_dir=tmp_path)
    session.execute("hint")
    before = session.game.key()
    (to_play,) = session.analysis.take()
    assert session.game.key() == before  # taken off the line, not played
    session.play(to_play)
    session.save("g.spider")
    other = Session.new_game(seed=4, suits=1, base_dir=tmp_path)
    began, loaded = other.files.load("g.spider")
    assert other.game.moves_made == 0 and began.game.moves_made == 1  # not taken over yet
    assert began.saved and loaded.moves == 1
    assert other.load("g.spider").moves == 1 and other.game.key() == session.game.key()
    assert not other.changed  # as the file left it
