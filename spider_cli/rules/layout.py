"""Writing a position as text: the manual's grid, its Markdown table, one line per pile, a code.

Writing belongs to the rules (a :class:`~spider_cli.rules.engine.Game` prints itself with
:func:`grid`); reading, which needs the parser, is :mod:`spider_cli.language.files.positions`. The
writers take any :class:`Tableau`, so a game and a position file read from disk are written
the same way. They always state the header in full (``stock:``, ``removed:``, ``suits:`` when
not 4), so what they write reads back to the same position.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import NamedTuple, Protocol

from spider_cli.rules.cards import SUIT_LETTERS, UNKNOWN, card_text
from spider_cli.rules.errors import NotationError

__all__ = ["CODE_PREFIX", "Tableau", "cell_text", "grid", "lines", "markdown", "position_code"]

CODE_PREFIX = "spider:"
"""How a position code starts."""


class Tableau(Protocol):
    """A whole position as the writers read it; a Game and a PositionFile are both one.

    ``piles`` run from top to bottom (0 for a face-down card nobody knows), ``down[i]`` counts
    the face-down cards of pile ``i``, ``hand`` is in dealing order.
    """

    @property
    def piles(self) -> Sequence[Sequence[int]]: ...

    @property
    def down(self) -> Sequence[int]: ...

    @property
    def suits(self) -> int: ...

    @property
    def hand(self) -> Sequence[int]: ...

    @property
    def removed_count(self) -> int: ...

    def removed_suits(self) -> Sequence[int]:
        """The removed suits; NotationError when the position does not say which they are."""
        ...


class _Parts(NamedTuple):
    """What every writer needs, the removed suits None when only their number is known."""

    piles: Sequence[Sequence[int]]
    down: Sequence[int]
    hand: Sequence[int]
    removed: Sequence[int] | None
    removed_count: int
    suits: int


def _parts(position: Tableau, hide: bool) -> _Parts:
    """The writers' view of a position; with ``hide``, face-down and hand cards as unknown."""
    try:
        removed: Sequence[int] | None = position.removed_suits()
    except NotationError:
        removed = None
    piles, down, hand = position.piles, position.down, position.hand
    if hide:
        piles = [[UNKNOWN] * d + list(pile[d:]) for pile, d in zip(piles, down, strict=True)]
        hand = [UNKNOWN] * len(hand)
    return _Parts(piles, down, hand, removed, position.removed_count, position.suits)


def cell_text(card: int, down: bool) -> str:
    """A cell as the manual writes it; a known face-down card in brackets."""
    if down and card:
        return f"[{card_text(card)}]"
    return card_text(card)


def _header_lines(parts: _Parts) -> list[str]:
    out = [] if parts.suits == 4 else [f"suits: {parts.suits}"]
    if any(parts.hand):
        out.append("hand: " + " ".join(map(card_text, parts.hand)))
    else:
        out.append(f"stock: {len(parts.hand)}")
    if parts.removed is not None:
        out.append("removed: " + (" ".join(SUIT_LETTERS[s] for s in parts.removed) or "none"))
    else:
        out.append(f"removed: {parts.removed_count}")
    return out


def _columns(parts: _Parts) -> list[list[str]]:
    """Each pile's cells, top to bottom; an empty pile is the single cell (sp)."""
    return [
        [cell_text(card, j < parts.down[i]) for j, card in enumerate(pile)] or ["(sp)"]
        for i, pile in enumerate(parts.piles)
    ]


def grid(position: Tableau, numbers: bool = True, hide: bool = False) -> str:
    """The manual's grid: header lines, pile numbers (unless ``numbers`` is false), then one
    row per depth in fixed-width columns.

    Every writer shows the face-down and hand cards the position knows (``[Jh]``, ``hand: Jh
    ...``); ``hide`` writes them all as unknown, as a player at the table sees them.
    """
    parts = _parts(position, hide)
    columns = _columns(parts)
    width = max(5, max(len(cell) for column in columns for cell in column) + 2)
    out = _header_lines(parts)
    if numbers:
        out.append("".join(f"{i + 1:<{width}}" for i in range(len(columns))).rstrip())
    for depth in range(max(map(len, columns))):
        row = "".join(
            f"{column[depth] if depth < len(column) else '':<{width}}" for column in columns
        )
        out.append(row.rstrip())
    return "\n".join(out) + "\n"


def markdown(position: Tableau, numbers: bool = True, hide: bool = False) -> str:
    """The manual's Markdown table, after the header lines and a blank line; the table's
    header row holds the pile numbers (empty, as in the manual, unless ``numbers``)."""
    parts = _parts(position, hide)
    columns = _columns(parts)
    width = max(4, max(len(cell) for column in columns for cell in column))

    def row(cells: Iterable[str]) -> str:
        return "| " + " | ".join(f"{cell:<{width}}" for cell in cells) + " |"

    out = [*_header_lines(parts), ""]
    out.append(row(str(i + 1) if numbers else "" for i in range(len(columns))))
    out.append("|" + "|".join("-" * (width + 2) for _ in columns) + "|")
    for depth in range(max(map(len, columns))):
        out.append(row(column[depth] if depth < len(column) else "" for column in columns))
    return "\n".join(out) + "\n"


def lines(position: Tableau, hide: bool = False) -> str:
    """The header lines, then one line per pile: ``3: -- -- Jc 10h 9c``."""
    parts = _parts(position, hide)
    out = _header_lines(parts)
    for i, column in enumerate(_columns(parts)):
        out.append(f"{i + 1:>2}: " + " ".join(column))
    return "\n".join(out) + "\n"


def _code_card(card: int) -> str:
    return card_text(card).replace("10", "T")


def _code_run(cards: Sequence[int]) -> str:
    """Counts of unknown cards and bracketed known cards: ``3[JhQs]1``."""
    out = []
    for known, group in itertools.groupby(cards, key=bool):
        items = list(group)
        out.append("[" + "".join(map(_code_card, items)) + "]" if known else str(len(items)))
    return "".join(out)


def position_code(position: Tableau, hide: bool = False) -> str:
    """The position as one line with no spaces, ``spider:SUITS/HAND/REMOVED/PILE/...``."""
    parts = _parts(position, hide)
    if parts.removed is None:
        removed = str(parts.removed_count)
    else:
        removed = "".join(SUIT_LETTERS[s] for s in parts.removed) or "-"
    fields = [str(parts.suits), _code_run(parts.hand) or "0", removed]
    for pile, down in zip(parts.piles, parts.down, strict=True):
        up = "".join(map(_code_card, pile[down:]))
        fields.append(f"{_code_run(pile[:down])}:{up}" if down else up or "-")
    return CODE_PREFIX + "/".join(fields)
