"""The count made just before every first move of a line, in every order: a complete search
over what the count can see.

:mod:`spider_cli.analysis.search.counting` counts at the end of a line, and
:mod:`spider_cli.analysis.search.moments` at a few chosen moments. Here a line is seen through the
order in which the piles' untouched bases lose their cards. Each first move takes a natural
run (same suit, in sequence, as dealt) off the end of one base: a move takes the run with
what lies on it, and a removal takes a King's run of a suit that may be removed. Just before
it, the count must pass with two more conditions:

* the run's first card needs a free card one rank higher, or a space (not for a removal);
* the cards lying on the base's last card are a natural run of its suit (the move takes them
  along), so the top one of them, or the base's last card if none lies on it, has nothing on
  it: its place for a card one rank lower goes unused.

The states are the bases' lengths, a first move shortens one, and a state is never visited
twice, so the search ends. When no order of first moves reaches an end that the goal allows
(the count at the end, as in :mod:`counting`), no line reaches the goal: the goal is
impossible. The search is bounded by the states it examines, so every machine gives the
same answer. The compiled core runs the same search (``csrc/orders.c``, faster by the
ratio docs/benchmarks.md gives) over the tables that :class:`Orders` builds, state for state.
"""

from __future__ import annotations

from collections.abc import Callable

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
from spider_cli.analysis.search.moments import links
from spider_cli.rules.cards import KING
from spider_cli.rules.goals import GoalKind

ORDER_LIMIT = Limit(300_000)
"""States a whole proof over the orders of first moves examines at most before it gives up
(what that costs on each path: BENCHMARKS.md). Problem 4's two "impossible" answers need
250,230."""

CORE_PILE = 63
"""The longest pile the compiled core's search takes (a base length in 6 bits of its keys);
a longer one goes the Python path."""

_Base = tuple[tuple[int, ...], int, int]
"""A pile's base as the count sees it: need per rank, 1 if emptied to its bottom, cards moved."""

_State = tuple[tuple[int, ...], tuple[int, ...], int, int, int]
"""A state on the search's stack: the bases' lengths, the need per rank, the piles emptied,
the cards moved, and the codes of the cards moved, as bits."""


Runner = Callable[["Orders", Limit], tuple[bool | None, int]]
"""A search of the orders of first moves on some path: (reached, states), as
:meth:`Orders.search`."""


def refute(
    piles: State,
    question: Question,
    limit: Limit = ORDER_LIMIT,
    run: Runner | None = None,
) -> int | None:
    """The states examined in proving ``question`` impossible from ``piles`` (for every end
    the goal allows), or None when no proof is found within ``limit`` (its states, or the
    time a user asked for). ``run`` does each search (:meth:`Orders.search` when not given;
    ``native.first_moves`` chooses the path)."""
    found = setting(piles, question, limit)
    if found is None:
        return None
    examined = 0
    for final in found.finals:
        orders = Orders(piles, final, found)
        left = limit.within(limit.positions - examined)
        reached, count = orders.search(left) if run is None else run(orders, left)
        if reached is not False:  # an end reached, or no answer within the limit
            return None
        examined += count
    return examined


