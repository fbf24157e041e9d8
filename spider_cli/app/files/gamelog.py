"""The history of games: one row a game, in an SQLite database in the player's data directory.

A row is written when a game is first changed (a game left untouched is no game), updated
after each command that changed it (one ``UPDATE`` of that row), and finished when the game
is won, lost or given up for another. It keeps how the game began (the deal's name, or the
name of the position loaded), the suits, when it started and ended, the moves, the score,
the time played, the result and the game file's text, from which ``open N`` brings it back.
A game given up for another, or left, and taken up again from a saved file goes on in its
own row (:meth:`GameLog.continued`), as it does with ``open N``: it is one game.

Two spiders may write at once: every write is one ``BEGIN IMMEDIATE`` transaction, the
database is in WAL mode where the file system allows it, and a writer waits up to
:data:`BUSY_SECONDS` for another's. The schema's version is ``PRAGMA user_version``.

The history is kept only where it is safe: never through a symbolic link (the database or
its ``-wal``/``-shm`` files), never in a directory that another user owns or anybody can
write. A file that is not a database of ours (damaged, or another program's) is set aside as
``games.sqlite.damaged`` and a new history begins, with a warning. Every other trouble is a
:class:`HistoryError` in a player's words: the history is never worth a traceback.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path
from typing import TypeVar

from spider_cli.app.files import databases
from spider_cli.app.files.atomic import move_aside
from spider_cli.app.files.databases import BadValue, begin_private, has_tables, refuse_unless_files
from spider_cli.app.files.userdirs import UntrustedError, check_private
from spider_cli.language.files import textfiles as files
from spider_cli.language.files.textfiles import NotAFileError
from spider_cli.language.gamefiles import command_lines
from spider_cli.rules.errors import SpiderError
from spider_cli.rules.values import Value

FILE_NAME = "games.sqlite"
SCHEMA_VERSION = 2
BUSY_SECONDS = 5.0
"""How long a write waits for another spider's write to finish."""
RECENT = 20
"""How many games ``games`` lists unless told."""
LARGEST = 2**63 - 1
"""SQLite's largest integer: no game has a number past it, no count goes past it."""
_AT_ONCE = 500
"""The most games one query names (SQLite refuses more than its limit of variables, which
older builds put at 999)."""

_REVIEWS = (
    # A game's reviews (``review``), one for each version of the review's searches
    """CREATE TABLE reviews (
        game INTEGER NOT NULL,       -- games.id
        version TEXT NOT NULL,       -- what decides the review (analysis.review.version)
        moves INTEGER NOT NULL,      -- the moves the game had when it was reviewed
        summary TEXT NOT NULL,       -- "won with every card known until move 143"
        review TEXT NOT NULL,        -- the whole review as JSON (spider review --json)
        PRIMARY KEY (game, version)
    )""",
)
"""The tables schema version 2 added (a history of version 1 gets them when opened)."""

_SCHEMA = (
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        deal TEXT NOT NULL,              -- "17", "pysol:14934", or a position's name
        numbered INTEGER NOT NULL,       -- 1: a numbered deal (the statistics count these)
        suits INTEGER NOT NULL,
        started REAL NOT NULL,           -- Unix time
        ended REAL,                      -- Unix time; NULL while in progress
        moves INTEGER NOT NULL,
        score INTEGER NOT NULL,
        seconds REAL NOT NULL,           -- time played
        result TEXT NOT NULL CHECK (result IN ('in progress', 'won', 'lost', 'abandoned')),
        game_file TEXT NOT NULL
    )""",
    "CREATE INDEX games_by_end ON games (numbered, suits, ended)",
    # Figures carried over from the statistics file of earlier versions (no games behind them)
    """CREATE TABLE carried (
        suits INTEGER PRIMARY KEY,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        best INTEGER
    )""",
    "CREATE TABLE notes (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    *_REVIEWS,
)

_T = TypeVar("_T")

_DAMAGED = ("SQLITE_NOTADB", "SQLITE_CORRUPT")
"""SQLite's words for a file that is not a sound database."""
_TROUBLE = {
    "SQLITE_BUSY": "another spider kept it busy",
    "SQLITE_LOCKED": "another spider kept it busy",
    "SQLITE_CANTOPEN": "it cannot be opened",
    "SQLITE_READONLY": "it is read-only",
    "SQLITE_PERM": "permission denied",
    "SQLITE_IOERR": "the disk could not be read or written",
    "SQLITE_FULL": "the disk is full",
}
"""Troubles of the place, not of spider: said to the player (any other error is a bug)."""


