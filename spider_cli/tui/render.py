"""The tableau and what changed, as prompt_toolkit formatted text for the terminal.

The layout is the manual's: pile numbers above ten columns, each pile from its top card down
to the card that can move, face-down cards as card backs, ``(sp)`` for a space. Every suit has
its own colour (spades bold, hearts red, diamonds yellow, clubs green) on top of its own symbol,
so the four suits are told apart at a glance and still without colour (``NO_COLOR``) or
without Unicode (the ASCII glyphs: the manual's ``--`` backs and ``s h d c`` letters).
Ten columns of at most eight characters fit 79 columns (the last one needs no gap), of
four 39, of three (a ten written ``T♥``, as the notation reads it too) 29; a screen narrower
still shows the piles that fit and says which are left out and how wide it must be. When the
tableau is taller than the room on the screen, face-down cards shrink to one cell
(``▒▒×5``), then same-suit runs of three or more to one cell in the manual's own notation
(``Q-9♥``); ``show PILE`` gives a pile in full. Nothing here changes a game: these are
pictures of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.styles import Style

from spider_cli.app.words.replies import Piece, played_lines
from spider_cli.rules.cards import (
    SUIT_LETTERS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    Card,
    run_text,
    split_runs,
)
from spider_cli.rules.engine import PILES, Game, Move
from spider_cli.rules.text import clock_text, move_text, moved_text
from spider_cli.tui.wrapping import plain, wrap

if TYPE_CHECKING:
    from prompt_toolkit.mouse_events import MouseEvent

    from spider_cli.app.results import Played, Status

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
        "toolbar.keys": "reverse ansibrightblack",
        "selected": "reverse",
        "hinted": "bg:ansicyan ansiblack",
        "better": "bg:ansigreen ansiblack",  # the blind player's move beside a marked one
        "curve": "",
        "curve-cursor": "reverse bold",
        "curve-signs": "ansiyellow",
        "more": "ansibrightblack reverse",
        "question": "bold ansiyellow",
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


# ---------------------------------------------------------------------------------------------
# The tableau


class _Cell(NamedTuple):
    text: str
    style: str
    at: int | None = None
    """The pile's card the cell shows (its index; the top one of a compressed run); None
    for a space."""


class Spot(NamedTuple):
    """A place a player can point at: a card of a pile (``at``, its index in the pile), the
    room below a pile's cards (``at`` None), or the hand (``pile`` None)."""

    pile: int | None
    at: int | None = None


HAND = Spot(None)

MouseHandler = Callable[["MouseEvent"], object]
Clickable = Callable[[Spot], MouseHandler]
"""Gives the mouse handler of a place on the tableau (the full-screen board's)."""


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


def _card_cell(code: int, glyphs: Glyphs, fresh: bool, index: int, room: int = 7) -> _Cell:
    """A card's cell; a ten is ``T♥`` where ``10♥`` is wider than ``room``."""
    style = SUIT_CLASSES[code >> 4] + (" class:fresh" if fresh else "")
    text = glyphs.card(code)
    return _Cell(text if len(text) <= room else "T" + text[2:], style, index)


def _fitting(room: int, *texts: str) -> str:
    """The first of ``texts`` no wider than ``room`` (the last one if none is)."""
    return next((text for text in texts if len(text) <= room), texts[-1])


