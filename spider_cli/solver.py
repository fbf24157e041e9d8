"""Search over the known cards: the manual's questions answered and proved, contingencies,
and full-information play of numbered deals.

The search works on compact positions, not on :class:`~spider_cli.engine.Game` objects: a
position is a tuple of ten ``bytes``, one per pile from its top to its bottom, each card its
code (:mod:`spider_cli.cards`) plus :data:`FACE_DOWN` when it lies face down (an unknown
face-down card is ``FACE_DOWN`` alone). Bytes hash once and slice in C, so a child position
costs a few microseconds. Every line found is replayed through the engine before it is
reported, so a line the engine would refuse can never be printed.

Two searches:

* :func:`solve` answers a goal ("turn up a card [in pile N]", "get a space", "remove SUIT
  [then SUIT]", "win") under constraints ("no deal", "keep N spaces", "no remove SUIT", ...).
  A move that would turn up an unknown card, or deal unknown cards, ends its line there.
  Phase A looks for a line quickly: weighted A* ordered by a goal estimate, keeping a space
  free between steps and taking the manual's uses of a space (swap two runs through it, step
  a run aside, dig a card out) as single steps. Phase B is the complete search: breadth-
  first over every move with a transposition set of canonical positions, so "impossible" means
  every position reachable over the known cards was examined. Its reductions keep proofs
  sound: piles are kept as a sorted multiset (pile order does not matter while no deal can
  follow; a pile the goal names is kept apart), so spaces are interchangeable and only the
  first is tried; a whole pile never moves into a space (the multiset would not change).
  Lines found are shortened by cutting out detours.
* :func:`play` wins numbered deals with every card known (``spider solve --seed``): a beam
  search in the manner of KPatience's solver, states ranked by a "chaos" score, a beam for
  each number of deals made, widened until it wins or the time runs out.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from spider_cli.cards import ACE, KING, RANK_WORDS, SUIT_NAMES, UNKNOWN, card_text
from spider_cli.commands import Constraints, Goal, Solve
from spider_cli.engine import DEAL, PILES, Action, Deal, Game, Move, Remove
from spider_cli.notation import move_text

FACE_DOWN = 64
"""Added to a card's code when it lies face down; ``FACE_DOWN`` alone is an unknown card."""

DEFAULT_LIMIT = 300_000
"""Positions :func:`solve` examines before it answers "unknown" (about 10 s and 150 MB);
"limit N" in the command raises it."""

NO_CONSTRAINTS = Constraints()

Pile = bytes
State = tuple[bytes, ...]

_BYTE = [bytes((i,)) for i in range(256)]
_RUNS: dict[bytes, int] = {}


def run_length(pile: bytes) -> int:
    """How many cards at the bottom of a non-empty pile form a movable same-suit run.

    Face-down cards (code + 64) never continue a run, so the run stops at them.
    """
    r = _RUNS.get(pile)
    if r is None:
        j = len(pile) - 2
        while j >= 0 and pile[j] == pile[j + 1] + 1:
            j -= 1
        r = len(pile) - 1 - j
        if len(_RUNS) > 400_000:
            _RUNS.clear()
        _RUNS[pile] = r
    return r


# ---------------------------------------------------------------------------------------------
# From a game to compact positions


@dataclass(frozen=True)
class Start:
    """A game seen by the solver: its piles, its hand in rows of ten, its removed suits.

    ``rows`` lists the hand in dealing order; 0 stands for an unknown card.
    """

    piles: State
    rows: tuple[tuple[int, ...], ...]
    removed: tuple[int, ...]


def player_view(game: Game) -> Game:
    """The game as its player sees it: every face-down card and the hand unknown.

    A numbered deal knows all its cards, but a person playing it does not, so hints and
    ``solve`` on such a game must not use them. The view has no history.
    """
    piles = [[UNKNOWN] * game.down[i] + pile[game.down[i] :] for i, pile in enumerate(game.piles)]
    return Game(piles, game.down, [UNKNOWN] * len(game.stock), game.removed, game.suits)


def encode(game: Game) -> Start:
    """The game as the solver sees it; pending ``assume`` decisions count as known cards,
    in the order their pile will turn them up."""
    piles = []
    for i, pile in enumerate(game.piles):
        d = game.down[i]
        down = list(pile[:d])
        assumed = list(game.assumed[i])
        k = 0
        for j in range(d - 1, -1, -1):
            if down[j] == UNKNOWN and k < len(assumed):
                down[j] = assumed[k]
                k += 1
        piles.append(bytes([c + FACE_DOWN for c in down] + pile[d:]))
    hand = game.hand
    rows = tuple(tuple(hand[k : k + 10]) for k in range(0, len(hand), 10))
    return Start(tuple(piles), rows, tuple(game.removed))


