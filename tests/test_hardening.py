"""Hostile and careless input on paths and scripts: a clear error, never a crash or a hang."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from spider_cli.app.cli import main, run_scripts
from spider_cli.app.session import Session
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
        getattr(session, verb)(BAD_NAMES[what])
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
