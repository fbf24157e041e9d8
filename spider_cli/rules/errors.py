"""The exceptions spider raises: every one carries a message meant for a player."""

from __future__ import annotations

import unicodedata
from enum import Enum


class Part(Enum):
    """The part of a command an error is about, when it is one word: a message about a line
    of a file puts its caret under that word (:mod:`spider_cli.language.places` finds it)."""

    CARDS = "cards"
    """The cards a move names ("8-6s", the "6s" of "6s 3 10"), the card of ``assume``."""
    SOURCE = "source"
    """The pile a move takes its cards from."""
    DESTINATION = "destination"
    """Where a move goes: "to 10", "onto Qd", "into a space"."""
    PILE = "pile"
    """The pile of ``assume``, ``remove`` or ``obvious``."""
    SUIT = "suit"
    """The suit of ``remove``."""
    SEED = "seed"
    """The deal of ``new``: "17", "pysol:14934"."""
    WANTED = "wanted"
    """What ``new`` asks of its deal: "winnable", "easy"."""
    FILE = "file"
    """The file (or position code) of ``load``, ``save`` or ``expect``."""
    NAME = "name"
    """The setting ``set`` names."""
    VALUE = "value"
    """The value ``set`` gives it."""


class SpiderError(ValueError):
    """Base of every error spider reports to a player (never a traceback).

    ``part``, when the error is about one word of the command that raised it, says which
    (see :class:`Part`); None when it is about the whole command, or not about a command.
    """

    def __init__(self, *args: object, part: Part | None = None) -> None:
        super().__init__(*args)
        self.part = part


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
    line with a caret under the spot, ready to print. ``part``: the text is that part of a
    command (the position code of ``load spider:...``), and the column counts within it.
    ``file``: the name of the file the text is in (a file a command reads), which then leads
    the message as ``FILE:LINE:COLUMN:``.
    """

    def __init__(
        self,
        message: str,
        line: int = 0,
        column: int = 0,
        context: str = "",
        part: Part | None = None,
        file: str = "",
    ) -> None:
        super().__init__(message, part=part)
        self.message = message
        self.line = line
        self.column = column
        self.context = context
        self.file = file

    def __str__(self) -> str:
        if self.file:
            where = ":".join([self.file, *(str(n) for n in (self.line, self.column) if n)]) + ": "
        elif self.line and self.column:
            where = f"line {self.line}, character {self.column}: "
        else:
            where = ""
        text = where + self.message
        return f"{text}\n{self.context}" if self.context else text


class PlacedPositionError(NotationError, PositionError):
    """A position that cannot exist, said at the place of its text that makes it so (the
    copy of a card one too many, the line of the hand): both a :class:`NotationError`, with
    its line and column, and a :class:`PositionError`."""


QUOTED = 30
"""The most characters of a player's word that a message repeats."""


def printable(text: str) -> str:
    """``text`` safe to print: its control characters (a terminal's escapes, line feeds)
    shown escaped, as Python writes them (``\\x1b``)."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def quoted(text: str, most: int = QUOTED) -> str:
    """A player's word, quoted for a message: safe to print (:func:`printable`), and a word
    longer than ``most`` characters said by its first ones and '…'."""
    text = printable(text)
    return f"'{text[:most]}…'" if len(text) > most else f"'{text}'"


TAB = 8
"""A tab reaches the next multiple of eight columns, as a terminal shows it (and a grid of
the tableau is read so)."""


def width(char: str) -> int:
    """The terminal columns a printable character takes: two for a wide one (East Asian
    Wide or Fullwidth: CJK, most emoji), none for a combining mark, else one."""
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 2
    return 0 if unicodedata.category(char) in ("Mn", "Me") else 1


def cells(text: str) -> int:
    """The terminal columns a line of printable text takes (see :func:`width`)."""
    return sum(map(width, text)) if not text.isascii() else len(text)


WINDOW = 100
"""The most terminal columns of a long line that :func:`caret_line` shows, the caret
:data:`BEFORE` columns in when it can."""
BEFORE = 60


def caret_line(line: str, column: int) -> str:
    """The line (a window of it, if long) with a caret under the 1-based ``column``, which
    counts characters: a tab is one, and so is a wide character, as the column in a message
    says.

    The caret is placed by terminal columns, so that it stays under the character it names:
    tabs show as the spaces a terminal gives them (to the next multiple of :data:`TAB`), a
    wide character takes two columns (:func:`width`), and other unprintable characters show
    as '?'.
    """
    shown: list[str] = []  # the line's terminal columns: "" for a wide character's second
    at = -1  # the terminal column of ``column``
    last = 0  # the column of the last character shown (where a combining mark goes)
    for index, char in enumerate(line):
        columns = width(char) if char.isprintable() else 1
        if columns == 0 and shown:  # a combining mark: on the character before it
            at = last if index == column - 1 else at
            shown[last] += char
            continue
        if index == column - 1:
            at = len(shown)
        last = len(shown)
        if char == "\t":
            shown += " " * (TAB - len(shown) % TAB)
        elif char.isprintable():
            shown += [char] + [""] * (columns - 1)
        else:
            shown.append("?")
    if at < 0:  # at the end of the line, or past it
        at = max(0, len(shown) + column - 1 - len(line))
    start = max(0, at - BEFORE)
    window = shown[start : start + WINDOW]
    if window and window[0] == "":  # a wide character cut in two shows as a blank
        window[0] = " "
    if shown[start + WINDOW : start + WINDOW + 1] == [""]:
        window[-1] = " "
    prefix = "…" if start else ""
    suffix = "…" if start + WINDOW < len(shown) else ""
    return f"{prefix}{''.join(window)}{suffix}\n{' ' * (len(prefix) + at - start)}^"


def column_in(line: str, expanded: int) -> int:
    """The 1-based column in ``line`` (a tab one character) of the character at column
    ``expanded`` of the same line with its tabs expanded (:data:`TAB`)."""
    width = 0
    for index, char in enumerate(line):
        width_after = width + (TAB - width % TAB if char == "\t" else 1)
        if expanded - 1 < width_after:
            return index + 1
        width = width_after
    return len(line) + expanded - width
