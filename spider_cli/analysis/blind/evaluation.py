"""The value the blind player's searches maximize: a weighted sum of named features.

Each feature is a count a player could make from the cards in sight, and each has an integer
weight. The weights come from ``weights.json`` beside this module, one set for each number of
suits, with who made each set, by which command, on which deals. This module is the
reference; ``csrc/value.c`` computes the same sums for the compiled core (a property test ties
the two).

Most of the value is a sum over the piles, so a search that moves cards between two piles
revalues those two alone (:func:`pile_value`). The rest (:func:`tops_value`) is what the top
cards make together, a dozen operations a position. Both may use the unseen cards of each rank
(:func:`unseen_ranks`): they are the same in every position a search reaches, since a search
only rearranges the face-up cards (a card it turns up is ``UNSEEN``, not a rank)."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from functools import cache, lru_cache
from importlib import resources

from spider_cli.analysis.compact import FACE_DOWN, State

KING = 13

HIDDEN_KINDS = 8
"""Face-down counts with a cost of their own (0 to 7); beyond, each card costs ``hidden_step``."""

CLASS_SHAPE = (6, 6, 3, 2)
"""What :func:`pile_class` tells piles apart by: face-down cards (0 to 5, 5 for more), the
length of the top run of one suit (1 to 6, 6 for longer), what that run lies on (nothing or
a face-down card, the next rank of another suit, a card that does not take it), and whether
the run starts with a King."""

TABLE_SIZE = 6 * 6 * 3 * 2
"""Entries in a weights' ``table``: one a pile class."""


@dataclass(frozen=True)
class Weights:
    """One weight a feature (see :data:`FEATURES` for what each counts)."""

    hidden: tuple[int, ...]
    hidden_step: int
    clear: int
    suited: int
    ranked: int
    removed: int
    broken: int = 0
    ace_top: int = 0
    king_base: int = 0
    run_square: int = 0
    refill: int = 0
    unlock: int = 0
    dup_tops: int = 0
    homes: int = 0
    table: tuple[int, ...] = ()

    def core(self) -> tuple[int, ...]:
        """The weights as the compiled core takes them: the hidden costs, then the others
        in :data:`FEATURES` order, then the table (:data:`TABLE_SIZE` entries, 0 when
        there is none)."""
        table = self.table or (0,) * TABLE_SIZE
        return (*self.hidden, *(getattr(self, name) for name in FEATURES[1:]), *table)

    @classmethod
    def from_core(cls, core: tuple[int, ...]) -> Weights:
        """The weights :meth:`core` gave (a table of zeros is no table)."""
        others = core[HIDDEN_KINDS : len(core) - TABLE_SIZE]
        table = tuple(core[len(core) - TABLE_SIZE :])
        return cls(
            tuple(core[:HIDDEN_KINDS]),
            **dict(zip(FEATURES[1:], others, strict=True)),
            table=table if any(table) else (),
        )

    def as_dict(self) -> dict[str, int | list[int]]:
        data: dict[str, int | list[int]] = {
            name: list(self.hidden) if name == "hidden" else getattr(self, name)
            for name in FEATURES
        }
        if self.table:
            data["table"] = list(self.table)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Weights:
        """The weights a file gives: every name known, every value an int (the hidden costs
        a list of eight); a missing name weighs 0."""
        unknown = set(data) - set(FEATURES) - {"table"}
        if unknown:
            raise ValueError(f"unknown features: {', '.join(sorted(unknown))}")
        hidden = data.get("hidden")
        if (
            not isinstance(hidden, list)
            or len(hidden) != HIDDEN_KINDS
            or not all(type(v) is int for v in hidden)
        ):
            raise ValueError(f"'hidden' is a list of {HIDDEN_KINDS} whole numbers")
        others: dict[str, int] = {}
        for name in FEATURES[1:]:
            v = data.get(name, 0)
            if type(v) is not int:
                raise ValueError(f"the weight of {name!r} is a whole number")
            others[name] = v
        table = data.get("table", [])
        if (
            not isinstance(table, list)
            or len(table) not in (0, TABLE_SIZE)
            or not all(type(v) is int for v in table)
        ):
            raise ValueError(f"'table' is a list of {TABLE_SIZE} whole numbers")
        return cls(tuple(hidden), **others, table=tuple(table))


FEATURES: tuple[str, ...] = tuple(f.name for f in fields(Weights) if f.name != "table")
"""The features, each weighed by the field of :class:`Weights` of its name:

- ``hidden``: a pile's face-down cards, by how many (0 to 7; more: ``hidden_step`` a card);
- ``clear``: a pile with cards, none face down;
- ``suited``: a face-up card on the next higher card of its suit;
- ``ranked``: on the next higher card of another suit;
- ``removed``: a suit removed;
- ``broken``: a face-up card on a card that does not take it;
- ``ace_top``: an Ace on top of a pile, not on its own suit's 2 (it takes nothing);
- ``king_base``: a King the lowest face-up card of a pile with face-down cards (only a space
  lets those turn up);
- ``run_square``: each stretch of k same-suit links in a pile, k * k (longer runs of one
  suit worth more than their links: commit to a suit);
- ``refill``: a pile with no face-down card: the unseen cards its lowest card could go onto
  (how many cards turning up could win a space back; none for a King);
- ``unlock``: the same for a pile with face-down cards (could turn the next one up);
- ``dup_tops``: top cards of a rank another top card has (two Queens on top);
- ``homes``: unseen cards that some top card would take (two 6s showing make a 5 cheap).

Beside them, a weights' ``table`` (learned, ``benchmarks/td_value.py``) gives each pile a
worth by its :func:`pile_class`."""