def spaces_of(piles: State) -> int:
    return sum(1 for p in piles if not p)


_COMPLETE: dict[bytes, bool] = {}


def is_complete_pile(pile: bytes) -> bool:
    """True when a pile is nothing but whole King-to-Ace suits, all face up (or is empty)."""
    done = _COMPLETE.get(pile)
    if done is None:
        done = len(pile) % 13 == 0 and all(
            pile[k] & 15 == KING and run_length(pile[: k + 13]) >= 13
            for k in range(0, len(pile), 13)
        )
        if len(_COMPLETE) > 100_000:
            _COMPLETE.clear()
        _COMPLETE[pile] = done
    return done


_COVERS: dict[tuple[bytes, int], tuple[int, ...]] = {}


def suit_covers(pile: bytes, suit: int) -> tuple[int, ...]:
    """For each rank, how many cards lie below that card of ``suit`` in the pile, not
    counting the run of its own suit directly below it (99 when the pile has none)."""
    key = (pile, suit)
    found = _COVERS.get(key)
    if found is None:
        covers = [99] * 14
        n = len(pile)
        end = n - 1
        for i in range(n - 1, -1, -1):
            c = pile[i]
            if i < n - 1 and not (c < FACE_DOWN and c == pile[i + 1] + 1):
                end = i
            code = c - FACE_DOWN if c >= FACE_DOWN else c
            if code and code >> 4 == suit:
                extra = 1 if c >= FACE_DOWN else 0
                covers[code & 15] = min(covers[code & 15], n - 1 - end + extra)
        found = tuple(covers)
        if len(_COVERS) > 400_000:
            _COVERS.clear()
        _COVERS[key] = found
    return found


def blocks(pile: bytes) -> int:
    """How many same-suit runs the face-up part of a pile is made of."""
    return pile_info(pile)[0] - sum(1 for c in pile if c >= FACE_DOWN)


# ---------------------------------------------------------------------------------------------
# Moves on compact positions


REVEAL = -1
"""Outcome of a move that turns up an unknown card: its line ends there."""


def actions(
    piles: State,
    spaces: list[int],
    whole_into_space: bool = True,
) -> Iterator[Action]:
    """The card moves and removals of a position (the deal is handled by the caller).

    ``spaces`` are the empty piles a move may go into (all of them, or just the first when
    spaces are interchangeable); ``whole_into_space=False`` drops moves of a whole pile
    (with nothing face down under it) into a space, which change nothing but pile order.
    """
    bottoms = [p[-1] & 15 if p else 0 for p in piles]
    for src in range(PILES):
        p = piles[src]
        if not p:
            continue
        length = run_length(p)
        low = bottoms[src]
        if length >= 13 and low == ACE:
            yield Remove(src)
        for dst in range(PILES):
            m = bottoms[dst] - low
            if 0 < m <= length:
                yield Move(src, dst, m)
        if spaces:
            top = length if whole_into_space or length < len(p) else length - 1
            for dst in spaces:
                for m in range(1, top + 1):
                    yield Move(src, dst, m)


def apply(piles: State, action: Move | Remove) -> tuple[list[bytes], int, int]:
    """Apply a move or removal: (new piles, the pile whose card turned up or -1, outcome).

    The outcome is 0, or :data:`REVEAL` when the move turns up an unknown card (the new
    piles then still show it face down), or for a removal the suit removed plus one.
    """
    new = list(piles)
    if type(action) is Move:
        src, dst, m = action
        p = piles[src]
        rest = p[:-m]
        new[dst] = piles[dst] + p[-m:]
        outcome = 0
    else:
        src = action.pile
        p = piles[src]
        rest = p[:-13]
        outcome = (p[-1] >> 4) + 1
    turned = -1
    if rest and rest[-1] >= FACE_DOWN:
        if rest[-1] == FACE_DOWN:
            new[src] = rest
            return new, src, REVEAL
        rest = rest[:-1] + _BYTE[rest[-1] - FACE_DOWN]
        turned = src
    new[src] = rest
    return new, turned, outcome


# ---------------------------------------------------------------------------------------------
# Answers


