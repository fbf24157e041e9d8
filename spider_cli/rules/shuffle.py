"""The documented shuffle: the same deal for the same number on every platform, forever.

Deal number N of ours is the ordered deck (:func:`ordered_deck`) shuffled by Fisher-Yates
(:func:`shuffle`) driven by SplitMix64 seeded with N (:func:`shuffled_deck`); the engine
draws unknown cards with the same generator.
"""

from __future__ import annotations

from spider_cli.rules.cards import SUITS_IN_VARIANT, Card
from spider_cli.rules.errors import SpiderError

LAST_DEAL = 2**64 - 1
"""The largest deal number: SplitMix64 takes its seed mod 2**64, so a larger one (or a
negative one) would deal again what a number in 0..LAST_DEAL deals."""


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64 generator (the seed is any integer, taken mod 2**64).

    Specified here rather than taken from :mod:`random` so that numbered deals never change.
    """

    MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = seed & self.MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next()
            if x < limit:
                return x % n


def ordered_deck(suits: int = 4) -> list[int]:
    """The 104 cards before shuffling: eight suit sets, each Ace to King.

    Four suits: s h d c s h d c; two suits: s h s h s h s h; one suit: eight sets of spades.
    """
    used = SUITS_IN_VARIANT[suits]
    return [Card.of(rank, used[k % len(used)]) for k in range(8) for rank in range(1, 14)]


def shuffled_deck(seed: int, suits: int = 4) -> list[int]:
    """Deal number ``seed``: the ordered deck shuffled (:func:`shuffle`) by SplitMix64
    seeded with ``seed``; SpiderError (a ValueError) for a number outside 0 to
    :data:`LAST_DEAL`, which would wrap silently onto another deal's."""
    if not 0 <= seed <= LAST_DEAL:
        raise SpiderError(f"deal numbers run from 0 to {LAST_DEAL}, not {seed}")
    return shuffle(ordered_deck(suits), SplitMix64(seed))


def shuffle(cards: list[int], rng: SplitMix64) -> list[int]:
    """The cards shuffled in place (and returned) by Fisher-Yates driven by ``rng``: for i
    from the last place down to 1, swap card i with card ``below(i + 1)``."""
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
