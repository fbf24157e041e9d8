"""Hostile and careless input on paths and scripts: a clear error, never a crash or a hang."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spider_cli.app.files import stats
from spider_cli.app.journal import Journal
from spider_cli.app.keeping import history_facts
from spider_cli.app.session import Session
from spider_cli.cli.main import main, run_scripts
from spider_cli.language.files import positions
from spider_cli.rules.errors import SpiderError

BAD_NAMES = {
    "too long": "x" * 300 + ".txt",
    "NUL": "a\0b",
    "no such user": "~nosuchuser-spider/x.txt",
}


@pytest.mark.parametrize("what", sorted(BAD_NAMES))
@pytest.mark.parametrize("verb", ["load", "expect", "save"])
def test_bad_names_give_clear_errors(tmp_path: Path, what: str, verb: str) -> None:
    session = Session.new_game(seed=3, base_dir=tmp_path)
    before = session.game.key()
    with pytest.raises(SpiderError) as caught:
        getattr(session.files, verb)(BAD_NAMES[what])
    assert "\0" not in str(caught.value)
    assert session.game.key() == before


def test_a_loop_of_links_and_a_fifo_are_refused_at_once(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    os.mkfifo(tmp_path / "pipe")
    session = Session.new_game(seed=3, base_dir=tmp_path)
    with pytest.raises(SpiderError, match="loop of symbolic links"):
        session.load(tmp_path / "a")
    with pytest.raises(SpiderError, match="not a regular file"):
        session.load("pipe")
    with pytest.raises(SpiderError, match="not a regular file"):
        session.expect("pipe")


def test_save_never_writes_through_a_link(tmp_path: Path) -> None:
    precious = tmp_path / "t.txt"
    precious.write_text("precious\n")
    (tmp_path / "l.spider").symlink_to("t.txt")
    session = Session.new_game(seed=5, base_dir=tmp_path)
    with pytest.raises(SpiderError, match=r"l\.spider is a symbolic link to t\.txt"):
        session.execute("save l.spider")
    assert precious.read_text() == "precious\n"


def test_scripts_from_devices_and_pipes_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "/dev/zero"]) == 1
    assert "not a regular file" in capsys.readouterr().err
    os.mkfifo(tmp_path / "pipe")
    assert main(["run", str(tmp_path / "pipe")]) == 1
    assert "not a regular file" in capsys.readouterr().err


def test_errors_show_control_characters_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO("\x1b]0;X\x07\n"))
    assert run_scripts(["-"], out, err) == 1
    assert "\x1b" not in err.getvalue() and "\x07" not in err.getvalue()
    assert err.getvalue().startswith("<stdin>:1: error:")


@pytest.mark.parametrize("separator", ["\f", "\v", "\x1c", "\x85", "\u2028"])
def test_lines_split_only_at_line_feeds(monkeypatch: pytest.MonkeyPatch, separator: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    script = f"score # a{separator}undo\r\nscore\nnot a command\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    assert run_scripts(["-"], out, err) == 1
    assert out.getvalue() == "score 0\nscore 0\n"  # 'undo' stayed inside the comment
    assert err.getvalue().startswith("<stdin>:3: error:")


def test_an_endless_line_is_refused_by_its_length(monkeypatch: pytest.MonkeyPatch) -> None:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO("score\n" + "x" * 200_000 + "\n"))
    assert run_scripts(["-"], out, err) == 1
    assert (
        err.getvalue()
        == "<stdin>:2: error: the line has 200,000 characters; a command has at most 10,000\n"
    )


def test_old_statistics_nested_a_hundred_thousand_deep_are_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    path.write_text("[" * 100_000)
    assert stats.load(path).warning == (
        "the old statistics file was damaged (kept as stats.json.damaged); "
        "its figures are not counted"
    )
    assert (tmp_path / "stats.json.damaged").exists() and stats.load(path).records == {}


def test_a_second_spider_keeps_its_own_journal(tmp_path: Path) -> None:
    """One process holds the journal; another in the same directory takes the next one."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; from spider_cli.app.journal import Journal\n"
            "journal = Journal(Path(sys.argv[1])); assert journal.claim()\n"
            "print(journal.path.name, flush=True); sys.stdin.readline()\n",
            str(tmp_path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "current.spider\n"
        mine = Journal(tmp_path)
        session = Session.new_game(seed=4)
        session.execute("8s from 5 to 1")
        assert mine.update(session) == (
            "another spider has the game in current.spider open: this one keeps its journal "
            "in current-2.spider"
        )
        assert mine.path == tmp_path / "current-2.spider" and mine.path.exists()
        assert not (tmp_path / "current.spider").exists()
        assert mine.read() is not None and mine.read().moves == 1  # type: ignore[union-attr]
    finally:
        holder.communicate("\n", timeout=60)


def test_a_journal_with_an_absurd_move_count_still_reads(tmp_path: Path) -> None:
    (tmp_path / "current.spider").write_text(
        "# spider game file, version 1\nnew 5\n# position after " + "9" * 5000 + " moves\n"
    )
    entry = Journal(tmp_path).read()
    assert entry is not None and entry.moves == 0


_WRITER = """
import sys
from pathlib import Path
from spider_cli.app.journal import Journal
from spider_cli.app.session import Session

folder = Path(sys.argv[1])
session = Session.new_game(seed=11, base_dir=folder)
journal = Journal(folder)
print("ready", flush=True)
while True:
    for action in session.game.legal_moves()[:1]:
        session.play(action)
    if session.game.moves_made > 40:
        session.restart()
    session.save("game.spider")
    journal.update(session)
"""


def test_kill_9_while_saving_leaves_whole_files(tmp_path: Path) -> None:
    """A writer saving and journaling in a loop is killed at 12 moments (seeded delays): every
    file left behind is whole and loads, and no temporary file survives the next start."""
    rng = random.Random(14)
    for _ in range(12):
        writer = subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(tmp_path)], stdout=subprocess.PIPE, text=True
        )
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0.0, 0.3))
        writer.kill()
        writer.wait(timeout=60)
        for name in ("game.spider", "current.spider"):
            if (tmp_path / name).exists():
                Session.new_game(seed=0, base_dir=tmp_path).load(name)  # whole, or it raises
    starting = "import sys, pathlib; from spider_cli.app.journal import Journal; "
    starting += "Journal(pathlib.Path(sys.argv[1])).claim()"
    time.sleep(0.05)  # a file system's times can be coarse: the next start comes after
    subprocess.run([sys.executable, "-c", starting, str(tmp_path)], check=True, timeout=120)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_number_of_thousands_of_digits_is_an_error_naming_the_limit() -> None:
    session = Session.new_game(seed=2)
    with pytest.raises(SpiderError, match="a number has at most 20 digits") as caught:
        session.execute("undo " + "9" * 4400)
    assert caught.value.column == 6  # type: ignore[attr-defined]


