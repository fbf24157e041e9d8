"""A home others cannot plant: one rule for every file in spider's data and state directories
(spider_cli.app.files.userdirs.check_private, as ssh's StrictModes). A directory another user could
change (writable by others or by the group, another user's, a symbolic link, or inside a
directory others can write without the sticky bit) has nothing read from it or written to
it: no journal offered back, no history read or appended to, no game history, no statistics,
no bench results. In a directory of the user's own, every file spider writes is private, even
where a file of another mode lay before."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from prompt_toolkit.history import InMemoryHistory

from spider_cli.app.files import benchdb, preferences, stats
from spider_cli.app.files.gamelog import FILE_NAME, GameLog, HistoryError
from spider_cli.app.files.userdirs import UntrustedError, check_private
from spider_cli.app.journal import Journal
from spider_cli.app.session import Session
from spider_cli.rules.errors import SpiderError
from spider_cli.tui.linehistory import FileHistory, open_history
from tests.helpers import drive, said

PLANTED_HISTORY = "\n# 2026-01-01 00:00:00\n+the planted line\n"


def _everyone(home: Path) -> Path:
    home.chmod(0o777)
    return home


def _group(home: Path) -> Path:
    home.chmod(0o770)
    return home


def _linked(home: Path) -> Path:
    link = home.with_name("link")
    link.symlink_to(home)
    return link


def _in_a_shared_directory(home: Path) -> Path:
    """Private itself, in a directory anybody can write (no sticky bit): it can be renamed
    and replaced."""
    shared = home.parent / "shared"
    shared.mkdir()
    inner = shared / "home"
    home.rename(inner)
    shared.chmod(0o777)
    return inner


def _another_users(home: Path) -> Path:
    if os.geteuid() != 0:
        pytest.skip("only root can give a directory to another user")
    os.chown(home, 65534, 65534)
    return home


PLANTINGS: list[Callable[[Path], Path]] = [
    _everyone,
    _group,
    _linked,
    _in_a_shared_directory,
    _another_users,
]


def _planted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: Callable[[Path], Path]) -> Path:
    """A home holding a journal of a game of 2 moves and a history, made untrusted by
    ``how``; SPIDER_HOME points at it."""
    home = tmp_path / "home"
    monkeypatch.setenv("SPIDER_HOME", str(home))
    monkeypatch.chdir(tmp_path)
    drive("4h from 1 to 8\r7 3\r\x04n\r")
    assert Journal(home).read() is not None
    (home / "history").write_text(PLANTED_HISTORY)
    (home / "current.spider").chmod(0o666)
    home = how(home)
    monkeypatch.setenv("SPIDER_HOME", str(home))
    return home


@pytest.mark.parametrize("how", PLANTINGS, ids=lambda how: how.__name__.strip("_"))
def test_nothing_is_read_from_a_home_others_could_plant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: Callable[[Path], Path]
) -> None:
    home = _planted(tmp_path, monkeypatch, how)
    with pytest.raises(UntrustedError, match="spider keeps none of its files there"):
        check_private(home)
    journal_before = (home / "current.spider").read_text()
    assert Journal(home).read() is None and Journal(home).waiting() == []
    _, repl = drive("\rquit\rn\r", session=Session.new_game(seed=99), offer_journal=True)
    assert "Continue the game" not in said(repl)
    assert "spider keeps none of its files there" in said(repl)
    assert (home / "current.spider").read_text() == journal_before
    history = open_history(home)
    assert isinstance(history, InMemoryHistory)
    assert list(history.load_history_strings()) == []
    with pytest.raises(HistoryError, match="spider keeps none of its files there"):
        GameLog(home / FILE_NAME).recent()
    with pytest.raises(SpiderError, match="spider keeps none of its files there"):
        benchdb.Store(benchdb.default_path())
    (home / "settings.spider").write_text("set suits 1\n")
    assert preferences.load() == preferences.PLAYER_DEFAULTS  # the planted setting is not read
    with pytest.raises(SpiderError, match="spider keeps none of its files there"):
        preferences.save(preferences.PLAYER_DEFAULTS.changed("suits", 2))
    assert (home / "settings.spider").read_text() == "set suits 1\n"
    (home / "stats.json").write_text('{"format": 1, "variants": {}}')
    assert "spider keeps none of its files there" in (stats.load(home / "stats.json").warning or "")
    assert (home / "history").read_text() == PLANTED_HISTORY


def test_a_shared_directory_with_the_sticky_bit_may_hold_the_home(tmp_path: Path) -> None:
    """As /tmp: others can write it, but not rename or remove what is ours in it."""
    shared = tmp_path / "sticky"
    shared.mkdir()
    shared.chmod(0o1777)
    check_private(shared / "home")
    assert (shared / "home").stat().st_mode & 0o777 == 0o700


def test_every_file_spider_writes_in_its_home_is_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A journal rewritten over a file of mode 0666 is 0600, as is a new one, the history
    (new or trimmed) and the game history's database."""
    home = tmp_path / "home"
    monkeypatch.setenv("SPIDER_HOME", str(home))
    monkeypatch.chdir(tmp_path)
    drive("4h from 1 to 8\r\x04n\r")
    journal = home / "current.spider"
    assert journal.stat().st_mode & 0o777 == 0o600
    journal.chmod(0o666)
    drive("7 3\r\x04n\r", offer_journal=False)
    kept = Journal(home)
    kept.update(Session.new_game(seed=5, base_dir=tmp_path), timed=True)
    assert journal.stat().st_mode & 0o777 == 0o600
    assert (home / "current.spider.lock").stat().st_mode & 0o777 == 0o600  # held, private
    history = open_history(home)
    assert isinstance(history, FileHistory)
    history.store_string("4h from 1 to 8")
    assert (home / "history").stat().st_mode & 0o777 == 0o600
    settings = home / "settings.spider"
    preferences.save(preferences.PLAYER_DEFAULTS)  # new: private
    assert settings.stat().st_mode & 0o777 == 0o600
    settings.chmod(0o666)
    preferences.save(preferences.PLAYER_DEFAULTS.changed("suits", 2))  # rewritten: private
    assert settings.stat().st_mode & 0o777 == 0o600
    (home / "history").chmod(0o644)
    (home / "history").write_text("\n# 2026-01-01 00:00:00\n+x\n" * 6000)
    open_history(home)  # trims it
    assert (home / "history").stat().st_mode & 0o777 == 0o600
    GameLog(home / FILE_NAME).recent()
    assert home.stat().st_mode & 0o777 == 0o700
