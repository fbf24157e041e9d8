"""Numbered deals from other programs, card for card: PySolFC's and KPatience's Spider.

A player or a solver author who names "game 14934" usually means PySolFC's numbering (the one
plspider's result uses) or KPatience's. :class:`DealSource` names a deal from either program,
or one of our own, and :meth:`DealSource.game` gives the deal as a :class:`Game` that knows
every card: the face-down ones and the hand in the order it will be dealt.

* PySolFC (shlomif/PySolFC, pysollib/games/spider.py and pysollib/game): the deck is two
  copies, each suit by suit (clubs, spades, hearts, diamonds) from Ace to King; its 2-suit
  game has the suit slots clubs, clubs, hearts, hearts and its 1-suit game clubs four times,
  which we play as spades (our 1- and 2-suit games use spades and hearts). Game numbers
  below 32000 are shuffled with the LCRandom31 generator, larger ones with Python's Mersenne
  Twister; both shuffles come from the ``pysol-cards`` library, the one PySolFC itself uses.
  The talon deals from the end of the shuffled list: four rows of ten face down, one more
  face-down card on piles 1, 4, 7 and 10, a row face up, then the hand ten cards at a time,
  pile 1 to pile 10.
* KPatience (KDE/kpat, src/shuffle.h, src/dealer.cpp, src/spider.cpp): the deck is two copies,
  each rank by rank from Ace to King and within a rank the four suit slots (clubs, diamonds,
  hearts, spades; hearts, spades, hearts, spades for 2 suits; spades four times for 1 suit).
  The shuffle walks the list from its end, swapping each place with one drawn by the
  Microsoft FreeCell generator seeded with the deal number. Cards are taken from the end of
  the list: 44 face down round the ten piles from pile 1 (so piles 1-4 get five), then ten
  face up continuing round from pile 5, then five stacks of ten for the hand; each stack is
  dealt from its top, so the last card put on it goes to pile 1.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum
from typing import NamedTuple, TypeVar

from spider_cli.rules.cards import SUITS_IN_VARIANT, Card
from spider_cli.rules.engine import DEAL_SIZE, DECK_SIZE, PILES, Game
from spider_cli.rules.errors import NotationError, quoted
from spider_cli.rules.shuffle import LAST_DEAL
from spider_cli.rules.values import Value

__all__ = [
    "KPAT_MAX",
    "OURS_MAX",
    "PYSOL_LC_LIMIT",
    "PYSOL_MAX",
    "DealLayout",
    "DealSource",
    "Source",
    "kpat_deal",
    "kpat_deck",
    "kpat_shuffle",
    "pysol_card",
    "pysol_card_ids",
    "pysol_deal",
]

T = TypeVar("T")

PYSOL_LC_LIMIT = 32000
"""PySolFC shuffles game numbers below this with LCRandom31, the rest with Mersenne Twister."""

PYSOL_MAX = 10**20 - 1
"""PySolFC's largest game number (20 digits)."""

KPAT_MAX = 2**31 - 1
"""KPatience's largest deal number (it keeps deal numbers between 1 and INT_MAX)."""

OURS_MAX = LAST_DEAL
"""Our largest deal number (:data:`spider_cli.rules.shuffle.LAST_DEAL`)."""

_PYSOL_SUITS = {4: (3, 0, 1, 2), 2: (0, 0, 1, 1), 1: (0, 0, 0, 0)}
"""Our suits (0 s, 1 h, 2 d, 3 c) for PySolFC's four suit slots in each variant: clubs,
spades, hearts, diamonds; clubs (as spades) twice, hearts twice; clubs (as spades)."""

_KPAT_SUITS = {4: (3, 2, 1, 0), 2: (1, 0, 1, 0), 1: (0, 0, 0, 0)}
"""Our suits for KPatience's four suit slots in each variant (clubs diamonds hearts spades;
hearts spades hearts spades; spades)."""

_PYSOL_EXTRA_PILES = (0, 3, 6, 9)
"""The piles PySolFC gives a fifth face-down card (piles 1, 4, 7 and 10)."""