@dataclass
class Answer:
    """What a search found: "possible" with a line, "impossible", or "unknown" at a limit.

    ``texts`` is the line in the manual's notation; ``reveal`` is set when its last move
    turns up an unknown card (pile number, 1-based).
    """

    status: str
    actions: list[Action] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    positions: int = 0
    seconds: float = 0.0
    limit: str = ""
    reveal: int | None = None
    depth: int = 0  # "unknown": no line of this many moves or fewer exists
    reason: str = ""  # "impossible" at once: why, without a search

    @property
    def found(self) -> bool:
        return self.status == "possible"

    def summary(self) -> str:
        """One line: the verdict and the work behind it."""
        work = f"{self.positions:,} positions examined in {self.seconds:.2f} s"
        if self.status == "possible":
            moves = len(self.texts)
            return f"possible in {moves} move{'s' if moves != 1 else ''} ({work})"
        if self.status == "impossible" and self.reason:
            return f"impossible: {self.reason}"
        if self.status == "impossible":
            return (
                f"impossible: every position reachable over the known cards was examined "
                f"({work})"
            )
        shortest = ""
        if self.depth:
            shortest = (f"; no line of {self.depth} move{'s' if self.depth != 1 else ''} "
                        "or fewer exists")
        return f"unknown: {self.limit}{shortest} ({work})"

    def text(self) -> str:
        """The verdict, then the line numbered one move a line."""
        lines = [self.summary()]
        for k, move in enumerate(self.texts, start=1):
            lines.append(f"  {k:>2}. {move}")
        if self.reveal is not None:
            lines.append(f"  (the last move turns up an unknown card in pile {self.reveal})")
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Goal search

Line = tuple  # one action, or a macro: a tuple of moves made one after another

WEIGHT = 2
"""f = moves + WEIGHT * estimate: above 1 finds lines sooner, at the cost of longer ones."""

CHAOS_WEIGHT = 10
"""How much the estimate counts chaos (see :func:`rank_key`) beside the goal's own measure:
the manual's swaps through a space each make runs more natural before the goal comes nearer."""

PORTFOLIO = ((0, False, 10_000), (CHAOS_WEIGHT, True, 60_000))

HEAD_ATTEMPTS = 3
"""Piles tried in turn for the first suit of a "remove A then B" goal in phase A."""
"""Phase A, tried in turn before the complete search: (chaos weight, the manual's space
techniques as single steps, positions). Phase A keeps spaces free between steps."""


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

    def root(self) -> tuple:
        piles = tuple(self.start.piles[i] for i in self.order(self.start.piles))
        progress = (0, self.goal.steps[0]) if self.goal.steps else (0, ())
        return (piles, 0, progress)

    def advance(self, progress: tuple, suit: int) -> tuple | None:
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

    def met(self, piles: State, progress: tuple, turned: int, revealed: bool) -> bool:
        """Is the goal met by a step into ``piles`` that turned up pile ``turned`` (or -1)?"""
        kind = self.goal.kind
        if kind == "turn up":
            target = 0 if self.fixed else self.pile
            hit = turned >= 0 and (self.pile < 0 or turned == target)
        elif revealed:
            return False
        elif kind == "space":
            hit = spaces_of(piles) > self.root_spaces
        elif kind == "remove":
            hit = progress[0] >= len(self.goal.steps)
        else:  # win
            hit = all(is_complete_pile(p) for p in piles)
        return hit and spaces_of(piles) >= self.constraints.keep_spaces

    def estimate(self, piles: State, progress: tuple) -> int:
        """How far the goal looks (smaller is nearer); it only orders the search.

        Removing a suit: for each card of the suit, the fewest cards covering either copy
        (not counting the run of its own suit below it), summed, and 100 for each suit of
        later steps. A space: the fewest runs in a pile with nothing face down. Turning up a
        card: the fewest runs above a face-down card. Each plus ``chaos_weight`` times the
        chaos.
        """
        kind = self.goal.kind
        if kind == "remove":
            step, remaining = progress
            total = 0
            for suit in remaining:
                best = [99] * 14
                for pile in piles:
                    if pile:
                        best = list(map(min, best, suit_covers(pile, suit)))
                total += sum(best[1:])
            total += 100 * sum(len(later) for later in self.goal.steps[step + 1 :])
        elif kind == "space":
            total = min((blocks(p) for p in piles if p and p[0] < FACE_DOWN), default=20)
        elif kind == "turn up":
            candidates = piles[:1] if self.fixed else piles
            total = min((blocks(p) for p in candidates if p and p[0] >= FACE_DOWN), default=20)
        else:
            total = 0
        if self.chaos_weight:
            total += self.chaos_weight * rank_key(piles, 0)[0]
        return total

    def expand(self, key: tuple, macros: bool, into_spaces: bool) -> Iterator[tuple]:
        """The steps from a position: (step, child key or None, goal met).

        A child key of None is a move that turns up an unknown card and meets a "turn up"
        goal (its line ends there). With ``into_spaces`` off, no single move goes into a
        space; with ``macros`` on, the manual's techniques through a space come as steps.
        """
        piles, dealt, progress = key
        cons = self.constraints
        spaces = [i for i in range(PILES) if not piles[i]]
        # Interchangeable spaces (sorted piles): only the first is tried. Phase A keeps one
        # space free between steps, so its plain moves fill only spare spaces.
        open_spaces = spaces if into_spaces else spaces[: len(spaces) - 1]
        if self.sorted_mode:
            open_spaces = open_spaces[:1]
        steps: Iterator[Line] = (
            (a,) for a in actions(piles, open_spaces, not self.sorted_mode)
        )
        if spaces and not into_spaces and self.goal.kind == "turn up":
            steps = itertools.chain(steps, (
                (a,) for a in actions(piles, spaces[:1], False)
                if type(a) is Move and not piles[a.dst] and len(piles[a.src]) > a.count
                and piles[a.src][-a.count - 1] >= FACE_DOWN
            ))
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
                        self.keep_suits_in_pinned and action.pile < len(self.pinned)
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
            yield step, (child, dealt, child_progress), met
        if not cons.no_deal and dealt < len(self.start.rows) and not spaces:
            row = self.start.rows[dealt]
            if UNKNOWN not in row:
                child = tuple(piles[i] + _BYTE[row[i]] for i in range(PILES))
                yield (DEAL,), (child, dealt + 1, progress), self.met(child, progress, -1, False)


