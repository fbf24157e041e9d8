"""The journal: the game in progress, written after every command that changed it.

The journal is an ordinary game file (``Files.game_file``) at ``current.spider`` in the
player's data directory, replaced atomically, so a crash, a closed terminal or a killed
process loses no move: ``spider`` with no arguments offers the game back. Comment lines at
its end carry what a game file does not: the file the game was last saved to and whether
the game has moved on since (so that leaving can offer to bring that file up to date), the
game's number in the history of games and whether the game was already finished there (won
or lost). The time played changing alone does not rewrite it.

A game that is won is taken out of the journal; a game the player leaves for another on
purpose (``new``, ``load``, or "no" to the offer) moves to ``previous.spider`` (or, when that
holds an earlier one, to the first free ``previous.N.spider``: a game said to be kept there
is never overwritten), so even that can be loaded back.

Two spiders never share a journal: each holds a lock (``current.spider.lock``) on the one it
uses for as long as it runs, and a second spider takes the next free one
(``current-2.spider``, with ``previous-2.spider``), saying so, so neither overwrites the
other's game. ``spider`` offers back the game of every journal no running spider holds, the
newest first (:meth:`Journal.waiting`), and keeps the journal of the one taken up.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from spider_cli.app.files.atomic import (
    move_aside,
    refuse_unless_file,
    remove_stale_temporaries,
    write_atomically,
)
from spider_cli.app.files.userdirs import UntrustedError, check_private, data_dir
from spider_cli.language.files import textfiles
from spider_cli.language.files.textfiles import NotAFileError
from spider_cli.language.gamefiles import DealOrigin, start_of, without_time
from spider_cli.rules.errors import SpiderError

if TYPE_CHECKING:
    from filelock import BaseFileLock

    from spider_cli.app.session import Session

CURRENT = "current.spider"
_SAVED = "# journal: saved as "
_BEHIND = "# journal: the game has changed since it was saved"
_COUNTED = "# journal: counted in the statistics"
_BEGUN = "# journal: begun from "
_NUMBER = re.compile(r"^# journal: game (\d{1,18}) of the history$", re.MULTILINE)
_MOVES = re.compile(r"^# position after (\d{1,9}) moves?\b", re.MULTILINE)
"""The game file's comment that counts its moves: "after 1 move", "after 2 moves", and
"after 1 moves" as earlier versions wrote it."""
SLOTS = 9
"""How many spiders at once can each keep a journal in one data directory."""
KEPT_ASIDE = 999
"""How many games given up each journal keeps aside, each in a file of its own."""


@dataclass
class JournalEntry:
    """What the journal holds: the game file's text and the notes the REPL keeps with it."""

    path: Path
    moves: int
    saved_as: str | None
    counted: bool
    number: int | None = None
    """The game's number in the history of games (None: not recorded there yet)."""
    behind: bool = False
    """The file ``saved_as`` is behind the game: the game changed after it was saved."""
    start: str | None = None
    """How the game began, in a player's words ("deal 21, 4 suits", "problem-4.txt"), if
    its file says."""
    begun: str | None = None
    """The name of the file a game of a position began from ("problem-4.txt"), if known."""


def journal_text(
    session: Session,
    saved_as: str | None,
    counted: bool,
    number: int | None = None,
    game_file: str | None = None,
) -> str:
    """The journal for a session: its game file (``game_file`` if the caller has it), then
    the REPL's notes as comments."""
    text = session.files.game_file() if game_file is None else game_file
    if session.source_name and not isinstance(session.origin, DealOrigin):
        text += f"{_BEGUN}{textfiles.shown(session.source_name)}\n"
    if saved_as:
        text += f"{_SAVED}{saved_as}\n"
        if session.changed:
            text += _BEHIND + "\n"
    if number is not None:
        text += f"# journal: game {number} of the history\n"
    if counted:
        text += _COUNTED + "\n"
    return text


def _names(directory: Path, slot: int) -> tuple[Path, Path]:
    """The journal of a slot (1 to :data:`SLOTS`), and where a game given up goes."""
    suffix = "" if slot == 1 else f"-{slot}"
    return directory / f"current{suffix}.spider", directory / f"previous{suffix}.spider"


