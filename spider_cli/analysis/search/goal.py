"""The goal search: one search of :func:`spider_cli.analysis.solve.solver.answer` (which rules it
keeps, how it canonicalises positions, the steps from a position: :class:`Search`), its
Python path (:func:`astar`, the reference of csrc/goal.c), and the search as the compiled
core takes it (:class:`GoalSpec`, defined here once)."""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from spider_cli.analysis.compact import (
    FACE_DOWN,
    NO_COVERS,
    ONE_BYTE,
    REVEAL,
    Start,
    State,
    actions,
    apply,
    blocks,
    completes_suit,
    encode,
    is_complete_pile,
    onto_cards,
    rank_key,
    run_length,
    spaces_of,
    suit_covers,
)
from spider_cli.analysis.limits import Limit
from spider_cli.rules.cards import KING, UNKNOWN
from spider_cli.rules.engine import DEAL, PILES, Action, Game, Move, Remove
from spider_cli.rules.goals import Constraints, Goal, GoalKind

Line = tuple[Action, ...]
"""One step of a search: one action, or a macro (moves made one after another)."""

Progress = tuple[int, tuple[int, ...]]
"""How far a removal goal has come: (the step reached, the suits of that step not yet removed)."""

Key = tuple[State, int, Progress]
"""A search key: (canonical piles, deals made, removal progress); see :class:`Search`."""

KeyedLine = list[tuple[Key, Line]]
"""A line as a search found it: (the key before the step, the step) pairs."""

WEIGHT = 2
"""f = moves + WEIGHT * estimate: above 1 finds lines sooner, at the cost of longer ones."""

CHAOS_WEIGHT = 10
"""How much the estimate counts chaos (see :func:`rank_key`) beside the goal's own measure:
the manual's swaps through a space each make runs more natural before the goal comes nearer."""


