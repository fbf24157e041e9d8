"""What a position read from text must satisfy to exist, each failure said at the card or
line at fault (:class:`Checks`), and the position completed from what its header left out
(:func:`complete`). The layouts (:mod:`spider_cli.language.files.formats`) read the text; this
module judges what they read."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from spider_cli.language.files.deck import (
    MAX_HAND,
    check_counts,
    infer_sizes,
    infer_suits,
    known_counts,
    plural,
    removal_choices,
    resolve_removed,
    suit_copies,
)
from spider_cli.language.files.position import PositionFile
from spider_cli.rules.cards import SUIT_NAMES, UNKNOWN, Card
from spider_cli.rules.engine import DECK_SIZE, Game
from spider_cli.rules.errors import NotationError, PositionError, SpiderError

Spot = tuple[int, int]
"""A place in the text read: its line and its column, tabs expanded (as tokens give them)."""


class Header:
    """What the header lines (or a code's fields) state; None where they are silent.

    Where they are written, to point errors there: ``stock_spots`` holds, for each hand card
    listed, the place of the card; ``stock_at`` is the place of the hand (its ``stock:`` or
    ``hand:`` keyword, a code's hand); ``removed_spots`` the place of each removed suit
    named, ``removed_at`` the place of the removed suits (the number of a ``removed: N``
    line, else its keyword; a code's field). ``code``: they are a position code's fields.
    """

    def __init__(self, suits: int | None = None, code: bool = False) -> None:
        self.suits = suits
        self.stock: list[int] | None = None
        self.stock_count: int | None = None
        self.removed: list[int] | None = None
        self.removed_count: int | None = None
        self.stock_spots: list[Spot] = []
        self.stock_at: Spot | None = None
        self.removed_spots: list[Spot] = []
        self.removed_at: Spot | None = None
        self.code = code

    @property
    def removed_line(self) -> str:
        """The removed suits, as a message names them to be corrected."""
        return "the code's removed suits" if self.code else "the 'removed:' line"

    def is_silent(self) -> bool:
        """True when no header line has been read."""
        return vars(self) == vars(Header())


class Placing(Protocol):
    """Where the checks say their errors: the reader of the text, which knows its lines."""

    def error(
        self, message: str, line: int = 0, column: int = 0, impossible: bool = False
    ) -> NotationError: ...

    def impossible(self, spot: Spot, message: str) -> NotationError: ...

    def placed(self, error: SpiderError, spot: Spot | None) -> SpiderError: ...


class Checks:
    """The checks of one text's position, their errors said through ``place``."""

    def __init__(self, place: Placing) -> None:
        self.place = place

    def hand_size(self, header: Header) -> None:
        """A listed hand holds at most five deals of ten cards."""
        assert header.stock is not None
        if len(header.stock) > MAX_HAND:
            raise self.place.error(
                f"the hand holds at most {MAX_HAND} cards (five deals of ten); this one lists "
                f"{len(header.stock)}",
                *header.stock_spots[MAX_HAND],
            )

    def removed_count(self, header: Header) -> None:
        """At most eight suits are named as removed: the ninth is pointed at."""
        assert header.removed is not None
        if len(header.removed) > 8:
            named = "this code names" if header.code else "this line names"
            raise self.place.impossible(
                header.removed_spots[8],
                f"at most eight suits can be removed; {named} {len(header.removed)}",
            )

    def removed(self, header: Header, suits: int) -> None:
        """Point at the first suit named as removed that the game does not have, or has
        fewer times than it is named."""
        removed = header.removed or []
        for k, (suit, spot) in enumerate(zip(removed, header.removed_spots, strict=True)):
            copies = suit_copies(suits, suit)
            fix = f"correct {header.removed_line}"
            if not copies:
                also = (
                    ", or the 'suits:' line" if header.suits is not None and not header.code else ""
                )
                raise self.place.impossible(
                    spot,
                    f"a {suits}-suit game has no {SUIT_NAMES[suit]} to remove: {fix}{also}",
                )
            named = removed[: k + 1].count(suit)
            if named > copies:
                raise self.place.impossible(
                    spot,
                    f"the {SUIT_NAMES[suit]} are removed {named} times, but a {suits}-suit game "
                    f"has only {copies} suits of {SUIT_NAMES[suit]}: {fix}",
                )

    def tableau_cards(
        self, piles: list[list[int]], spots: list[list[Spot]], header: Header, suits: int
    ) -> None:
        """Point at the first card of the tableau, in the order of the text, that is one copy
        too many (counting the suits named as removed), or of a suit the game has not."""
        removed = header.removed or []
        counts = known_counts(piles, [])
        seen: dict[int, list[int]] = {}  # the piles of the copies read so far
        for spot, card, number in _in_text_order(piles, spots):
            earlier = seen.setdefault(card, [])
            suit = card >> 4
            copies = suit_copies(suits, suit)
            if not copies:
                fix = "correct the card" + (", or the 'suits:' line" if header.suits else "")
                raise self.place.impossible(
                    spot,
                    f"{Card(card)} is in play, but a {suits}-suit game has no "
                    f"{SUIT_NAMES[suit]}: {fix}",
                )
            gone = removed.count(suit)
            if len(earlier) + 1 + gone > copies:
                said = [f"the deck has {copies}"]
                if gone:
                    said.append(f"the removed {SUIT_NAMES[suit]} hold {gone}")
                if earlier:
                    numbers = sorted(set(earlier))
                    piles_said = f"pile{'s' if len(numbers) > 1 else ''} {_and(numbers)}"
                    said.append(f"{Card(card)} is already in {piles_said}")
                total = counts[card]
                more = f" ({total} in the tableau)" if total > len(earlier) + 1 else ""
                fix = "correct one of them"
                if gone:
                    these = "one of these cards" if earlier else "this card"
                    fix = f"correct {these}, or {header.removed_line}"
                raise self.place.impossible(
                    spot, f"{Card(card)} is one copy too many: {_and(said)}{more}: {fix}"
                )
            earlier.append(number)

    def hand_cards(self, piles: list[list[int]], header: Header, suits: int) -> None:
        """Point at the first hand card that is one copy too many, counting the tableau and
        the suits named as removed (after :meth:`tableau_cards`)."""
        if header.stock is None:
            return
        counts = known_counts(piles, [])
        removed = header.removed or []
        for card, spot in zip(header.stock, header.stock_spots, strict=True):
            if not card:
                continue
            counts[card] += 1
            suit = card >> 4
            copies = suit_copies(suits, suit)
            if not copies:
                raise self.place.impossible(
                    spot,
                    f"{Card(card)} is in the hand, but a {suits}-suit game has no "
                    f"{SUIT_NAMES[suit]}",
                )
            gone = removed.count(suit)
            if counts[card] + gone > copies:
                also = f", and {gone} more in the removed suits" if gone else ""
                raise self.place.impossible(
                    spot,
                    f"{Card(card)} is one copy too many: the tableau and the hand hold it "
                    f"{counts[card]} times{also}; the deck has {copies}",
                )

    def total(self, piles: list[list[int]], spots: list[list[Spot]], header: Header) -> None:
        """A tableau of more cards than the deck: its first card too many, in the order of
        the text; a hand and removed suits both stated that do not make up the deck with the
        tableau: the hand's place."""
        tableau = sum(map(len, piles))
        if tableau > DECK_SIZE:
            over = sorted(spot for at in spots for spot in at)[DECK_SIZE]
            order = "from the left" if header.code else "line by line"
            raise self.place.impossible(
                over,
                f"the tableau has {tableau} cards; a game has {DECK_SIZE}: this card is the "
                f"{DECK_SIZE + 1}th, reading {order}",
            )
        stock, removed = header.stock_count, header.removed_count
        if stock is None or removed is None or header.stock_at is None:
            return
        total = tableau + stock + 13 * removed
        if total != DECK_SIZE:
            rest = (
                "the removed suits or the piles"
                if header.code
                else "the 'removed:' line or the tableau"
            )
            raise self.place.impossible(
                header.stock_at,
                f"the tableau ({tableau} cards), the hand ({stock}) and "
                f"{plural(removed, 'removed suit')} make {total} cards; a game has "
                f"{DECK_SIZE}: correct the hand, {rest}",
            )

    def finish(
        self, piles: list[list[int]], down: list[int], header: Header, spots: list[list[Spot]]
    ) -> PositionFile:
        """:func:`complete`, after the checks that point at the card or line at fault; its
        errors about the number of cards said at the line of the hand, or of the removed
        suits, when the file has one."""
        hand = header.stock or []
        suits = header.suits
        first = min((spot for at in spots for spot in at), default=None)
        if suits is None:
            try:
                suits = infer_suits(known_counts(piles, hand))
            except NotationError as error:
                raise self.at_third_copy(piles, spots, error) from None
        self.removed(header, suits)
        self.tableau_cards(piles, spots, header, suits)
        self.hand_cards(piles, header, suits)
        self.total(piles, spots, header)
        return complete(
            piles,
            down,
            header,
            lambda error: self.place.placed(error, header.stock_at),
            lambda error: self.place.placed(error, header.removed_at or header.stock_at),
            lambda error: self.place.placed(error, first),
        )

    def at_third_copy(
        self, piles: list[list[int]], spots: list[list[Spot]], error: NotationError
    ) -> SpiderError:
        """The variant's error said at the first card, in the order of the text, that a
        4-suit game has too many of (its third copy), if it is in the tableau."""
        seen = [0] * 64
        for spot, card, _number in _in_text_order(piles, spots):
            seen[card] += 1
            if seen[card] > suit_copies(4, card >> 4):
                return self.place.placed(error, spot)
        return error


def _in_text_order(piles: list[list[int]], spots: list[list[Spot]]) -> list[tuple[Spot, int, int]]:
    """The tableau's known cards in the order of the text: (spot, card, pile from 1)."""
    return sorted(
        (spot, card, number)
        for number, (pile, at) in enumerate(zip(piles, spots, strict=True), start=1)
        for card, spot in zip(pile, at, strict=True)
        if card != UNKNOWN
    )


def _and(items: Iterable[object]) -> str:
    """Items in a sentence: "a", "a and b", "a, b and c"."""
    said = [str(item) for item in items]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def complete(
    piles: list[list[int]],
    down: list[int],
    header: Header,
    at_hand: Callable[[SpiderError], SpiderError] = lambda error: error,
    at_removed: Callable[[SpiderError], SpiderError] = lambda error: error,
    at_tableau: Callable[[SpiderError], SpiderError] = lambda error: error,
) -> PositionFile:
    """Complete what the header left out, check that the position can exist, and wrap it up.

    ``at_hand`` places an error about the hand's size (the hand's line, in a file),
    ``at_removed`` one about the number of removed suits (the 'removed:' line), and
    ``at_tableau`` one about the size of a tableau with neither (its first card).
    """
    hand = header.stock or []
    counts = known_counts(piles, hand)
    suits = header.suits if header.suits is not None else infer_suits(counts)
    check_counts(counts, suits)
    tableau = sum(map(len, piles))
    try:
        stock_count, removed_count = infer_sizes(tableau, header.stock_count, header.removed_count)
    except NotationError as error:
        if header.stock_count is not None:
            raise at_hand(error) from None
        if header.removed_count is not None:
            raise at_removed(error) from None
        raise at_tableau(error) from None
    position = PositionFile(
        piles,
        down,
        header.stock,
        stock_count,
        header.removed,
        removed_count,
        suits,
        header.suits is not None,
        header.stock_count is not None,
        header.removed_count is not None,
    )
    removed = header.removed
    if removed is None:
        inferred = ""
        if header.removed_count is None and header.stock_count is None:
            inferred = (
                f"the tableau has {tableau} cards, which leaves {stock_count} for the "
                f"hand and {plural(removed_count, 'removed suit')}"
            )
        elif header.removed_count is None:
            inferred = (
                f"the tableau ({tableau} cards) and the hand ({stock_count}) leave "
                f"{plural(removed_count, 'removed suit')}"
            )
        try:
            removed = resolve_removed(counts, suits, removed_count, inferred)
        except PositionError as error:
            if header.removed_count is not None:
                raise at_removed(error) from None
            if header.stock_count is not None:
                raise at_hand(error) from None
            raise at_tableau(error) from None
    if removed is None:
        removed = list(removal_choices(counts, suits, removed_count)[0])
    Game(piles, down, position.hand[::-1], removed, suits)
    return position