def space_macros(piles: State, space: int) -> Iterator[Line]:
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
            for action in actions(middle, []):
                if type(action) is not Move or action.src == space:
                    continue
                if x not in (action.src, action.dst) and action.dst != space:
                    continue
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
    """What one run of :func:`_astar` found."""

    line: list[tuple[tuple, Line]] | None  # (key before the step, step) pairs
    positions: int
    exhaustive: bool  # every reachable position was examined (rather than hitting a limit)
    depth: int  # breadth-first: no line of this many steps or fewer meets the goal


def _astar(
    search: Search, macros: bool, into_spaces: bool, limit: int, began: float,
    time_limit: float | None, ordered: bool = True,
) -> Outcome:
    """Weighted A* (f = moves + WEIGHT * estimate) over canonical positions; with
    ``ordered`` off, plain breadth-first (no estimates: faster, and shortest lines).

    Breadth-first, the goal is checked as positions are generated: when a position at depth
    d is expanded, every position of d moves or fewer has been generated, so a search cut
    off there still proves that no line of d moves or fewer exists.
    """
    root = search.root()
    parents: dict[tuple, tuple | None] = {root: None}
    if search.goal.kind != "turn up" and search.met(root[0], root[2], -1, False):
        return Outcome([], 1, False, 0)
    heap: list[tuple[int, int, int, tuple]] = [(0, 0, 0, root)]
    queue: deque[tuple[int, int, int, tuple]] = deque(heap)
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
        over = len(parents) > limit or (
            time_limit is not None and count & 63 == 0
            and time.perf_counter() - began > time_limit
        )
        if over:
            return Outcome(None, len(parents), False, 0 if ordered else depth - 1)
    return Outcome(None, len(parents), True, 0)


def _path(parents: dict[tuple, tuple | None], key: tuple) -> list[tuple[tuple, Line]]:
    """The (key before, step) pairs from the root to ``key``."""
    line: list[tuple[tuple, Line]] = []
    link = parents[key]
    while link is not None:
        parent, step = link
        line.append((parent, step))
        link = parents[parent]
    line.reverse()
    return line


def _shorten(search: Search, line: list[tuple[tuple, Line]], final: tuple | None) -> list:
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
    pile = goal.pile - 1 if goal.kind == "turn up" and goal.pile is not None else -1
    goal_suits = {s for step in goal.steps for s in step}
    forbidden = frozenset(s for s in constraints.no_remove if s not in goal_suits)
    pinned = (pile,) if pile >= 0 and not deals else keep if not deals else ()
    return Search(
        goal, constraints, start, pinned, pile, not deals, spaces_of(start.piles), forbidden,
        keep_suits_in_pinned=bool(keep) and not deals,
    )


