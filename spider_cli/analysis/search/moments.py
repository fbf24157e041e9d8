"""The counting argument at several moments of a line: a proof that sees the order of moves.

:mod:`spider_cli.analysis.search.counting` counts at the end of a line only, where any order of the
moves is as good as another. The manual's proofs say more: "the 10d must move before the 9s",
and when it does, no free Jack is left for it. This module makes that reasoning exact.

The count holds at every moment of a line, not just the last: each moved card lies on a card
one rank higher or on a pile's bottom, over an untouched base of each pile. Bases only shrink,
so one choice of bases, shrinking from moment to moment, must pass every moment's count. The
moments counted are the end, and the moment just before the first move of chosen cards (their
*events*). Just before a card first moves, its pile's base ends in a natural run (same suit,
in sequence, as dealt) that holds it, and the move takes that run with everything on it: the
run's first card needs a free card one rank higher or a space (unless the run starts with a
King of a suit that may be removed: the event may be the removal), and the base's last card
carries nothing but the next card of its own suit.

A :class:`Scenario` orders some events before the end, and says which cards have not moved by
which moment. When no choice of bases passes, the scenario is impossible. When one does, a card
that has moved by some moment in that choice, Z, splits it: either Z has not moved by then, or
Z's first move comes earlier (at one of the places between the earlier events). A scenario is
impossible when every branch of one split is. The splits nest at most ``depth`` deep, and the
whole proof stops at its :class:`Limit` of choices, so it gives the same answer on any machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from spider_cli.analysis.compact import FACE_DOWN, State, card_code
from spider_cli.analysis.limits import Limit, OverBudget
from spider_cli.analysis.search.counting import (
    ALL_RANKS,
    RANKS,
    Question,
    Setting,
    base_options,
    bottoms_suffice,
    setting,
)
from spider_cli.rules.cards import KING
from spider_cli.rules.goals import GoalKind

MOMENT_LIMIT = Limit(400_000)
"""Choices a whole proof by moments examines at most before it gives up."""

DEPTH = 2
"""How deep the splits nest at most. The proofs found for the manual's questions split once;
each further level multiplies the cost by the number of cards to split on."""

Card = tuple[int, int]
"""A card of the starting piles: (pile, index from the bottom)."""


@dataclass(frozen=True)
class Scenario:
    """Events in the order they happen (the end comes after the last), and the cards that have
    not moved by a moment: (moment, card), moment 0 being the first event's."""

    events: tuple[Card, ...] = ()
    unmoved: frozenset[tuple[int, Card]] = frozenset()


@dataclass(frozen=True)
class Proof:
    """Why a scenario is impossible: no choice of bases passes (``card`` None), or every branch
    of the split on ``card`` is impossible."""

    card: Card | None = None
    branches: tuple[Proof, ...] = ()

    def cards(self) -> list[Card]:
        """The cards split on, each once, in the order the proof first splits on them."""
        found = [] if self.card is None else [self.card]
        for branch in self.branches:
            found += [card for card in branch.cards() if card not in found]
        return found


class _Option(NamedTuple):
    """A pile's untouched base at one moment, as the count sees it."""

    base: int  # cards untouched
    need: tuple[int, ...]  # net need per rank (see counting.Option)
    bottom: int  # 1 if the pile is emptied to its bottom
    mask: int  # ranks of the goal's suit it offers
    moved: int  # cards moved
    codes: frozenset[int]  # the moved cards' codes
    carried: int  # the one card the base's last card may carry at an event (-1: any)


class _Step(NamedTuple):
    """An option as one moment's count takes it: ``codes`` become ``bits``, the carried
    cards of that moment (:attr:`_Count.bit`) among the moved ones."""

    base: int
    need: tuple[int, ...]
    bottom: int
    mask: int
    moved: int
    bits: int
    carried: int


_State = tuple[tuple[int, ...], int, int, int, int, int]
"""One moment's count so far: need per rank, piles emptied, goal-suit ranks, cards moved,
the carried card (-1: none), and the bits of the carried cards seen moved."""


_Witness = list[list[int]]
"""A choice that passes: each moment's base length for each pile."""