def test_completion_after_a_huge_pile_number_offers_without_crashing() -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from spider_cli.tui.completion import SpiderCompleter

    completer = SpiderCompleter(Session.new_game(seed=1))
    line = "Jh from " + "9" * 4400 + " to "
    offered = [c.text for c in completer.get_completions(Document(line), CompleteEvent())]
    assert "space" in offered  # what can follow "to": the words of "to a space", no crash


def _special(path: Path, kind: str) -> None:
    """Make a FIFO, a socket or a device node (root only: /dev/null's numbers) at ``path``."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        import socket

        with socket.socket(socket.AF_UNIX) as sock:
            sock.bind(str(path))
    elif os.geteuid() != 0:
        pytest.skip("only root can make a device node")
    else:
        import stat

        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))


@pytest.mark.parametrize("kind", ["fifo", "socket", "device"])
@pytest.mark.parametrize("verb", ["save", "save!"])
def test_save_refuses_what_is_not_a_regular_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, verb: str
) -> None:
    monkeypatch.chdir(tmp_path)  # a socket's name must be short
    _special(Path("x"), kind)
    before = os.lstat("x")
    session = Session.new_game(seed=5, base_dir=tmp_path)
    session.play(session.game.legal_moves()[0])
    with pytest.raises(SpiderError, match=r"cannot save x: .*x is a .*, not a regular file"):
        session.execute(f"{verb} x")
    after = os.lstat("x")
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert session.game.moves_made == 1 and session.changed


_PLAYER = """
import sys
from pathlib import Path
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from spider_cli.app.journal import Journal
from spider_cli.app.session import Session
from spider_cli.tui.repl import Repl, open_history