def solve(
    game: Game,
    goal: Goal,
    constraints: Constraints = NO_CONSTRAINTS,
    time_limit: float | None = None,
) -> Answer:
    """Answer a goal from the game's position over the known cards (see the module doc).

    Phase A looks for a line quickly (:func:`_quick`); phase B is the complete search of
    every reachable position, which finds a line or proves there is none. Stops with
    "unknown" after ``constraints.limit`` positions (default :data:`DEFAULT_LIMIT`) or
    ``time_limit`` seconds.
    """
    began = time.perf_counter()
    if goal.kind == "turn up" and goal.pile is not None and not 1 <= goal.pile <= PILES:
        raise ValueError(f"there is no pile {goal.pile}")
    search = make_search(game, goal, constraints)
    reason = out_of_reach(search)
    if reason:
        return Answer("impossible", positions=1, seconds=time.perf_counter() - began,
                      reason=reason)
    limit = constraints.limit or DEFAULT_LIMIT
    found, examined = _quick(game, goal, constraints, limit, began, time_limit)
    if found is not None:
        real, texts, reveal = found
        return Answer("possible", real, texts, examined, time.perf_counter() - began,
                      reveal=reveal)
    outcome = _astar(search, False, True, limit - examined, began, time_limit, ordered=False)
    examined += outcome.positions
    seconds = time.perf_counter() - began
    if outcome.line is None:
        if outcome.exhaustive:
            return Answer("impossible", positions=examined, seconds=seconds)
        if time_limit is not None and seconds > time_limit:
            reason = f"stopped at the time limit of {time_limit:g} s"
        else:
            reason = f"stopped at the limit of {limit:,} positions"
        return Answer("unknown", positions=examined, seconds=seconds, limit=reason,
                      depth=outcome.depth)
    real, texts, reveal = _finish(game, search, outcome.line)
    return Answer("possible", real, texts, examined, time.perf_counter() - began, reveal=reveal)


def out_of_reach(search: Search) -> str:
    """Why the goal cannot be met whatever is played, when that shows without a search
    (else ""). Over the known cards a pile with an unknown face-down card is never emptied
    (turning that card up ends the line), and a suit with a card not in view is never
    completed."""
    goal, start = search.goal, search.start
    piles = start.piles
    hidden = [any(c == FACE_DOWN for c in pile) for pile in piles]
    can_empty = sum(1 for pile, unknown in zip(piles, hidden, strict=True) if not unknown)
    keep = search.constraints.keep_spaces
    if keep > can_empty:
        return (f"at most {can_empty} pile{'s' if can_empty != 1 else ''} can ever be "
                f"empty (the others have unknown face-down cards), not the {keep} to keep")
    if goal.kind == "turn up":
        down = [any(c >= FACE_DOWN for c in pile) for pile in piles]
        if search.pile >= 0 and not down[search.pile]:
            return f"pile {search.pile + 1} has no face-down card"
        if not any(down):
            return "no pile has a face-down card"
    if goal.kind == "space" and can_empty <= search.root_spaces:
        return "every pile that is not a space has an unknown face-down card"
    if goal.kind == "remove":
        known: dict[int, int] = {}
        for pile in piles:
            for c in pile:
                if c != FACE_DOWN:
                    code = c - FACE_DOWN if c > FACE_DOWN else c
                    known[code] = known.get(code, 0) + 1
        wanted: dict[int, int] = {}
        for step in goal.steps:
            for suit in step:
                wanted[suit] = wanted.get(suit, 0) + 1
        for suit, sets in sorted(wanted.items()):
            short = [card_text(suit * 16 + rank) for rank in range(KING, 0, -1)
                     if known.get(suit * 16 + rank, 0) < sets]
            if short and sets == 1:
                return (f"the {_join(short, 'and')} {'is' if len(short) == 1 else 'are'} not among "
                        f"the known cards, so the {SUIT_NAMES[suit]} cannot be completed")
            if short:
                return (f"{sets} sets of {SUIT_NAMES[suit]} need {sets} of each card, and "
                        f"the known cards have fewer of the {_join(short, 'and')}")
    return ""


def quick(
    game: Game, goal: Goal, constraints: Constraints, time_limit: float | None = None
) -> Answer | None:
    """Phase A of :func:`solve` alone: a line if the quick searches find one, else None
    (never "impossible": they are not exhaustive)."""
    began = time.perf_counter()
    if goal.kind == "turn up" and goal.pile is not None and not 1 <= goal.pile <= PILES:
        raise ValueError(f"there is no pile {goal.pile}")
    limit = constraints.limit or DEFAULT_LIMIT
    found, examined = _quick(game, goal, constraints, limit, began, time_limit)
    if found is None:
        return None
    real, texts, reveal = found
    return Answer("possible", real, texts, examined, time.perf_counter() - began, reveal=reveal)