class DealLayout(NamedTuple):
    """A deal with every card known: ``piles`` top to bottom, ``down[i]`` face-down cards on
    pile ``i``, the ``hand`` in dealing order (the first ten go to piles 1-10 at the first
    deal)."""

    piles: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    hand: tuple[int, ...]

    def to_game(self, suits: int = 4) -> Game:
        """The deal as a :class:`Game` of the ``suits``-suit variant."""
        piles, stock = [list(p) for p in self.piles], list(self.hand)[::-1]
        return Game(piles, list(self.down), stock, suits=suits)


# ---------------------------------------------------------------------------------------------
# PySolFC


def pysol_card(card_id: int, suits: int = 4) -> Card:
    """The card with PySolFC's id ``card_id`` (0..103, deck * 52 + slot * 13 + rank - 1) in
    the ``suits``-suit game."""
    slot, rank = divmod(card_id % 52, 13)
    return Card.of(rank + 1, _PYSOL_SUITS[suits][slot])


def _check_number(number: int, name: str, low: int, high: int) -> None:
    if not low <= number <= high:
        raise NotationError(f"{name} deal numbers run from {low} to {high}, not {number}")


def pysol_card_ids(number: int) -> list[int]:
    """PySolFC's card ids (see :func:`pysol_card`) for game ``number``, in the order its talon
    deals them (the end of PySolFC's shuffled list first)."""
    _check_number(number, "PySolFC", 1, PYSOL_MAX)
    from pysol_cards.random import (  # type: ignore[import-untyped]  # only when dealt
        LCRandom31,
        MTRandom,
    )

    rng = LCRandom31(number) if number < PYSOL_LC_LIMIT else MTRandom(number)
    shuffled: list[int] = rng.shuffle(list(range(DECK_SIZE)))
    return shuffled[::-1]


def pysol_deal(number: int, suits: int = 4) -> DealLayout:
    """PySolFC's Spider game ``number`` of the 1, 2 or 4-suit game."""
    if suits not in _PYSOL_SUITS:
        raise NotationError(f"a game has 1, 2 or 4 suits, not {suits}")
    cards = iter([int(pysol_card(i, suits)) for i in pysol_card_ids(number)])
    piles: list[list[int]] = [[] for _ in range(PILES)]
    for _ in range(4):
        for pile in piles:
            pile.append(next(cards))
    for i in _PYSOL_EXTRA_PILES:
        piles[i].append(next(cards))
    down = tuple(len(pile) for pile in piles)
    for pile in piles:
        pile.append(next(cards))
    return DealLayout(tuple(map(tuple, piles)), down, tuple(cards))


# ---------------------------------------------------------------------------------------------
# KPatience


def kpat_shuffle(items: Sequence[T], seed: int) -> list[T]:
    """KPatience's shuffle of ``items`` for deal ``seed`` (0 <= seed < 2**33): the Microsoft
    FreeCell generator, as extended for seeds of 2**31 and more.

    From the end of the list down to its second place, the generator steps and a draw,
    modulo the places left, picks the place to swap with. A draw is bits 16-30 of the state;
    from 2**31 to 2**32 it also has bit 15 set; from 2**32 the state starts at seed - 2**32 and
    a draw is bits 16-31 plus one.
    """
    if not 0 <= seed < 1 << 33:
        raise NotationError(f"KPatience's shuffle takes seeds below 2**33, not {seed}")
    wide = seed >= 1 << 32
    state = seed - (1 << 32) if wide else seed
    high_bit = 0x8000 if (1 << 31) <= seed < (1 << 32) else 0
    result = list(items)
    for i in range(len(result), 1, -1):
        state = (214013 * state + 2531011) & ((1 << 33) - 1)
        draw = ((state >> 16) & 0xFFFF) + 1 if wide else ((state >> 16) & 0x7FFF) | high_bit
        j = draw % i
        result[i - 1], result[j] = result[j], result[i - 1]
    return result


def kpat_deck(suits: int = 4) -> list[int]:
    """KPatience's Spider deck before the shuffle: two copies, rank by rank, four suit slots
    in each rank."""
    slots = _KPAT_SUITS[suits]
    return [Card.of(rank, suit) for _ in range(2) for rank in range(1, 14) for suit in slots]