def _pile_cells(
    game: Game,
    i: int,
    glyphs: Glyphs,
    level: int,
    fresh: frozenset[tuple[int, int]],
    room: int = 7,
) -> list[_Cell]:
    """One pile's cells at a compression level: 0 in full, 1 backs in one cell, 2 runs too.

    No cell is wider than ``room``: in narrow columns a space is ``sp``, the backs one
    shade and a count (or the count alone), a ten ``T♥``, and a compressed run its two ends
    around a ``⋮`` and the count of the cards between (``⋮3``), where it fits."""
    pile, down = game.piles[i], game.down[i]
    if not pile:
        return [_Cell(glyphs.space if len(glyphs.space) <= room else "sp", "class:space")]
    cells: list[_Cell] = []
    if level >= 1 and down >= 2:
        back, times = glyphs.back, glyphs.times
        short = f"{back[0] if glyphs.symbols else times}{down}"  # ▒5, or x5 (not -5)
        backs = _fitting(room, f"{back}{times}{down}", f"{back[0]}{times}{down}", short)
        cells.append(_Cell(backs, "class:back", 0))
    else:
        cells += [_Cell(glyphs.back, "class:back", k) for k in range(down)]
    index = down
    for run in split_runs(pile[down:]):
        text = run_text(run, glyphs.symbols)
        if level >= 2 and len(run) >= 3 and len(text) <= room:
            is_fresh = any((i, j) in fresh for j in range(index, index + len(run)))
            style = SUIT_CLASSES[run[0] >> 4] + (" class:fresh" if is_fresh else "")
            cells.append(_Cell(text, style, index))
        elif level >= 2 and len(run) >= 4:
            last = index + len(run) - 1
            cells.append(_card_cell(run[0], glyphs, (i, index) in fresh, index, room))
            dots = "⋮" if glyphs.symbols else ":"
            between = _fitting(room, f"{dots}{len(run) - 2}", dots)
            cells.append(_Cell(between, "class:dim", index + 1))
            cells.append(_card_cell(run[-1], glyphs, (i, last) in fresh, last, room))
        else:
            cells += [
                _card_cell(c, glyphs, (i, index + k) in fresh, index + k, room)
                for k, c in enumerate(run)
            ]
        index += len(run)
    return cells


def _squeezed(cells: list[_Cell], rows: int, glyphs: Glyphs, room: int = 7) -> list[_Cell]:
    """A pile's cells in at most ``rows`` (at least 2): its backs, a ``+N`` for the N cards
    left out (a ``+`` alone where the count is wider than ``room``; unlike a run's ``⋮``,
    they need not be a run), then its last cells, where play goes on (a small window still
    shows them)."""
    if len(cells) <= rows:
        return cells
    head = cells[:1] if cells[0].style == "class:back" and rows >= 3 else []
    tail = max(1, rows - len(head) - 1)
    first, after = cells[len(head)].at, cells[-tail].at
    hidden = after - first if first is not None and after is not None else len(cells) - tail
    mark = _fitting(room, f"+{hidden}", "+")
    return [*head, _Cell(mark, "class:dim", cells[len(head)].at), *cells[-tail:]]


NARROWEST = 3 * PILES - 1
"""The narrowest screen that shows every pile: ten columns of three (a card of two, a ten
``T♥``, and a gap), the last one's gap left out."""


