"""``spider bench``'s results, kept in a SQLite file as each deal finishes.

One row per deal, limits and search: (source, number, suits, position limit, time limit,
the search's key) with how it went: won, moves, positions, seconds and the winning line. A run
that is stopped (Ctrl-C, a machine lost) keeps what it finished; the next run of the same
search with the same limits reads those rows and plays only the rest. The key
(:func:`spider_cli.analysis.solve.autoplay.search_key`) names the search's versions, so a result
of another version is played again, never reported as this one's; a deal the beam won is
kept under the beam stage's key alone, read back by every search with the same beam. An
older spider's table ``results`` (whose rows named no search) is left as it is and never
read.

Deal numbers are kept as text: PySolFC's run to 20 digits, past
SQLite's 64-bit integers. Every write is its own transaction, and a busy timeout lets two
runs (or a reader) share the file.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

from spider_cli.analysis import DealResult, SearchKey, Stage
from spider_cli.app.files import databases, userdirs
from spider_cli.app.files.databases import BadValue, begin_private, has_tables, refuse_unless_files
from spider_cli.app.files.userdirs import check_private
from spider_cli.language.files import textfiles as files
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.errors import NotationError, SpiderError

FILE_NAME = "bench.sqlite"
"""The results file's name in the player's data directory (the default ``--db``)."""

BUSY_SECONDS = 30.0
"""How long a write waits for another run holding the file before it fails."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS known_results (
    source TEXT NOT NULL,
    number TEXT NOT NULL,
    suits INTEGER NOT NULL,
    position_limit INTEGER NOT NULL,
    time_limit REAL NOT NULL,
    search TEXT NOT NULL,
    won INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    positions INTEGER NOT NULL,
    seconds REAL NOT NULL,
    line TEXT NOT NULL,
    stage TEXT NOT NULL DEFAULT '',
    proved INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (source, number, suits, position_limit, time_limit, search)
)
"""
"""Every card known: ``time_limit`` is 0 for none; ``search`` the key of the search that
played the deal (``autoplay.SearchKey.of``: its beam stage's for a deal the beam won);
``line`` the winning line as a JSON list of moves; ``stage`` the part of the search that won
it or ended it (``autoplay.Stage``; '' in a row stored before stages were kept); ``proved``
1 when it was proved unwinnable."""

_STAGE_COLUMNS = (
    "ALTER TABLE known_results ADD COLUMN stage TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE known_results ADD COLUMN proved INTEGER NOT NULL DEFAULT 0",
)
"""What a results file from before stages were kept (its table ends at ``line``) gains."""

_BLIND_SCHEMA = """
CREATE TABLE IF NOT EXISTS blind_results (
    source TEXT NOT NULL,
    number TEXT NOT NULL,
    suits INTEGER NOT NULL,
    player TEXT NOT NULL,
    won INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    positions INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (source, number, suits, player)
)
"""
"""``spider bench --blind``'s games: ``player`` names the player and everything that decides
its moves (``chancesearch.player_key``), so a stored game is read back only for the same
player."""


def _reason(error: sqlite3.Error) -> str:
    """What went wrong in a write, in a player's words (SQLite says "disk I/O error" or
    "database or disk is full" for a full disk)."""
    text = str(error)
    if "full" in text or "I/O" in text:
        return f"the disk is full or failing ({text})"
    return text


LONGEST_LINE = 16 * 1024 * 1024
"""The most characters of a stored winning line (as JSON)."""


def _result(row: tuple[object, ...]) -> DealResult:
    """The typed reader of the results table: one row as a deal's result, every value
    checked (BadValue names the first that its column cannot hold)."""
    source, number, suits, won, seconds, positions, moves, line, stage, proved = row
    digits = databases.text(number, "number", 21)
    if not (digits.isascii() and digits.isdecimal()) or (len(digits) > 1 and digits[0] == "0"):
        raise BadValue("number", number)
    try:
        deal = DealSource(
            Source(databases.text(source, "source", 10, [s.value for s in Source])),
            int(digits),
            databases.integer(suits, "suits", 1, 4),
        )
    except NotationError:  # a number past its numbering's, or 3 suits
        raise BadValue("number" if suits in (1, 2, 4) else "suits", number) from None
    try:
        moves_line = json.loads(databases.text(line, "line", LONGEST_LINE))
    except (ValueError, RecursionError):
        raise BadValue("line", line) from None
    if not isinstance(moves_line, list) or not all(isinstance(m, str) for m in moves_line):
        raise BadValue("line", line)
    return DealResult(
        deal,
        bool(databases.integer(won, "won", 0, 1)),
        databases.real(seconds, "seconds", 0.0, 1e12),
        databases.integer(positions, "positions", 0, 2**63 - 1),
        databases.integer(moves, "moves", 0, 2**63 - 1),
        tuple(moves_line),
        stage=Stage(stage) if stage in _STAGES else None,
        proved=bool(databases.integer(proved, "proved", 0, 1)),
    )


_STAGES = {s.value for s in Stage}


def default_path() -> Path:
    """Where results go unless ``--db`` says otherwise."""
    return userdirs.data_dir() / FILE_NAME


class Store:
    """An open results file (a context manager: closes the file on leaving)."""

    def __init__(self, path: Path) -> None:
        """Open (or begin) the results file at ``path``: SpiderError if it is not a regular
        file (nor are SQLite's files beside it), not a database, or another program's."""
        try:
            private = path == default_path()  # the data directory: one rule for all it holds
            if private:
                check_private(path.parent)
            path.parent.mkdir(parents=True, exist_ok=True)
            refuse_unless_files(path)
            if private:
                begin_private(path)
            self._db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        except (OSError, sqlite3.DatabaseError, SpiderError) as error:
            raise SpiderError(f"cannot use {files.shown(str(path))} for results: {error}") from None
        try:
            self._db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            with self._transaction():
                self._db.execute(_SCHEMA)
                self._db.execute(_BLIND_SCHEMA)
                columns = [
                    r[0]
                    for r in self._db.execute("SELECT name FROM pragma_table_info('known_results')")
                ]
                if columns and columns[-1] == "line":
                    for statement in _STAGE_COLUMNS:
                        self._db.execute(statement)
            if not has_tables(self._db, [_SCHEMA, _BLIND_SCHEMA]):
                raise SpiderError("it holds a results table that is not spider bench's")
        except (SpiderError, sqlite3.DatabaseError) as error:
            self._db.close()
            raise SpiderError(f"cannot use {files.shown(str(path))} for results: {error}") from None
        self.path = path
        self.notices: list[str] = []
        """Warnings to say: rows left out for a bad value."""

    def _transaction(self) -> sqlite3.Connection:
        self._db.execute("BEGIN IMMEDIATE")
        return self._db

    def results(
        self, deals: Iterable[DealSource], limit: int, time_limit: float | None, search: SearchKey
    ) -> list[DealResult]:
        """The stored results of ``deals`` at these limits by ``search``: kept under its
        whole key, or won by the beam under its beam's key (:meth:`SearchKey.of`); those
        not stored are left out. A row with a bad value is left out too, with a notice
        naming it (:attr:`notices`): its deal is played again, and its row replaced."""
        rows = self._db.execute(
            "SELECT source, number, suits, won, seconds, positions, moves, line, stage, proved"
            " FROM known_results WHERE position_limit = ? AND time_limit = ?"
            " AND (search = ? OR (search = ? AND won = 1 AND stage = ?))"
            " ORDER BY search = ? DESC",
            (limit, time_limit or 0.0, search.full, search.beam, Stage.BEAM.value, search.full),
        )
        found: dict[DealSource, DealResult] = {}
        for result in self._read(rows, set(deals)):  # (under a clock, a deal can have both)
            found.setdefault(result.deal, result)
        return list(found.values())

    def _read(
        self, rows: Iterable[tuple[object, ...]], wanted: set[DealSource]
    ) -> list[DealResult]:
        """The rows of ``wanted`` deals as results (:func:`_result`); a row with a bad value
        is left out with a notice naming it."""
        found = []
        for row in rows:
            try:
                result = _result(row)
            except BadValue as error:
                source, number, suits = (files.shown(repr(v))[:40] for v in row[:3])
                self.notices.append(
                    f"the stored result of source = {source}, number = {number}, "
                    f"suits = {suits} holds a bad value ({error}): it is not counted"
                )
                continue
            if result.deal in wanted:
                found.append(result)
        return found

    def add(
        self, result: DealResult, limit: int, time_limit: float | None, search: SearchKey
    ) -> None:
        """Store one deal's result by ``search`` at once (its own transaction), under the key
        that decides it (:meth:`SearchKey.of`), replacing an older one of the same key. A
        result played by another search (a cluster's worker running another version) is
        refused: it would be reported as this one's."""
        deal = result.deal
        if result.search and result.search != search.full:
            raise SpiderError(
                f"deal {deal} was played by another search ({result.search}; "
                f"here: {search.full}): "
                "every machine of the cluster must run the same spider, with the same memory "
                "ceiling where it stops the search"
            )
        row = (
            deal.source.value,
            str(deal.number),
            deal.suits,
            limit,
            time_limit or 0.0,
            search.of(result.stage, result.won),
            int(result.won),
            result.moves,
            result.positions,
            result.seconds,
            json.dumps(list(result.line)),
            result.stage.value if result.stage else "",
            int(result.proved),
        )
        self._store(
            "INSERT OR REPLACE INTO known_results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", row, deal
        )

    def _store(self, statement: str, row: tuple[object, ...], deal: DealSource) -> None:
        """One row written in its own transaction; a failure (a full disk, a file gone
        read-only) said in a player's words."""
        try:
            with self._db:  # commits, or rolls back on an error
                self._transaction()
                self._db.execute(statement, row)
        except sqlite3.Error as error:
            raise SpiderError(
                f"cannot store the result of deal {deal} in {files.shown(str(self.path))}: "
                f"{_reason(error)}; the results stored before it are kept"
            ) from None

    def blind_results(self, deals: Iterable[DealSource], player: str) -> list[DealResult]:
        """The stored blind games of ``deals`` by ``player`` (those not stored are left out;
        a row with a bad value too, with a notice)."""
        rows = self._db.execute(
            "SELECT source, number, suits, won, seconds, positions, moves, '[]', '', 0"
            " FROM blind_results WHERE player = ?",
            (player,),
        )
        return self._read(rows, set(deals))

    def add_blind(self, result: DealResult, player: str) -> None:
        """Store one blind game at once (its own transaction), replacing an older one."""
        deal = result.deal
        row = (
            deal.source.value,
            str(deal.number),
            deal.suits,
            player,
            int(result.won),
            result.moves,
            result.positions,
            result.seconds,
        )
        self._store("INSERT OR REPLACE INTO blind_results VALUES (?,?,?,?,?,?,?,?)", row, deal)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