class Orders:
    """The orders of first moves toward one end of the goal."""

    def __init__(self, piles: State, final: Question, found: Setting) -> None:
        self.piles = piles
        self.final = final
        self.free = found.free
        self.bare = found.bare
        self.most = found.most
        self.examined = 0
        q, free = final, found.free
        # each pile's bases: at any moment, and at the end (the goal's own conditions)
        self.plain: list[dict[int, _Base]] = []
        self.end: list[dict[int, tuple[tuple[int, ...], int, int, int]]] = []
        for i, pile in enumerate(piles):
            options = base_options(pile, False, q.no_turn_up, None, free)
            self.plain.append({len(pile) - m: (need, bottom, m) for need, bottom, _s, m in options})
            at_end = base_options(
                pile,
                i == q.target and q.kind == GoalKind.TURN_UP,
                q.no_turn_up,
                q.suit,
                free,
                q.emptying,
                i == q.target and q.kind == GoalKind.SPACE,
            )
            self.end.append({len(pile) - option[3]: option for option in at_end})
        # the goal suit's ranks each base gathers at the end, and the piles whose bases count
        # otherwise at the end than at any other moment
        self.masks = [{u: option[2] for u, option in end.items()} for end in self.end]
        self.special = [
            i
            for i, (plain, end) in enumerate(zip(self.plain, self.end, strict=True))
            if plain.keys() != end.keys()
            or any(plain[u] != (end[u][0], end[u][1], end[u][3]) for u in plain)
        ]
        # each pile's first moves from each base: (the base left, the rank of the run's first
        # card, which needs a place; 0 for a removal)
        self.steps: list[dict[int, list[tuple[int, int]]]] = []
        # each pile's moved cards from each base on, as bits of their codes
        self.bits: list[list[int]] = []
        for i, pile in enumerate(piles):
            first = list(range(len(pile)))
            for j in range(1, len(pile)):
                if links(pile[j - 1], pile[j]):
                    first[j] = first[j - 1]
            table = {}
            for b in self.plain[i]:
                if b == 0 or pile[b - 1] == FACE_DOWN:
                    continue
                found_steps = []
                for x in range(first[b - 1], b):
                    if x in self.plain[i] or x in self.end[i]:
                        code = card_code(pile[x])
                        removal = code & 15 == KING and code >> 4 in free
                        found_steps.append((x, 0 if removal else code & 15))
                table[b] = found_steps
            self.steps.append(table)
            bits = [0] * (len(pile) + 1)
            for u in range(len(pile) - 1, -1, -1):
                known = pile[u] != FACE_DOWN
                bits[u] = bits[u + 1] | (1 << card_code(pile[u]) if known else 0)
            self.bits.append(bits)

    def at_an_end(
        self, bases: tuple[int, ...], need: tuple[int, ...], emptied: int, moved: int
    ) -> bool:
        """Does the count at the end pass with these bases? ``need``, ``emptied`` and
        ``moved`` are the sums of their bases at any moment (a base that only an end allows
        counts for nothing there): only the piles whose bases differ at the end change them."""
        q = self.final
        if q.suit is not None:
            ranks = 0
            for u, masks in zip(bases, self.masks, strict=True):
                ranks |= masks.get(u, 0)
            if ranks & ALL_RANKS != ALL_RANKS:
                return False
        total = list(need)
        for i in self.special:
            u = bases[i]
            end = self.end[i].get(u)
            if end is None:
                return False
            plain = self.plain[i].get(u, ((0,) * RANKS, 0, 0))
            total = [a - b + c for a, b, c in zip(total, plain[0], end[0], strict=True)]
            emptied += end[1] - plain[1]
            moved += end[3] - plain[2]
        return bottoms_suffice(tuple(total), emptied, moved, self.bare, q.spaces, q.most_spaces)

    def unused_places(self, i: int, b: int, moved: int) -> list[int]:
        """For a first move from pile ``i``'s base of length ``b``: the places that may go
        unused (the rank below the top card of the natural run on the base's last card, as
        an index of the need; -1 for an Ace, which has none), one for each length of that run
        whose cards have all moved (``moved``: their codes as bits)."""
        last = card_code(self.piles[i][b - 1])
        found = []
        rank, code = last & 15, last
        while True:
            found.append(rank - 2 if rank > 1 else -1)
            if rank == 1 or not moved >> (code - 1) & 1:
                return found
            rank, code = rank - 1, code - 1

    def search(self, limit: Limit) -> tuple[bool | None, int]:
        """(does some order of first moves reach an end the goal allows, or None when that is
        not known within ``limit``; the states examined)."""
        try:
            return self.reaches_an_end(limit), self.examined
        except OverBudget:
            return None, self.examined

    def fits_the_core(self) -> bool:
        """Can the compiled core take these piles (a base length fits its keys)?"""
        return all(len(pile) <= CORE_PILE for pile in self.piles)

    def tables(self) -> tuple[object, ...]:
        """The arguments of the compiled core's search (``_core.orders`` but the budget and
        the clock): the piles, each pile's bases at any moment and at the end by length (None
        where the count allows none), the suits that may be removed as bits, and the terms."""
        q = self.final
        plain = [
            [self.plain[i].get(u) for u in range(len(pile) + 1)]
            for i, pile in enumerate(self.piles)
        ]
        end = [
            [self.end[i].get(u) for u in range(len(pile) + 1)] for i, pile in enumerate(self.piles)
        ]
        return (
            self.piles,
            plain,
            end,
            sum(1 << suit for suit in self.free),
            self.bare,
            -1 if self.most is None else self.most,
            q.spaces,
            -1 if q.most_spaces is None else q.most_spaces,
            ALL_RANKS if q.suit is not None else 0,
        )

    def reaches_an_end(self, limit: Limit) -> bool:
        """Does some order of first moves reach an end the goal allows? Raises
        :class:`OverBudget` past ``limit``."""
        bare, most = self.bare, self.most
        start = tuple(len(pile) for pile in self.piles)
        if not all(self.end) or not all(u in b for u, b in zip(start, self.plain, strict=True)):
            return False  # some pile has no base the count allows, at the end or at the start
        need, emptied, moved = [0] * RANKS, 0, 0
        for i, u in enumerate(start):
            more, bottom, count = self.plain[i][u]
            need = [a + b for a, b in zip(need, more, strict=True)]
            emptied += bottom
            moved += count
        seen = {start}
        stack: list[_State] = [(start, tuple(need), emptied, moved, 0)]
        while stack:
            bases, need_now, emptied, moved, codes = stack.pop()
            self.examined += 1
            limit.spent(self.examined)
            if self.at_an_end(bases, need_now, emptied, moved):
                return True
            short = sum(v for v in need_now if v > 0)  # moved cards with no place
            if bare:  # no moved card may lie on a pile's bottom
                if short or (most is not None and emptied > most):
                    continue
                rooms = (0, 0)
            else:  # (room on the bottoms: without and with the run's first card)
                rooms = (min(moved, emptied), min(moved + 1, emptied))
                if short > rooms[1]:
                    continue
            for i, b in enumerate(bases):
                table = self.steps[i].get(b)
                if not table:
                    continue
                unused = self.unused_places(i, b, codes)
                for x, rank in table:
                    after = (*bases[:i], x, *bases[i + 1 :])
                    if after in seen:
                        continue
                    room = rooms[1 if rank else 0]
                    if not bare and most is not None and emptied - room > most:
                        continue
                    first = rank - 1 if rank else -1
                    needs = rank > 0 and need_now[first] >= 0
                    for place in unused:
                        if _room_left(need_now, first, place, room - short, needs):
                            break
                    else:
                        continue
                    seen.add(after)
                    base = self.plain[i].get(x)
                    old = self.plain[i][b]
                    if base is None:  # an end's base only: the line stops there
                        less = tuple(a - c for a, c in zip(need_now, old[0], strict=True))
                        if self.at_an_end(after, less, emptied - old[1], moved - old[2]):
                            return True
                        continue
                    stack.append(
                        (
                            after,
                            tuple(
                                a - c + d for a, c, d in zip(need_now, old[0], base[0], strict=True)
                            ),
                            emptied - old[1] + base[1],
                            moved - old[2] + base[2],
                            codes | self.bits[i][x],
                        )
                    )
        return False


def _room_left(need: tuple[int, ...], first: int, place: int, room: int, needs: bool) -> bool:
    """Does the count still pass when the run's first card (need index ``first``, -1: none)
    takes a place, and the place ``place`` (need index, -1: none) goes unused, with ``room``
    for moved cards with no place beyond those already short? ``needs``: the first card
    adds one to those short."""
    if place >= 0 and place == first:
        v = need[place]
        return max(0, v + 2) - max(0, v) <= room
    return needs + (place >= 0 and need[place] >= 0) <= room
