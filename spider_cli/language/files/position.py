"""What a position file says (:class:`PositionFile`): the whole tableau, and the rest as far
as the file states it."""

from __future__ import annotations

from spider_cli.language.files.deck import known_counts, plural, removal_choices, resolve_removed
from spider_cli.rules.cards import (
    SUIT_LETTERS,
    UNKNOWN,
)
from spider_cli.rules.engine import Game
from spider_cli.rules.errors import NotationError
from spider_cli.rules.values import Value


class PositionFile(Value):
    """A position as a file gives it: the whole tableau, and the rest as far as the file says.

    ``piles`` run from top to bottom (0 = a face-down card nobody knows), ``down[i]`` counts
    the face-down cards of pile ``i``. ``stock`` is the hand in dealing order when the file
    lists its cards, else None; ``stock_count`` is its size, stated or worked out. ``removed``
    is the removed suits when the file names them, else None; ``removed_count`` is how many,
    stated or worked out. The ``*_stated`` flags say which header lines the file has (a
    comparison looks only at those). Treat the lists as read-only.
    """

    piles: list[list[int]]
    down: list[int]
    stock: list[int] | None
    stock_count: int
    removed: list[int] | None
    removed_count: int
    suits: int = 4
    suits_stated: bool = False
    stock_stated: bool = False
    removed_stated: bool = False

    @property
    def hand(self) -> list[int]:
        """The hand in dealing order, 0 for each card the file does not name."""
        return list(self.stock) if self.stock is not None else [UNKNOWN] * self.stock_count

    def removed_suits(self) -> list[int]:
        """The removed suits: as named, else the only choice the cards in play leave.

        Raises :class:`NotationError` when several choices fit (the file must name them).
        """
        if self.removed is not None:
            return list(self.removed)
        counts = known_counts(self.piles, self.hand)
        removed = resolve_removed(counts, self.suits, self.removed_count)
        if removed is None:
            example = " ".join(
                SUIT_LETTERS[s] for s in removal_choices(counts, self.suits, self.removed_count)[0]
            )
            raise NotationError(
                f"name the removed suits, e.g. 'removed: {example}': the cards in play leave "
                f"more than one choice for {plural(self.removed_count, 'removed suit')}"
            )
        return removed

    def to_game(self, seed: int = 0) -> Game:
        """The position as a :class:`Game`; ``seed`` draws the unknown cards as they turn up."""
        stock = self.hand[::-1]
        return Game(self.piles, self.down, stock, self.removed_suits(), self.suits, seed=seed)