def column_width(width: int) -> int:
    """The width of a column for a terminal ``width`` wide: eight for 79 or more (the last
    column needs no gap), down to three (a card of two and a gap: 29 columns)."""
    return max(3, min(8, (width + 1) // PILES))


def piles_shown(width: int) -> int:
    """How many piles, from the first, a terminal ``width`` wide shows (ten from 29)."""
    return max(1, min(PILES, (width + 1) // 3))


def _left_out(width: int) -> StyleAndTextTuples:
    """The line that says which piles a screen too narrow for them leaves out, and the
    width that shows them, broken into rows to fit; nothing when every pile is shown."""
    shown = piles_shown(width)
    if shown == PILES:
        return []
    piles = f"pile {PILES}" if shown == PILES - 1 else f"piles {shown + 1}-{PILES}"
    note = f"{piles} not shown: all ten need {NARROWEST} columns"
    out: StyleAndTextTuples = []
    for row in wrap([("class:warning", note)], width):
        out += [*row, ("", "\n")]
    return out


def _header(game: Game, glyphs: Glyphs, width: int = 80) -> StyleAndTextTuples:
    """The hand (a back per deal left) and the eight places of the removed suits, as
    short as ``width`` needs: on two rows where one is too narrow for them."""
    deals = game.deals_left
    removed: StyleAndTextTuples = [("class:heading", "removed ")]
    for k in range(8):
        if k < len(game.removed):
            suit = game.removed[k]
            removed.append((SUIT_CLASSES[suit], glyphs.suit(suit)))
        else:
            removed.append(("class:dim", glyphs.empty_slot))
    spaced = [removed[0]]
    for k, fragment in enumerate(removed[1:]):
        spaced += [fragment, ("", " " if k < 7 else "")]
    if not deals:
        hands: list[StyleAndTextTuples] = [[("class:dim", "empty")]]
    else:
        plural = "s" if deals != 1 else ""
        hands = [
            [("class:back", " ".join([glyphs.back] * deals)), ("", f" ({deals} deal{plural})")],
            [("class:back", " ".join([glyphs.back] * deals))],
            [("class:back", glyphs.back), ("", f"{glyphs.times}{deals}")],
        ]
    for hand in hands:
        for marks, gap in ((spaced, "    "), (removed, "  ")):
            out: StyleAndTextTuples = [("class:heading", "hand "), *hand, ("", gap), *marks]
            if len(plain(out)) <= width:
                return out
    return [("class:heading", "hand "), *hands[-1], ("", "\n"), *removed]


def tableau(
    game: Game,
    glyphs: Glyphs = UNICODE,
    width: int = 80,
    max_rows: int | None = None,
    fresh: frozenset[tuple[int, int]] = frozenset(),
    clickable: Clickable | None = None,
) -> FormattedText:
    """The whole tableau: the hand and removed suits, pile numbers, then the piles.

    ``max_rows`` bounds the rows of cards: longer piles are shown more compactly (see the
    module's description). ``fresh`` cards (from :func:`fresh_cards`) are underlined.
    ``clickable`` gives the mouse handler of each place: the rows are then as wide as the
    columns, each column's part (its card or the room below its cards) its own.

    Narrower than :data:`NARROWEST`, the piles that fit are shown, under a line that says
    which are not and the width that shows them.
    """
    w = column_width(width)
    shown = piles_shown(width)
    header = _header(game, glyphs, width)
    if clickable is not None:
        hand = clickable(HAND)
        header = [
            (style, text, hand) if text != "\n" else (style, text) for style, text, *_ in header
        ]
    out: StyleAndTextTuples = [*header, ("", "\n"), *_left_out(width)]
    if max_rows is not None:  # the rows of cards: what the header and the note leave
        max_rows = max(2, max_rows - plain(out).count("\n") + 1)
    for level in range(3):
        columns = [_pile_cells(game, i, glyphs, level, fresh, w - 1) for i in range(shown)]
        height = max(map(len, columns))
        if max_rows is None or height <= max_rows:
            break
    else:  # still too tall: the longest piles keep their backs and their last cards
        columns = [
            _squeezed(column, max(2, max_rows or height), glyphs, w - 1) for column in columns
        ]
        height = max(map(len, columns))
    numbers = "".join(f"{i + 1:<{w}}" for i in range(shown)).rstrip()
    out += [("class:pile-number", numbers), ("", "\n")]
    last = min(w, width - w * (shown - 1))  # the last column's gap, where the screen has it
    for row in range(height):
        out += _row(columns, row, w, clickable, last)
        out.append(("", "\n"))
    return FormattedText(out)


def _row(
    columns: list[list[_Cell]], row: int, w: int, clickable: Clickable | None, last: int
) -> StyleAndTextTuples:
    """One row of the piles: without ``clickable``, the cells padded to their columns and
    no trailing blanks; with it, every column its full width (the last one ``last`` wide),
    with its handler."""
    line: StyleAndTextTuples = []
    if clickable is not None:
        for pile, column in enumerate(columns):
            width = w if pile < len(columns) - 1 else last
            if row < len(column):
                cell = column[row]
                handler = clickable(Spot(pile, cell.at))
                line += [
                    (cell.style, cell.text, handler),
                    ("", " " * (width - len(cell.text)), handler),
                ]
            else:
                line.append(("", " " * width, clickable(Spot(pile))))
        return line
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
    return line


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


def played(played: Played) -> FormattedText:
    """What an action changed, from its typed result: the move in bold, its cards and the
    cards it turned up in their suits' colours, then the notes (as ``played_text`` says)."""
    return pieces(played_lines(played))


def pieces(lines: list[list[Piece]]) -> FormattedText:
    """A reply drawn from a typed result's pieces (:mod:`spider_cli.app.words.replies`): the
    first line in bold, cards in their suits' colours."""
    out: StyleAndTextTuples = []
    for k, line in enumerate(lines):
        for piece in line:
            if isinstance(piece, str):
                out.append(("class:move" if k == 0 else "", piece))
            else:
                suit = SUIT_CLASSES[piece[-1].suit]
                out.append((f"class:move {suit}" if k == 0 else suit, moved_text(piece)))
        out.append(("", "\n"))
    return FormattedText(out)


def change(text: str, notes: Iterable[str] = ()) -> FormattedText:
    """What a command changed: its first line (the move in notation) in bold, then notes."""
    lines = text.splitlines() + [f"  {note}" for note in notes]
    return message("\n".join(lines), "class:move") if lines else FormattedText([])


KEYS = (("^Z", "undo"), ("^Y", "redo"), ("?", "hint"), ("!", "play it"))
"""The board's keys that act at once (no letter: letters write commands), for the status
line."""


def toolbar(
    status: Status, glyphs: Glyphs = UNICODE, width: int | None = None, keys: bool = False
) -> FormattedText:
    """The status line: deals left, suits removed, moves made, score, the time played (when
    kept), and what stands out: a complete suit ready to be removed, a win, a loss; with
    ``keys``, the board's keys.

    Given a ``width``, the fullest wording that fits: words are shortened or left out,
    never cut."""
    counts = (status.deals_left, status.removed, status.moves, status.score)
    words = [
        ("deals left {}", "removed {}/8", "moves {}", "score {}"),
        ("deals {}", "removed {}/8", "moves {}", "score {}"),
        ("deals {}", "off {}/8", "moves {}", "score {}"),
        ("d{}", "{}/8", "m{}", "s{}"),
    ]
    stats = [
        sep.join(w.format(n) for w, n in zip(variant, counts, strict=True))
        for variant, sep in zip(words, ("  |  ", " | ", " | ", " "), strict=False)
    ]
    stats.insert(1, " | ".join(w.format(n) for w, n in zip(words[0], counts, strict=True)))
    # (words still, without the bars, before the one-letter counts: 40 columns need it)
    stats.insert(4, "  ".join(w.format(n) for w, n in zip(words[2], counts, strict=True)))
    mark = "★ " if glyphs.symbols else "* "
    if status.won:
        alerts = [["you have won!"], ["won!"]]
    elif status.lost:
        alerts = [["lost: no moves left"], ["lost"]]
    elif status.ready:
        piles = " ".join(str(pile + 1) for pile in status.ready)
        alerts = [[f"remove: pile {pile + 1}" for pile in status.ready], [f"remove {piles}"]]
    else:
        alerts = [[]]
    legends = [""]
    if keys:
        legends = [
            "  ".join(f"{key} {word}" for key, word in KEYS),
            "keys: " + " ".join(key for key, _ in KEYS),
            " ".join(key for key, _ in KEYS),
            "",
        ]
    times = [""]  # the time played, after the counts: in words, alone, or left out
    if status.played is not None:
        times = ["time {}", "{}", ""]
    seps = ("  |  ", " | ", " | ", " | ", "  ", " ")
    # What each shortening costs: the cryptic counts and leaving the keys out cost most.
    stats_cost = (0, 1, 2, 3, 4, 7)
    keys_cost = (0, 1, 2, 4)[-len(legends) :]
    times_cost = (0, 1, 2.5)  # the time gives way before the words of the counts do
    candidates = sorted(
        (stats_cost[i] + j + keys_cost[k] + times_cost[t], i, j, k, t)
        for i in range(len(stats))
        for j in range(len(alerts))
        for k in range(len(legends))
        for t in range(len(times))
        if not (times[t] and i == len(stats) - 1)  # the cryptic counts go alone
    )
    best: StyleAndTextTuples = []
    for _cost, i, j, k, t in candidates:
        played = seps[i] + times[t].format(clock_text(status.played or 0)) if times[t] else ""
        out: StyleAndTextTuples = [("", f" {stats[i]}{played} ")]
        out += [("class:toolbar.alert", f" {mark}{note} ") for note in alerts[j]]
        if legends[k]:
            out.append(("class:toolbar.keys", f" {legends[k]} "))
        if width is None or len(plain(out)) <= width:
            return FormattedText(out)
        best = out
    return FormattedText(best)
