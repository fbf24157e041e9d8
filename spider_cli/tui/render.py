"""The tableau and what changed, as prompt_toolkit formatted text for the terminal.

The layout is the manual's: pile numbers above ten columns, each pile from its top card down
to the card that can move, face-down cards as card backs, ``(sp)`` for a space. Every suit has
its own colour (spades bold, hearts red, diamonds yellow, clubs green) on top of its own symbol,
so the four suits are told apart at a glance and still without colour (``NO_COLOR``) or
without Unicode (the ASCII glyphs: the manual's ``--`` backs and ``s h d c`` letters).
Ten columns of at most eight characters fit 80 columns. When the tableau is taller than the
room on the screen, face-down cards shrink to one cell (``▒▒×5``), then same-suit runs of
three or more to one cell in the manual's own notation (``Q-9♥``); ``show PILE`` gives a pile
in full. Nothing here changes a game: these are pictures of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import fragment_list_to_text
from prompt_toolkit.styles import Style

from spider_cli.rules.cards import (
    SUIT_LETTERS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    Card,
    run_text,
    split_runs,
)
from spider_cli.rules.engine import PILES, Game, Move
from spider_cli.rules.text import move_text

if TYPE_CHECKING:
    from spider_cli.app.session import Status

SUIT_CLASSES = tuple(f"class:suit.{name}" for name in SUIT_NAMES)
"""The style class of each suit: spades, hearts, diamonds, clubs."""

STYLE = Style.from_dict(
    {
        "suit.spades": "bold",
        "suit.hearts": "ansired bold",
        "suit.diamonds": "ansiyellow bold",
        "suit.clubs": "ansigreen bold",
        "back": "ansiblue",
        "space": "ansibrightblack",
        "pile-number": "ansibrightblack",
        "fresh": "underline",
        "heading": "bold",
        "move": "bold",
        "note": "",
        "error": "ansired bold",
        "error-context": "ansired",
        "warning": "ansiyellow",
        "dim": "ansibrightblack",
        "prompt": "bold",
        "bottom-toolbar": "reverse",
        "toolbar.alert": "reverse bold",
        # the line being typed (spider_cli.tui.highlight)
        "input.keyword": "ansicyan",
        "input.number": "ansimagenta",
        "input.path": "underline",
        "input.word": "ansicyan",
        "input.remark": "ansibrightblack italic",
        "input.comment": "ansibrightblack",
        "input.error": "ansired underline",
        "input.pending": "",
    }
)
"""Every style class spider uses, for the prompt and for printed text alike."""


@dataclass(frozen=True)
class Glyphs:
    """How cards are drawn: suit symbols and shaded backs, or plain ASCII as in the manual."""

    symbols: bool

    @property
    def back(self) -> str:
        return "▒▒" if self.symbols else "--"

    @property
    def space(self) -> str:
        return "(sp)"

    @property
    def times(self) -> str:
        return "×" if self.symbols else "x"

    @property
    def empty_slot(self) -> str:
        return "·" if self.symbols else "."

    def card(self, code: int) -> str:
        return Card(code).text(self.symbols)

    def suit(self, suit: int) -> str:
        return (SUIT_SYMBOLS if self.symbols else SUIT_LETTERS)[suit]


UNICODE = Glyphs(symbols=True)
ASCII = Glyphs(symbols=False)
_SAMPLE = "♠♥♦♣▒×·★▶"


def can_encode(encoding: str | None) -> bool:
    """Whether a terminal with this encoding can show the Unicode glyphs."""
    if not encoding:
        return False
    try:
        _SAMPLE.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def choose_glyphs(ascii_only: bool, encoding: str | None) -> Glyphs:
    """ASCII when asked for (``--ascii``) or when the terminal cannot encode the symbols."""
    return ASCII if ascii_only or not can_encode(encoding) else UNICODE


def plain(text: StyleAndTextTuples) -> str:
    """The characters of formatted text, without styles (for tests and transcripts)."""
    return fragment_list_to_text(text)


# ---------------------------------------------------------------------------------------------
# The tableau


class _Cell(NamedTuple):
    text: str
    style: str


class Snapshot(NamedTuple):
    """What a position looked like, to tell afterwards what changed."""

    piles: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    removed: tuple[int, ...]
    stock: int

    @classmethod
    def of(cls, game: Game) -> Snapshot:
        return cls(
            tuple(map(tuple, game.piles)), tuple(game.down), tuple(game.removed), len(game.stock)
        )


def fresh_cards(before: Snapshot, game: Game) -> frozenset[tuple[int, int]]:
    """(pile, index) of the cards that arrived on a pile or were turned up since ``before``."""
    fresh: set[tuple[int, int]] = set()
    for i, pile in enumerate(game.piles):
        old = before.piles[i]
        same = 0
        while same < min(len(old), len(pile)) and old[same] == pile[same]:
            same += 1
        fresh.update((i, j) for j in range(same, len(pile)))
        if game.down[i] < before.down[i] and game.down[i] < len(pile):
            fresh.add((i, game.down[i]))
    return frozenset(fresh)


def describe_changes(before: Snapshot, game: Game) -> list[str]:
    """The cards turned up, the suits removed and the deals left, since ``before``."""
    notes = []
    for i, pile in enumerate(game.piles):
        if game.down[i] < before.down[i] and game.down[i] < len(pile):
            notes.append(f"pile {i + 1} turns up {Card(pile[game.down[i]])}")
    for suit in game.removed[len(before.removed) :]:
        notes.append(f"{SUIT_NAMES[suit]} removed")
    if len(game.stock) < before.stock:
        left = game.deals_left
        notes.append(f"{left} deal{'s' if left != 1 else ''} left")
    return notes


def _card_cell(code: int, glyphs: Glyphs, fresh: bool) -> _Cell:
    style = SUIT_CLASSES[code >> 4] + (" class:fresh" if fresh else "")
    return _Cell(glyphs.card(code), style)


def _pile_cells(
    game: Game, i: int, glyphs: Glyphs, level: int, fresh: frozenset[tuple[int, int]]
) -> list[_Cell]:
    """One pile's cells at a compression level: 0 in full, 1 backs in one cell, 2 runs too."""
    pile, down = game.piles[i], game.down[i]
    if not pile:
        return [_Cell(glyphs.space, "class:space")]
    cells: list[_Cell] = []
    if level >= 1 and down >= 2:
        cells.append(_Cell(f"{glyphs.back}{glyphs.times}{down}", "class:back"))
    else:
        cells += [_Cell(glyphs.back, "class:back")] * down
    index = down
    for run in split_runs(pile[down:]):
        if level >= 2 and len(run) >= 3:
            is_fresh = any((i, j) in fresh for j in range(index, index + len(run)))
            style = SUIT_CLASSES[run[0] >> 4] + (" class:fresh" if is_fresh else "")
            cells.append(_Cell(run_text(run, glyphs.symbols), style))
        else:
            cells += [_card_cell(c, glyphs, (i, index + k) in fresh) for k, c in enumerate(run)]
        index += len(run)
    return cells