def _quick(
    game: Game, goal: Goal, constraints: Constraints, budget: int, began: float,
    time_limit: float | None, keep: tuple[int, ...] = (),
) -> tuple[tuple[list[Action], list[str], int | None] | None, int]:
    """Phase A: the searches of :data:`PORTFOLIO`, each keeping spaces free between steps;
    a goal of several removals is also tried one suit at a time. Not exhaustive.

    Returns (real actions, notation, revealed pile) or None, and the positions examined.
    """
    search = make_search(game, goal, constraints, keep)
    if out_of_reach(search):
        return None, 0
    examined = 0
    for chaos_weight, macros, size in PORTFOLIO:
        search.chaos_weight = chaos_weight
        outcome = _astar(search, macros, False, min(size, budget - examined), began, time_limit)
        examined += outcome.positions
        if outcome.line is not None:
            return _finish(game, search, outcome.line), examined
        if examined >= budget:
            return None, examined
    if goal.kind != "remove" or len(goal.steps) < 2:
        return None, examined
    # One suit at a time: a line for the first suit, then the rest from where it ends; when
    # the rest cannot be found, the first suit again from another pile.
    later = {suit for step in goal.steps[1:] for suit in step}
    first = Constraints(
        constraints.no_deal, 0, tuple(sorted(set(constraints.no_remove) | later)),
        constraints.no_new_space, constraints.no_turn_up, None,
    )
    keep: tuple[int, ...] = ()
    for _attempt in range(HEAD_ATTEMPTS):
        head, count = _quick(game, Goal("remove", steps=goal.steps[:1]), first,
                             budget - examined, began, time_limit, keep)
        examined += count
        if head is None:
            return None, examined
        after = game.copy()
        for action in head[0]:
            after.push(action)
        tail, count = _quick(after, Goal("remove", steps=goal.steps[1:]), constraints,
                             budget - examined, began, time_limit)
        examined += count
        if tail is not None:
            return (head[0] + tail[0], head[1] + tail[1], tail[2]), examined
        removals = [a.pile for a in head[0] if type(a) is Remove]
        if not removals or removals[-1] in keep or examined >= budget:
            return None, examined
        keep = (*keep, removals[-1])
    return None, examined