with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
    pipe.send_text(sys.argv[1])
    pipe.close()
    session = Session.new_game(seed=5, base_dir=Path.cwd())
    repl = Repl(session, journal=Journal(), history=open_history())
    status = repl.start(offer_journal=True)
print("\\n".join(repl.transcript))
sys.exit(status)
"""
_PLAY = "4h from 1 to 8\r7 3\rstats\rgames\rnew 7\ry\r8d from 7 to 3\rquit\rn\r"
"""Plays, asks for the statistics and the games, starts another game (the first is kept
aside) and leaves: every file of the data and state directories is read and written."""

USER_FILES = [
    "current.spider",
    "current.spider.lock",
    "previous.spider",
    "stats.json",
    "games.sqlite",
    "games.sqlite-wal",
    "games.sqlite-shm",
    "games.sqlite-journal",
    "history",
    "bench.sqlite",
]
"""Every file spider keeps in its data and state directories (one with SPIDER_HOME)."""


@pytest.mark.parametrize("kind", ["fifo", "device", "link"])
@pytest.mark.parametrize("name", USER_FILES)
def test_no_user_file_that_is_not_a_regular_file_hangs_or_is_replaced(
    tmp_path: Path, name: str, kind: str
) -> None:
    """A named pipe, a device or a link where spider keeps a file: the game is played,
    saved aside and counted as far as it can be, with a warning, and the thing at the
    name is left as it was (a link's target too). A subprocess, so that a hang fails."""
    home = tmp_path / "home"
    home.mkdir()
    theirs = tmp_path / "theirs"
    theirs.write_text("")  # empty: SQLite would take it for a new database
    if kind == "link":
        (home / name).symlink_to(theirs)
    else:
        _special(home / name, kind)
    before = os.lstat(home / name)
    environment = {**os.environ, "SPIDER_HOME": str(home)}
    if name == "bench.sqlite":
        command = [sys.executable, "-m", "spider_cli", "bench", "--seeds", "3", "--limit", "50"]
    else:
        command = [sys.executable, "-c", _PLAYER, _PLAY]
    done = subprocess.run(
        command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120
    )
    said = done.stdout + done.stderr
    assert "internal error" not in said and "Traceback" not in said, said
    assert done.returncode == (1 if name == "bench.sqlite" else 0), said
    after = os.lstat(home / name)
    assert (after.st_ino, after.st_mode, after.st_size) == (
        before.st_ino,
        before.st_mode,
        before.st_size,
    ), said
    assert theirs.read_text() == ""


ESCAPE = "\x1b]0;owned\x07\x1b[31m"
"""A terminal escape: sets the window's title, then turns the text red."""


def test_file_names_from_outside_are_printed_escaped(tmp_path: Path) -> None:
    """'saved to', 'resumed', 'loaded', 'position matches' and the games listed name files
    from outside: their control characters are shown escaped, at the prompt as in scripts."""
    from spider_cli.app.files.gamelog import GameLog

    name = f"a{ESCAPE}b.spider"
    (tmp_path / f"p{ESCAPE}.txt").write_text(
        positions.position_code(Session.new_game(seed=3).game, hide=True)
    )
    script = tmp_path / "s.spider"
    script.write_text(
        f'save! "{name}"\nload "{name}"\nload "p{ESCAPE}.txt"\nexpect "p{ESCAPE}.txt"\n'
    )
    out, err = io.StringIO(), io.StringIO()
    session = Session.new_game(seed=3, log=GameLog(tmp_path / "games.sqlite"))
    assert run_scripts([str(script)], out, err, session=session) == 0, err.getvalue()
    session.play(session.game.legal_moves()[0])
    session.games_log().record(None, history_facts(session))
    said = out.getvalue() + session.execute("games").text
    assert "\x1b" not in said and "\x07" not in said, said
    shown = "\\x1b]0;owned\\x07\\x1b[31m"
    assert said.startswith(
        f"saved to a{shown}b.spider\nresumed a{shown}b.spider: 0 moves replayed\n"
        f"loaded p{shown}.txt\nposition matches p{shown}.txt\n"
    )
    assert "  p\\x1b]0;ow... " in said.splitlines()[-2]  # cut after it is escaped


def test_spider_solve_prints_a_game_files_line_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "g.spider"
    game.write_text(f"# spider game file, version 1\nnew 5\n4h from 1 to 8 {ESCAPE}\n")
    assert main(["solve", str(game)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "g.spider:3: error: character 16" in err


@pytest.mark.parametrize("command", ["run", "show", "solve", "play"])
def test_a_newline_in_a_file_name_stays_inside_its_error_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    Path("a\nb:1: error: forged").write_text("nonsense\n")
    assert main([command, "a\nb:1: error: forged"]) in (1, 2)
    first = capsys.readouterr().err.splitlines()[0]
    assert first.startswith("a\\nb:1: error: forged") and ": error: " in first[20:]


def test_a_byte_order_mark_does_not_spoil_the_first_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Some editors begin UTF-8 files with one: scripts, game files and stdin alike."""
    monkeypatch.chdir(tmp_path)
    Session.new_game(seed=2, base_dir=tmp_path).save("g.spider")
    Path("bom.spider").write_bytes(b"\xef\xbb\xbf" + Path("g.spider").read_bytes())
    Path("s.spider").write_bytes(b"\xef\xbb\xbfscore\nload bom.spider\n")
    assert main(["run", "s.spider"]) == 0
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbfscore\n")))
    assert main(["run", "-"]) == 0
    assert capsys.readouterr().out == "score 0\nresumed bom.spider: 0 moves replayed\nscore 0\n"


def test_a_game_file_of_one_move_resumes_with_one_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("s.spider").write_text("new 5\n4h from 1 to 6\nsave! g.spider\nload g.spider\n")
    assert main(["run", "s.spider"]) == 0
    assert "resumed g.spider: 1 move replayed\n" in capsys.readouterr().out


@pytest.mark.parametrize("version", ["2", "10", "1.5"])
def test_a_game_file_of_another_version_says_so(tmp_path: Path, version: str) -> None:
    path = tmp_path / "new.spider"
    path.write_text(f"# spider game file, version {version}\nnew 5 suits 4\n4h from 1 to 6\n")
    session = Session.new_game(seed=2, base_dir=tmp_path)
    with pytest.raises(SpiderError) as caught:
        session.load("new.spider")
    assert str(caught.value) == (
        f"new.spider is a game file of version {version}, which this spider cannot read: "
        "it reads version 1 (a newer spider wrote it?)"
    )
    assert session.game.key() == Session.new_game(seed=2).game.key()
    path.write_text("# spider game file, version 1\r\nnew 5 suits 4\r\n4h from 1 to 6\r\n")
    assert session.load("new.spider").moves == 1


NAMED_FILES = {
    "run": ["run", "x"],
    "show": ["show", "x"],
    "solve": ["solve", "x"],
    "play": ["play", "x"],
    "load": ["run", "script.spider", "load x"],
    "expect": ["run", "script.spider", "expect x"],
    "save": ["run", "script.spider", "save x"],
    "save!": ["run", "script.spider", "save! x"],
    "bench --db": ["bench", "--seeds", "1", "--limit", "50", "--db", "x"],
}
"""Every way a player names a file to read or write (a script's line comes last)."""


@pytest.mark.parametrize("kind", ["fifo", "device"])
@pytest.mark.parametrize("use", sorted(NAMED_FILES))
def test_no_named_file_that_is_not_a_regular_file_hangs_or_is_replaced(
    tmp_path: Path, use: str, kind: str
) -> None:
    """A named pipe or a device where a player names a file: refused at once, saying what
    it is, and left as it was. A subprocess, so that a hang fails."""
    _special(tmp_path / "x", kind)
    before = os.lstat(tmp_path / "x")
    argv = list(NAMED_FILES[use])
    if argv[1] == "script.spider":
        (tmp_path / "script.spider").write_text(argv.pop() + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "spider_cli", *argv],
        cwd=tmp_path,
        env={**os.environ, "SPIDER_HOME": str(tmp_path / "home")},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == (2 if use == "solve" else 1), done.stderr
    assert "not a regular file" in done.stderr and "internal error" not in done.stderr
    after = os.lstat(tmp_path / "x")
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