class Result(Enum):
    IN_PROGRESS = "in progress"
    WON = "won"
    LOST = "lost"
    ABANDONED = "abandoned"


class HistoryError(SpiderError):
    """The history cannot be read or written here; the game goes on without it."""


class Facts(Value):
    """What is recorded of a game at a moment."""

    deal: str
    numbered: bool
    suits: int
    moves: int
    score: int
    seconds: float
    game_file: str


class Entry(Value):
    """One game of the history (``game_file`` is empty in listings)."""

    number: int
    deal: str
    numbered: bool
    suits: int
    started: float
    ended: float | None
    moves: int
    score: int
    seconds: float
    result: Result
    game_file: str = ""


class Stored(Value):
    """A review kept with a game: the moves the game had then, and its summary."""

    moves: int
    summary: str


class Carried(Value):
    """One variant's figures from the old statistics file."""

    games: int
    wins: int
    best: int | None


class _NotOurs(Exception):
    """The file is a database, but not a history of spider's."""


class GameLog:
    """The history in one file (by default in the player's data directory)."""

    def __init__(self, path: Path | None = None, now: Callable[[], float] = time.time) -> None:
        self._path = path
        self.now = now
        """The wall clock of start and end times (a test's clock in tests)."""
        self._connection: sqlite3.Connection | None = None
        self._kept_busy = False
        """Another spider held the history for all of :data:`BUSY_SECONDS`: until the
        history can be used again, each use tries once and does not wait."""
        self.notices: list[str] = []
        """Warnings to say once (a damaged file set aside); :meth:`take_notices` empties it."""

    @property
    def path(self) -> Path:
        if self._path is not None:
            return self._path
        from spider_cli.app.files.userdirs import data_dir  # platformdirs: only when needed

        return data_dir() / FILE_NAME

    def take_notices(self) -> list[str]:
        notices, self.notices = self.notices, []
        return notices

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    # -- writing ------------------------------------------------------------------------------

    def record(self, number: int | None, facts: Facts, result: Result = Result.IN_PROGRESS) -> int:
        """Write a game: a new row (``number`` None, or a row no longer there), else an update
        of row ``number`` while it is unfinished; its number. A result other than "in
        progress" finishes it (the end time is now)."""
        ended = None if result is Result.IN_PROGRESS else self.now()
        values = (facts.moves, facts.score, facts.seconds, result.value, ended, facts.game_file)

        def write(db: sqlite3.Connection) -> int:
            if number is not None:
                changed = db.execute(
                    "UPDATE games SET moves = ?, score = ?, seconds = ?, result = ?, ended = ?,"
                    " game_file = ? WHERE id = ? AND result IN ('in progress', 'abandoned')",
                    (*values, number),
                ).rowcount
                if changed or db.execute("SELECT 1 FROM games WHERE id = ?", (number,)).fetchone():
                    return number
            cursor = db.execute(
                "INSERT INTO games (deal, numbered, suits, started, moves, score, seconds,"
                " result, ended, game_file) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (facts.deal, int(facts.numbered), facts.suits, self.now(), *values),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        return self._work(write, writing=True)

    def continued(self, facts: Facts) -> int | None:
        """The unfinished game (in progress or abandoned) that a game file just loaded
        continues, if any: one with the file's start and moves, and maybe more (its row is
        written after every command, so the game the file was saved from has at least the
        file's moves). The newest one that stopped where the file does, else the newest
        that went on; None for a file with no moves (the start of a deal is no game yet)."""
        if not facts.moves:
            return None
        mine = command_lines(facts.game_file)
        rows: list[tuple[object, object]] = self._work(
            lambda db: db.execute(
                "SELECT id, game_file FROM games WHERE result IN ('in progress', 'abandoned')"
                " AND numbered = ? AND suits = ? AND moves >= ? ORDER BY id DESC",
                (int(facts.numbered), facts.suits, facts.moves),
            ).fetchall()
        )
        went_on = None
        for row in rows:
            try:  # every column through its typed reader (a blob or NULL: named, skipped)
                number = databases.integer(row[0], "id", 1, LARGEST)
                text = databases.text(row[1], "game_file", files.MAX_FILE_BYTES)
            except BadValue as error:
                self.notices.append(
                    f"game {row[0]!r} of the history holds a bad value ({error}): it is left out"
                )
                continue
            theirs = command_lines(text)
            if theirs == mine:
                return number
            if went_on is None and theirs[: len(mine)] == mine:
                went_on = number
        return went_on

    def carry(self, note: str, figures: dict[int, Carried]) -> bool:
        """Add figures of games recorded elsewhere, once: ``note`` marks them as carried (in
        the same transaction, so two spiders carrying at once count them once). True if
        they were carried now."""

        def write(db: sqlite3.Connection) -> bool:
            if db.execute("SELECT 1 FROM notes WHERE name = ?", (note,)).fetchone():
                return False
            for suits, add in figures.items():
                db.execute(
                    "INSERT INTO carried (suits, games, wins, best) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (suits) DO UPDATE SET games = games + excluded.games,"
                    " wins = wins + excluded.wins, best = max(coalesce(best, excluded.best),"
                    " coalesce(excluded.best, best))",
                    (suits, add.games, add.wins, add.best),
                )
            db.execute("INSERT INTO notes VALUES (?, ?)", (note, str(self.now())))
            return True

        return self._work(write, writing=True)

    # -- reading ------------------------------------------------------------------------------

    def recent(self, limit: int = RECENT) -> list[Entry]:
        """The last ``limit`` games begun, the newest first (without their game files)."""
        rows = self._work(
            lambda db: db.execute(
                f"SELECT {_LISTED}, '' FROM games ORDER BY id DESC LIMIT ?",
                (min(limit, LARGEST),),
            ).fetchall()
        )
        return self._entries(rows)

    def entry(self, number: int) -> Entry:
        """Game ``number``, with its game file; SpiderError if there is none."""
        row = None
        if number <= LARGEST:
            row = self._work(
                lambda db: db.execute(
                    f"SELECT {_LISTED}, game_file FROM games WHERE id = ?", (number,)
                ).fetchone()
            )
        if row is None:
            raise SpiderError(f"there is no game {number} in the history ('games' lists them)")
        try:
            return _entry(row)
        except BadValue as error:
            raise SpiderError(
                f"game {number} of the history holds a bad value ({error}): it cannot be opened"
            ) from None

    def store_review(
        self, number: int, version: str, moves: int, summary: str, review: str
    ) -> None:
        """Keep game ``number``'s review of ``version`` (replacing one of the same version)."""

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR REPLACE INTO reviews VALUES (?, ?, ?, ?, ?)",
                (number, version, moves, summary, review),
            )

        self._work(write, writing=True)

    def kept_reviews(self, version: str, moves: int) -> list[str]:
        """The reviews (as JSON) kept under ``version`` of games of ``moves`` moves: the
        one of a game, if it was reviewed, is among them (none if the history cannot be
        read, or does not exist yet: it is not made for this)."""
        if self._connection is None and not self.path.exists():
            return []

        def read(db: sqlite3.Connection) -> list[tuple[object, ...]]:
            return db.execute(
                "SELECT review FROM reviews WHERE version = ? AND moves = ?", (version, moves)
            ).fetchall()

        try:
            rows = self._work(read)
        except HistoryError:
            return []
        return [row[0] for row in rows if isinstance(row[0], str)]

    def reviews(self, numbers: list[int]) -> dict[tuple[int, str], Stored]:
        """The reviews kept for these games, by (game, version); a row with a bad value is
        left out, with a notice."""
        if not numbers:
            return {}

        def read(db: sqlite3.Connection) -> list[tuple[object, ...]]:
            rows = []
            for start in range(0, len(numbers), _AT_ONCE):
                some = numbers[start : start + _AT_ONCE]
                marks = ", ".join("?" * len(some))
                rows += db.execute(
                    f"SELECT game, version, moves, summary FROM reviews WHERE game IN ({marks})",
                    some,
                ).fetchall()
            return rows

        rows = self._work(read)
        found = {}
        for row in rows:
            try:
                key = (
                    databases.integer(row[0], "game", 1, LARGEST),
                    databases.text(row[1], "version", 10_000),
                )
                found[key] = Stored(
                    databases.integer(row[2], "moves", 0, LARGEST),
                    databases.text(row[3], "summary", 200),
                )
            except BadValue as error:
                self.notices.append(
                    f"a review of game {row[0]!r} holds a bad value ({error}): it is not shown"
                )
        return found

    def finished(self) -> list[Entry]:
        """Every finished game of a numbered deal, in the order they ended."""
        rows = self._work(
            lambda db: db.execute(
                f"SELECT {_LISTED}, '' FROM games WHERE numbered = 1 AND ended IS NOT NULL"
                " AND result != 'in progress' ORDER BY ended, id"
            ).fetchall()
        )
        return self._entries(rows)

    def carried(self) -> dict[int, Carried]:
        """The figures carried over from the old statistics file, by variant (a row with a
        bad value is left out, with a notice)."""
        rows: list[tuple[object, ...]] = self._work(
            lambda db: db.execute("SELECT suits, games, wins, best FROM carried").fetchall()
        )
        found = {}
        for row in rows:
            try:
                suits, carried = _carried(row)
            except BadValue as error:
                self.notices.append(
                    f"the figures carried over for suits = {row[0]!r} hold a bad value "
                    f"({error}): they are not counted"
                )
                continue
            found[suits] = carried
        return found

    def _entries(self, rows: list[_Row]) -> list[Entry]:
        """The games of ``rows``; one with a bad value is left out, with a notice naming it."""
        found = []
        for row in rows:
            try:
                found.append(_entry(row))
            except BadValue as error:
                self.notices.append(
                    f"game {row[0]} of the history holds a bad value ({error}): "
                    "it is left out and not counted"
                )
        return found

    # -- the connection -----------------------------------------------------------------------

    def _work(self, work: Callable[[sqlite3.Connection], _T], writing: bool = False) -> _T:
        """Run ``work`` on the database (in one write transaction if ``writing``); a damaged
        file is set aside and the work done again on a new one."""
        for attempt in (1, 2):
            try:
                db = self._connect()
                if not writing:
                    done = work(db)
                else:
                    with _transaction(db):
                        done = work(db)
            except (sqlite3.Error, _NotOurs) as error:
                self.close()
                if attempt == 1 and _damaged(error):
                    self._set_aside()
                    continue
                name = getattr(error, "sqlite_errorname", "") or ""
                self._kept_busy = name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))
                raise self._trouble(error) from None
            if self._kept_busy:  # free again: wait for other writers as usual
                self._kept_busy = False
                db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            return done
        raise AssertionError("unreachable")  # pragma: no cover

    def _connect(self) -> sqlite3.Connection:
        if self._connection is not None:
            return self._connection
        path = self.path
        _check_place(path)
        try:
            begin_private(path)
        except OSError as error:
            raise HistoryError(
                f"cannot keep the game history in {files.shown(str(path))}: {files.reason(error)}"
            ) from None
        # One spider uses its connection from one thread at a time, not always the same one.
        wait = 0 if self._kept_busy else BUSY_SECONDS
        db = sqlite3.connect(path, timeout=wait, isolation_level=None, check_same_thread=False)
        try:
            _write_ahead(db, wait)
            db.execute("PRAGMA synchronous = NORMAL")
            with _transaction(db):
                _prepare(db)
        except BaseException:
            db.close()
            raise
        self._connection = db
        return db

    def _set_aside(self) -> None:
        """Move a damaged file (and its write-ahead log) out of the way; HistoryError if it
        cannot be moved (it would be found damaged again)."""
        path = self.path
        aside = path.with_name(path.name + ".damaged")
        if not move_aside(path, aside):
            raise HistoryError(
                f"cannot use the game history {files.shown(str(path))}: it is damaged, and "
                f"it cannot be set aside as {files.shown(aside.name)}"
            )
        move_aside(f"{path}-wal", f"{aside}-wal")
        with contextlib.suppress(OSError):
            os.unlink(f"{path}-shm")
        self.notices.append(
            f"the game history was damaged or not spider's (kept as {aside.name}); "
            "a new history begins"
        )

    def _trouble(self, error: Exception) -> HistoryError:
        """The player's words for trouble with the database. Any error SQLite gives is one
        (a trigger or a constraint that another program put in the file, a limit): the
        history is never worth ending the game for, so it is said in SQLite's words."""
        name = getattr(error, "sqlite_errorname", "") or ""
        reason = _TROUBLE.get("_".join(name.split("_")[:2]))
        if reason is None and isinstance(error, _NotOurs):
            reason = str(error)
        if reason is None:
            reason = f"SQLite refused it ({files.shown(str(error)) or type(error).__name__})"
        return HistoryError(f"cannot use the game history {files.shown(str(self.path))}: {reason}")