class Journal:
    """The journal file of one directory (by default the player's data directory): the
    first one no other spider holds, or the one of ``slot``."""

    def __init__(self, directory: Path | None = None, slot: int | None = None) -> None:
        self.directory = directory or data_dir()
        self.slot = slot
        self.path, self.previous = _names(self.directory, slot or 1)
        self._written: str | None = None
        self._dormant: str | None = None  # the game file of a game taken out (won)
        self.failed = False
        self._lock: BaseFileLock | None = None
        self.crowded = False
        """Every journal is held by another spider: this one keeps none."""
        self.notice: str | None = None
        """Said once: this spider keeps its journal in another slot (another one runs)."""
        self.not_kept: str | None = None
        """Why the last :meth:`retire` could not keep the game aside (None: it could)."""
        self.untrusted: str | None = None
        """Why the directory is not trusted (another user could change it): nothing in it
        is read or written (:func:`~spider_cli.app.files.userdirs.check_private`)."""

    def claim(self) -> bool:
        """Take the first journal no other spider holds, or this journal's slot (kept until
        this process ends or :meth:`release`); False when all are taken or the directory
        cannot hold a lock."""
        if self._lock is not None:
            return True
        from filelock import FileLock, Timeout

        try:
            check_private(self.directory)
        except UntrustedError as error:
            self.untrusted = str(error)
            return False
        except OSError:  # it cannot be made (writing says why)
            return False
        self.untrusted = None
        slots = range(1, SLOTS + 1) if self.slot is None else [self.slot]
        held = 0
        for slot in slots:
            path, previous = _names(self.directory, slot)
            lock = FileLock(f"{path}.lock", timeout=0, is_singleton=True, mode=0o600)
            try:
                lock.acquire()
            except Timeout:
                held += 1
                continue
            except OSError:  # no lock can be had here (a read-only directory): journal as is
                return False
            self._lock, self.path, self.previous = lock, path, previous
            remove_stale_temporaries(self.directory)  # left by a spider killed mid-write
            if slot > 1 and self.slot is None:
                self.notice = (
                    f"another spider has the game in {CURRENT} open: this one keeps its "
                    f"journal in {path.name}"
                )
            return True
        self.crowded = held == len(slots)
        return False

    @property
    def keeping(self) -> bool:
        """Whether the journal keeps the game: it could be written, as far as is known, and
        another spider does not hold every one."""
        return not (self.failed or self.crowded or self.untrusted)

    def waiting(self) -> list[tuple[Journal, JournalEntry]]:
        """The games left in this directory's journals that no other spider holds (a
        second spider's too, in ``current-2.spider``), the newest first: each with the
        journal of its slot, which this spider holds from now on (:meth:`release` the
        ones not taken up)."""
        found = []
        for slot in range(1, SLOTS + 1):
            path = _names(self.directory, slot)[0]
            journal = Journal(self.directory, slot)
            entry = journal.read() if path.is_file() else None
            try:
                if entry is not None:
                    found.append((-path.stat().st_mtime, slot, journal, entry))
                    continue
            except OSError:
                pass
            journal.release()
        found.sort(key=lambda each: each[:2])
        return [(journal, entry) for _, _, journal, entry in found]

    def vacate(self) -> Journal | None:
        """Leave the game in this journal waiting for a later spider (which offers it back)
        and take the first journal that no spider holds and no game is in: that journal, or
        None when there is none (this one is kept then)."""
        for slot in range(1, SLOTS + 1):
            path = _names(self.directory, slot)[0]
            if path == self.path or path.exists() or path.is_symlink():
                continue
            other = Journal(self.directory, slot)
            if other.claim():
                self.release()
                return other
        return None

    def release(self) -> None:
        """Let another spider take this journal."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def read(self) -> JournalEntry | None:
        """The journaled game's notes, or None when there is no journal (or all are held by
        other spiders, or what has its name is not a regular file: writing says so). A
        journal that cannot be read is a game of no moves (loading it says why)."""
        self.claim()
        if self.crowded or self.untrusted:
            return None
        try:
            text = textfiles.read_text(self.path, self.path.name, follow_links=False)
        except SpiderError:
            regular = not self.path.is_symlink() and self.path.is_file()
            return JournalEntry(self.path, 0, None, False) if regular else None
        found = _MOVES.search(text)
        lines = text.splitlines()
        saved = [line[len(_SAVED) :] for line in lines if line.startswith(_SAVED)]
        number = _NUMBER.search(text)
        begun = [line[len(_BEGUN) :] for line in lines if line.startswith(_BEGUN)]
        start = start_of(text)
        if begun and start == "a position":
            start = begun[-1]
        return JournalEntry(
            self.path,
            int(found.group(1)) if found else 0,
            saved[-1] if saved else None,
            _COUNTED in lines,
            int(number.group(1)) if number else None,
            _BEHIND in lines,
            start,
            begun[-1] if begun else None,
        )

    def update(
        self,
        session: Session,
        saved_as: str | None = None,
        counted: bool = False,
        number: int | None = None,
        timed: bool = False,
        game_file: str | None = None,
    ) -> str | None:
        """Journal the session if it changed since the last write (the time played alone is
        no change, unless ``timed``: leaving writes it); returns a warning once.

        A game with no moves is not journaled unless a journal of it already exists (a game
        taken back to its start stays journaled as such).
        """
        text = journal_text(session, saved_as, counted, number, game_file)
        if without_time(text) == self._written and not timed:
            return None
        self.claim()
        if self.untrusted:
            return self._warn(
                f"{self.untrusted}; the game is not journaled: "
                "save the game with 'save FILE' to keep it"
            )
        if self.crowded:
            self._written = without_time(text)
            return self._warn(
                f"{SLOTS} other spiders hold every journal in {self._where()}: "
                "save the game with 'save FILE' to keep it"
            )
        notice, self.notice = self.notice, None
        if self._dormant is not None:
            if without_time(text).startswith(self._dormant):
                return None
            self._dormant = None
        if not session.game.moves_made and not self.path.exists():
            self._written = without_time(text)
            return None
        too_long = textfiles.unreadable(text)
        if too_long:
            return self._warn(f"the game is not journaled: its file would be {too_long}")
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, text, private=True)
        except OSError as error:
            reason = textfiles.reason(error)
            return self._warn(
                f"cannot keep the journal in {self._where()} ({reason}): "
                "save the game with 'save FILE' to keep it"
            )
        self._written = without_time(text)
        self.failed = False
        return notice

    def _where(self) -> str:
        """The directory, for a message (from outside: ``SPIDER_HOME``)."""
        return textfiles.shown(str(self.directory))

    def _warn(self, warning: str) -> str | None:
        """A journal failure, said once until the journal works again."""
        if self.failed:
            return None
        self.failed = True
        return warning

    def clear(self, session: Session) -> None:
        """Take the game out of the journal (it was won); it comes back only if it changes."""
        if self.untrusted is None:
            with contextlib.suppress(OSError):
                self.path.unlink()
        self._written = None
        self._dormant = without_time(session.files.game_file())

    def retire(self) -> Path | None:
        """Move the journaled game aside to ``previous.spider``; its path, or None (no
        journal, or something that is not a regular file at either name: :attr:`not_kept`
        then says why the game could not be kept aside)."""
        self._written = self._dormant = None
        self.not_kept = None
        if self.untrusted is not None or not self.path.is_file() or self.path.is_symlink():
            return None
        try:
            refuse_unless_file(self.previous)
        except NotAFileError as error:  # a named pipe, a link, ... at previous.spider
            self.not_kept = str(error)
            return None
        aside = self._free_aside()
        if aside is None:
            self.not_kept = f"{KEPT_ASIDE} games are kept aside already: load and save them"
            return None
        if move_aside(self.path, aside):
            return aside
        self.not_kept = f"it could not be moved to {textfiles.shown(str(aside))}"
        return None

    def _free_aside(self) -> Path | None:
        """Where the next game given up goes: ``previous.spider``, else the first free one of
        ``previous.2.spider``, ``previous.3.spider``, ... (each game kept aside keeps its own
        file: one said to hold a game is never overwritten); None when all are taken."""
        stem = self.previous.name.removesuffix(".spider")
        for n in range(1, KEPT_ASIDE + 1):
            path = self.previous if n == 1 else self.previous.with_name(f"{stem}.{n}.spider")
            try:
                path.lstat()
            except FileNotFoundError:
                return path
            except (OSError, ValueError):
                continue
        return None