def refute(
    piles: State,
    question: Question,
    limit: Limit = MOMENT_LIMIT,
    depth: int = DEPTH,
) -> tuple[Proof, int] | None:
    """A proof that ``question`` is impossible from ``piles``, one for each end it allows,
    with the choices examined; None when none is found within ``depth`` and ``limit`` (its
    choices, or the time a user asked for)."""
    found = setting(piles, question, limit)
    if found is None:
        return None
    examined = 0
    proofs = []
    for final in found.finals:
        prover = _Prover(piles, final, found, limit.within(limit.positions - examined))
        proof = None
        try:
            for deeper in range(depth + 1):
                proof = prover.refute(Scenario(), deeper)
                if proof is not None:
                    break
        except OverBudget:
            return None
        examined += prover.examined
        if proof is None:
            return None
        proofs.append(proof)
    return (proofs[0] if len(proofs) == 1 else Proof(None, tuple(proofs))), examined


def links(lower: int, upper: int) -> bool:
    """Does ``upper`` lie on ``lower`` in a natural run (same suit, one rank lower, face up)?"""
    if lower >= FACE_DOWN or upper >= FACE_DOWN:
        return False
    return lower >> 4 == upper >> 4 and lower & 15 == (upper & 15) + 1


class _Prover:
    """The proofs of one end of the goal, with the choices they have examined."""

    def __init__(
        self,
        piles: State,
        final: Question,
        found: Setting,
        limit: Limit,
    ) -> None:
        self.piles = piles
        self.final = final
        self.free = found.free
        self.bare = found.bare
        self.most = found.most
        self.limit = limit
        self.examined = 0
        self.known: dict[Scenario, _Witness | None] = {}
        # each card's natural run, as the first and last index of it
        self.run_first: list[list[int]] = []
        self.run_last: list[list[int]] = []
        for pile in piles:
            first = list(range(len(pile)))
            last = list(range(len(pile)))
            for j in range(1, len(pile)):
                if links(pile[j - 1], pile[j]):
                    first[j] = first[j - 1]
            for j in range(len(pile) - 2, -1, -1):
                if links(pile[j], pile[j + 1]):
                    last[j] = last[j + 1]
            self.run_first.append(first)
            self.run_last.append(last)
        # each pile's bases at the end and at any other moment, the same for every scenario
        self.at_end = [self.options(i, True) for i in range(len(piles))]
        self.plain = [self.options(i, False) for i in range(len(piles))]

    def options(self, i: int, at_end: bool) -> list[_Option]:
        """Pile ``i``'s bases at the end (``at_end``) or at any other moment."""
        pile, q = self.piles[i], self.final
        if at_end:
            found = base_options(
                pile,
                i == q.target and q.kind == GoalKind.TURN_UP,
                q.no_turn_up,
                q.suit,
                self.free,
                q.emptying,
                i == q.target and q.kind == GoalKind.SPACE,
            )
        else:
            found = base_options(pile, False, q.no_turn_up, None, self.free)
        return [
            _Option(
                len(pile) - moved,
                need,
                bottom,
                mask,
                moved,
                frozenset(card_code(c) for c in pile[len(pile) - moved :] if c != FACE_DOWN),
                -1,
            )
            for need, bottom, mask, moved in found
        ]

    def event_options(self, i: int, x: int, plain: list[_Option]) -> list[_Option]:
        """Pile ``i``'s bases just before card ``x`` first moves (see the module's text)."""
        pile = self.piles[i]
        found = []
        for option in plain:
            u = option.base
            if not x < u <= self.run_last[i][x] + 1:
                continue
            last = card_code(pile[u - 1])
            need = list(option.need)
            carried = -1
            if last & 15 > 1:
                need[(last & 15) - 2] += 1  # its offer is for its own suit only
                carried = last - 1
            firsts = set()
            for b in range(self.run_first[i][x], x + 1):
                code = card_code(pile[b])
                removal = code & 15 == KING and code >> 4 in self.free
                firsts.add(0 if removal else code & 15)
            for rank in sorted(firsts):
                extra = list(need)
                if rank:
                    extra[rank - 1] += 1  # a free card one rank higher, or a space
                moved = option.moved + (rank > 0)  # the run's first card may go to a space
                found.append(option._replace(need=tuple(extra), moved=moved, carried=carried))
        return found

    def refute(self, scenario: Scenario, depth: int) -> Proof | None:
        """A proof that ``scenario`` is impossible with splits ``depth`` deep, or None."""
        witness = self.witness(scenario)
        if witness is None:
            return Proof()
        if depth == 0:
            return None
        moments = len(scenario.events) + 1
        for moment in range(moments - 1, -1, -1):
            for i, pile in enumerate(self.piles):
                for x in range(witness[moment][i], len(pile)):
                    card = (i, x)
                    if pile[x] >= FACE_DOWN or self.run_first[i][x] != x:
                        continue  # only the first card of a natural run
                    if card in scenario.events:
                        continue
                    proofs = []
                    for branch in self.branches(scenario, moment, card):
                        proof = self.refute(branch, depth - 1)
                        if proof is None:
                            break
                        proofs.append(proof)
                    else:
                        return Proof(card, tuple(proofs))
        return None

    @staticmethod
    def branches(scenario: Scenario, moment: int, card: Card) -> list[Scenario]:
        """``card`` has not moved by ``moment``, or it first moves before it (one branch for
        each place among the earlier events)."""
        found = [Scenario(scenario.events, scenario.unmoved | {(moment, card)})]
        for place in range(moment + 1):
            events = (*scenario.events[:place], card, *scenario.events[place:])
            unmoved = frozenset((m + (m >= place), c) for m, c in scenario.unmoved)
            found.append(Scenario(events, unmoved))
        return found

    def witness(self, scenario: Scenario) -> _Witness | None:
        """A choice of bases that passes every moment of ``scenario``, or None."""
        if scenario not in self.known:
            self.known[scenario] = self._witness(scenario)
        return self.known[scenario]

    def _witness(self, scenario: Scenario) -> _Witness | None:
        k = len(scenario.events) + 1
        n = len(self.piles)
        lo = [[0] * n for _ in range(k)]
        hi = [[99] * n for _ in range(k)]
        for at, (i, x) in enumerate(scenario.events):
            for m in range(k):
                if m < at:
                    lo[m][i] = max(lo[m][i], x + 1)
                elif m > at:
                    hi[m][i] = min(hi[m][i], x)
        for moment, (i, x) in scenario.unmoved:
            for m in range(moment + 1):
                lo[m][i] = max(lo[m][i], x + 1)
        # each pile's choices: one base per moment, never growing
        combos: list[list[tuple[_Option, ...]]] = []
        for i in range(n):
            plain = self.plain[i]
            per_moment = []
            for m in range(k):
                if m == k - 1:
                    found = self.at_end[i]
                elif scenario.events[m][0] == i:
                    found = self.event_options(i, scenario.events[m][1], plain)
                else:
                    found = plain
                per_moment.append([o for o in found if lo[m][i] <= o.base <= hi[m][i]])
            shrinking: list[tuple[_Option, ...]] = [()]
            for m in range(k):
                shrinking = [
                    (*c, o)
                    for c in shrinking
                    for o in per_moment[m]
                    if not c or o.base <= c[-1].base
                ]
            if not shrinking:
                return None
            combos.append(shrinking)
        self.examined += sum(map(len, combos))  # setting a count up costs about a choice each
        self.limit.spent(self.examined)
        return _Count(self, scenario, combos).run()