def _write_ahead(db: sqlite3.Connection, wait: float) -> None:
    """Put the file in WAL mode. SQLite answers "busy" at once, without waiting, while another
    spider is creating the same file, so the switch is tried again for up to ``wait``
    seconds."""
    deadline = time.monotonic() + wait
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            busy = getattr(error, "sqlite_errorname", "") == "SQLITE_BUSY"
            if not busy or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


_LISTED = "id, deal, numbered, suits, started, ended, moves, score, seconds, result"

_Row = tuple[int, str, int, int, float, float | None, int, int, float, str, str]
"""A game as SQLite gives it: the columns of :data:`_LISTED`, then the game file (or '')."""


LATEST = 253_402_300_799.0
"""The last second of the year 9999: no start or end of a game is later (nor before 1970)."""
LONGEST_DEAL = 10_000
"""The most characters of a deal's name (a position file's name is one)."""


def _entry(row: _Row) -> Entry:
    """The typed reader of the games table: every value checked (BadValue names the first
    that is not one its column can hold)."""
    number, deal, numbered, suits, started, ended, moves, score, seconds, result, text = row
    return Entry(
        databases.integer(number, "id", 1, LARGEST),
        databases.text(deal, "deal", LONGEST_DEAL),
        bool(databases.integer(numbered, "numbered", 0, 1)),
        _suits(suits),
        databases.real(started, "started", 0.0, LATEST),
        None if ended is None else databases.real(ended, "ended", 0.0, LATEST),
        databases.integer(moves, "moves", 0, LARGEST),
        databases.integer(score, "score", -LARGEST - 1, LARGEST),
        databases.real(seconds, "seconds", 0.0, LATEST),
        Result(databases.text(result, "result", 20, [r.value for r in Result])),
        databases.text(text, "game_file", files.MAX_FILE_BYTES),
    )