@dataclass
class Search:
    """One goal search: the rules it keeps, and how it canonicalises positions.

    A search key is ``(piles, deals made, removal progress)``; ``piles`` is canonical: the
    pinned piles first (the pile a goal names, or piles no suit may be removed from), then
    the others sorted (when no deal can follow: pile order then does not matter).
    """

    goal: Goal
    constraints: Constraints
    start: Start
    pinned: tuple[int, ...]  # real indices of the piles kept in the first slots
    pile: int  # the real index of the pile the goal names, or -1 (it is pinned first)
    sorted_mode: bool  # piles as a multiset (no deal can follow)
    root_spaces: int
    forbidden: frozenset[int]  # suits that may not be removed (outside the goal)
    chaos_weight: int = CHAOS_WEIGHT
    keep_suits_in_pinned: bool = False  # no removal from a pinned pile
    done_at: int = 0  # the removal steps that meet the goal (0: all of them)

    @property
    def fixed(self) -> int:
        return len(self.pinned)

    def canonical(self, piles: list[bytes] | State) -> State:
        if not self.sorted_mode:
            return tuple(piles)
        k = len(self.pinned)
        return (*piles[:k], *sorted(piles[k:]))

    def order(self, real: State) -> list[int]:
        """The real pile index of each canonical slot, for a position in real order."""
        if not self.sorted_mode:
            return list(range(PILES))
        rest = sorted((i for i in range(PILES) if i not in self.pinned), key=lambda i: real[i])
        return [*self.pinned, *rest]

    def root(self) -> Key:
        piles = tuple(self.start.piles[i] for i in self.order(self.start.piles))
        progress = (0, self.goal.steps[0]) if self.goal.steps else (0, ())
        return (piles, 0, progress)

    def advance(self, progress: Progress, suit: int) -> Progress | None:
        """Removal progress after removing ``suit``; None when the removal is not allowed."""
        steps = self.goal.steps
        step, remaining = progress
        if step < len(steps):
            if suit in remaining:
                left = list(remaining)
                left.remove(suit)
                if left:
                    return (step, tuple(left))
                step += 1
                return (step, steps[step] if step < len(steps) else ())
            if any(suit in later for later in steps[step + 1 :]):
                return None  # out of order
        if suit in self.forbidden:
            return None
        return progress

    def met(self, piles: State, progress: Progress, turned: int, revealed: bool) -> bool:
        """Is the goal met by a step into ``piles`` that turned up pile ``turned`` (or -1)?"""
        kind = self.goal.kind
        if kind == GoalKind.TURN_UP:
            target = 0 if self.fixed else self.pile
            hit = turned >= 0 and (self.pile < 0 or turned == target)
        elif revealed:
            return False
        elif kind == GoalKind.SPACE:  # the first new space: in pile ``pile``, if one is named
            hit = spaces_of(piles) > self.root_spaces and (
                self.pile < 0 or not piles[0 if self.fixed else self.pile]
            )
        elif kind == GoalKind.REMOVE:
            hit = progress[0] >= min(self.done_at or len(self.goal.steps), len(self.goal.steps))
        elif kind == GoalKind.FREE:
            hit = any(p and p[-1] == self.goal.card for p in piles)
        else:  # win
            hit = all(is_complete_pile(p) for p in piles)
        return hit and spaces_of(piles) >= self.constraints.keep_spaces

    def estimate(self, piles: State, progress: Progress) -> int:
        """How far the goal looks (smaller is nearer); it only orders the search.

        Removing a suit: for each card of the suit, the fewest cards covering either copy
        (not counting the run of its own suit below it), summed; each suit of later steps
        counted the same way, plus 100 (so that a line for the first suit keeps the later
        ones gathered). A King in a pinned pile no suit may be removed from is not counted.
        A space: the fewest runs in a pile with nothing face down. Turning up a card: the
        fewest runs above a face-down card. Freeing a card: the fewest cards on a copy of
        it. Each plus ``chaos_weight`` times the chaos.
        """
        kind = self.goal.kind
        if kind == GoalKind.REMOVE:
            step, remaining = progress
            total = 0
            # A King in a pile no suit may be removed from cannot head the removal.
            kings = self.fixed if self.keep_suits_in_pinned else 0
            later = [suit for suits in self.goal.steps[step + 1 :] for suit in suits]
            for suit in (*remaining, *later):  # the rank-0 column is always 99: taken off
                covers = [suit_covers(p, suit) for p in piles]
                for i in range(kings):
                    covers[i] = (*covers[i][:KING], 99)
                total += sum(map(min, NO_COVERS, *covers)) - 99
            total += 100 * len(later)
        elif kind == GoalKind.SPACE and self.pile >= 0:
            total = blocks(piles[0 if self.fixed else self.pile])
        elif kind == GoalKind.SPACE:
            total = min((blocks(p) for p in piles if p and p[0] < FACE_DOWN), default=20)
        elif kind == GoalKind.TURN_UP:
            candidates = piles[:1] if self.fixed else piles
            total = min((blocks(p) for p in candidates if p and p[0] >= FACE_DOWN), default=20)
        elif kind == GoalKind.FREE:
            card = self.goal.card or 0
            total = min((len(p) - 1 - p.rindex(card) for p in piles if card in p), default=20)
        else:
            total = 0
        if self.chaos_weight:
            total += self.chaos_weight * rank_key(piles, 0)[0]
        return total

    def expand(
        self, key: Key, macros: bool, into_spaces: bool
    ) -> Iterator[tuple[Line, Key | None, bool]]:
        """The steps from a position: (step, child key or None, goal met).

        A child key of None is a move that turns up an unknown card and meets a "turn up"
        goal (its line ends there). With ``into_spaces`` off, no single move goes into a
        space; with ``macros`` on, the manual's techniques through a space come as steps.
        """
        piles, dealt, progress = key
        cons = self.constraints
        spaces = [i for i in range(PILES) if not piles[i]]
        # Interchangeable spaces (sorted piles): only the first is tried. Phase A keeps one
        # space free between steps, so its plain moves fill only spare spaces. A pile that
        # must end as a space is not interchangeable with the others, and emptying it by
        # moving the whole of it into a space changes the position.
        open_spaces = spaces if into_spaces else spaces[: len(spaces) - 1]
        named_space = self.goal.kind == GoalKind.SPACE and self.pile >= 0
        if self.sorted_mode and named_space:
            pinned = [i for i in open_spaces if i < self.fixed]
            open_spaces = pinned[:1] + [i for i in open_spaces if i >= self.fixed][:1]
        elif self.sorted_mode:
            open_spaces = open_spaces[:1]
        whole = not self.sorted_mode or named_space
        # Under autoremove a complete suit comes off before anything else can be done.
        ready = [Remove(i) for i, p in enumerate(piles) if cons.autoremove and completes_suit(p)]
        steps: Iterator[tuple[Move | Remove, ...]] = (
            ((a,) for a in ready) if ready else ((a,) for a in actions(piles, open_spaces, whole))
        )
        if spaces and not into_spaces and not ready and self.goal.kind == GoalKind.TURN_UP:
            steps = itertools.chain(
                steps,
                (
                    (a,)
                    for a in actions(piles, spaces[:1], False)
                    if type(a) is Move
                    and not piles[a.dst]
                    and len(piles[a.src]) > a.count
                    and piles[a.src][-a.count - 1] >= FACE_DOWN
                ),
            )
        if macros and spaces and not ready:
            steps = itertools.chain(steps, space_macros(piles, spaces[0]))
        for step in steps:
            cur: State = piles
            child_progress = progress
            turned = -1
            ok = True
            for k, action in enumerate(step, start=1):
                new, turned, outcome = apply(cur, action)
                if outcome == REVEAL:
                    ok = False
                    if not cons.no_turn_up and self.met(tuple(new), child_progress, turned, True):
                        yield step[: step.index(action) + 1], None, True
                    break
                if turned >= 0 and cons.no_turn_up:
                    ok = False
                    break
                if outcome > 0:
                    advanced = self.advance(child_progress, outcome - 1)
                    if advanced is None or (
                        self.keep_suits_in_pinned
                        and isinstance(action, Remove)  # (a removal: outcome > 0)
                        and action.pile < len(self.pinned)
                    ):
                        ok = False
                        break
                    child_progress = advanced
                cur = tuple(new)
                if cons.no_new_space and spaces_of(cur) > self.root_spaces and outcome == 0:
                    ok = False
                    break
                if (
                    cons.autoremove
                    and k < len(step)
                    and type(action) is Move
                    and completes_suit(cur[action.dst])
                ):
                    ok = False  # a macro cannot go on past a suit autoremove takes off
                    break
            if not ok:
                continue
            child = self.canonical(cur)
            met = self.met(child, child_progress, turned, False)
            if (
                named_space
                and not met
                and spaces_of(child) > self.root_spaces
                and child[0 if self.fixed else self.pile]
            ):
                continue  # the first new space is another pile's
            yield step, (child, dealt, child_progress), met
        if not cons.no_deal and dealt < len(self.start.rows) and not spaces and not ready:
            row = self.start.rows[dealt]
            if UNKNOWN not in row:
                child = tuple(piles[i] + ONE_BYTE[row[i]] for i in range(PILES))
                yield (DEAL,), (child, dealt + 1, progress), self.met(child, progress, -1, False)