def kpat_deal(number: int, suits: int = 4) -> DealLayout:
    """KPatience's Spider deal ``number`` of the 1, 2 or 4-suit game."""
    _check_number(number, "KPatience", 1, KPAT_MAX)
    if suits not in _KPAT_SUITS:
        raise NotationError(f"a game has 1, 2 or 4 suits, not {suits}")
    cards = kpat_shuffle(kpat_deck(suits), number)[::-1]
    piles: list[list[int]] = [[] for _ in range(PILES)]
    for k in range(54):
        piles[k % PILES].append(cards[k])
    down = tuple(len(pile) - 1 for pile in piles)
    hand: list[int] = []
    for start in range(54, DECK_SIZE, DEAL_SIZE):
        hand += reversed(cards[start : start + DEAL_SIZE])
    return DealLayout(tuple(map(tuple, piles)), down, tuple(hand))


# ---------------------------------------------------------------------------------------------
# Naming a deal


class Source(Enum):
    """Whose numbering a deal number follows."""

    OURS = "ours"
    PYSOL = "pysol"
    KPAT = "kpat"


_NAME = re.compile(r"\s*(?:(pysol|kpat)\s*:\s*)?(\d+(?:-\d+)?)\s*", re.IGNORECASE)


def deal_name(text: str) -> tuple[Source, str] | None:
    """Whose numbering a deal's name follows, and its number or range as written:
    ``pysol:14934`` is (PYSOL, "14934"), ``kpat:1-100`` (KPAT, "1-100"), ``7`` (OURS, "7");
    None for text that names no deal. The one reader of deal names: the command line's,
    a benchmark's and the notation's (``new pysol:N``) all come here."""
    match = _NAME.fullmatch(text)
    if match is None:
        return None
    prefix, numbers = match.groups()
    return (Source(prefix.lower()) if prefix else Source.OURS), numbers


class DealSource(Value):
    """A numbered deal: whose numbering, the number, and the variant's suits.

    Written ``pysol:14934``, ``kpat:7`` or a plain number for one of ours (see :meth:`parse`);
    ``str()`` writes it back the same way.
    """

    source: Source
    number: int
    suits: int = 4

    def __post_init__(self) -> None:
        if self.suits not in SUITS_IN_VARIANT:
            raise NotationError(f"a game has 1, 2 or 4 suits, not {self.suits}")
        if self.source is Source.PYSOL:
            _check_number(self.number, "PySolFC", 1, PYSOL_MAX)
        elif self.source is Source.KPAT:
            _check_number(self.number, "KPatience", 1, KPAT_MAX)
        elif not 0 <= self.number <= OURS_MAX:
            raise NotationError(f"deal numbers run from 0 to {OURS_MAX}, not {self.number}")

    @classmethod
    def parse(cls, text: str, suits: int = 4) -> DealSource:
        """Read ``pysol:N``, ``kpat:N`` or a plain number N (one of our deals)."""
        named = deal_name(text)
        if named is None or "-" in named[1]:
            raise NotationError(
                f"{quoted(text.strip())} is not a deal: write a number (7), pysol:N or kpat:N"
            )
        source, digits = named
        if len(digits) > 21:
            raise NotationError(f"{digits[:12]}… is too big for a deal number")
        return cls(source, int(digits), suits)

    @classmethod
    def is_deal_name(cls, text: str) -> bool:
        """Whether ``text`` is written as another program's deal (``pysol:N``, ``kpat:N``)."""
        named = deal_name(text)
        return named is not None and named[0] is not Source.OURS and "-" not in named[1]

    def __str__(self) -> str:
        if self.source is Source.OURS:
            return str(self.number)
        return f"{self.source.value}:{self.number}"

    def layout(self) -> DealLayout:
        """The deal's cards and where they lie."""
        if self.source is Source.PYSOL:
            return pysol_deal(self.number, self.suits)
        if self.source is Source.KPAT:
            return kpat_deal(self.number, self.suits)
        game = Game.new(self.number, self.suits)
        return DealLayout(tuple(map(tuple, game.piles)), tuple(game.down), tuple(game.hand))

    def game(self) -> Game:
        """The deal as a :class:`Game` that knows every card (face down and in the hand)."""
        if self.source is Source.OURS:
            return Game.new(self.number, self.suits)
        return self.layout().to_game(self.suits)