def _suits(value: object) -> int:
    suits = databases.integer(value, "suits", 1, 4)
    if suits == 3:
        raise BadValue("suits", value)
    return suits


def _carried(row: tuple[object, ...]) -> tuple[int, Carried]:
    """The typed reader of the carried table: (suits, its figures), every value checked."""
    suits, games, wins, best = row
    played = databases.integer(games, "games", 0, LARGEST)
    return _suits(suits), Carried(
        played,
        databases.integer(wins, "wins", 0, played),
        None if best is None else databases.integer(best, "best", -LARGEST - 1, LARGEST),
    )


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One write transaction, taking the write lock at once (so the busy timeout applies).
    A transaction left open by an interrupt (Ctrl-C between BEGIN and the ``try``, or during
    COMMIT) is rolled back first: it was never committed, and would refuse every write
    after it."""
    if db.in_transaction:
        db.execute("ROLLBACK")
    try:
        db.execute("BEGIN IMMEDIATE")
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise


def _prepare(db: sqlite3.Connection) -> None:
    """Create the schema in a new file; refuse a file of a newer spider or another program."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version == 1 and has_tables(db, _SCHEMA[: -len(_REVIEWS)]):  # before reviews were kept
        if not has_tables(db, _SCHEMA):  # (a version 2 file marked 1 has them already)
            for statement in _REVIEWS:
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return
    if version == SCHEMA_VERSION:
        if not has_tables(db, _SCHEMA):  # a table or a column lost: damaged
            raise _NotOurs("its tables are not the ones spider writes")
        return
    if version > SCHEMA_VERSION:
        raise HistoryError("the game history was written by a newer spider; it is left as it is")
    if version != 0 or db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise _NotOurs("it is not a history of spider's")
    for statement in _SCHEMA:
        db.execute(statement)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _damaged(error: Exception) -> bool:
    name = getattr(error, "sqlite_errorname", "") or ""
    return isinstance(error, _NotOurs) or name.startswith(_DAMAGED)


def _check_place(path: Path) -> None:
    """Refuse a place where another user could change the history under us, or where
    SQLite would block or write through a link: a link, a named pipe or a device at any of
    its files, and a directory that is not ours or that anybody can write. Creates the
    directory (private)."""
    directory = path.parent
    try:
        check_private(directory)
    except UntrustedError as error:
        raise HistoryError(str(error)) from None
    except OSError as error:
        raise HistoryError(
            f"cannot keep the game history in {files.shown(str(directory))}: {files.reason(error)}"
        ) from None
    if not os.access(directory, os.W_OK):
        raise HistoryError(
            f"{files.shown(str(directory))} is read-only: spider keeps no game history there"
        )
    try:
        refuse_unless_files(path)
    except NotAFileError as error:
        raise HistoryError(str(error)) from None
