"""What the SQLite files spider keeps (the history of games, bench's results) share: they are
used only where each of their files is a regular file or nothing yet, and only when their
tables are the ones spider writes.

SQLite keeps up to three files beside a database (``-wal``, ``-shm``, ``-journal``); a link
at any of them would have SQLite write through it, and a named pipe would block it. A file
whose schema version is right but whose tables differ (a column dropped, a table missing,
another program's table of the same name) would end in an error deep in a query.

A row of the right shape may still hold any value: SQLite keeps text in an INTEGER column,
a blob anywhere. Each table has one typed reader that checks every value of a row with the
checkers here (:func:`integer`, :func:`real`, :func:`text`) and turns it into a value, or
refuses it with :class:`BadValue`, naming the column; the row is then left out with a
warning, never counted.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Iterable

from spider_cli.app.files.atomic import refuse_unless_file

COMPANIONS = ("", "-wal", "-shm", "-journal")
"""The database's own name, and the suffixes of the files SQLite keeps beside it."""

SHOWN_VALUE = 40
"""The most characters of a bad value a warning shows."""


class BadValue(ValueError):
    """A value in a row that its column cannot hold; the message names the column."""

    def __init__(self, column: str, value: object) -> None:
        shown = repr(value)
        if len(shown) > SHOWN_VALUE:
            shown = shown[: SHOWN_VALUE - 3] + "..."
        super().__init__(f"{column} = {shown}")


def integer(value: object, column: str, least: int, most: int) -> int:
    """``value`` as an integer from ``least`` to ``most`` (never a bool, text or float)."""
    if type(value) is not int or not least <= value <= most:
        raise BadValue(column, value)
    return value


def real(value: object, column: str, least: float, most: float) -> float:
    """``value`` as a finite number from ``least`` to ``most`` (an integer is one)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise BadValue(column, value)
    if not least <= value <= most:  # (NaN compares false: refused too)
        raise BadValue(column, value)
    return float(value)


def text(value: object, column: str, most: int, choices: Iterable[str] | None = None) -> str:
    """``value`` as text of at most ``most`` characters, one of ``choices`` if given."""
    if type(value) is not str or len(value) > most:
        raise BadValue(column, value)
    if choices is not None and value not in choices:
        raise BadValue(column, value)
    return value


def refuse_unless_files(path: str | os.PathLike[str]) -> None:
    """Raise :class:`~spider_cli.language.files.textfiles.NotAFileError` unless the database at
    ``path`` and each file SQLite keeps beside it is a regular file or nothing at all."""
    for suffix in COMPANIONS:
        refuse_unless_file(f"{os.fspath(path)}{suffix}")


def begin_private(path: str | os.PathLike[str]) -> None:
    """Create the database at ``path`` readable by its owner alone, if it is not there yet
    (SQLite gives the files it keeps beside it the same permissions); never through a link."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def has_tables(db: sqlite3.Connection, schema: Iterable[str]) -> bool:
    """Whether ``db`` holds every table the statements of ``schema`` create, each with the
    same columns (names and types, in order); other tables do not matter."""
    found = _tables(db)
    return all(found.get(name) == columns for name, columns in _expected(tuple(schema)).items())


@functools.cache
def _expected(schema: tuple[str, ...]) -> dict[str, list[tuple[str, str]]]:
    """The tables ``schema`` creates, read back from a database in memory."""
    db = sqlite3.connect(":memory:")
    try:
        for statement in schema:
            db.execute(statement)
        return _tables(db)
    finally:
        db.close()


def _tables(db: sqlite3.Connection) -> dict[str, list[tuple[str, str]]]:
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {
        name: db.execute("SELECT name, type FROM pragma_table_info(?)", (name,)).fetchall()
        for name in names
    }
