"""The four layouts of a position file read (see :mod:`spider_cli.language.files.positions`): the
grid, the Markdown table, one line per pile and the position code, from the tree of
grammar/position.lark to a :class:`PositionFile`, with errors pointed at the cell at fault.
Whether what was read can exist is judged in :mod:`spider_cli.language.files.checks`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from spider_cli.language import grammar
from spider_cli.language.files import textfiles as files
from spider_cli.language.files.checks import Checks, Header, Spot
from spider_cli.language.files.position import PositionFile
from spider_cli.rules.cards import (
    SUITS_IN_VARIANT,
    UNKNOWN,
    Card,
    parse_suit,
)
from spider_cli.rules.engine import DECK_SIZE, PILES
from spider_cli.rules.errors import (
    NotationError,
    PlacedPositionError,
    PositionError,
    SpiderError,
    caret_line,
    column_in,
    quoted,
)

if TYPE_CHECKING:  # lark is imported when a position is read, not with this module
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput

_CARD_IN_TEXT = re.compile(r"(10|[1-9AaTtJjQqKk])([shdcSHDC♠♥♦♣♤♡♢♧])")


@functools.cache
def parser() -> Lark:
    """The parser of the position grammar, read once from its stored tables."""
    return grammar.load("position.lark")


def _spot(token: Token, offset: int = 0) -> Spot:
    return token.line or 0, (token.column or 0) + offset


class _Cell(NamedTuple):
    """One cell of a tableau as written: a card, face down or up, or an empty-pile mark."""

    card: int
    down: bool
    token: Token
    empty: bool = False


_HEADERS = {
    "suits_line": "suits",
    "stock_count": "stock",
    "stock_cards": "stock",
    "removed_count": "removed",
    "removed_none": "removed",
    "removed_suits": "removed",
}
_LAYOUTS = {"grid_row": "grid", "table_row": "table", "pile_line": "lines", "code": "code"}
_LAYOUT_NAMES = {
    "grid": "as a grid of columns",
    "table": "as a Markdown table",
    "lines": "one line per pile ('3: -- Jc 10h')",
    "code": "as a position code",
}
_EXPECTED_NAMES = {
    "CARD": "a card (10h, Qs)",
    "DASHES": "'--'",
    "EMPTY": "'(sp)'",
    "KNOWN": "a known face-down card ([Jh])",
    "INT": "a number",
    "PIPE": "'|'",
    "SUIT": "a suit letter (s h d c)",
    "NONE": "'none'",
    "COLON": "':'",
    "SLASH": "'/'",
    "COMMA": "','",
    "_NL": "the end of the line",
    "$END": "the end of the line",
}
_CELL_HELP = (
    "write a card as rank then suit (10h, Th, Qs), -- for a face-down card, [Jh] for a "
    "face-down card you know, (sp) for an empty pile"
)


def _number(token: Token) -> int:
    """The value of a number token (huge ones are capped: no position needs them)."""
    digits = token.value.rstrip(": \t").lstrip("0") or "0"
    return int(digits) if len(digits) <= 6 else 10**6


class LayoutReader:
    """Turns the parse tree of one text into a :class:`PositionFile`, pointing errors at it."""

    def __init__(self, text: str, written: str | None = None) -> None:
        self.lines = text.split("\n")
        self.written = self.lines if written is None else written.split("\n")
        """The lines as written, where ``text`` has their tabs expanded: errors point there."""
        self.checks = Checks(self)

    def error(
        self, message: str, line: int = 0, column: int = 0, impossible: bool = False
    ) -> NotationError:
        """An error at ``column`` of the (expanded) ``line``, said at its column as written;
        ``impossible``: about a position that cannot exist (a :class:`PositionError` too)."""
        kind = PlacedPositionError if impossible else NotationError
        if not 1 <= line <= len(self.lines) or column < 1:
            return kind(message)
        written = self.written[line - 1]
        column = column_in(written, column)
        return kind(message, line, column, caret_line(written, column))

    def at(self, token: Token, message: str) -> NotationError:
        return self.error(message, token.line or 0, token.column or 0)

    def impossible(self, spot: Spot, message: str) -> NotationError:
        """A position that cannot exist, said at ``spot``."""
        return self.error(message, *spot, impossible=True)

    def placed(self, error: SpiderError, spot: Spot | None) -> SpiderError:
        """``error`` said at ``spot`` (the line of the hand, the removed suits), if any."""
        if spot is None:
            return error
        message = error.message if isinstance(error, NotationError) else str(error)
        return self.error(message, *spot, impossible=isinstance(error, PositionError))

    # -- syntax errors ------------------------------------------------------------------------

    def syntax_error(self, exc: UnexpectedInput) -> NotationError:
        """A player's message for a lark error: the word that does not read, and what would."""
        from lark.exceptions import UnexpectedToken

        line = exc.line if isinstance(exc.line, int) and exc.line >= 1 else len(self.lines)
        line = min(line, len(self.lines))
        text = self.lines[line - 1]
        column = exc.column if isinstance(exc.column, int) and exc.column >= 1 else len(text) + 1
        token = getattr(exc, "token", None)
        expected = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
        if isinstance(exc, UnexpectedToken) and token is not None and token.type in ("_NL", "$END"):
            wanted = self._wanted(expected)
            return self.error(f"the line ends too soon: expected {wanted}", line, len(text) + 1)
        start = column - 1
        while start > 0 and text[start - 1].isalnum():
            start -= 1
        end = column
        while end < len(text) and not text[end].isspace() and text[end] not in "|/":
            end += 1
        word = quoted(text[start:end] or text[column - 1 : column])
        if not text[:start].strip():
            return self.error(
                f"cannot read {word}: a line holds a header (suits:, stock:, removed:), a row "
                "of the tableau, a position code (spider:...), or a comment after #",
                line,
                start + 1,
            )
        if "CARD" in expected and "SUIT" not in expected:
            return self.error(f"{word} is not a card: {_CELL_HELP}", line, start + 1)
        return self.error(
            f"cannot read {word} here: expected {self._wanted(expected)}", line, start + 1
        )

    @staticmethod
    def _wanted(expected: Iterable[str]) -> str:
        names = sorted({_EXPECTED_NAMES[t] for t in expected if t in _EXPECTED_NAMES})
        if not names:
            return "more"
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]

    # -- the tree -----------------------------------------------------------------------------

    def read(self, tree: Tree[Token]) -> PositionFile:
        from lark import Tree

        header = Header()
        layout: str | None = None
        numbers: Tree[Token] | None = None
        rows: list[Tree[Token]] = []
        for item in tree.children:
            assert isinstance(item, Tree)
            first = _first_token(item)
            if item.data in _HEADERS:
                name = _HEADERS[item.data]
                if layout or numbers:
                    raise self.at(first, f"put the '{name}:' line before the tableau")
                self._header(item, header)
            elif item.data == "number_row":
                if layout or numbers:
                    raise self.at(first, "a row of pile numbers goes just above the grid")
                numbers = item
            else:
                kind = _LAYOUTS[item.data]
                if layout is None:
                    if kind == "code" and not header.is_silent():
                        raise self.at(
                            first,
                            "a position code holds the whole position: leave out the header lines",
                        )
                    layout = kind
                elif kind != layout or kind == "code":
                    raise self.at(
                        first,
                        f"this line is written {_LAYOUT_NAMES[kind]}, but "
                        f"the tableau above is written {_LAYOUT_NAMES[layout]}",
                    )
                rows.append(item)
        if numbers is not None:
            self._check_numbers(numbers)
            if layout not in (None, "grid"):
                raise self.at(
                    _first_token(numbers),
                    "a row of pile numbers belongs above a grid, not a "
                    f"tableau written {_LAYOUT_NAMES[layout]}",
                )
        if layout is None:
            raise self.error(
                "no tableau found: write one row per depth (grid or Markdown "
                "table), one line per pile ('1: -- Jc'), or a position code"
            )
        if layout == "code":
            return self._code(rows[0])
        cells = {"grid": self._grid, "table": self._table, "lines": self._lines}[layout](rows)
        piles: list[list[int]] = []
        down: list[int] = []
        for i, pile in enumerate(cells):
            cards, face_down = self._pile(i, pile)
            piles.append(cards)
            down.append(face_down)
        spots = [[_spot(cell.token) for cell in pile if not cell.empty] for pile in cells]
        return self.checks.finish(piles, down, header, spots)

    def _header(self, item: Tree[Token], header: Header) -> None:
        """Record one header line in ``header``."""
        from lark import Token

        keyword, *rest = item.children
        assert isinstance(keyword, Token)
        tokens = [part for part in rest if isinstance(part, Token)]
        name = _HEADERS[item.data]
        stated = {
            "suits": header.suits,
            "stock": header.stock_count,
            "removed": header.removed_count,
        }[name]
        if stated is not None:
            written = keyword.value.rstrip(": \t").lower()
            raise self.at(keyword, f"a second '{written}:' line: give it once")
        if item.data == "suits_line":
            suits = _number(tokens[0])
            if suits not in SUITS_IN_VARIANT:
                raise self.at(tokens[0], f"a game has 1, 2 or 4 suits, not {_said(tokens[0])}")
            header.suits = suits
        elif item.data == "stock_count":
            header.stock_at = _spot(keyword)
            header.stock_count = _number(tokens[0])
            if header.stock_count > DECK_SIZE:
                raise self.at(
                    tokens[0],
                    f"the hand cannot hold {_said(tokens[0])} cards: a game has {DECK_SIZE}",
                )
        elif item.data == "stock_cards":
            cells = [self._cell(cell) for cell in rest]
            for cell in cells:
                if cell.empty:
                    raise self.at(cell.token, "(sp) marks an empty pile; it cannot be in the hand")
            header.stock = [cell.card for cell in cells]
            header.stock_count = len(cells)
            header.stock_spots = [_spot(cell.token) for cell in cells]
            header.stock_at = _spot(keyword)
            self.checks.hand_size(header)
        elif item.data == "removed_count":
            count = _number(tokens[0])
            if count > 8:
                raise self.at(
                    tokens[0],
                    f"at most eight suits can be removed, not {_said(tokens[0])}",
                )
            header.removed_count = count
            header.removed_at = _spot(tokens[0])
        else:
            named = [t for t in tokens if t.type == "SUIT"]
            header.removed = [parse_suit(t.value) for t in named]
            header.removed_count = len(header.removed)
            header.removed_spots = [_spot(t) for t in named]
            header.removed_at = _spot(keyword)
            self.checks.removed_count(header)

    def _check_numbers(self, row: Tree[Token]) -> None:
        for i, token in enumerate(_tokens(row)):
            if i >= PILES or _number(token) != i + 1:
                raise self.at(token, "the row of pile numbers should read 1 2 3 ... 10")
        if len(row.children) < PILES:
            raise self.at(_first_token(row), "the row of pile numbers should read 1 2 3 ... 10")

    def _cell(self, tree: Tree[Token] | Token) -> _Cell:
        """Read one cell (a ``cell`` tree, or a bare number token where a cell was due)."""
        from lark import Token

        token = tree if isinstance(tree, Token) else _first_token(tree)
        value = token.value
        if token.type == "CARD":
            return _Cell(Card.parse(value), False, token)
        if token.type == "KNOWN":
            cards = _CARD_IN_TEXT.findall(value)
            if len(cards) != 1:
                raise self.at(token, "write one card in each cell: [Jh], not [JhQs]")
            return _Cell(Card.parse("".join(cards[0])), True, token)
        if token.type == "EMPTY":
            return _Cell(UNKNOWN, False, token, empty=True)
        if token.type == "DASHES" and value == "--":
            return _Cell(UNKNOWN, True, token)
        raise self.at(token, f"{quoted(value)} is not a card: {_CELL_HELP}")

    def _pile(self, index: int, cells: list[_Cell]) -> tuple[list[int], int]:
        """A pile's cards and face-down count, checking that face-down cards come first."""
        name = f"pile {index + 1}"
        if any(cell.empty for cell in cells):
            if len(cells) == 1:
                return [], 0
            # the first cell after the first mark, or before it: a card or a second mark
            extra = cells[1] if cells[0].empty else cells[0]
            if extra.empty:
                raise self.at(extra.token, f"{name} is marked empty with (sp) twice: once will do")
            raise self.at(extra.token, f"{name} is marked empty with (sp) but has cards")
        down = 0
        for j, cell in enumerate(cells):
            if cell.down:
                if down < j:
                    raise self.at(
                        cell.token,
                        f"{name}: this face-down card lies below a face-up "
                        "one; a pile's face-down cards come first",
                    )
                down += 1
        if cells and down == len(cells):
            raise self.at(
                cells[-1].token,
                f"{name} ends with a face-down card; the last card of a pile is face up",
            )
        return [cell.card for cell in cells], down

    # -- the layouts --------------------------------------------------------------------------

    def _grid(self, rows: list[Tree[Token]]) -> list[list[_Cell]]:
        """Cells of a grid: the first row gives each pile's column, later cells go to the
        pile whose first cell is nearest."""
        first = [self._cell(cell) for cell in rows[0].children]
        if len(first) != PILES:
            spot = first[PILES].token if len(first) > PILES else first[0].token
            raise self.at(
                spot,
                f"the first row of the tableau has {len(first)} cells; it needs "
                "one for each of the ten piles ((sp) for an empty pile)",
            )
        anchors = [cell.token.column or 0 for cell in first]
        piles = [[cell] for cell in first]
        going = [True] * PILES
        for row in rows[1:]:
            taken: set[int] = set()
            for cell in map(self._cell, row.children):
                column = cell.token.column or 0
                nearest = sorted(range(PILES), key=lambda j: abs(column - anchors[j]))
                pile, runner_up = nearest[0], nearest[1]
                if abs(column - anchors[pile]) == abs(column - anchors[runner_up]):
                    low, high = sorted((pile, runner_up))
                    raise self.at(
                        cell.token,
                        f"this card is as near to pile {low + 1} as to "
                        f"pile {high + 1}: line it up under one of them",
                    )
                if pile in taken:
                    raise self.at(
                        cell.token,
                        f"two cards on this line are under pile "
                        f"{pile + 1}: line each up under its pile",
                    )
                if not going[pile]:
                    raise self.at(
                        cell.token,
                        f"pile {pile + 1} has a gap above this card: "
                        "a pile's cards go on consecutive rows",
                    )
                taken.add(pile)
                piles[pile].append(cell)
            going = [going[j] and j in taken for j in range(PILES)]
        return piles

    def _table(self, rows: list[Tree[Token]]) -> list[list[_Cell]]:
        """Cells of a Markdown table, after an optional header row and separator row."""
        split = [_table_cells(row) for row in rows]
        start = 0
        if all(not cell or _is_number(cell) for cell in split[0]):
            if len(split) < 2 or not _is_rule(split[1]):
                spot = _first_token(rows[min(1, len(rows) - 1)])
                raise self.at(
                    spot, "a table's header row is followed by a separator row (|----|----|...)"
                )
            start = 2
        elif _is_rule(split[0]) and any(cell[0].value != "--" for cell in split[0]):
            start = 1
        if start == len(rows):
            raise self.at(_first_token(rows[-1]), "the table has no rows of cards")
        piles: list[list[_Cell]] = [[] for _ in range(PILES)]
        ended = [False] * PILES
        for row, cells in zip(rows[start:], split[start:], strict=True):
            if len(cells) != PILES:
                raise self.at(
                    _first_token(row),
                    f"this row of the table has {len(cells)} columns; a tableau has ten",
                )
            for j, parts in enumerate(cells):
                if not parts:
                    ended[j] = True
                    continue
                if len(parts) > 1:
                    raise self.at(parts[1], "write one card in each cell of the table")
                cell = self._cell(parts[0])
                if ended[j]:
                    raise self.at(cell.token, f"pile {j + 1} has an empty cell above this card")
                piles[j].append(cell)
        return piles

    def _lines(self, rows: list[Tree[Token]]) -> list[list[_Cell]]:
        """Cells of the one-line-per-pile layout: every pile once, any order."""
        from lark import Token

        piles: list[list[_Cell] | None] = [None] * PILES
        for row in rows:
            label, *cells = row.children
            assert isinstance(label, Token)
            number = _number(label)
            if not 1 <= number <= PILES:
                raise self.at(
                    label,
                    f"there is no pile {label.value.rstrip(': ')}: piles are numbered 1 to 10",
                )
            if piles[number - 1] is not None:
                raise self.at(label, f"pile {number} is given twice")
            piles[number - 1] = [self._cell(cell) for cell in cells]
        for j, pile in enumerate(piles):
            if pile is None:
                raise self.error(
                    f"pile {j + 1} is missing: write '{j + 1}: (sp)' for an empty pile"
                )
        return [pile or [] for pile in piles]

    def _code(self, code: Tree[Token]) -> PositionFile:
        """Read a position code's fields."""
        from lark import Token, Tree

        _, suits_token, hand, removed, *pile_trees = code.children
        assert isinstance(suits_token, Token) and isinstance(hand, Tree)
        assert isinstance(removed, Tree)
        suits = _number(suits_token)
        if suits not in SUITS_IN_VARIANT:
            raise self.at(suits_token, f"a game has 1, 2 or 4 suits, not {_said(suits_token)}")
        header = Header(suits=suits, code=True)
        hand_cards, hand_spots = self._code_cards_at(_tokens(hand))
        header.stock_count = len(hand_cards)
        header.stock_at = _spot(_first_token(hand))
        if any(hand_cards):
            header.stock, header.stock_spots = hand_cards, hand_spots
            self.checks.hand_size(header)
        mark = _first_token(removed)
        header.removed_at = _spot(mark)
        if mark.type == "INT":
            header.removed_count = _number(mark)
            if header.removed_count > 8:
                raise self.at(mark, f"at most eight suits can be removed, not {_said(mark)}")
        elif mark.type == "DASHES":
            if mark.value != "-":
                raise self.at(mark, "write - for no removed suits")
            header.removed, header.removed_count = [], 0
        else:
            header.removed = [parse_suit(t.value) for t in _tokens(removed)]
            header.removed_count = len(header.removed)
            header.removed_spots = [_spot(t) for t in _tokens(removed)]
            self.checks.removed_count(header)
        if len(pile_trees) != PILES:
            extra = pile_trees[PILES] if len(pile_trees) > PILES else None
            spot = _first_token(extra) if isinstance(extra, Tree) else extra
            message = f"a position code has ten piles, this one {len(pile_trees)}"
            if spot is None:
                line = code.meta.end_line
                raise self.error(message, line, len(self.lines[line - 1]) + 1)
            raise self.at(spot, message)
        piles: list[list[int]] = []
        down: list[int] = []
        spots: list[list[Spot]] = []
        for pile in pile_trees:
            assert isinstance(pile, Tree)
            parts = pile.children
            if isinstance(parts[0], Token) and parts[0].type == "DASHES":
                if parts[0].value != "-":
                    raise self.at(parts[0], "write - for an empty pile")
                piles.append([])
                down.append(0)
                spots.append([])
                continue
            hidden: list[int] = []
            hidden_spots: list[Spot] = []
            if isinstance(parts[0], Tree):
                hidden, hidden_spots = self._code_cards_at(_tokens(parts[0]))
                parts = parts[1:]
            face_up = [t for t in parts if isinstance(t, Token)]
            piles.append(hidden + [Card.parse(t.value) for t in face_up])
            down.append(len(hidden))
            spots.append(hidden_spots + [_spot(t) for t in face_up])
        return self.checks.finish(piles, down, header, spots)

    def _code_cards_at(self, tokens: list[Token]) -> tuple[list[int], list[Spot]]:
        """A code's run of counts of unknown cards and bracketed known cards, with the place
        of each card (a count's for each of its unknown cards)."""
        cards: list[int] = []
        where: list[Spot] = []
        for token in tokens:
            if token.type == "INT":
                count = _number(token)
                if len(cards) + count > DECK_SIZE:
                    raise self.at(token, f"{_said(token)} cards: a game has only {DECK_SIZE}")
                cards += [UNKNOWN] * count
                where += [_spot(token)] * count
                continue
            for found in _CARD_IN_TEXT.finditer(token.value):
                cards.append(Card.parse(found.group()))
                where.append(_spot(token, found.start()))
        return cards, where