def space_macros(piles: State, space: int) -> Iterator[tuple[Move, ...]]:
    """The manual's ways of using a space and getting one back, as single steps.

    A run (or the lower part of one) goes into the space; then one move that uses what
    that did (a move from or onto the pile it left, or onto the parked run); then, if no
    space is free yet, one move of a whole pile (nothing face down, one run) onto a card.
    So two runs of the same rank swap places, a run steps aside while the run above it
    moves (a "supermove"), a card is dug out, or a run rests on a card parked in a space.
    """
    for x in range(PILES):
        p = piles[x]
        if not p or x == space:
            continue
        length = run_length(p)
        for m in range(1, min(length, len(p) - 1) + 1):
            if p[-m - 1] == FACE_DOWN:
                continue
            park = Move(x, space, m)
            parked, _turned, _outcome = apply(piles, park)
            middle = tuple(parked)
            uses = itertools.chain(  # from the pile it left, onto that pile or the parked run
                onto_cards(middle, x, (d for d in range(PILES) if d != x)),
                *(onto_cards(middle, s, (x, space)) for s in range(PILES) if s not in (x, space)),
            )
            for action in uses:
                after, _turned, outcome = apply(middle, action)
                if outcome == REVEAL:
                    continue
                if not all(after):
                    yield (park, action)
                    continue
                for y, q in enumerate(after):
                    if run_length(q) != len(q):
                        continue
                    need = (q[0] & 15) + 1
                    for z, target in enumerate(after):
                        if z != y and target and target[-1] & 15 == need:
                            yield (park, action, Move(y, z, len(q)))


