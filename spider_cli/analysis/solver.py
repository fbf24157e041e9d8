"""Search over the known cards: the manual's questions answered and proved, and
contingencies (the question again for every card a face-down card could be).

The search works on the compact positions of :mod:`spider_cli.analysis.compact`. Every line found is
replayed through the engine before it is reported, so a line the engine would refuse can
never be printed.

* :func:`solve` answers a goal ("turn up a card [in pile N]", "get a space [in pile N]",
  "remove SUIT [then SUIT]", "free CARD", "win") under constraints ("no deal", "keep N
  spaces", "no remove SUIT", "limit N", "within N seconds", ...).
  A move that would turn up an unknown card, or deal unknown cards, ends its line there.
  Phase A looks for a line quickly: weighted A* ordered by a goal estimate, keeping a space
  free between steps and taking the manual's uses of a space (swap two runs through it, step
  a run aside, dig a card out) as single steps, each search with a share of the limit
  (:data:`PORTFOLIO`); several removals go a suit at a time first, and a card to turn up may
  come by freeing a card first (:func:`_via_free`). Phase B is the complete
  search: breadth-first over every move with a transposition set of canonical positions, so
  "impossible" means every position reachable over the known cards was examined. Its
  reductions keep proofs sound: piles are kept as a sorted multiset (pile order does not
  matter while no deal can follow; a pile the goal names is kept apart), so spaces are
  interchangeable and only the first is tried; a whole pile never moves into a space (the
  multiset would not change).
  Lines found are shortened by cutting out detours. :func:`out_of_reach` answers at once
  the questions that need no search, and :func:`counted_out` those that the counting
  argument of :mod:`spider_cli.analysis.counting` rules out.
* :func:`answer` carries out a ``solve`` command; "win" with every card known goes to the
  full-information play of :mod:`spider_cli.analysis.autoplay`.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple, TypedDict

from spider_cli.analysis import counting, memory, native
from spider_cli.analysis.autoplay import play, play_limit
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
    card_code,
    encode,
    is_complete_pile,
    onto_cards,
    rank_key,
    run_length,
    spaces_of,
    suit_covers,
)
from spider_cli.analysis.counting import Question, refute, turn_up_piles
from spider_cli.analysis.goals import Clock, Expired, Verdict, deadline
from spider_cli.rules.cards import KING, RANK_WORDS, SUIT_NAMES, UNKNOWN, card_text, split_runs
from spider_cli.rules.engine import DEAL, PILES, Action, Deal, Game, Move, Remove
from spider_cli.rules.errors import QuestionError
from spider_cli.rules.goals import Constraints, Goal, GoalKind
from spider_cli.rules.text import move_text
from spider_cli.rules.values import replace

DEFAULT_LIMIT = 3_000_000
"""Positions :func:`solve` examines before it answers "unknown" on the compiled core (about
5 s; 450 MB at most); "limit N" in the command sets another."""

DEFAULT_LIMIT_PYTHON = 300_000
"""The same on the Python path (4 to 12 s, about 220 MB)."""

PER_SECOND = (600_000, 30_000)
"""About the positions both phases get through in a second, on the core and in Python:
"within N seconds" buys that many a second."""

CHOICES_PER_POSITION = 5
"""About as many of the counting argument's choices take as long as one position of the
complete search (2-3 us against 12-14 us, measured on the manual's proofs): the argument
gets at most as much time as the search it might spare, so a small search (a hint's, say)
does not wait on a proof."""

NO_CONSTRAINTS = Constraints()


# ---------------------------------------------------------------------------------------------
# Answers


@dataclass
class Answer:
    """What a search found: "possible" with a line, "impossible", or "unknown" at a limit.

    ``texts`` is the line in the manual's notation; ``reveal`` is set when its last move
    turns up an unknown card (pile number, 1-based); ``seconds`` is measured only when the
    search was given a clock.
    """

    status: str
    actions: list[Action] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    positions: int = 0
    seconds: float | None = None
    limit: str = ""
    reveal: int | None = None
    depth: int = 0  # "unknown": no line of this many moves or fewer exists
    reason: str = ""  # "impossible" at once: why, without a search
    note: str = ""  # what the search was narrowed to, and why

    @property
    def found(self) -> bool:
        return self.status == "possible"

    def summary(self) -> str:
        """One line: the verdict and the work behind it."""
        work = f"{self.positions:,} positions examined"
        if self.seconds is not None:
            work += f" in {self.seconds:.2f} s"
        if self.status == "possible":
            moves = len(self.texts)
            return f"possible in {moves} move{'s' if moves != 1 else ''} ({work})"
        if self.status == "impossible" and self.reason:
            return f"impossible: {self.reason}"
        if self.status == "impossible":
            return (
                f"impossible: every position reachable over the known cards was examined ({work})"
            )
        shortest = ""
        if self.depth:
            shortest = (
                f"; no line of {self.depth} move{'s' if self.depth != 1 else ''} or fewer exists"
            )
        return f"unknown: {self.limit}{shortest} ({work})"

    def text(self) -> str:
        """The verdict, then the line numbered one move a line."""
        lines = [self.summary()]
        if self.note:
            lines.append(f"  ({self.note})")
        for k, move in enumerate(self.texts, start=1):
            lines.append(f"  {k:>2}. {move}")
        if self.reveal is not None:
            lines.append(f"  (the last move turns up an unknown card in pile {self.reveal})")
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Goal search

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

PORTFOLIO = ((0, False, 30), (CHAOS_WEIGHT, True, 5), (0, True, 5))
"""Phase A, tried in turn before the complete search: (chaos weight, the manual's space
techniques as single steps, share of the positions). At a limit of 300,000 the shares are
10,000, 60,000 and 60,000 positions (ten times as many at the core's default); a larger
limit buys every one of them more (problem 3's clubs, after our hearts line, take the last
one 372,000). Phase A keeps spaces free between steps."""

HEAD_ATTEMPTS = 3
"""Piles tried in turn for the first suit of a "remove A then B" goal in phase A."""


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
        if kind == "turn up":
            target = 0 if self.fixed else self.pile
            hit = turned >= 0 and (self.pile < 0 or turned == target)
        elif revealed:
            return False
        elif kind == "space":  # the first new space: in pile ``pile``, if one is named
            hit = spaces_of(piles) > self.root_spaces and (
                self.pile < 0 or not piles[0 if self.fixed else self.pile]
            )
        elif kind == "remove":
            hit = progress[0] >= len(self.goal.steps)
        elif kind == "free":
            hit = any(p and p[-1] == self.goal.card for p in piles)
        else:  # win
            hit = all(is_complete_pile(p) for p in piles)
        return hit and spaces_of(piles) >= self.constraints.keep_spaces

    def estimate(self, piles: State, progress: Progress) -> int:
        """How far the goal looks (smaller is nearer); it only orders the search.

        Removing a suit: for each card of the suit, the fewest cards covering either copy
        (not counting the run of its own suit below it), summed, and 100 for each suit of
        later steps. A space: the fewest runs in a pile with nothing face down. Turning up a
        card: the fewest runs above a face-down card. Freeing a card: the fewest cards on a
        copy of it. Each plus ``chaos_weight`` times the chaos.
        """
        kind = self.goal.kind
        if kind == "remove":
            step, remaining = progress
            total = 0
            for suit in remaining:  # the rank-0 column is always 99: taken off again
                total += sum(map(min, NO_COVERS, *(suit_covers(p, suit) for p in piles))) - 99
            total += 100 * sum(len(later) for later in self.goal.steps[step + 1 :])
        elif kind == "space" and self.pile >= 0:
            total = blocks(piles[0 if self.fixed else self.pile])
        elif kind == "space":
            total = min((blocks(p) for p in piles if p and p[0] < FACE_DOWN), default=20)
        elif kind == "turn up":
            candidates = piles[:1] if self.fixed else piles
            total = min((blocks(p) for p in candidates if p and p[0] >= FACE_DOWN), default=20)
        elif kind == "free":
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
        named_space = self.goal.kind == "space" and self.pile >= 0
        if self.sorted_mode and named_space:
            pinned = [i for i in open_spaces if i < self.fixed]
            open_spaces = pinned[:1] + [i for i in open_spaces if i >= self.fixed][:1]
        elif self.sorted_mode:
            open_spaces = open_spaces[:1]
        whole = not self.sorted_mode or named_space
        steps: Iterator[tuple[Move | Remove, ...]] = (
            (a,) for a in actions(piles, open_spaces, whole)
        )
        if spaces and not into_spaces and self.goal.kind == "turn up":
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
        if macros and spaces:
            steps = itertools.chain(steps, space_macros(piles, spaces[0]))
        for step in steps:
            cur: State = piles
            child_progress = progress
            turned = -1
            ok = True
            for action in step:
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
        if not cons.no_deal and dealt < len(self.start.rows) and not spaces:
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


class Outcome(NamedTuple):
    """What one run of :func:`astar` found."""

    line: KeyedLine | None
    positions: int
    exhaustive: bool  # every reachable position was examined (rather than hitting a limit)
    depth: int  # breadth-first: no line of this many steps or fewer meets the goal


def astar(
    search: Search,
    macros: bool,
    into_spaces: bool,
    limit: int,
    ordered: bool = True,
    expired: Expired | None = None,
) -> Outcome:
    """Weighted A* (f = moves + WEIGHT * estimate) over canonical positions; with
    ``ordered`` off, plain breadth-first (no estimates: faster, and shortest lines).
    ``macros`` takes the manual's uses of a space as single steps; ``into_spaces`` off
    keeps a space free between steps. It stops past ``limit`` positions, or once
    ``expired`` (a time the user asked for) says so.

    Breadth-first, the goal is checked as positions are generated: when a position at depth
    d is expanded, every position of d moves or fewer has been generated, so a search cut
    off there still proves that no line of d moves or fewer exists.
    """
    limit = min(limit, memory.positions())
    root = search.root()
    if search.goal.kind != "turn up" and search.met(root[0], root[2], -1, False):
        return Outcome([], 1, False, 0)
    core = native.core()
    if core is not None:
        try:
            steps, positions, exhaustive, depth, _bytes = core.goal_search(
                _spec(search), root[0], macros, into_spaces, ordered, limit, WEIGHT, expired
            )
        except ValueError:  # beyond the core's bounds (more than 104 cards): Python's turn
            pass
        else:
            if steps is None:
                return Outcome(None, positions, bool(exhaustive), depth)
            line = [tuple(native.action(*a) for a in step) for step in steps]
            return Outcome(_keyed(search, root, line, macros, into_spaces), positions, False, 0)
    return _astar_python(search, root, macros, into_spaces, limit, ordered, expired)


GOAL_KINDS = {"turn up": 0, "space": 1, "remove": 2, "free": 3, "win": 4}
"""The goal kinds as the compiled core numbers them."""

GoalSpec = tuple[
    int,  # kind: GOAL_KINDS
    int,  # pile: the real pile the goal names, or -1
    int,  # fixed: the pinned piles
    bool,  # sorted_mode
    int,  # root_spaces
    int,  # keep_spaces
    bool,  # no_turn_up
    bool,  # no_new_space
    bool,  # no_deal
    bool,  # keep_suits_in_pinned
    int,  # forbidden suits, as bits
    int,  # card: the card to free, or 0
    int,  # chaos_weight
    tuple[tuple[int, ...], ...],  # the goal's removal steps
    tuple[tuple[int, ...], ...],  # the hand's rows
]
"""A search as the compiled core takes it: the fields of ``GoalSpec`` in csrc/search.h."""


def _spec(search: Search) -> GoalSpec:
    """The search as the compiled core takes it (see ``GoalSpec`` in csrc/search.h)."""
    goal, cons = search.goal, search.constraints
    return (
        GOAL_KINDS[goal.kind],
        search.pile,
        search.fixed,
        search.sorted_mode,
        search.root_spaces,
        cons.keep_spaces,
        cons.no_turn_up,
        cons.no_new_space,
        cons.no_deal,
        search.keep_suits_in_pinned,
        sum(1 << suit for suit in search.forbidden),
        goal.card or 0,
        search.chaos_weight,
        goal.steps,
        search.start.rows,
    )


def _keyed(
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


def _astar_python(
    search: Search,
    root: Key,
    macros: bool,
    into_spaces: bool,
    limit: int,
    ordered: bool,
    expired: Expired | None,
) -> Outcome:
    """:func:`astar` on the Python path (the reference)."""
    parents: dict[Key, tuple[Key, Line] | None] = {root: None}
    heap: list[tuple[int, int, int, Key]] = [(0, 0, 0, root)]
    queue: deque[tuple[int, int, int, Key]] = deque(heap)
    push, pop = heapq.heappush, heapq.heappop
    estimate = search.estimate
    expand = search.expand
    count = 0
    while queue if not ordered else heap:
        _f, _n, depth, key = pop(heap) if ordered else queue.popleft()
        depth += 1
        for step, child, met in expand(key, macros, into_spaces):
            if child is None:
                return Outcome([*_path(parents, key), (key, step)], len(parents), False, 0)
            if child in parents:
                continue
            parents[child] = (key, step)
            if met:
                return Outcome(_path(parents, child), len(parents), False, 0)
            count += 1
            if ordered:
                push(heap, (depth + WEIGHT * estimate(child[0], child[2]), count, depth, child))
            else:
                queue.append((0, count, depth, child))
        over = len(parents) > limit or (expired is not None and count & 63 == 0 and expired())
        if over:
            return Outcome(None, len(parents), False, 0 if ordered else depth - 1)
    return Outcome(None, len(parents), True, 0)


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


def _shorten(search: Search, line: KeyedLine, final: Key | None) -> KeyedLine:
    """Cut detours out of a line: whenever one move from a position reaches a position the
    line visits later, jump there. ``final`` is the key the line ends in (None: it ends
    with a move that turns up an unknown card, which stays as it is)."""
    keys = [key for key, _step in line]
    steps = [step for _key, step in line]
    if final is not None:
        keys.append(final)
    changed = True
    while changed:
        changed = False
        index = {key: i for i, key in enumerate(keys)}
        for i in range(len(keys) - 1):
            best = None
            for step, child, _met in search.expand(keys[i], False, True):
                j = index.get(child) if child is not None else None
                if j is not None and j > i + 1 and (best is None or j > best[0]):
                    best = (j, step)
            if best is not None:
                j, step = best
                keys = keys[: i + 1] + keys[j:]
                steps = [*steps[:i], step, *steps[j:]]
                changed = True
                break
    return list(zip(keys, steps, strict=False))


def make_search(
    game: Game, goal: Goal, constraints: Constraints, keep: tuple[int, ...] = ()
) -> Search:
    """A search for ``goal``; no suit may be removed from the real piles ``keep``."""
    start = encode(game)
    deals = not constraints.no_deal and bool(start.rows) and UNKNOWN not in start.rows[0]
    pile = goal.pile if goal.kind in ("turn up", "space") and goal.pile is not None else -1
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
    )


def solve(
    game: Game,
    goal: Goal,
    constraints: Constraints = NO_CONSTRAINTS,
    clock: Clock | None = None,
    prove_by_counting: bool = True,
) -> Answer:
    """Answer a goal from the game's position over the known cards (see the module doc).

    Phase A looks for a line quickly (:func:`_quick`); phase B is the complete search of
    every reachable position, which finds a line or proves there is none. Stops with
    "unknown" after :func:`search_limit` positions, or, given a ``clock``, once the
    ``constraints.seconds`` asked for have passed; the clock also times the answer.
    ``prove_by_counting=False`` skips the counting argument, for a caller that only wants
    to know whether a line is found.
    """
    began = clock() if clock is not None else 0.0
    check_goal(goal)
    search = make_search(game, goal, constraints)
    limit = search_limit(constraints)
    budget = min(counting.BUDGET, CHOICES_PER_POSITION * limit)
    reason, pile = out_of_reach(search), -1
    if not reason and prove_by_counting:
        reason, pile = counted(search, budget)

    def seconds() -> float | None:
        return clock() - began if clock is not None else None

    if reason:
        return Answer("impossible", positions=1, seconds=seconds(), reason=reason)
    note = ""
    if pile >= 0:
        goal = replace(goal, pile=pile)
        search = make_search(game, goal, constraints)
        note = (
            f"only pile {pile + 1} can be the first to turn up a card: the counting "
            f"argument rules out the others"
        )
    expired = deadline(clock, constraints.seconds)
    found, examined = _quick(game, goal, constraints, limit, expired)
    if found is None and goal.kind == "turn up":
        found, count = _via_free(game, goal, constraints, (limit - examined) // 2, expired)
        examined += count
    if found is not None:
        real, texts, reveal = found
        return Answer("possible", real, texts, examined, seconds(), reveal=reveal, note=note)
    outcome = astar(search, False, True, limit - examined, ordered=False, expired=expired)
    examined += outcome.positions
    if outcome.line is None:
        if outcome.exhaustive:
            return Answer("impossible", positions=examined, seconds=seconds(), note=note)
        # With no "limit N", the positions follow the time asked for (see search_limit).
        if constraints.seconds and (not constraints.limit or (expired and expired())):
            reason = f"stopped within the {constraints.seconds:g} s asked for"
        elif limit >= memory.positions():
            reason = memory.reached()
        else:
            reason = f"stopped at the limit of {limit:,} positions"
        return Answer(
            "unknown",
            positions=examined,
            seconds=seconds(),
            limit=reason,
            depth=outcome.depth,
            note=note,
        )
    real, texts, reveal = _finish(game, search, outcome.line)
    return Answer("possible", real, texts, examined, seconds(), reveal=reveal, note=note)


def check_goal(goal: Goal) -> None:
    """Raise :class:`QuestionError` for a goal no position can have (a pile out of range)."""
    if goal.pile is not None and not 0 <= goal.pile < PILES:
        raise QuestionError(f"there is no pile {goal.pile + 1}")


def search_limit(constraints: Constraints) -> int:
    """The positions a search may examine: "limit N", else about as many as both phases get
    through in "within N seconds" (:data:`PER_SECOND`), else the path's default; never more
    than the memory ceiling (:func:`spider_cli.analysis.memory.positions`)."""
    compiled = native.core() is not None
    if constraints.limit:
        wanted = constraints.limit
    elif constraints.seconds:
        wanted = constraints.seconds * PER_SECOND[0 if compiled else 1]
    else:
        wanted = DEFAULT_LIMIT if compiled else DEFAULT_LIMIT_PYTHON
    return min(wanted, memory.positions())


def out_of_reach(search: Search) -> str:
    """Why the goal cannot be met whatever is played, when that shows without a search
    (else ""). Over the known cards a pile with an unknown face-down card is never emptied
    (turning that card up ends the line), and a suit with a card neither in the tableau nor
    in a known hand is never completed."""
    goal, start = search.goal, search.start
    piles = start.piles
    hidden = [any(c == FACE_DOWN for c in pile) for pile in piles]
    can_empty = sum(1 for pile, unknown in zip(piles, hidden, strict=True) if not unknown)
    keep = search.constraints.keep_spaces
    if keep > can_empty:
        return (
            f"at most {can_empty} pile{'s' if can_empty != 1 else ''} can ever be "
            f"empty (the others have unknown face-down cards), not the {keep} to keep"
        )
    if goal.kind == "turn up":
        down = [any(c >= FACE_DOWN for c in pile) for pile in piles]
        if search.pile >= 0 and not down[search.pile]:
            return f"pile {search.pile + 1} has no face-down card"
        if not any(down):
            return "no pile has a face-down card"
    if goal.kind == "space" and can_empty <= search.root_spaces:
        return "every pile that is not a space has an unknown face-down card"
    if goal.kind == "space" and search.pile >= 0:
        covered = [c for c in piles[search.pile] if c >= FACE_DOWN]
        if FACE_DOWN in covered:
            return f"pile {search.pile + 1} has an unknown face-down card"
        if covered and search.constraints.no_turn_up:
            return f"pile {search.pile + 1} has a face-down card, and 'no turn up' keeps it there"
    if goal.kind in ("remove", "free"):
        known, where = _reachable_cards(search)
        if goal.kind == "free" and not known.get(goal.card or 0):
            return f"the {card_text(goal.card or 0)} is not among the known cards{where}"
        wanted: dict[int, int] = {}
        for step in goal.steps:
            for suit in step:
                wanted[suit] = wanted.get(suit, 0) + 1
        for suit, sets in sorted(wanted.items()):
            short = [
                card_text(suit * 16 + rank)
                for rank in range(KING, 0, -1)
                if known.get(suit * 16 + rank, 0) < sets
            ]
            if short and sets == 1:
                return (
                    f"the {_join(short, 'and')} {'is' if len(short) == 1 else 'are'} not among "
                    f"the known cards{where}, so the {SUIT_NAMES[suit]} cannot be completed"
                )
            if short:
                return (
                    f"{sets} sets of {SUIT_NAMES[suit]} need {sets} of each card, and "
                    f"the known cards{where} have fewer of the {_join(short, 'and')}"
                )
    return ""


def counted_out(search: Search, budget: int = counting.BUDGET) -> str:
    """Why the counting argument (:mod:`spider_cli.analysis.counting`) rules the goal out, or ""."""
    return counted(search, budget)[0]


def counted(search: Search, budget: int = counting.BUDGET) -> tuple[str, int]:
    """What the counting argument (:mod:`spider_cli.analysis.counting`) shows before any search: why
    it rules the goal out (else ""), and for a card to turn up in any pile, the one pile
    (its real index) it leaves for the first card turned up (else -1: the goal is then the
    same as turning up a card in that pile).

    It holds only while no deal can come, and counts the goals it can: turning up a card,
    a space, and the next suit of a removal (every suit of the first step must fail). It
    gives up after ``budget`` choices."""
    goal, cons = search.goal, search.constraints
    if not search.sorted_mode or goal.kind not in ("turn up", "space", "remove"):
        return "", -1
    common = _question_terms(search)
    if goal.kind == "turn up":
        questions = [
            Question(kind="turn up", target=search.pile, spaces=cons.keep_spaces, **common)
        ]
    elif goal.kind == "space":
        first = search.pile >= 0  # a named pile must be the first new space
        if first and cons.keep_spaces > search.root_spaces + 1:
            return "", -1  # the line goes on past the first space: not what it counts
        if first and common["most_spaces"] is None:
            common["most_spaces"] = search.root_spaces + 1
        questions = [
            Question(
                kind="space",
                target=search.pile,
                spaces=max(cons.keep_spaces, search.root_spaces + 1),
                first=first,
                **common,
            )
        ]
    else:
        questions = [Question(kind="remove", suit=suit, **common) for suit in goal.steps[0]]
    if goal.kind == "turn up" and search.pile < 0:  # any pile: which piles stay open
        found = turn_up_piles(search.start.piles, questions[0], budget)
        if found is None or found[0]:
            return "", found[0][0] if found is not None and len(found[0]) == 1 else -1
        examined = found[1]
    else:
        examined = 0
        for question in questions:
            count = refute(search.start.piles, question, budget - examined)
            if count is None:
                return "", -1
            examined += count
    return (
        f"however the cards are played, the moved cards would need more cards one rank "
        f"higher and spaces to lie on than the tableau can offer (a counting argument "
        f"over {examined:,} choice{'s' if examined != 1 else ''} of the cards that never move)"
    ), -1


class _QuestionTerms(TypedDict):
    """The terms of a counting question (see :class:`Question`) that every goal shares."""

    no_turn_up: bool
    most_spaces: int | None
    others: tuple[int, ...]


def _question_terms(search: Search) -> _QuestionTerms:
    """The terms of the counting argument's question that every goal shares."""
    cons = search.constraints
    goal_suits = {suit for step in search.goal.steps for suit in step}
    return {
        "no_turn_up": cons.no_turn_up,
        "most_spaces": search.root_spaces if cons.no_new_space else None,
        "others": tuple(s for s in range(4) if s not in goal_suits | search.forbidden),
    }


def _reachable_cards(search: Search) -> tuple[dict[int, int], str]:
    """How many copies of each card a line can reach: the tableau's known cards, and the
    hand's rows that can be dealt (every card known: a deal of unknown cards ends the
    line); and " on the table" when the hand does not count."""
    reach = [c for pile in search.start.piles for c in pile if c != FACE_DOWN]
    rows = search.start.rows
    dealing = not search.constraints.no_deal and bool(rows) and UNKNOWN not in rows[0]
    if dealing:
        for row in rows:
            if UNKNOWN in row:
                break
            reach.extend(row)
    known: dict[int, int] = {}
    for c in reach:
        code = card_code(c)
        known[code] = known.get(code, 0) + 1
    return known, "" if dealing else " on the table"


def quick(
    game: Game,
    goal: Goal,
    constraints: Constraints,
    budget: int | None = None,
    each: int | None = None,
) -> Answer:
    """Phase A of :func:`solve` alone: "possible" with a line if the quick searches find
    one, else "unknown" (never "impossible": they are not exhaustive), with the positions
    examined. Each search of :data:`PORTFOLIO` gets its share of "limit N" (else of
    :data:`DEFAULT_LIMIT_PYTHON`, so that a hint is the same on both paths), at most ``each``
    positions, and all of them together at most ``budget`` (default: that limit): a short
    try finds what the same searches would find first in a longer one."""
    check_goal(goal)
    limit = constraints.limit or DEFAULT_LIMIT_PYTHON
    found, examined = _quick(
        game, goal, constraints, limit if budget is None else budget, None, scale=limit, each=each
    )
    if found is None:
        return Answer("unknown", positions=examined, limit=f"stopped at {examined:,} positions")
    real, texts, reveal = found
    return Answer("possible", real, texts, examined, reveal=reveal)


def _quick(
    game: Game,
    goal: Goal,
    constraints: Constraints,
    budget: int,
    expired: Expired | None,
    keep: tuple[int, ...] = (),
    scale: int | None = None,
    each: int | None = None,
) -> tuple[tuple[list[Action], list[str], int | None] | None, int]:
    """Phase A: the searches of :data:`PORTFOLIO`, each keeping spaces free between steps,
    each with its share of ``scale`` positions (default ``budget``) and at most ``each``,
    together at most ``budget``. A goal of several removals is tried one suit at a time first
    (:func:`_suit_by_suit`), then whole. Not exhaustive.

    Returns (real actions, notation, revealed pile) or None, and the positions examined.
    """
    search = make_search(game, goal, constraints, keep)
    if out_of_reach(search):
        return None, 0
    examined = 0
    if goal.kind == "remove" and len(goal.steps) > 1:
        found, examined = _suit_by_suit(game, goal, constraints, budget, expired)
        if found is not None:
            return found, examined
    for chaos_weight, macros, share in PORTFOLIO:
        search.chaos_weight = chaos_weight
        size = min((scale or budget) // share, budget - examined, each or budget)
        outcome = astar(search, macros, False, size, expired=expired)
        examined += outcome.positions
        if outcome.line is not None:
            return _finish(game, search, outcome.line), examined
        if examined >= budget:
            break
    return None, examined


FREE_ATTEMPTS = 2
"""Cards tried in turn as the first step of a "turn up" goal in :func:`_via_free`."""


def _via_free(
    game: Game,
    goal: Goal,
    constraints: Constraints,
    budget: int,
    expired: Expired | None = None,
) -> tuple[tuple[list[Action], list[str], int | None] | None, int]:
    """A "turn up" goal the manual's way: the pile's lowest run that has nowhere to go needs
    a card of the next rank, so first free such a card (breadth-first: the shortest line,
    keeping the spaces asked for), then dig (phase A). Freeing takes three quarters of what
    is left, digging the rest."""
    examined = 0
    for card in _cards_to_free(game, goal)[:FREE_ATTEMPTS]:
        search = make_search(game, Goal(GoalKind.FREE, card=card), constraints)
        if out_of_reach(search):
            continue
        share = (budget - examined) * 3 // 4
        outcome = astar(search, False, True, share, ordered=False, expired=expired)
        examined += outcome.positions
        if outcome.line is None:
            continue
        freed, texts, _reveal = _finish(game, search, outcome.line)
        after = game.copy()
        for action in freed:
            after.push(action)
        rest, count = _quick(after, goal, constraints, budget - examined, expired)
        examined += count
        if rest is not None:
            return (freed + rest[0], texts + rest[1], rest[2]), examined
        if examined >= budget:
            break
    return None, examined


def _cards_to_free(game: Game, goal: Goal) -> list[int]:
    """The cards a "turn up" goal could free first: going up the pile's face-up runs from
    its bottom, the first run whose next-higher rank shows nowhere else needs one; the
    covered cards of that rank in other piles, fewest cards on them first. The pile named,
    else each pile with a face-down card, fewest face-up cards first."""
    piles, down = game.piles, game.down
    if goal.pile is not None:
        order = [goal.pile]
    else:
        order = sorted((i for i in range(PILES) if down[i]), key=lambda i: len(piles[i]) - down[i])
    found: list[int] = []
    for p in order:
        for run in reversed(split_runs(piles[p][down[p] :])):
            need = (run[0] & 15) + 1
            if need > KING:
                break  # a King goes only into a space
            if any(q and q[-1] & 15 == need for i, q in enumerate(piles) if i != p):
                continue  # it can move: the next run up decides
            covered = [
                (len(q) - 1 - k, q[k])
                for i, q in enumerate(piles)
                if i != p
                for k in range(down[i], len(q) - 1)
                if q[k] & 15 == need
            ]
            for _count, card in sorted(covered):
                if card not in found:
                    found.append(card)
            break
    return found


def _suit_by_suit(
    game: Game,
    goal: Goal,
    constraints: Constraints,
    budget: int,
    expired: Expired | None,
) -> tuple[tuple[list[Action], list[str], int | None] | None, int]:
    """A "remove A then B" goal a suit at a time: a line for the first suit, then the rest
    from where it ends; when the rest cannot be found, the first suit again from another
    pile (at most :data:`HEAD_ATTEMPTS` piles). Half the budget, at most."""
    budget //= 2
    examined = 0
    later = {suit for step in goal.steps[1:] for suit in step}
    first = replace(
        constraints,
        keep_spaces=0,
        limit=None,
        seconds=None,
        no_remove=tuple(sorted(set(constraints.no_remove) | later)),
    )
    keep: tuple[int, ...] = ()
    for _attempt in range(HEAD_ATTEMPTS):
        head, count = _quick(
            game, Goal(GoalKind.REMOVE, steps=goal.steps[:1]), first, budget // 4, expired, keep
        )
        examined += count
        if head is None:
            break
        after = game.copy()
        for action in head[0]:
            after.push(action)
        tail, count = _quick(
            after,
            Goal(GoalKind.REMOVE, steps=goal.steps[1:]),
            constraints,
            budget - examined,
            expired,
        )
        examined += count
        if tail is not None:
            return (head[0] + tail[0], head[1] + tail[1], tail[2]), examined
        removals = [a.pile for a in head[0] if type(a) is Remove]
        if not removals or removals[-1] in keep or examined >= budget:
            break
        keep = (*keep, removals[-1])
    return None, examined


def _finish(
    game: Game, search: Search, line: KeyedLine
) -> tuple[list[Action], list[str], int | None]:
    """Shorten a line found by a search and turn it into real, engine-checked moves."""
    final = None
    if line:
        last_key, last_step = line[-1]
        final = next(
            (
                child
                for step, child, _met in search.expand(last_key, True, True)
                if step == last_step
            ),
            None,
        )
    line = _shorten(search, line, final)
    return replay_steps(game, search, [step for _key, step in line])


def replay_steps(
    game: Game, search: Search, steps: list[Line]
) -> tuple[list[Action], list[str], int | None]:
    """Turn canonical steps into real actions and notation, checking each with the engine."""
    work = game.copy()
    real_piles: State = search.start.piles
    actions_out: list[Action] = []
    texts: list[str] = []
    reveal = None
    dealt = 0
    for step in steps:
        order = search.order(real_piles)
        for action in step:
            if type(action) is Move:
                real: Action = Move(order[action.src], order[action.dst], action.count)
            elif type(action) is Remove:
                real = Remove(order[action.pile])
            else:
                real = DEAL
            reason = work.why_illegal(real)
            if reason:  # pragma: no cover - the solver's moves are the engine's moves
                raise AssertionError(f"solver produced an illegal move: {real} ({reason})")
            texts.append(move_text(work, real))
            if isinstance(real, Deal):
                row = search.start.rows[dealt]
                dealt += 1
                real_piles = tuple(real_piles[i] + ONE_BYTE[row[i]] for i in range(PILES))
            else:
                new, turned, outcome = apply(real_piles, real)
                if outcome == REVEAL:
                    reveal = turned + 1
                real_piles = tuple(new)
            work.push(real)
            actions_out.append(real)
    return actions_out, texts, reveal


# ---------------------------------------------------------------------------------------------
# Contingencies: the goal again, for every card a face-down card could turn out to be


@dataclass
class Contingency:
    """One move that turns up an unknown card, and the answer for each card it could be.

    ``outcomes`` holds (card, copies among the unknown cards, answer) for each distinct card.
    """

    action: Action
    text: str
    pile: int
    outcomes: list[tuple[int, int, Answer]]

    def cards(self, status: str) -> list[int]:
        return [card for card, _n, answer in self.outcomes if answer.status == status]

    def share(self, status: str) -> tuple[int, int]:
        """(copies with this answer, copies in all) among the unknown cards."""
        total = sum(n for _card, n, _answer in self.outcomes)
        return sum(n for _c, n, a in self.outcomes if a.status == status), total


DEFAULT_CARD_LIMIT = 30_000
"""Positions examined for each card in ``for each reveal`` unless a limit is given."""


def reveal_actions(game: Game, constraints: Constraints = NO_CONSTRAINTS) -> list[Action]:
    """The moves and removals available now that turn up an unknown card, one for each
    different result (moves into different spaces count once)."""
    found: dict[tuple[State, type[Move | Remove]], Move | Remove] = {}
    for action in game.legal_moves():
        if isinstance(action, Deal) or not game.unknown_reveals(action):
            continue
        if isinstance(action, Remove) and _suit_at(game, action.pile) in constraints.no_remove:
            continue
        new, _turned, _outcome = apply(encode(game).piles, action)
        found.setdefault((tuple(sorted(new)), type(action)), action)

    def order(action: Move | Remove) -> tuple[int, bool, tuple[int, ...]]:
        return action[0], isinstance(action, Remove), tuple(action)

    ordered: list[Move | Remove] = sorted(found.values(), key=order)
    return list(ordered)


def _suit_at(game: Game, pile: int) -> int:
    return game.piles[pile][-1] >> 4


def contingencies(
    game: Game, goal: Goal, constraints: Constraints = NO_CONSTRAINTS, clock: Clock | None = None
) -> tuple[Answer | None, list[Contingency]]:
    """For each move that turns up an unknown card, and each card it could be: the goal.

    The moves considered are those available now; when there are none, the shortest line
    that turns up a card is found first (returned as the first value) and its last move is
    the one considered. Each card's search stops at ``constraints.limit`` positions
    (default :data:`DEFAULT_CARD_LIMIT`); ``clock`` only times the searches.
    """
    check_goal(goal)
    if constraints.no_turn_up:
        raise QuestionError("'for each reveal' needs a card turned up: drop 'no turn up'")
    if constraints.seconds:
        raise QuestionError(
            "'for each reveal' runs one search a card: give it 'limit N' "
            "(positions a card) rather than a time"
        )
    base = game
    prefix: Answer | None = None
    moves = reveal_actions(game, constraints)
    if not moves:
        reach = replace(constraints, keep_spaces=0, no_turn_up=False)
        prefix = solve(game, Goal(GoalKind.TURN_UP), reach, clock)
        if not prefix.found or prefix.reveal is None:
            return prefix, []
        base = game.copy()
        for action in prefix.actions[:-1]:
            base.push(action)
        moves = [prefix.actions[-1]]
    per_card = replace(constraints, no_turn_up=False, limit=constraints.limit or DEFAULT_CARD_LIMIT)
    results = []
    pool = base.pool
    for action in moves:
        (pile,) = base.unknown_reveals(action)
        text = move_text(base, action)
        outcomes = []
        for card in range(64):
            if not pool[card]:
                continue
            copies = pool[card]
            work = base.copy()
            work.assume(pile, card)
            work.push(action)
            outcomes.append((card, copies, solve(work, goal, per_card, clock)))
        results.append(Contingency(action, text, pile + 1, outcomes))
    return prefix, results


def describe_cards(cards: list[int], pool: dict[int, int]) -> str:
    """Cards as a player says them: whole ranks by name ("a Jack, 4 or King"), then the
    single cards of ranks whose other suits differ ("the 9h")."""
    by_rank: dict[int, list[int]] = {}
    for card in cards:
        by_rank.setdefault(card & 15, []).append(card)
    ranks: list[str] = []
    singles: list[str] = []
    for rank in sorted(by_rank):
        every = [c for c in pool if c & 15 == rank]
        if sorted(by_rank[rank]) == sorted(every):
            ranks.append(RANK_WORDS[rank])
        else:
            singles.extend(card_text(c) for c in sorted(by_rank[rank]))
    parts = []
    if ranks:
        parts.append(("an " if ranks[0][0] in "A8" else "a ") + _join(ranks))
    if singles:
        parts.append("the " + _join(singles))
    return ", or ".join(parts)


def _join(words: list[str], last: str = "or") -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def goal_text(goal: Goal) -> str:
    """The goal in words, as typed."""
    if goal.kind == "turn up":
        return "turn up a card" + (f" in pile {goal.pile + 1}" if goal.pile is not None else "")
    if goal.kind == "space":
        return "get a space" + (f" in pile {goal.pile + 1}" if goal.pile is not None else "")
    if goal.kind == "win":
        return "win"
    if goal.kind == "free":
        return f"free the {card_text(goal.card or 0)}"
    steps = [" and ".join(SUIT_NAMES[s] for s in step) for step in goal.steps]
    return "remove the " + " then ".join(steps)


def contingency_text(goal: Goal, prefix: Answer | None, found: list[Contingency]) -> str:
    """The report of :func:`contingencies`, the manual's way: "if it's a Jack, 4 or King..."."""
    lines = []
    if prefix is not None:
        if not found:
            return "no line over the known cards turns up a card: " + prefix.summary()
        lines.append("first, to turn up a card: " + ", ".join(prefix.texts[:-1]))
    for item in found:
        _yes, total = item.share("possible")
        lines.append(
            f"{item.text} turns up a card in pile {item.pile} "
            f"({total} unknown card{'s' if total != 1 else ''} it could be):"
        )
        pool = {card: n for card, n, _a in item.outcomes}
        for status, verb in (
            ("possible", "possible"),
            ("impossible", "impossible"),
            ("unknown", "unknown (search limit)"),
        ):
            cards = item.cards(status)
            if not cards:
                continue
            count, total = item.share(status)
            lines.append(
                f"  {goal_text(goal)}: {verb} if it is {describe_cards(cards, pool)} "
                f"({count} of {total}, {100 * count / total:.0f}%)"
            )
        examples = [(c, a) for c, _n, a in item.outcomes if a.found and a.texts]
        if examples:
            card, answer = min(examples, key=lambda e: (len(e[1].texts), e[0]))
            lines.append(f"  for example, after {card_text(card)}: " + ", ".join(answer.texts))
    return "\n".join(lines)


class Report(NamedTuple):
    """What a ``solve`` question has to say: the text, the line ``apply`` plays (engine
    actions for the game asked about), and the verdict (for ``for each reveal``, possible
    when some card the turned-up card could be leads to the goal, impossible when none
    can, else unknown)."""

    text: str
    actions: list[Action]
    status: Verdict


def answer(
    game: Game,
    goal: Goal,
    constraints: Constraints = NO_CONSTRAINTS,
    each_reveal: bool = False,
    clock: Clock | None = None,
) -> Report:
    """Answer a ``solve`` question on a game; a question that cannot be asked raises
    :class:`QuestionError`.

    "win" with every card known and no constraint but the time is full-information play
    (:func:`play`; a deal not won within its limits is "unknown", never "impossible");
    everything else is the exhaustive search (:func:`solve`). Every search is bounded by
    positions; ``clock`` (None: none is read) times the answer and caps "within N seconds".
    """
    check_goal(goal)
    if each_reveal:
        prefix, found = contingencies(game, goal, constraints, clock)
        line = prefix.actions if prefix is not None and found else []
        return Report(
            contingency_text(goal, prefix, found), line, Verdict(contingency_status(prefix, found))
        )
    untimed = replace(constraints, seconds=None)
    if goal.kind == "win" and untimed == NO_CONSTRAINTS and game.unknown_count() == 0:
        result = play(
            game, play_limit(constraints.seconds), clock=clock, seconds=constraints.seconds
        )
        verdict = (
            Verdict.POSSIBLE
            if result.won
            else Verdict.IMPOSSIBLE
            if result.proved
            else Verdict.UNKNOWN
        )
        return Report(result.text(), result.actions, verdict)
    searched = solve(game, goal, constraints, clock)
    return Report(
        f"{goal_text(goal)}: {searched.text()}", searched.actions, Verdict(searched.status)
    )


def contingency_status(prefix: Answer | None, found: list[Contingency]) -> str:
    """The verdict of a ``for each reveal`` report (see :class:`Report`)."""
    if not found:
        return prefix.status if prefix is not None and not prefix.found else "unknown"
    statuses = {result.status for item in found for _c, _n, result in item.outcomes}
    if "possible" in statuses:
        return "possible"
    return "impossible" if statuses == {"impossible"} else "unknown"