def _said(token: Token) -> str:
    """A token as an error repeats it: a number of 5,000 digits by its first ones."""
    return files.clipped(str(token.value))


def _tokens(tree: Tree[Token]) -> list[Token]:
    from lark import Token

    return [t for t in tree.scan_values(lambda v: isinstance(v, Token))]


def _first_token(tree: Tree[Token]) -> Token:
    from lark import Token

    token = next(iter(tree.scan_values(lambda v: isinstance(v, Token))))
    assert isinstance(token, Token)
    return token


def _table_cells(row: Tree[Token]) -> list[list[Token]]:
    """A Markdown row's cells, each the tokens between two pipes (the first pipe opens it;
    the last one may be left out)."""
    from lark import Token

    cells: list[list[Token]] = []
    current: list[Token] | None = None
    for child in row.children:
        token = child if isinstance(child, Token) else _first_token(child)
        if token.type == "PIPE":
            if current is not None:
                cells.append(current)
            current = []
        else:
            assert current is not None
            current.append(token)
    if current:
        cells.append(current)
    return cells


def _is_number(cell: list[Token]) -> bool:
    return len(cell) == 1 and cell[0].type == "INT"


def _is_rule(cells: list[list[Token]]) -> bool:
    """Whether a table row is a separator row (|---|:--:|...)."""
    return all(len(cell) == 1 and cell[0].type == "DASHES" for cell in cells)