def _finish(
    game: Game, search: Search, line: list[tuple[tuple, Line]]
) -> tuple[list[Action], list[str], int | None]:
    """Shorten a line found by a search and turn it into real, engine-checked moves."""
    final = None
    if line:
        last_key, last_step = line[-1]
        final = next(
            (child for step, child, _met in search.expand(last_key, True, True)
             if step == last_step), None,
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
            if type(real) is Deal:
                row = search.start.rows[dealt]
                dealt += 1
                real_piles = tuple(real_piles[i] + _BYTE[row[i]] for i in range(PILES))
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
    found: dict[tuple, Action] = {}
    for action in game.legal_moves():
        if type(action) is Deal or not game.unknown_reveals(action):
            continue
        if type(action) is Remove and _suit_at(game, action.pile) in constraints.no_remove:
            continue
        new, _turned, _outcome = apply(encode(game).piles, action)
        found.setdefault((tuple(sorted(new)), type(action)), action)
    return sorted(found.values(), key=lambda a: (a[0], type(a) is Remove, a))


def _suit_at(game: Game, pile: int) -> int:
    return game.piles[pile][-1] >> 4


def contingencies(
    game: Game, goal: Goal, constraints: Constraints = NO_CONSTRAINTS
) -> tuple[Answer | None, list[Contingency]]:
    """For each move that turns up an unknown card, and each card it could be: the goal.

    The moves considered are those available now; when there are none, the shortest line
    that turns up a card is found first (returned as the first value) and its last move is
    the one considered. Each card's search stops at ``constraints.limit`` positions
    (default :data:`DEFAULT_CARD_LIMIT`).
    """
    if constraints.no_turn_up:
        raise ValueError("'for each reveal' needs a card turned up: drop 'no turn up'")
    base = game
    prefix: Answer | None = None
    moves = reveal_actions(game, constraints)
    if not moves:
        reach = Constraints(constraints.no_deal, 0, constraints.no_remove,
                            constraints.no_new_space, False, constraints.limit)
        prefix = solve(game, Goal("turn up"), reach)
        if not prefix.found or prefix.reveal is None:
            return prefix, []
        base = game.copy()
        for action in prefix.actions[:-1]:
            base.push(action)
        moves = [prefix.actions[-1]]
    per_card = Constraints(
        constraints.no_deal, constraints.keep_spaces, constraints.no_remove,
        constraints.no_new_space, False, constraints.limit or DEFAULT_CARD_LIMIT,
    )
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
            outcomes.append((card, copies, solve(work, goal, per_card)))
        results.append(Contingency(action, text, pile + 1, outcomes))
    return prefix, results


def describe_cards(cards: list[int], pool: dict[int, int]) -> str:
    """Cards as a player says them: whole ranks by name ("a Jack, 4 or King"), then the
    single cards of ranks whose other suits differ ("the 9h")."""
    by_rank: dict[int, list[int]] = {}
    for card in cards:
        by_rank.setdefault(card & 15, []).append(card)
    ranks = []
    singles = []
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
        return "turn up a card" + (f" in pile {goal.pile}" if goal.pile else "")
    if goal.kind == "space":
        return "get a space"
    if goal.kind == "win":
        return "win"
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
        for status, verb in (("possible", "possible"), ("impossible", "impossible"),
                             ("unknown", "unknown (search limit)")):
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


def answer(game: Game, command: Solve) -> tuple[str, list[str]]:
    """Carry out a ``solve`` command on a game: the report, and the line ``apply`` plays.

    "win" with every card known and no constraint is full-information play (:func:`play`);
    everything else is the exhaustive search (:func:`solve`).
    """
    goal, constraints = command.goal, command.constraints
    if goal.kind == "turn up" and goal.pile is not None and not 1 <= goal.pile <= PILES:
        raise ValueError(f"there is no pile {goal.pile}")
    if command.each_reveal:
        prefix, found = contingencies(game, goal, constraints)
        line = prefix.texts if prefix is not None and found else []
        return contingency_text(goal, prefix, found), line
    if goal.kind == "win" and constraints == NO_CONSTRAINTS and game.unknown_count() == 0:
        result = play(game)
        return result.text(), result.texts
    result = solve(game, goal, constraints)
    return f"{goal_text(goal)}: {result.text()}", result.texts


# ---------------------------------------------------------------------------------------------
# Full-information play: beam search (KPatience's spidersolver2, in Python)


_INFO: dict[bytes, tuple[int, int, int, int]] = {}

MAX_LEVELS = 400
"""A beam gives up after this many moves (wins take 100 to 300): a wider beam comes next."""


def pile_info(pile: bytes) -> tuple[int, int, int, int]:
    """(chaos, rank of the first card, rank of the bottom card, movable run length).

    Chaos counts the face-down cards and every face-up card that does not continue the
    same-suit run of the card above it (the first face-up card always counts).
    """
    info = _INFO.get(pile)
    if info is None:
        if not pile:
            info = (0, 0, 0, 0)
        else:
            chaos = 1
            for k in range(1, len(pile)):
                if pile[k - 1] != pile[k] + 1:
                    chaos += 1
            info = (chaos, pile[0] & 15, pile[-1] & 15, run_length(pile))
        if len(_INFO) > 400_000:
            _INFO.clear()
        _INFO[pile] = info
    return info


def rank_key(piles: State, removed: int) -> tuple[int, int]:
    """How promising a position is for the beam, smaller first: (chaos, -readiness).

    Chaos is the sum over piles, less one for each pile headed by a King or whose first card
    could go onto another pile's bottom, less one for each space; readiness adds the movable
    runs, the cards removed and the spaces.
    """
    infos = [pile_info(p) for p in piles]
    bottoms = {info[2] for info in infos if info[2]}
    chaos = 0
    playable = 0
    spaces = 0
    for chaos_p, first, _bottom, run in infos:
        if not run:
            spaces += 1
            continue
        chaos += chaos_p
        playable += run
        if first == KING or first + 1 in bottoms:
            chaos -= 1
    chaos = max(0, chaos - spaces)
    return chaos, -(playable + 13 * removed + spaces)


@dataclass
class PlayResult:
    """The outcome of :func:`play`: a winning line, or none within the limits."""

    won: bool
    actions: list[Action]
    positions: int
    seconds: float
    width: int
    texts: list[str] = field(default_factory=list)

    def text(self) -> str:
        work = f"{self.positions:,} positions in {self.seconds:.2f} s, beam width {self.width}"
        if not self.won:
            return f"no win found within the limits ({work})"
        lines = [f"won in {len(self.texts)} moves ({work})"]
        lines.extend(f"  {k:>3}. {t}" for k, t in enumerate(self.texts, start=1))
        return "\n".join(lines)


def _beam_moves(piles: State, endgame: bool) -> Iterator[Move]:
    """Moves worth trying in full-information play (KPatience's pruning, not exhaustive).

    A run is split only onto a card of its own suit that makes a longer run; a run goes
    into a space only into the first one, never a whole pile, and (with the hand empty)
    never split.
    """
    bottoms = [p[-1] & 15 if p else 0 for p in piles]
    space = bottoms.index(0) if 0 in bottoms else -1
    for src in range(PILES):
        p = piles[src]
        if not p:
            continue
        length = run_length(p)
        low = bottoms[src]
        n = len(p)
        for dst in range(PILES):
            m = bottoms[dst] - low
            if 0 < m <= length:
                if m < length or (n > m and p[-m - 1] == p[-m] + 1):
                    # a split: only onto the same suit, making the run longer
                    q = piles[dst]
                    if q[-1] != p[-m] + 1 or run_length(q) + m <= length:
                        continue
                yield Move(src, dst, m)
        if space >= 0 and length < n:
            if endgame:
                yield Move(src, space, length)
            else:
                for m in range(1, length + 1):
                    yield Move(src, space, m)
        elif space >= 0 and not endgame:
            for m in range(1, length):
                yield Move(src, space, m)


def _settle(piles: list[bytes]) -> tuple[list[bytes], list[Remove]]:
    """Remove every complete suit at a pile's bottom (always right in full-information play)."""
    removals: list[Remove] = []
    again = True
    while again:
        again = False
        for i, p in enumerate(piles):
            if len(p) >= 13 and p[-1] & 15 == ACE and run_length(p) >= 13:
                new, _turned, _outcome = apply(tuple(piles), Remove(i))
                piles = new
                removals.append(Remove(i))
                again = True
    return piles, removals


def play(
    game: Game,
    time_limit: float = 10.0,
    widths: tuple[int, ...] = (4, 16, 64, 256, 1024),
    position_limit: int = 3_000_000,
    deadline: float | None = None,
) -> PlayResult:
    """Find a winning line for a game whose cards are all known (a numbered deal).

    Beam search level by level: every position of the beam is expanded, the children are
    ranked by :func:`rank_key`, and the best ``width`` are kept for each number of deals
    made. Each width in turn until a win or ``time_limit`` seconds; memory is bounded by the
    beam (the seen-set holds only kept positions). Raises ValueError if a card is unknown.
    """
    start = encode(game)
    if any(c == FACE_DOWN for p in start.piles for c in p) or any(
        UNKNOWN in row for row in start.rows
    ):
        raise ValueError("full-information play needs every card known (a numbered deal)")
    began = time.perf_counter()
    stop = deadline if deadline is not None else began + time_limit
    positions = 0
    width = widths[0]
    for width in widths:
        found, count = _beam(start, width, stop, position_limit - positions)
        positions += count
        if found is not None:
            texts = _replay_plain(game, found)
            return PlayResult(True, found, positions, time.perf_counter() - began, width, texts)
        if time.perf_counter() > stop or positions >= position_limit:
            break
    return PlayResult(False, [], positions, time.perf_counter() - began, width)


def _beam(start: Start, width: int, stop: float, budget: int) -> tuple[list[Action] | None, int]:
    """One beam search of the given width: the winning actions, or None; positions seen."""
    rows = start.rows
    piles0, removals0 = _settle(list(start.piles))
    removed0 = len(start.removed) + len(removals0)
    root_node: tuple | None = None
    for r in removals0:
        root_node = (root_node, r)
    beam = [(tuple(piles0), 0, removed0, root_node)]
    seen = {(beam[0][0], 0)}
    positions = 1
    level = 0
    while beam and level < MAX_LEVELS:
        level += 1
        children: list[tuple] = []
        level_seen: set = set()
        for piles, dealt, removed, node in beam:
            endgame = dealt >= len(rows)
            options: list[tuple[Action, list[bytes]]] = []
            for move in _beam_moves(piles, endgame):
                new, _turned, _outcome = apply(piles, move)
                options.append((move, new))
            if not endgame and all(piles):
                row = rows[dealt]
                options.append((DEAL, [piles[i] + _BYTE[row[i]] for i in range(PILES)]))
            for action, new in options:
                new, removals = _settle(new)
                child = tuple(new)
                child_dealt = dealt + (action is DEAL)
                key = (child, child_dealt)
                if key in seen or key in level_seen:
                    continue
                level_seen.add(key)
                child_removed = removed + len(removals)
                child_node = (node, action)
                for r in removals:
                    child_node = (child_node, r)
                if child_removed >= 8:
                    return _unwind(child_node), positions + len(level_seen)
                children.append(
                    (child_dealt, rank_key(child, child_removed), child, child_removed,
                     child_node)
                )
        positions += len(level_seen)
        if time.perf_counter() > stop or positions > budget:
            return None, positions
        children.sort(key=lambda c: (c[0], c[1]))
        beam = []
        kept = 0
        current = -1
        for child_dealt, _rank, child, child_removed, child_node in children:
            if child_dealt != current:
                current, kept = child_dealt, 0
            if kept < width:
                kept += 1
                beam.append((child, child_dealt, child_removed, child_node))
                seen.add((child, child_dealt))
    return None, positions


def _unwind(node: tuple | None) -> list[Action]:
    line: list[Action] = []
    while node is not None:
        node, action = node
        line.append(action)
    line.reverse()
    return line


def _replay_plain(game: Game, line: list[Action]) -> list[str]:
    """Check a line with the engine and write it in notation."""
    work = game.copy()
    texts = []
    for action in line:
        reason = work.why_illegal(action)
        if reason:  # pragma: no cover - the solver's moves are the engine's moves
            raise AssertionError(f"solver produced an illegal move: {action} ({reason})")
        texts.append(move_text(work, action))
        work.push(action)
    if not work.is_won():  # pragma: no cover
        raise AssertionError("solver's winning line does not win")
    return texts
