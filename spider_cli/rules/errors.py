"""The exceptions spider raises: every one carries a message meant for a player."""

from __future__ import annotations


class SpiderError(ValueError):
    """Base of every error spider reports to a player (never a traceback)."""


class IllegalMoveError(SpiderError):
    """A move that reads fine but breaks a rule in the current position."""


class PositionError(SpiderError):
    """A position that cannot exist: a card too many times, too many cards, and so on."""


class QuestionError(SpiderError):
    """A question the analysis cannot take as asked: a pile that does not exist, a time
    where a number of positions is needed, a seed range that is empty, and so on."""


class NotationError(SpiderError):
    """Text that does not read as a command, a card or a position.

    ``line`` and ``column`` are 1-based (0 when unknown); ``context`` is the offending
    line with a caret under the spot, ready to print.
    """

    def __init__(self, message: str, line: int = 0, column: int = 0, context: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.context = context

    def __str__(self) -> str:
        where = f"line {self.line}, character {self.column}: " if self.line and self.column else ""
        text = where + self.message
        return f"{text}\n{self.context}" if self.context else text


def caret_line(line: str, column: int) -> str:
    """The line (a window of it, if long) with a caret under the 1-based ``column``.

    Unprintable characters (tabs included) show as '?', so the caret stays in place.
    """
    start = max(0, column - 61)
    shown = line[start : start + 100]
    prefix = "…" if start else ""
    suffix = "…" if start + 100 < len(line) else ""
    shown = "".join(ch if ch.isprintable() else "?" for ch in shown)
    return f"{prefix}{shown}{suffix}\n{' ' * (len(prefix) + column - 1 - start)}^"
