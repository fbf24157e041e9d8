"""Cards, ranks and suits: the small value types everything else is built from.

A card is an ``int`` subclass whose value is ``suit * 16 + rank`` (rank 1 = Ace .. 13 = King,
suit 0..3 = spades, hearts, diamonds, clubs). The engine works on those plain integers for
speed; the value 0 (:data:`UNKNOWN`) marks a face-down card whose identity is not known.
Two cards are the same run neighbours exactly when their codes differ by one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from spider_cli.rules.errors import NotationError, quoted

UNKNOWN = 0
"""The code of a card whose identity is not known (shown as ``--``)."""

SUIT_LETTERS = "shdc"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUITS_IN_VARIANT = {4: (0, 1, 2, 3), 2: (0, 1), 1: (0,)}
"""Suits used by each variant: 4 suits (default), 2 suits (spades, hearts), 1 suit (spades)."""
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_WORDS = (
    "",
    "Ace",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "Jack",
    "Queen",
    "King",
)
ACE, JACK, QUEEN, KING = 1, 11, 12, 13

_RANK_BY_TEXT = {name: rank for rank, name in enumerate(RANK_NAMES) if name}
_RANK_BY_TEXT.update({"T": 10, "1": 1})
_SUIT_BY_TEXT = {letter: suit for suit, letter in enumerate(SUIT_LETTERS)}
_SUIT_BY_TEXT.update({symbol: suit for suit, symbol in enumerate(SUIT_SYMBOLS)})
_SUIT_BY_TEXT.update({"♤": 0, "♡": 1, "♢": 2, "♧": 3})


def parse_rank(text: str) -> int:
    """The rank (1..13) written as ``A``, ``2``..``10``, ``T``, ``J``, ``Q`` or ``K``."""
    rank = _RANK_BY_TEXT.get(text.upper())
    if rank is None:
        raise NotationError(f"{quoted(text)} is not a rank (A, 2-10, J, Q, K)")
    return rank


def parse_suit(text: str) -> int:
    """The suit (0..3) written as a letter (s h d c, either case) or a symbol."""
    suit = _SUIT_BY_TEXT.get(text.lower())
    if suit is None:
        raise NotationError(f"{quoted(text)} is not a suit (s, h, d, c)")
    return suit


class Card(int):
    """One playing card; hashes and compares as its integer code.

    >>> Card.parse("10h"), Card.parse("Qs").rank
    (Card.parse('10h'), 12)
    """

    __slots__ = ()
    _cache: ClassVar[dict[int, Card]] = {}

    def __new__(cls, code: int) -> Card:
        card = cls._cache.get(code)
        if card is None:
            if not (1 <= code & 15 <= 13 and 0 <= code >> 4 <= 3 and code < 64):
                raise ValueError(f"no card has code {code}")
            card = cls._cache[code] = super().__new__(cls, code)
        return card

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of this rank (1..13) and suit (0..3)."""
        return cls(suit * 16 + rank)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as ``10h``, ``Th``, ``qS`` or ``J♠``."""
        text = text.strip()
        if len(text) < 2:
            raise NotationError(
                f"{quoted(text)} is not a card (write rank then suit, as 10h or Qs)"
            )
        return cls.of(parse_rank(text[:-1]), parse_suit(text[-1]))

    @property
    def rank(self) -> int:
        return int(self) & 15

    @property
    def suit(self) -> int:
        return int(self) >> 4

    def text(self, symbols: bool = False) -> str:
        """The card as the manual writes it (``10h``), or with a suit symbol (``10♥``)."""
        return RANK_NAMES[self.rank] + (SUIT_SYMBOLS if symbols else SUIT_LETTERS)[self.suit]

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Card.parse({self.text()!r})"


def card_text(code: int, symbols: bool = False) -> str:
    """Text of a card code, ``--`` for an unknown card."""
    return Card(code).text(symbols) if code else "--"


def run_text(cards: Sequence[int], symbols: bool = False) -> str:
    """A same-suit run as the manual writes it: ``8-6s`` for three cards, ``As`` for one."""
    top, bottom = Card(cards[0]), Card(cards[-1])
    if len(cards) == 1:
        return top.text(symbols)
    return f"{RANK_NAMES[top.rank]}-{bottom.text(symbols)}"


def split_runs(cards: Sequence[int]) -> list[list[int]]:
    """Face-up cards split into same-suit runs, each card one below the card before it."""
    runs: list[list[int]] = []
    for card in cards:
        if runs and runs[-1][-1] == card + 1:
            runs[-1].append(card)
        else:
            runs.append([card])
    return runs
