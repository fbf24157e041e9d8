"""Deck accounting for position files: what a file's header leaves out (the variant, the
hand's size, the removed suits), worked out from the cards it shows; 104 cards in all."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from spider_cli.rules.cards import (
    SUIT_NAMES,
    SUITS_IN_VARIANT,
    UNKNOWN,
    Card,
)
from spider_cli.rules.engine import DEAL_SIZE, DECK_SIZE
from spider_cli.rules.errors import NotationError, PositionError

MAX_HAND = 5 * DEAL_SIZE
"""The most cards a hand holds: five deals."""
_SUIT_COPIES = {suits: 8 // len(used) for suits, used in SUITS_IN_VARIANT.items()}


def known_counts(piles: Sequence[Sequence[int]], hand: Sequence[int]) -> list[int]:
    """How many copies of each card code the tableau and the hand name."""
    counts = [0] * 64
    for card in itertools.chain(itertools.chain.from_iterable(piles), hand):
        counts[card] += 1
    counts[UNKNOWN] = 0
    return counts


def suit_copies(suits: int, suit: int) -> int:
    """Copies of each card of ``suit`` in a ``suits``-suit game."""
    return _SUIT_COPIES[suits] if suit in SUITS_IN_VARIANT[suits] else 0


def _fits(counts: list[int], suits: int) -> bool:
    return all(counts[code] <= suit_copies(suits, code >> 4) for code in range(64) if counts[code])


def infer_suits(counts: list[int]) -> int:
    """The variant the cards in play belong to: 4 suits unless they only fit 2 or 1."""
    fitting = [suits for suits in (4, 2, 1) if _fits(counts, suits)]
    if fitting == [2, 1]:
        raise NotationError("the cards fit a 2-suit or a 1-suit game: add 'suits: 2' or 'suits: 1'")
    return fitting[0] if fitting else 4


def check_counts(counts: list[int], suits: int) -> None:
    """PositionError if the cards in play hold a card more often than the deck does."""
    for code in range(64):
        copies = suit_copies(suits, code >> 4)
        if counts[code] > copies:
            card = Card(code)
            if not copies:
                raise PositionError(
                    f"{card} is in play, but a {suits}-suit game has no {SUIT_NAMES[card.suit]}"
                )
            raise PositionError(f"{card} appears {counts[code]} times; the deck has only {copies}")


def _room(counts: list[int], suits: int) -> dict[int, int]:
    """How many times each suit of the variant can have been removed, given the known cards:
    as many as its copies, less the most times one of its cards is known in play."""
    return {
        suit: suit_copies(suits, suit) - max(counts[suit * 16 + rank] for rank in range(1, 14))
        for suit in SUITS_IN_VARIANT[suits]
    }


def removal_choices(counts: list[int], suits: int, removed: int) -> list[tuple[int, ...]]:
    """Every choice of ``removed`` suits (a multiset, in suit order) the known cards allow."""
    room = _room(counts, suits)
    return [
        choice
        for choice in itertools.combinations_with_replacement(room, removed)
        if all(choice.count(suit) <= room[suit] for suit in room)
    ]


def resolve_removed(
    counts: list[int],
    suits: int,
    removed: int,
    inferred: str = "",
) -> list[int] | None:
    """The removed suits when the cards in play leave one choice, None when they leave several.

    Raises :class:`PositionError` when they leave none; ``inferred`` says how the number of
    removed suits was worked out, if it was.
    """
    choices = removal_choices(counts, suits, removed)
    if not choices:
        room = sum(max(0, n) for n in _room(counts, suits).values())
        raise PositionError(
            f"{inferred or plural(removed, 'removed suit')}, but the cards in play leave room "
            f"for {room} (a suit cannot have been removed while one of its cards is in play as "
            "often as the deck has it)"
        )
    return list(choices[0]) if len(choices) == 1 else None


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def infer_sizes(tableau: int, stock: int | None, removed: int | None) -> tuple[int, int]:
    """The hand size and the number of removed suits, from 104 = tableau + hand + 13 * removed.

    A worked-out hand is a whole number of deals (0, 10, .. 50 cards). Since 10 and 13 are
    coprime and at most 8 suits are removed, at most one pair fits.
    """
    if tableau > DECK_SIZE:
        raise PositionError(f"the tableau has {tableau} cards; a game has {DECK_SIZE}")
    if stock is not None and removed is not None:
        return stock, removed
    if stock is not None:
        rest = DECK_SIZE - tableau - stock
        if rest < 0 or rest % 13 or rest > 8 * 13:
            raise NotationError(
                f"the tableau ({tableau} cards) and the hand ({stock}) leave {rest} cards for "
                "removed suits, which is not a number of whole suits (13 cards each): check "
                "the tableau, or add a 'removed:' line"
            )
        return stock, rest // 13
    if removed is not None:
        rest = DECK_SIZE - tableau - 13 * removed
        if rest < 0 or rest % DEAL_SIZE or rest > MAX_HAND:
            raise NotationError(
                f"the tableau ({tableau} cards) and {plural(removed, 'removed suit')} leave "
                f"{rest} cards for the hand, which is not a number of whole deals (0, 10, ... 50 "
                "cards): "
                "check the tableau, or add a 'stock:' line"
            )
        return rest, removed
    fits = [
        (DECK_SIZE - tableau - 13 * suits, suits)
        for suits in range(9)
        if DECK_SIZE - tableau - 13 * suits in range(0, MAX_HAND + 1, DEAL_SIZE)
    ]
    if not fits:
        raise NotationError(
            f"the tableau has {tableau} cards, which no whole number of deals in the hand "
            "(0, 10, ... 50 cards) and of removed suits (13 cards each) brings to 104: check "
            "the tableau, or add 'stock:' and 'removed:' lines"
        )
    return fits[0]
