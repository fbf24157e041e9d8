"""The exit statuses every subcommand of ``spider`` ends with, and its errors' lines.

:data:`OK`, :data:`REFUSED` (a file, a script's line or the game refused what was asked),
:data:`USAGE` (the command line itself cannot be read, argparse's status),
:data:`INTERRUPTED` (Ctrl-C), :data:`BROKEN_PIPE` and :data:`BUG`. ``spider solve``
answers a question, so its statuses are grep's: 1 is the answer "impossible", and every
error is :data:`USAGE` (:data:`spider_cli.cli.searches.SOLVE_STATUS`).
"""

from __future__ import annotations

from spider_cli.language.files import textfiles as files
from spider_cli.rules.errors import NotationError, SpiderError, caret_line

OK = 0
REFUSED = 1
"""The command line reads, but what it asks for is refused: a file that cannot be read or
used, a script's line that does not read or is not a legal move, an unreachable cluster."""
USAGE = 2
"""The command line cannot be read: an unknown option, a missing argument, an option's value
that is not one (``--seed x``), as argparse says for its own errors."""
BUG = 70
"""An internal error (sysexits' EX_SOFTWARE): said in one line, never a traceback."""
INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT)."""
BROKEN_PIPE = 141
"""The reader of the output left (128 + SIGPIPE), as in ``spider show ... | head``."""


def error_line(where: str, error: SpiderError, line: str | None = None) -> str:
    """``WHERE: error: REASON`` for the terminal: the control characters of both shown
    escaped, so that a newline in a file's name cannot start a line of its own.

    ``line`` is the text ``where`` names (a script's line): an error in other text, such
    as a file the line loads, then gives its own line and character."""
    return f"{files.named(where)}: error: {files.shown(_reason(error, line), newlines=True)}"


def _reason(error: SpiderError, line: str | None = None) -> str:
    if isinstance(error, NotationError):
        if line is not None and error.context and not _about(error, line):
            return str(error)
        where = f"character {error.column}: " if error.column else ""
        return where + error.message + (f"\n{error.context}" if error.context else "")
    return str(error)


def _about(error: NotationError, line: str) -> bool:
    """Whether ``error`` is about ``line`` (its context shows that line), not other text."""
    shown = caret_line(line, error.column).split("\n", 1)[0] if error.column else line
    return error.context.split("\n", 1)[0] == shown


def load_error(name: str, error: SpiderError) -> str:
    """Why the file ``name`` did not load, as ``NAME:LINE: error: character C: reason`` where
    the error has a place in the file (the form of ``spider run``'s errors)."""
    line = f":{error.line}" if isinstance(error, NotationError) and error.line else ""
    if isinstance(error, NotationError) and error.file:  # named here, before the line
        error = NotationError(error.message, error.line, error.column, error.context)
    return error_line(f"{name}{line}", error)
