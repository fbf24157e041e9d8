"""Atomic writes replace regular files only (never through a link), and clean up after a crash."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from spider_cli.app.files.atomic import (
    LinkRefusedError,
    NotAFileError,
    remove_stale_temporaries,
    write_atomically,
)


def test_a_link_is_neither_followed_nor_replaced(tmp_path: Path) -> None:
    precious = tmp_path / "t.txt"
    precious.write_text("precious\n")
    link = tmp_path / "l.spider"
    link.symlink_to("t.txt")
    with pytest.raises(LinkRefusedError, match=r"l\.spider is a symbolic link to t\.txt"):
        write_atomically(link, "new\n")
    assert precious.read_text() == "precious\n"
    assert link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["l.spider", "t.txt"]


def test_a_dangling_link_is_refused_too(tmp_path: Path) -> None:
    link = tmp_path / "save.spider"
    link.symlink_to(tmp_path / "nowhere" / "x")
    with pytest.raises(LinkRefusedError):
        write_atomically(link, "new\n")
    assert not (tmp_path / "nowhere").exists()


def test_stale_temporaries_go_and_others_stay(tmp_path: Path) -> None:
    stale = tmp_path / ".journal.spider.0123abcd.tmp"
    stale.write_text("half")
    fresh = tmp_path / ".stats.json.89abcdef.tmp"
    fresh.write_text("being written")
    theirs = tmp_path / ".notes.tmp"
    theirs.write_text("not ours")
    link = tmp_path / ".x.spider.00000000.tmp"
    link.symlink_to(theirs)
    old = time.time() - 3600
    for path in (stale, theirs):
        os.utime(path, (old, old))
    os.utime(link, (old, old), follow_symlinks=False)
    assert remove_stale_temporaries(tmp_path, before=time.time() - 60) == 1
    assert not stale.exists()
    assert fresh.exists() and theirs.exists() and link.is_symlink()


def test_no_directory_no_harm(tmp_path: Path) -> None:
    assert remove_stale_temporaries(tmp_path / "missing") == 0


def test_a_pipe_or_a_directory_is_never_replaced(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "folder").mkdir()
    for name, kind in (("pipe", "a named pipe"), ("folder", "a directory")):
        with pytest.raises(NotAFileError, match=f"{name} is {kind}, not a regular file"):
            write_atomically(tmp_path / name, "new\n")
    assert (tmp_path / "folder").is_dir() and not (tmp_path / "pipe").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "pipe"]
