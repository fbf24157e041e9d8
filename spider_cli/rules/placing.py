"""Where cards are and where they go: the copies of a card (:func:`locate`), the suits the
face-up cards could complete, a pile's obvious place (the manual's click on a card), the
cards of a pile that fit on another (the move by two pile numbers) and the suit to remove:
what a player's short commands and clicks mean in a position. Each raises
IllegalMoveError, saying why, where there is none.
"""

from __future__ import annotations

from spider_cli.rules.cards import (
    KING,
    RANK_NAMES,
    SUIT_NAMES,
    SUITS_IN_VARIANT,
    Card,
    card_text,
    run_text,
)
from spider_cli.rules.engine import PILES, Action, Game, Move, Remove
from spider_cli.rules.errors import IllegalMoveError, Part
from spider_cli.rules.values import Value

__all__ = [
    "Location",
    "complete_suits",
    "fitting_move",
    "locate",
    "obvious",
    "obvious_at",
    "removal",
]


class Location(Value):
    """Where one copy of a card is: ``place`` is "pile", "hand" or "removed"."""

    card: Card
    place: str
    pile: int = -1
    index: int = -1
    face_up: bool = False


def locate(game: Game, card: int) -> list[Location]:
    """Every known copy of a card: in a pile (face up or down), in the hand, or removed."""
    found: list[Location] = []
    for i, p in enumerate(game.piles):
        for j, c in enumerate(p):
            if c == card:
                found.append(Location(Card(card), "pile", i, j, j >= game.down[i]))
    for j, c in enumerate(game.hand):
        if c == card:
            found.append(Location(Card(card), "hand", -1, j))
    for _ in range(game.removed.count(card >> 4)):
        found.append(Location(Card(card), "removed"))
    return found


def complete_suits(game: Game) -> dict[int, int]:
    """For each suit, how many complete runs of thirteen its face-up cards could form."""
    counts = [0] * 64
    for i, p in enumerate(game.piles):
        for c in p[game.down[i] :]:
            counts[c] += 1
    result = {}
    for suit in SUITS_IN_VARIANT[game.suits]:
        sets = min(counts[suit * 16 + r] for r in range(1, 14))
        if sets:
            result[suit] = sets
    return result


def obvious(game: Game, pile: int, count: int | None = None) -> Action:
    """The manual's "obvious place" for a pile's cards, or IllegalMoveError saying why not.

    In order: remove a complete suit; else move the longest run that fits onto a card of
    its own suit; else onto a card of another suit; else the whole run into a space.
    ``count`` asks for the last ``count`` cards exactly (the manual's click on a card
    above the bottom: that card and the cards covering it).
    """
    if not 0 <= pile < PILES:
        raise IllegalMoveError(f"there is no pile {pile + 1}", part=Part.PILE)
    cards = game.piles[pile]
    if not cards:
        raise IllegalMoveError(f"pile {pile + 1} is a space", part=Part.PILE)
    length = game.run_length(pile)
    if count is not None and not 1 <= count <= length:
        if count > len(cards) - game.down[pile]:
            raise IllegalMoveError(f"that card in pile {pile + 1} is face down")
        raise IllegalMoveError(
            f"{card_text(cards[-count])} cannot move with the cards below it in pile "
            f"{pile + 1}: they are not a run of one suit"
        )
    if count in (None, 13) and game.complete_at_bottom(pile):
        return Remove(pile)
    moves = [
        m
        for m in game.legal_moves()
        if isinstance(m, Move) and m.src == pile and count in (None, m.count)
    ]
    onto = [m for m in moves if game.piles[m.dst]]
    for natural in (True, False):
        best = [m for m in onto if game.is_natural(m) == natural]
        if best:
            return max(best, key=lambda m: (m.count, -m.dst))
    length = count or length
    if length == len(cards) and moves:
        raise IllegalMoveError(
            f"pile {pile + 1} has nowhere to go but another space, which gains nothing"
        )
    spaces = game.spaces()
    if spaces:
        return Move(pile, spaces[0], length)
    run = cards[-length:]
    if run[0] & 15 == KING and length == 1:
        raise IllegalMoveError(f"{card_text(run[0])} is a King and there is no space for it")
    wanted = " or ".join(
        RANK_NAMES[(c & 15) + 1] for c in run[: 1 if count else None] if c & 15 != KING
    )
    if not wanted:
        raise IllegalMoveError(f"{run_text(run)} starts with a King and there is no space")
    raise IllegalMoveError(
        f"{run_text(run)} in pile {pile + 1} has nowhere to go: no pile ends with a "
        f"{wanted}, and there is no space"
    )


def obvious_at(game: Game, pile: int, at: int | None = None) -> Action:
    """The obvious place (:func:`obvious`) of the cards of ``pile`` from index ``at``
    down (the manual's click on a card; None or the bottom card: the longest run that
    fits). A click on any card of a complete suit at the bottom removes the suit."""
    if not 0 <= pile < PILES:
        raise IllegalMoveError(f"there is no pile {pile + 1}")
    cards = game.piles[pile]
    count = None
    if at is not None and at < len(cards) - 1:
        count = len(cards) - at
    if count is not None and count <= 13 and game.is_legal(Remove(pile)):
        count = None
    return obvious(game, pile, count)


def fitting_move(game: Game, src: int, dst: int) -> Move:
    """As many cards of pile ``src``'s movable run as fit on pile ``dst`` (all of it
    into a space), the manual's move by two pile numbers; IllegalMoveError says why none
    fit. Not checked against the rules otherwise (see :meth:`Game.why_illegal`)."""
    for pile, part in ((src, Part.SOURCE), (dst, Part.DESTINATION)):
        if not 0 <= pile < PILES:
            raise IllegalMoveError(f"there is no pile {pile + 1}", part=part)
    cards = game.piles[src]
    if not cards:
        raise IllegalMoveError(f"pile {src + 1} is a space", part=Part.SOURCE)
    length = game.run_length(src)
    target = game.piles[dst]
    if not target or src == dst:
        return Move(src, dst, length)
    count = (target[-1] & 15) - (cards[-1] & 15)
    if 1 <= count <= length:
        return Move(src, dst, count)
    raise IllegalMoveError(
        f"nothing in pile {src + 1}'s movable run ({run_text(cards[-length:])}) can go "
        f"onto {card_text(target[-1])}",
        part=Part.DESTINATION,
    )


def removal(game: Game, pile: int | None = None, suit: int | None = None) -> Remove:
    """The removal of a complete suit off ``pile``, or off the first pile that ends with
    one (of ``suit``, when given); IllegalMoveError says why there is none. A pile named
    is not checked against the rules (see :meth:`Game.why_illegal`), but a suit named with
    it must be the one there."""
    if pile is not None:
        if not 0 <= pile < PILES:
            raise IllegalMoveError(f"there is no pile {pile + 1}", part=Part.PILE)
        cards = game.piles[pile]
        if suit is not None and game.complete_at_bottom(pile) and cards[-1] >> 4 != suit:
            raise IllegalMoveError(
                f"pile {pile + 1} ends with the {SUIT_NAMES[cards[-1] >> 4]}, "
                f"not the {SUIT_NAMES[suit]}",
                part=Part.SUIT,
            )
        return Remove(pile)
    for i, cards in enumerate(game.piles):
        if game.complete_at_bottom(i) and suit in (None, cards[-1] >> 4):
            return Remove(i)
    what = "a complete suit" if suit is None else f"the {SUIT_NAMES[suit]}"
    raise IllegalMoveError(f"no pile ends with {what}, King to Ace", part=Part.SUIT)