class Searched(NamedTuple):
    """What one run of :func:`astar` found."""

    line: KeyedLine | None
    positions: int
    exhaustive: bool  # every reachable position was examined (rather than hitting a limit)
    depth: int  # breadth-first: no line of this many steps or fewer meets the goal


@dataclass(frozen=True)
class Sought:
    """One goal search, as both paths take it (:func:`astar`, and the compiled core's through
    :mod:`spider_cli.analysis.native`): the ``search`` from ``root``, whether ``macros`` (the
    manual's uses of a space) are single steps, whether a step may go ``into_spaces``,
    ``ordered`` (weighted A*) or breadth-first, within ``limit``, a beam of ``width`` if any."""

    search: Search
    root: Key
    macros: bool
    into_spaces: bool
    ordered: bool
    limit: Limit
    width: int = 0


class GoalSpec(NamedTuple):
    """A search as the compiled core takes it. The one definition: ``GoalSpec`` in
    csrc/search.h has these fields in this order (the goal's removal steps and the hand's
    rows as counted arrays), and csrc/specs.c reads them with one format letter each;
    tests/analysis/test_core_goal.py checks both against this class."""

    kind: int  # the goal's kind: its place in GoalKind (GOAL_TURN_UP... in csrc/search.h)
    pile: int  # the real pile the goal names, or -1
    fixed: int  # the pinned piles
    sorted_mode: bool
    root_spaces: int
    keep_spaces: int
    no_turn_up: bool
    no_new_space: bool
    no_deal: bool
    keep_suits_in_pinned: bool
    autoremove: bool  # a complete suit comes off before anything else is done
    forbidden: int  # suits that may not be removed, as bits
    card: int  # the card to free, or 0
    chaos_weight: int
    done_at: int  # the removal steps that meet the goal (0: all of them)
    steps: tuple[tuple[int, ...], ...]  # the goal's removal steps
    rows: tuple[tuple[int, ...], ...]  # the hand's rows


GOAL_KINDS = tuple(GoalKind)
"""The goal kinds in the compiled core's numbering (``GOAL_TURN_UP`` = 0, ...)."""


def spec(search: Search) -> GoalSpec:
    """The search as the compiled core takes it."""
    goal, cons = search.goal, search.constraints
    return GoalSpec(
        GOAL_KINDS.index(goal.kind),
        search.pile,
        search.fixed,
        search.sorted_mode,
        search.root_spaces,
        cons.keep_spaces,
        cons.no_turn_up,
        cons.no_new_space,
        cons.no_deal,
        search.keep_suits_in_pinned,
        cons.autoremove,
        sum(1 << suit for suit in search.forbidden),
        goal.card or 0,
        search.chaos_weight,
        search.done_at,
        goal.steps,
        search.start.rows,
    )


def keyed(
    search: Search, root: Key, steps: list[Line], macros: bool, into_spaces: bool
) -> KeyedLine:
    """The (key before, step) pairs of a line of steps the core found, read again from
    :meth:`Search.expand` (so the rest of the solver sees what the Python path gives)."""
    line: KeyedLine = []
    key = root
    for k, step in enumerate(steps):
        line.append((key, step))
        if k + 1 < len(steps):
            child = next(
                (c for s, c, _met in search.expand(key, macros, into_spaces) if s == step and c),
                None,
            )
            if child is None:  # pragma: no cover - the core's steps are expand's steps
                raise AssertionError(f"the compiled core made a step the search has not: {step}")
            key = child
    return line