def column_width(width: int) -> int:
    """The width of a column for a terminal ``width`` wide: eight for 80 or more."""
    return max(6, min(8, width // PILES))


def _header(game: Game, glyphs: Glyphs) -> StyleAndTextTuples:
    """The hand (a back per deal left) and the eight places of the removed suits."""
    out: StyleAndTextTuples = [("class:heading", "hand ")]
    deals = game.deals_left
    if deals:
        out.append(("class:back", " ".join([glyphs.back] * deals)))
        out.append(("", f" ({deals} deal{'s' if deals != 1 else ''})"))
    else:
        out.append(("class:dim", "empty"))
    out.append(("", "    "))
    out.append(("class:heading", "removed "))
    for k in range(8):
        if k < len(game.removed):
            suit = game.removed[k]
            out.append((SUIT_CLASSES[suit], glyphs.suit(suit)))
        else:
            out.append(("class:dim", glyphs.empty_slot))
        out.append(("", " " if k < 7 else ""))
    return out


def tableau(
    game: Game,
    glyphs: Glyphs = UNICODE,
    width: int = 80,
    max_rows: int | None = None,
    fresh: frozenset[tuple[int, int]] = frozenset(),
) -> FormattedText:
    """The whole tableau: the hand and removed suits, pile numbers, then the piles.

    ``max_rows`` bounds the rows of cards: longer piles are shown more compactly (see the
    module's description). ``fresh`` cards (from :func:`fresh_cards`) are underlined.
    """
    w = column_width(width)
    for level in range(3):
        columns = [_pile_cells(game, i, glyphs, level, fresh) for i in range(PILES)]
        height = max(map(len, columns))
        if max_rows is None or height <= max_rows:
            break
    out: StyleAndTextTuples = [*_header(game, glyphs), ("", "\n")]
    numbers = "".join(f"{i + 1:<{w}}" for i in range(PILES)).rstrip()
    out += [("class:pile-number", numbers), ("", "\n")]
    for row in range(height):
        line: StyleAndTextTuples = []
        pad = 0
        for column in columns:
            if row < len(column):
                cell = column[row]
                if pad:
                    line.append(("", " " * pad))
                line.append((cell.style, cell.text))
                pad = w - len(cell.text)
            else:
                pad += w
        out += [*line, ("", "\n")]
    return FormattedText(out)


def tableau_height(game: Game, glyphs: Glyphs = UNICODE) -> int:
    """Rows of cards in the full layout (the longest pile)."""
    return max(len(_pile_cells(game, i, glyphs, 0, frozenset())) for i in range(PILES))


def pile_detail(game: Game, pile: int, glyphs: Glyphs = UNICODE) -> FormattedText:
    """One pile in full (the manual's Expand): its face-down cards, its face-up cards split
    into same-suit runs, and the moves its cards can make. ``pile`` is 0-based."""
    cards, down = game.piles[pile], game.down[pile]
    out: StyleAndTextTuples = [("class:heading", f"pile {pile + 1}")]
    if not cards:
        return FormattedText([*out, ("", ": a space\n")])
    out.append(("", f": {down} face down, {len(cards) - down} face up\n  "))
    if down:
        out += [("class:back", " ".join([glyphs.back] * down)), ("class:dim", " | ")]
    for k, run in enumerate(split_runs(cards[down:])):
        if k:
            out.append(("class:dim", " | "))
        for j, card in enumerate(run):
            out += [("", " ")] if j else []
            out.append((SUIT_CLASSES[card >> 4], glyphs.card(card)))
    length = game.run_length(pile)
    out += [("", "\n  can move: "), *color_cards(run_text(cards[-length:]))]
    moves = [
        move_text(game, m) for m in game.legal_moves() if isinstance(m, Move) and m.src == pile
    ]
    out.append(("", "\n  moves from here: "))
    out += color_cards("; ".join(moves)) if moves else [("class:dim", "none")]
    out.append(("", "\n"))
    return FormattedText(out)


# ---------------------------------------------------------------------------------------------
# Messages and the status line


_CARD_WORD = re.compile(r"(?<![\w-])(?:(?:10|[2-9AJQK])[shdc]?-)?(?:10|[2-9AJQK])([shdc])(?![\w-])")


def color_cards(text: str) -> StyleAndTextTuples:
    """Text with every card or run written in notation (``6s``, ``8-6s``) in its suit's colour."""
    out: StyleAndTextTuples = []
    at = 0
    for found in _CARD_WORD.finditer(text):
        if found.start() > at:
            out.append(("", text[at : found.start()]))
        out.append((SUIT_CLASSES[SUIT_LETTERS.index(found.group(1))], found.group(0)))
        at = found.end()
    if at < len(text):
        out.append(("", text[at:]))
    return out


def message(text: str, style: str = "") -> FormattedText:
    """A reply's lines with cards coloured; the first line in ``style``."""
    out: StyleAndTextTuples = []
    for k, line in enumerate(text.splitlines()):
        fragments = color_cards(line)
        if k == 0 and style:
            fragments = [(f"{style} {s}".strip(), t) for s, t, *_ in fragments]
        out += [*fragments, ("", "\n")]
    return FormattedText(out)


def change(text: str, notes: Iterable[str] = ()) -> FormattedText:
    """What a command changed: its first line (the move in notation) in bold, then notes."""
    lines = text.splitlines() + [f"  {note}" for note in notes]
    return message("\n".join(lines), "class:move") if lines else FormattedText([])


def toolbar(status: Status, glyphs: Glyphs = UNICODE) -> FormattedText:
    """The status line: deals left, suits removed, moves made, score, and what stands out:
    a complete suit ready to be removed, a win, a loss."""
    parts = [
        f"deals left {status.deals_left}",
        f"removed {status.removed}/8",
        f"moves {status.moves}",
        f"score {status.score}",
    ]
    out: StyleAndTextTuples = [("", " " + "  |  ".join(parts) + " ")]
    mark = "★ " if glyphs.symbols else "* "
    if status.won:  # short: the status line has one row of 80
        notes = ["you have won!"]
    elif status.lost:
        notes = ["lost: no moves left"]
    else:
        notes = [f"remove: pile {pile + 1}" for pile in status.ready]
    out += [("class:toolbar.alert", f" {mark}{note} ") for note in notes]
    return FormattedText(out)