def pile_class(pile: bytes) -> int:
    """A pile's class (0 to :data:`TABLE_SIZE` - 1; see :data:`CLASS_SHAPE`), for a pile
    with a face-up card."""
    n = len(pile)
    down = 0
    while down < n and pile[down] >= FACE_DOWN:
        down += 1
    start = n - 1
    while start > down and pile[start - 1] == pile[start] + 1:
        start -= 1
    if start == down:
        beneath = 0
    elif pile[start - 1] & 15 == (pile[start] & 15) + 1:
        beneath = 1
    else:
        beneath = 2
    run = min(n - start, 6) - 1
    king = int(pile[start] & 15 == KING)
    return ((min(down, 5) * 6 + run) * 3 + beneath) * 2 + king


def unseen_ranks(piles: State, removed: int) -> tuple[int, ...]:
    """How many cards of each rank (index 1 to 13; 0, 14 and 15 none) are neither face up
    nor removed: eight of each in a deck, less those."""
    seen = [0] * 16
    for pile in piles:
        for card in pile:
            if card < FACE_DOWN:
                seen[card & 15] += 1
    return tuple(max(0, 8 - removed - seen[r]) if 1 <= r <= KING else 0 for r in range(16))


@lru_cache(maxsize=200_000)
def pile_value(pile: bytes, weights: Weights, unseen: tuple[int, ...]) -> int:
    """A pile's part of a position's value, spaces aside (a compact pile: face-down bytes
    are ``FACE_DOWN`` or more; ``UNSEEN``, rank 15, is a card turned up, not yet seen)."""
    if not pile:
        return 0
    w = weights
    n = len(pile)
    down = 0
    while down < n and pile[down] >= FACE_DOWN:
        down += 1
    value = -hidden_cost(down, w)
    if not down:
        value += w.clear
    links = 0
    for k in range(down, n - 1):
        upper, lower = pile[k], pile[k + 1]
        if upper == lower + 1:
            value += w.suited
            links += 1
            continue
        value += w.run_square * links * links
        links = 0
        value += w.ranked if upper & 15 == (lower & 15) + 1 else w.broken
    value += w.run_square * links * links
    if down < n:
        base, top = pile[down] & 15, pile[-1]
        if base < KING:
            value += (w.unlock if down else w.refill) * unseen[base + 1]
        elif base == KING and down:
            value += w.king_base
        if top & 15 == 1 and not (n - 1 > down and pile[-2] == top + 1):
            value += w.ace_top
        if w.table:
            value += w.table[pile_class(pile)]
    return value


def hidden_cost(down: int, weights: Weights) -> int:
    """The cost of ``down`` face-down cards in one pile."""
    if down < HIDDEN_KINDS:
        return weights.hidden[down]
    return weights.hidden[-1] + weights.hidden_step * (down - HIDDEN_KINDS + 1)


def tops_value(piles: State, weights: Weights, unseen: tuple[int, ...]) -> int:
    """The part of the value the top cards make together (``dup_tops`` and ``homes``)."""
    if not weights.dup_tops and not weights.homes:
        return 0
    count = [0] * 16
    for pile in piles:
        if pile and pile[-1] < FACE_DOWN:
            count[pile[-1] & 15] += 1
    dup = homes = 0
    for r in range(1, KING + 1):
        if count[r]:
            dup += count[r] - 1
            if r > 1:
                homes += unseen[r - 1]
    return weights.dup_tops * dup + weights.homes * homes


def value(piles: State, removed: int, space: int, weights: Weights) -> int:
    """How good a position is: ``space`` is what a space is worth."""
    unseen = unseen_ranks(piles, removed)
    total = weights.removed * removed + tops_value(piles, weights, unseen)
    for pile in piles:
        total += pile_value(pile, weights, unseen) if pile else space
    return total


STANDARD = Weights(
    hidden=(0, 100, 190, 270, 340, 400, 450, 490),
    hidden_step=40,
    clear=40,
    suited=20,
    ranked=-10,
    removed=1_000,
)
"""The hand-set weights of issues 17-35, the new features at 0: each face-down card costs
less in a deep pile (so a card turned up where few are left, towards a space, is worth
more); a card on another suit worth less than on no card at all (deals 0-19: 2 suits won
13 at -10, 11 at +6); a suit removed worth more than the runs it takes away."""


@dataclass(frozen=True)
class Shipped:
    """A weights file's set for one number of suits, with where it came from."""

    weights: Weights
    made_by: str
    command: str
    deals: str


@cache
def shipped() -> dict[int, Shipped]:
    """The weights file's sets, by number of suits (1, 2 and 4)."""
    text = resources.files(__package__).joinpath("weights.json").read_text("utf-8")
    data = json.loads(text)
    return {
        int(suits): Shipped(
            Weights.from_dict(entry["weights"]),
            str(entry["made_by"]),
            str(entry["command"]),
            str(entry["deals"]),
        )
        for suits, entry in data["players"].items()
    }


def weights_for(suits: int) -> Weights:
    """The weights the player uses with ``suits`` suits."""
    return shipped()[suits].weights
