"""The small ones of the third round of hardening: temporary files of a killed write are
cleaned wherever the file is written (the player's own folder too); a game that cannot be
kept aside as previous.spider is said to be so; a long number in a file is repeated in an
error by its first digits."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from spider_cli.app.files.atomic import write_atomically
from spider_cli.app.session import Session
from spider_cli.language.files.positions import read_position
from spider_cli.rules.errors import SpiderError
from tests.helpers import drive, said

STALE = time.time() - 3600


def _temporary(folder: Path, name: str, hexdigits: str, when: float) -> Path:
    path = folder / f".{name}.{hexdigits}.tmp"
    path.write_text("half a file")
    os.utime(path, (when, when))
    return path


def test_a_write_cleans_the_temporaries_a_killed_write_of_it_left(tmp_path: Path) -> None:
    """Only this file's, only those older than this process (another spider writing it now
    keeps its own), only regular files."""
    left = [_temporary(tmp_path, "mine.spider", f"{k:08x}", STALE) for k in range(7)]
    other = _temporary(tmp_path, "other.spider", "0000abcd", STALE)
    fresh = _temporary(tmp_path, "mine.spider", "ffff0000", time.time() + 60)
    (tmp_path / ".mine.spider.0000beef.tmp").symlink_to(other)
    write_atomically(tmp_path / "mine.spider", "a game\n")
    assert not any(path.exists() for path in left)
    assert (
        other.exists() and fresh.exists() and (tmp_path / ".mine.spider.0000beef.tmp").is_symlink()
    )
    assert (tmp_path / "mine.spider").read_text() == "a game\n"


def test_save_in_the_players_folder_cleans_them_too(home: Path) -> None:
    folder = home.parent / "games"
    folder.mkdir()
    left = _temporary(folder, "kept.spider", "12345678", STALE)
    session = Session.new_game(seed=5, base_dir=folder)
    session.save("kept.spider")
    assert not left.exists() and (folder / "kept.spider").exists()


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _link(path: Path) -> None:
    path.symlink_to(path.with_name("elsewhere.spider"))


def _directory(path: Path) -> None:
    path.mkdir()


@pytest.mark.parametrize("plant", [_fifo, _link, _directory], ids=["fifo", "link", "directory"])
def test_a_game_that_cannot_be_kept_aside_is_said_so(home: Path, plant) -> None:
    home.mkdir(parents=True, exist_ok=True)
    plant(home / "previous.spider")
    _, repl = drive("4h from 1 to 8\r7 3\rnew\ry\rquit\r")
    assert "the previous game, 2 moves, could not be kept aside" in said(repl)
    assert "'open 1' brings it back" in said(repl)


HEADERS = ["suits: {}", "stock: {}", "removed: {}"]


@pytest.mark.parametrize("header", HEADERS)
def test_a_long_number_in_a_file_is_said_by_its_first_digits(header: str) -> None:
    text = header.format("7" * 5000) + "\n" + "--   " * 10 + "\n"
    with pytest.raises(SpiderError) as caught:
        read_position(text)
    message = str(caught.value)
    assert "(5,000 characters)" in message and len(message) < 300, message