class _Count:
    """One scenario's count: a depth-first search over the piles' choices, cut by what the
    later piles could still offer and by each moment's count alone."""

    def __init__(
        self, prover: _Prover, scenario: Scenario, combos: list[list[tuple[_Option, ...]]]
    ) -> None:
        self.prover = prover
        k = self.k = len(scenario.events) + 1
        n = self.n = len(combos)
        # the cards each moment's event base may carry, as bits
        self.bit: list[dict[int, int]] = []
        for m in range(k):
            codes = sorted({c[m].carried for cs in combos for c in cs if c[m].carried >= 0})
            self.bit.append({code: 1 << t for t, code in enumerate(codes)})
        event_piles = {i for i, _x in scenario.events}
        self.order = sorted(range(n), key=lambda i: (i not in event_piles, len(combos[i])))
        # each moment's distinct options of each pile, as steps
        steps: list[list[dict[_Option, _Step]]] = [
            [{o: self.as_step(m, o) for o in {c[m] for c in combos[i]}} for i in self.order]
            for m in range(k)
        ]
        self.combos = [
            [tuple(steps[m][j][o] for m, o in enumerate(combo)) for combo in combos[i]]
            for j, i in enumerate(self.order)
        ]
        self.alone = [[sorted(steps[m][j].values()) for j in range(n)] for m in range(k)]
        zero = (0,) * RANKS
        # what the piles from the j-th on could at most offer, need, empty and gather
        self.relief = [[zero] * (n + 1) for _ in range(k)]
        self.cap = [[zero] * (n + 1) for _ in range(k)]
        self.tables = [[0] * (n + 1) for _ in range(k)]
        self.masks = [[0] * (n + 1) for _ in range(k)]
        for m in range(k):
            for j in range(n - 1, -1, -1):
                alone = self.alone[m][j]
                self.relief[m][j] = tuple(
                    self.relief[m][j + 1][r] + max(max(0, -s.need[r]) for s in alone)
                    for r in range(RANKS)
                )
                self.cap[m][j] = tuple(
                    self.cap[m][j + 1][r] + max(max(0, s.need[r]) for s in alone)
                    for r in range(RANKS)
                )
                self.tables[m][j] = self.tables[m][j + 1] + max(s.bottom for s in alone)
                mask = self.masks[m][j + 1]
                for s in alone:
                    mask |= s.mask
                self.masks[m][j] = mask
        final = prover.final
        self.specs = [(0, 0, prover.most)] * (k - 1) + [
            (ALL_RANKS if final.suit is not None else 0, final.spaces, final.most_spaces)
        ]
        self.seen: set[tuple[int, tuple[_State, ...]]] = set()
        self.alone_known: dict[tuple[int, int, _State], bool] = {}
        self.chosen: list[tuple[_Step, ...]] = [()] * n

    def as_step(self, m: int, option: _Option) -> _Step:
        bits = sum(b for code, b in self.bit[m].items() if code in option.codes)
        return _Step(
            option.base,
            option.need,
            option.bottom,
            option.mask,
            option.moved,
            bits,
            option.carried,
        )

    def tick(self) -> None:
        prover = self.prover
        prover.examined += 1
        prover.limit.spent(prover.examined)

    def passes(self, m: int, state: _State) -> bool:
        """Does moment ``m``'s count pass with every pile chosen?"""
        need, emptied, mask, moved, carried, seen = state
        wanted, spaces, most = self.specs[m]
        if mask & wanted != wanted:
            return False
        if carried >= 0 and seen & self.bit[m][carried]:
            need = tuple(x - (r == (carried & 15) - 1) for r, x in enumerate(need))
        return bottoms_suffice(need, emptied, moved, self.prover.bare, spaces, most)

    def step(self, m: int, j: int, state: _State, step: _Step) -> _State | None:
        """Moment ``m``'s count once the j-th pile takes ``step``; None if it cannot pass."""
        need, emptied, mask, moved, carried, seen = state
        _base, more, bottom, ranks, count, bits, carries = step
        if carries >= 0:
            carried = carries
        cap = self.cap[m][j + 1]
        total = tuple(max(a + b, -c) for a, b, c in zip(need, more, cap, strict=True))
        wanted, spaces, _most = self.specs[m]
        if (mask | ranks | self.masks[m][j + 1]) & wanted != wanted:
            return None
        best = list(self.relief[m][j + 1])
        if carried >= 0:
            best[(carried & 15) - 1] += 1  # the carried card may still be found moved
        room = 0 if self.prover.bare else emptied + bottom + self.tables[m][j + 1] - spaces
        if sum(x - y for x, y in zip(total, best, strict=True) if x > y) > room:
            return None
        return (total, emptied + bottom, mask | ranks, min(moved + count, 99), carried, seen | bits)

    def completes(self, m: int, j: int, state: _State) -> bool:
        """Can the piles from the j-th on make moment ``m`` pass, that moment alone?"""
        if j == self.n:
            return self.passes(m, state)
        key = (m, j, state)
        known = self.alone_known.get(key)
        if known is None:
            known = False
            for step in self.alone[m][j]:
                self.tick()
                following = self.step(m, j, state, step)
                if following is not None and self.completes(m, j + 1, following):
                    known = True
                    break
            self.alone_known[key] = known
        return known

    def search(self, j: int, states: tuple[_State, ...]) -> bool:
        """Can the piles from the j-th on make every moment pass?"""
        if j == self.n:
            return all(self.passes(m, states[m]) for m in range(self.k))
        if (j, states) in self.seen:
            return False
        self.seen.add((j, states))
        for combo in self.combos[j]:
            self.tick()
            following = []
            for m in range(self.k):
                state = self.step(m, j, states[m], combo[m])
                if state is None or (self.k > 1 and not self.completes(m, j + 1, state)):
                    break
                following.append(state)
            else:
                self.chosen[self.order[j]] = combo
                if self.search(j + 1, tuple(following)):
                    return True
        return False

    def run(self) -> _Witness | None:
        start: _State = ((0,) * RANKS, 0, 0, 0, -1, 0)
        if not self.search(0, (start,) * self.k):
            return None
        return [[self.chosen[i][m].base for i in range(self.n)] for m in range(self.k)]
