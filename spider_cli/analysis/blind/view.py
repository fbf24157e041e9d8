"""What a player sees of a game: :class:`PlayerView`, the position with every face-down card
and the hand left out.

The blind player (:mod:`~spider_cli.analysis.blind.player`), its search over what turns up
(:mod:`~spider_cli.analysis.chance.search`) and the bench that plays them
(:mod:`~spider_cli.analysis.bench.blind`) are all given a view and nothing else, so nothing they do
can read a card a player could not.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from spider_cli.analysis.blind.evaluation import Weights, weights_for
from spider_cli.analysis.blind.turns import Mode, Turn
from spider_cli.analysis.compact import FACE_DOWN, State
from spider_cli.rules.cards import UNKNOWN
from spider_cli.rules.engine import Game
from spider_cli.rules.shuffle import ordered_deck


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What a player sees: each pile's face-up cards and its face-down count, the cards
    left in the hand, the suits removed (plain values only: no Game behind them)."""

    face_up: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    hand: int
    removed: tuple[int, ...]
    suits: int

    def unseen(self) -> list[int]:
        """The cards not seen yet, in order of their codes: the deck less the face-up cards
        and the suits removed (the face-down cards and the hand, whose order is unknown)."""
        counts = Counter(ordered_deck(self.suits))
        counts.subtract(card for pile in self.face_up for card in pile)
        counts.subtract(suit * 16 + rank for suit in self.removed for rank in range(1, 14))
        return sorted(counts.elements())

    def game(self) -> Game:
        """A game of this position whose face-down cards and hand are unknown."""
        piles = [[UNKNOWN] * d + list(up) for d, up in zip(self.down, self.face_up, strict=True)]
        return Game(piles, list(self.down), [UNKNOWN] * self.hand, list(self.removed), self.suits)

    def piles(self) -> State:
        """The view as compact piles: each face-down card ``FACE_DOWN`` (unknown), then the
        face-up cards."""
        return tuple(
            bytes([FACE_DOWN] * down + list(up))
            for down, up in zip(self.down, self.face_up, strict=True)
        )

    def turn(self, mode: Mode = Mode.KEEP, weights: Weights | None = None) -> Turn:
        """The blind player's turn from this view with a space worth ``mode``, valued by
        ``weights`` (by default those shipped for the view's number of suits)."""
        return Turn(
            self.piles(), len(self.removed), self.hand, mode, weights or weights_for(self.suits)
        )


def view_of(game: Game) -> PlayerView:
    """What a player of ``game`` sees (the face-down cards and the hand left out, known or
    not)."""
    return PlayerView(
        tuple(tuple(p[d:]) for p, d in zip(game.piles, game.down, strict=True)),
        tuple(game.down),
        len(game.stock),
        tuple(game.removed),
        game.suits,
    )