def astar(sought: Sought) -> Searched:
    """Weighted A* (f = moves + WEIGHT * estimate) from ``root`` over canonical positions;
    with ``ordered`` off, plain breadth-first (no estimates: faster, and shortest lines);
    with a ``width``, a beam: a layer of positions at a time, of which the next keeps the
    ``width`` least (f, order generated). ``macros`` takes the manual's uses of a space as
    single steps; ``into_spaces`` off keeps a space free between steps. It stops past
    ``limit``'s positions or time.

    All three check the goal as positions are generated. Breadth-first, when a position at
    depth d is expanded, every position of d moves or fewer has been generated, so a search
    cut off there still proves that no line of d moves or fewer exists. A beam reaches lines
    too long for A* to afford, but drops positions: running dry proves nothing. The Python
    path (the reference of csrc/goal.c)."""
    search, root, limit, width = sought.search, sought.root, sought.limit, sought.width
    macros, into_spaces = sought.macros, sought.into_spaces
    ordered = sought.ordered or width > 0
    positions, expired = limit.positions, limit.expired
    parents: dict[Key, tuple[Key, Line] | None] = {root: None}
    heap: list[tuple[int, int, int, Key]] = [(0, 0, 0, root)]
    queue: deque[tuple[int, int, int, Key]] = deque(heap)
    following: list[tuple[int, int, int, Key]] = []  # a beam's next layer
    push, pop = heapq.heappush, heapq.heappop
    estimate = search.estimate
    expand = search.expand
    count = 0
    while True:
        if width and not queue:
            following.sort()
            queue.extend(following[:width])
            following.clear()
        if not (queue if width or not ordered else heap):
            break
        _f, _n, depth, key = pop(heap) if ordered and not width else queue.popleft()
        depth += 1
        for step, child, met in expand(key, macros, into_spaces):
            if child is None:
                return Searched([*_path(parents, key), (key, step)], len(parents), False, 0)
            if child in parents:
                continue
            parents[child] = (key, step)
            if met:
                return Searched(_path(parents, child), len(parents), False, 0)
            count += 1
            f = depth + WEIGHT * estimate(child[0], child[2]) if ordered else 0
            if width:
                following.append((f, count, depth, child))
            elif ordered:
                push(heap, (f, count, depth, child))
            else:
                queue.append((0, count, depth, child))
        over = len(parents) > positions or (expired is not None and count & 63 == 0 and expired())
        if over:
            return Searched(None, len(parents), False, 0 if ordered else depth - 1)
    return Searched(None, len(parents), not width, 0)


def _path(parents: dict[Key, tuple[Key, Line] | None], key: Key) -> KeyedLine:
    """The (key before, step) pairs from the root to ``key``."""
    line: KeyedLine = []
    link = parents[key]
    while link is not None:
        parent, step = link
        line.append((parent, step))
        link = parents[parent]
    line.reverse()
    return line


def make_search(
    game: Game,
    goal: Goal,
    constraints: Constraints,
    keep: tuple[int, ...] = (),
    done_at: int = 0,
) -> Search:
    """A search for ``goal``; no suit may be removed from the real piles ``keep``. With
    ``done_at``, the goal's first ``done_at`` removal steps meet it (the later ones still
    guide the estimate)."""
    start = encode(game)
    deals = not constraints.no_deal and bool(start.rows) and UNKNOWN not in start.rows[0]
    pile = (
        goal.pile
        if goal.kind in (GoalKind.TURN_UP, GoalKind.SPACE) and goal.pile is not None
        else -1
    )
    goal_suits = {s for step in goal.steps for s in step}
    forbidden = frozenset(s for s in constraints.no_remove if s not in goal_suits)
    pinned = (pile,) if pile >= 0 and not deals else keep if not deals else ()
    return Search(
        goal,
        constraints,
        start,
        pinned,
        pile,
        not deals,
        spaces_of(start.piles),
        forbidden,
        keep_suits_in_pinned=bool(keep) and not deals,
        done_at=done_at,
    )
