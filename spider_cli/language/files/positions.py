"""Position files: a Spider position as text a player can read, type, paste and compare.

One reader (:func:`read_position`) takes any of four layouts, decided by the first line of the
tableau:

* the manual's grid: ten columns, one row per depth, cells put into piles by their columns;
* the manual's Markdown table: ``| -- | 10d | As | -- | ... |``;
* one line per pile: ``3: -- -- Jc 10h 9c``, ``4: (sp)``;
* a position code, one line: ``spider:4/50/-/5:6d/5:Td/4:As/...``.

Cells: a card (``10h``, ``Th``, ``Qs``, ``q♠``), ``--`` for a face-down card nobody knows,
``[Jh]`` for a face-down card whose identity is known, ``(sp)`` for an empty pile. Header lines
may come before the tableau: ``suits: 2``, ``stock: 30`` or ``hand: Jh 10c -- ...``,
``removed: d s``, ``removed: 2`` or ``removed: none``; ``#`` starts a comment.
What the header leaves out is worked out from the card count (104 in all).

The ``hand:`` line (``stock:`` reads the same) lists the hand in dealing order, at most 50 cards:
the first ten are the next deal, onto piles 1 to 10, and so on. With every face-down card in
brackets too, a file knows every card (a full-information position, as ``spider show pysol:N``
prints). A card the deck cannot hold, in the tableau or the hand, is an error pointed at the
first copy too many (in the order of the text, the tableau before the hand); an error about
the number of cards, at the line of the hand or of the removed suits.

The code format is ``spider:SUITS/HAND/REMOVED/PILE1/.../PILE10`` with no spaces:

* SUITS is 4, 2 or 1;
* HAND is the number of unknown cards in the hand, or a sequence of counts of unknown cards and
  bracketed known cards in dealing order (``[JhTc]8`` = Jh, 10c, then 8 unknown cards);
* REMOVED is suit letters in the order removed (``ds``), ``-`` for none, or a count;
* a PILE is its face-down part, a colon, then its face-up cards: ``3[Jh]1:9c8c`` is three
  unknown face-down cards, a known face-down Jh, one more unknown, then 9c and 8c face up;
  a pile with nothing face down is just its cards (``KhQh``), an empty pile is ``-``.
  Cards are rank then suit, ``T`` for 10.

The writers (:func:`grid`, :func:`markdown`, :func:`lines`, :func:`position_code`) live in
:mod:`spider_cli.rules.layout`, so that a game can print itself without the parser; they are
named here too, next to the reader. They always state the header in full, so what they write
reads back to the same position.
"""

from __future__ import annotations

import re
from pathlib import Path

from spider_cli.language.files import textfiles
from spider_cli.language.files.differences import differences
from spider_cli.language.files.formats import LayoutReader, parser
from spider_cli.language.files.position import PositionFile
from spider_cli.rules.engine import Game
from spider_cli.rules.errors import TAB, NotationError, caret_line
from spider_cli.rules.layout import CODE_PREFIX, grid, lines, markdown, position_code

__all__ = [
    "CODE_PREFIX",
    "PositionFile",
    "differences",
    "grid",
    "is_position_code",
    "lines",
    "load_position",
    "markdown",
    "parse_position_code",
    "position_code",
    "read_game",
    "read_position",
]

MAX_TEXT = 65_536
"""The longest text read as a position: the biggest real one (a grid with every card
known, the hand and comments) is a few thousand characters; a limit keeps a huge file
from taking seconds to refuse."""

_CODE_START = re.compile(r"\s*spider[ \t]*:", re.IGNORECASE)


def read_position(text: str) -> PositionFile:
    """Read a position in any layout (grid, Markdown table, one line per pile, code).

    Raises :class:`NotationError` (with line and column) for text that does not read, and
    :class:`PositionError` for a position that cannot exist.
    """
    if len(text) > MAX_TEXT:
        raise NotationError(
            f"the text is too long to be a position ({len(text)} characters; at most {MAX_TEXT})"
        )
    text = "\n".join(_lines_of(text))
    # A grid's cells go to piles by their columns, as the tabs line them up on the screen;
    # errors give the column in the text as written (a tab one character).
    expanded = "\n".join(line.expandtabs(TAB) for line in text.split("\n"))
    from lark.exceptions import UnexpectedInput

    reader = LayoutReader(expanded, text)
    try:
        tree = parser().parse(expanded)
    except UnexpectedInput as exc:
        raise reader.syntax_error(exc) from None
    return reader.read(tree)


_REMOVED_LINE = re.compile(r"[ \t]*removed[ \t]*:[ \t]*", re.IGNORECASE)


def read_game(text: str) -> Game:
    """The position of ``text`` as a :class:`Game` (:func:`read_position`, then
    :meth:`PositionFile.to_game`): when the removed suits must be named, as several fit
    the cards in play, the error is said at the ``removed:`` line, if the text has one."""
    position = read_position(text)
    try:
        return position.to_game()
    except NotationError as error:
        if error.line:
            raise
        for number, line in enumerate(_lines_of(text), start=1):
            found = _REMOVED_LINE.match(line)
            if found:
                column = found.end() + 1
                context = caret_line(line, column)
                raise NotationError(error.message, number, column, context) from None
        raise


def _lines_of(text: str) -> list[str]:
    """The lines of a text as :func:`read_position` reads them."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")


def is_position_code(text: str) -> bool:
    """Whether ``text`` is meant as a position code: it starts with ``spider:``."""
    return _CODE_START.match(text) is not None


def parse_position_code(text: str) -> PositionFile:
    """Read a position code (``spider:...``); errors give the column in the code."""
    if not is_position_code(text):
        line = text.strip().split("\n", 1)[0]
        raise NotationError(
            f"a position code starts with '{CODE_PREFIX}'", 1, 1, caret_line(line, 1)
        )
    return read_position(text.strip())


def load_position(path: str | Path) -> PositionFile:
    """Read the position file at ``path`` (UTF-8); a file that cannot be read is a SpiderError."""
    return read_position(textfiles.read_text(Path(path), str(path)))
