"""Search over the known cards: the manual's questions answered and proved.

The search works on the compact positions of :mod:`spider_cli.analysis.compact`, one search at a
time as :mod:`spider_cli.analysis.search.goal` defines it. Every line found is replayed through
the engine before it is reported.

* :func:`answer` answers a goal ("turn up a card [in pile N]", "get a space [in pile N]",
  "remove SUIT [then SUIT]", "free CARD", "win") under constraints ("no deal", "keep N
  spaces", "no remove SUIT", "limit N", "within N seconds", ...).
  A move that would turn up an unknown card, or deal unknown cards, ends its line there.
  Phase A looks for a line quickly: weighted A* ordered by a goal estimate, keeping a space free
  between steps and taking the manual's uses of a space (swap two runs through it, step a run aside,
  dig a card out) as single steps, and for a removal a beam over the same estimate, each search with
  a share of the limit (:data:`PORTFOLIO`); several removals go a suit at a time first
  (:func:`_suit_by_suit`), and a card to turn up may come by freeing a card first
  (:func:`_via_free`). Phase B is the complete search: breadth-first over every move with a
  transposition set of canonical positions, so "impossible" means every position reachable over the
  known cards was examined (the answer says how many there are). Its reductions keep proofs sound:
  piles are kept as a sorted multiset (pile order does not matter while no deal can follow; a pile
  the goal names is kept apart), so spaces are interchangeable and only the first is tried; a whole
  pile never moves into a space. Lines found are shortened by cutting out detours.
  :mod:`~spider_cli.analysis.solve.proofs` answers at once the questions that need no search, and
  those that the counting argument rules out; when the quick searches find no line, the same count
  made at several moments of the line (:mod:`~spider_cli.analysis.search.moments`), then before
  every first move in every order (:mod:`~spider_cli.analysis.search.firstmoves`), may still rule
  the goal out before phase B.
* :func:`quick` is phase A alone (for hints).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spider_cli.analysis import memory, native
from spider_cli.analysis.compact import ONE_BYTE, REVEAL, State, apply
from spider_cli.analysis.limits import Clock, Halt, Halted, Limit, Verdict
from spider_cli.analysis.search import (
    CHAOS_WEIGHT,
    Key,
    KeyedLine,
    Line,
    Search,
    Searched,
    Sought,
    counting,
    firstmoves,
    make_search,
    moments,
)
from spider_cli.analysis.solve.proofs import (
    Proof,
    counted,
    counted_in_every_order,
    counted_in_moments,
    out_of_reach,
)
from spider_cli.rules.cards import KING, split_runs
from spider_cli.rules.engine import DEAL, PILES, Action, Deal, Game, Move, Remove
from spider_cli.rules.errors import QuestionError
from spider_cli.rules.goals import Constraints, Goal, GoalKind
from spider_cli.rules.lines import fitted
from spider_cli.rules.text import move_text
from spider_cli.rules.values import replace

DEFAULT_LIMIT = 3_000_000
"""Positions :func:`answer` examines before it answers "unknown" on the compiled core (about
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

POSITIONS_PER_STATE = 10
"""The count in every order of first moves (:mod:`spider_cli.analysis.search.firstmoves`) gets a
state for every ten positions of the limit: 300,000 at the compiled core's default, which
problem 4's proofs need, and 30,000 at the Python path's."""

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

    status: Verdict
    actions: list[Action] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    positions: int = 0
    seconds: float | None = None
    limit: Halted | None = None  # "unknown": where the search stopped
    reveal: int | None = None
    depth: int = 0  # "unknown": no line of this many moves or fewer exists
    reason: Proof | None = None  # "impossible" by a proof: why (its words: proof_text)
    only_pile: int | None = None  # the one pile (0-based) the counting argument leaves open
    reachable: int = 0  # "impossible" by the complete search: the positions it closed

    @property
    def found(self) -> bool:
        return self.status is Verdict.POSSIBLE


# ---------------------------------------------------------------------------------------------
# Phase A and phase B


@dataclass(frozen=True)
class Member:
    """One search of phase A: its chaos weight, the manual's space techniques as single
    steps or not, its share of the positions (1/share), and for a beam its first width
    (0: weighted A*). A beam tries that width, twice it, and so on, each within
    :data:`BEAM_POSITIONS` positions a unit of width (room for a line of 20 to 30 moves),
    until its share is spent."""

    chaos_weight: int
    macros: bool
    share: int
    width: int = 0


PORTFOLIO: tuple[Member, ...] = (
    Member(0, False, 30),
    Member(CHAOS_WEIGHT, True, 5),
    Member(0, True, 5),
    Member(CHAOS_WEIGHT, False, 3, width=100),
)
"""Phase A, tried in turn before the complete search. At a limit of 300,000 the A* shares
are 10,000, 60,000 and 60,000 positions (ten times as many at the core's default); a larger
limit buys every one of them more (problem 3's clubs, after our hearts line, take the last
one 372,000). The beam (a third of the limit, for a removal a step at a time) reaches
lines A* cannot afford: problem 4's clubs from column 8 (21 moves, a beam of 800), problem
5's diamonds and clubs (20 to 30 moves through a space). Phase A's A* keeps spaces free
between steps; the beam moves into them."""

BEAM_POSITIONS = 200
"""A beam of width w stops after 200 w positions: it has then gone 20 to 30 moves deep."""

HEAD_ATTEMPTS = 3
"""Piles tried in turn for the first suit of a "remove A then B" goal in phase A."""

Found = tuple[list[Action], list[str], int | None]
"""A line found: the real actions, their notation, and the pile (1-based) its last move
turns up an unknown card in, or None."""


def astar(
    search: Search,
    macros: bool,
    into_spaces: bool,
    limit: Limit,
    ordered: bool = True,
    width: int = 0,
) -> Searched:
    """One goal search (:func:`spider_cli.analysis.search.goal.astar`) on the path
    :func:`spider_cli.analysis.native.backend` gives, within ``limit`` and never past the
    memory ceiling. Weighted A* (with ``ordered``), breadth-first, or a beam of ``width``;
    ``macros``: the manual's uses of a space as single steps; ``into_spaces`` off keeps a
    space free."""
    backend = native.backend(search.start.cards)
    limit = limit.within(min(limit.positions, memory.positions(backend.compiled)))
    root = search.root()
    if search.goal.kind is not GoalKind.TURN_UP and search.met(root[0], root[2], -1, False):
        return Searched([], 1, False, 0)
    return backend.goal_search(Sought(search, root, macros, into_spaces, ordered, limit, width))


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


def answer(
    game: Game,
    goal: Goal,
    constraints: Constraints = NO_CONSTRAINTS,
    limit: Limit | None = None,
    prove_by_counting: bool = True,
) -> Answer:
    """Answer a goal from the game's position over the known cards (see the module doc).

    Phase A looks for a line quickly (:func:`_quick`); phase B is the complete search of
    every reachable position, which finds a line or proves there is none. Stops with
    "unknown" at ``limit`` (default: :func:`search_limit` positions, no clock): its
    positions, or, when it has a clock, the ``constraints.seconds`` asked for; its clock
    also times the answer. Each proof gets its share of the same limit.
    ``prove_by_counting=False`` skips the counting argument, for a caller that only wants
    to know whether a line is found.
    """
    check_goal(goal)
    if limit is None:
        limit = Limit(search_limit(constraints))
    began = limit.now()
    played, (game, constraints) = game, _explicit(game, constraints)
    search = make_search(game, goal, constraints)
    positions = limit.positions
    proof, pile = out_of_reach(search), -1
    if proof is None and prove_by_counting:
        choices = min(counting.COUNT_LIMIT.positions, CHOICES_PER_POSITION * positions)
        proof, pile = counted(search, limit.within(choices))

    def seconds() -> float | None:
        return limit.elapsed(began)

    if proof is not None:
        return Answer(Verdict.IMPOSSIBLE, positions=1, seconds=seconds(), reason=proof)
    only = pile if pile >= 0 else None
    if pile >= 0:
        goal = replace(goal, pile=pile)
        search = make_search(game, goal, constraints)
    found, examined, closed = _phase_a(game, search, limit)
    if found is not None:
        real, texts, reveal = _carried(played, _without_detours(game, found))
        return Answer(
            Verdict.POSSIBLE, real, texts, examined, seconds(), reveal=reveal, only_pile=only
        )
    if closed is None and prove_by_counting:
        choices = min(moments.MOMENT_LIMIT.positions, CHOICES_PER_POSITION * positions)
        states = min(firstmoves.ORDER_LIMIT.positions, positions // POSITIONS_PER_STATE)
        proof = counted_in_moments(search, limit.within(choices)) or counted_in_every_order(
            search, limit.within(states)
        )
        if proof is not None:
            return Answer(
                Verdict.IMPOSSIBLE, [], [], examined, seconds(), reason=proof, only_pile=only
            )
    outcome = closed
    if outcome is None:
        left = limit.within(max(0, positions - examined))
        outcome = astar(search, False, True, left, ordered=False)
        examined += outcome.positions
    if outcome.line is None:
        if outcome.exhaustive:
            return Answer(
                Verdict.IMPOSSIBLE,
                positions=examined,
                seconds=seconds(),
                only_pile=only,
                reachable=outcome.positions,
            )
        # With no "limit N", the positions follow the time asked for (see search_limit).
        expired = limit.expired
        compiled = native.backend(search.start.cards).compiled
        held = memory.positions(compiled)
        if constraints.seconds and (not constraints.limit or (expired and expired())):
            reason = Halted(Halt.SECONDS, seconds=constraints.seconds)
        elif positions >= held:
            reason = Halted(Halt.MEMORY, held, megabytes=memory.ceiling() >> 20)
        else:
            reason = Halted(Halt.LIMIT, positions)
        return Answer(
            Verdict.UNKNOWN,
            positions=examined,
            seconds=seconds(),
            limit=reason,
            depth=outcome.depth,
            only_pile=only,
        )
    real, texts, reveal = _carried(played, _finish(game, search, outcome.line))
    return Answer(Verdict.POSSIBLE, real, texts, examined, seconds(), reveal=reveal, only_pile=only)


def _explicit(game: Game, constraints: Constraints) -> tuple[Game, Constraints]:
    """The game as the searches play it, every suit removed by a ``remove`` of the line's
    own, and the constraints with the game's rule for complete suits (under autoremove a
    line may do nothing before a complete suit comes off)."""
    work = game.copy()
    work.autoremove = False
    return work, replace(constraints, autoremove=game.autoremove)


def _carried(game: Game, found: Found) -> Found:
    """A line found over the searches' rule (:func:`_explicit`), as ``game`` plays it under
    its own (:func:`~spider_cli.rules.lines.fitted`)."""
    line = fitted(game, found[0])
    if not line.whole:  # pragma: no cover - the searches keep the game's rule
        raise AssertionError(f"a line the game cannot play: {found[1]}")
    return list(line.actions), list(line.texts), found[2]


def _phase_a(game: Game, search: Search, limit: Limit) -> tuple[Found | None, int, Searched | None]:
    """Phase A of :func:`answer` (the search's goal and constraints): the quick searches,
    and for a "turn up" goal the manual's way of freeing a card first (:func:`_via_free`).

    When the pile needs a card freed, the quick searches first get a tenth of the limit,
    freeing half of what is left, and the quick searches the rest: a card to free is the
    usual reason they fail. For a single suit to remove, the complete search looks within
    a tenth of the limit after the first quick search (it returns the outcome when that
    closes every reachable position): a small world is settled at once (problem 4's trap),
    and a short line is found shortest. Returns (line, positions examined, closed)."""
    goal, constraints = search.goal, search.constraints
    positions = limit.positions
    examined = 0
    if goal.kind is GoalKind.TURN_UP and _cards_to_free(game, goal):
        found, examined = _quick(game, goal, constraints, limit.within(positions // PROBE))
        if found is not None:
            return found, examined, None
        found, count = _via_free(game, goal, constraints, limit.within((positions - examined) // 2))
        examined += count
        if found is not None:
            return found, examined, None
        found, count = _quick(game, goal, constraints, limit.within(positions - examined))
        return found, examined + count, None
    if goal.kind is GoalKind.REMOVE and len(goal.steps) == 1:
        found, examined = _quick(game, goal, constraints, limit, members=slice(1))
        if found is not None:
            return found, examined, None
        found, probe = _probe(game, search, limit, positions // PROBE)
        examined += probe.positions
        if found is not None:
            return found, examined, None
        if probe.exhaustive:
            return None, examined, probe
        rest = slice(1, None)
        left = limit.within(positions - examined)
        found, count = _quick(game, goal, constraints, left, scale=positions, members=rest)
        return found, examined + count, None
    found, examined = _quick(game, goal, constraints, limit)
    if found is None and goal.kind is GoalKind.TURN_UP:
        found, count = _via_free(game, goal, constraints, limit.within((positions - examined) // 2))
        examined += count
    return found, examined, None


def check_goal(goal: Goal) -> None:
    """Raise :class:`QuestionError` for a goal no position can have (a pile out of range)."""
    if goal.pile is not None and not 0 <= goal.pile < PILES:
        raise QuestionError(f"there is no pile {goal.pile + 1}")


def search_limit(constraints: Constraints) -> int:
    """The positions a search may examine: "limit N", else about as many as both phases get
    through in "within N seconds" (:data:`PER_SECOND`), else the path's default; never more
    than the memory ceiling (:func:`spider_cli.analysis.memory.positions`)."""
    compiled = native.backend().compiled
    if constraints.limit:
        wanted = constraints.limit
    elif constraints.seconds:
        wanted = constraints.seconds * PER_SECOND[0 if compiled else 1]
    else:
        wanted = DEFAULT_LIMIT if compiled else DEFAULT_LIMIT_PYTHON
    return min(wanted, memory.positions(compiled))


def limit_of(constraints: Constraints, clock: Clock | None = None) -> Limit:
    """The :class:`Limit` of a ``solve`` question: :func:`search_limit` positions, and with
    a ``clock`` the seconds it asks for (the clock also times the answer)."""
    return Limit.of(search_limit(constraints), constraints.seconds, clock)


def quick(
    game: Game,
    goal: Goal,
    constraints: Constraints,
    limit: Limit | None = None,
    each: int | None = None,
) -> Answer:
    """Phase A of :func:`answer` alone: "possible" with a line if the quick searches find
    one, else "unknown" (never "impossible": they are not exhaustive), with the positions
    examined. Each search of :data:`PORTFOLIO` gets its share of "limit N" (else of
    :data:`DEFAULT_LIMIT_PYTHON`, so that a hint is the same on both paths), at most ``each``
    positions, and all of them together at most ``limit`` (default: that many positions):
    a short try finds what the same searches would find first in a longer one."""
    check_goal(goal)
    scale = constraints.limit or DEFAULT_LIMIT_PYTHON
    limit = Limit(scale) if limit is None else limit
    played, (game, constraints) = game, _explicit(game, constraints)
    found, examined = _quick(game, goal, constraints, limit, scale=scale, each=each)
    if found is None:
        return Answer(Verdict.UNKNOWN, positions=examined, limit=Halted(Halt.EXAMINED, examined))
    real, texts, reveal = _carried(played, _without_detours(game, found))
    return Answer(Verdict.POSSIBLE, real, texts, examined, reveal=reveal)


def _quick(
    game: Game,
    goal: Goal,
    constraints: Constraints,
    limit: Limit,
    keep: tuple[int, ...] = (),
    scale: int | None = None,
    each: int | None = None,
    done_at: int = 0,
    members: slice = slice(None),
) -> tuple[Found | None, int]:
    """Phase A: the searches of :data:`PORTFOLIO` (A* keeping spaces free between steps;
    the beam only for a removal; ``members``: those of them), each with its share of
    ``scale`` positions (default the limit's) and each run at most ``each``, together
    within ``limit``. A goal of several removals is tried one suit at a time first
    (:func:`_suit_by_suit`), then whole; with ``done_at``, its first ``done_at`` steps are
    the goal. Not exhaustive.

    Returns (real actions, notation, revealed pile) or None, and the positions examined.
    """
    search = make_search(game, goal, constraints, keep, done_at)
    if out_of_reach(search) is not None:
        return None, 0
    examined = 0
    budget = limit.positions
    if goal.kind is GoalKind.REMOVE and len(goal.steps) > 1 and not done_at:
        found, examined = _suit_by_suit(game, goal, constraints, limit)
        if found is not None:
            return found, examined
    # The beam removes a suit, a step at a time (the first of several, with ``done_at``).
    beam = goal.kind is GoalKind.REMOVE and (done_at > 0 or len(goal.steps) == 1)
    for member in PORTFOLIO[members]:
        if member.width and not beam:
            continue
        search.chaos_weight = member.chaos_weight
        left = min((scale or budget) // member.share, budget - examined)
        width = member.width
        while left > 0:  # A* once; a beam again twice as wide while its share lasts
            size = min(width * BEAM_POSITIONS if width else left, left, each or left)
            outcome = astar(search, member.macros, bool(width), limit.within(size), width=width)
            examined += outcome.positions
            left -= outcome.positions
            if outcome.line is not None:
                return _finish(game, search, outcome.line), examined
            width *= 2
            if not width or width > left:
                break
        if examined >= budget:
            break
    return None, examined


FREE_ATTEMPTS = 2
"""Cards tried in turn as the first step of a "turn up" goal in :func:`_via_free`."""


def _via_free(
    game: Game,
    goal: Goal,
    constraints: Constraints,
    limit: Limit,
) -> tuple[Found | None, int]:
    """A "turn up" goal the manual's way: the pile's lowest run that has nowhere to go needs
    a card of the next rank, so first free such a card (breadth-first: the shortest line,
    keeping the spaces asked for), then dig (phase A). Freeing takes three quarters of what
    is left, digging the rest."""
    examined = 0
    budget = limit.positions
    for card in _cards_to_free(game, goal)[:FREE_ATTEMPTS]:
        search = make_search(game, Goal(GoalKind.FREE, card=card), constraints)
        if out_of_reach(search) is not None:
            continue
        share = (budget - examined) * 3 // 4
        outcome = astar(search, False, True, limit.within(share), ordered=False)
        examined += outcome.positions
        if outcome.line is None:
            continue
        freed, texts, _reveal = _finish(game, search, outcome.line)
        after = game.copy()
        for action in freed:
            after.push(action)
        rest, count = _quick(after, goal, constraints, limit.within(budget - examined))
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
    limit: Limit,
) -> tuple[Found | None, int]:
    """A "remove A then B" goal a suit at a time: a line for the first suit (its search
    sees the later suits, so that it keeps them gathered), then the rest from where it
    ends; when the rest cannot be found, the first suit again from another pile (at most
    :data:`HEAD_ATTEMPTS` piles). Each first suit may take a third of the limit and each
    rest half (:func:`_rest`), all of them together half."""
    whole = limit.positions
    budget = whole // 2
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
        share = limit.within(min(whole // 3, budget - examined))
        head, count = _quick(game, goal, first, share, keep, done_at=1)
        examined += count
        if head is None or examined >= budget:
            break
        after = game.copy()
        for action in head[0]:
            after.push(action)
        rest_goal = Goal(GoalKind.REMOVE, steps=goal.steps[1:])
        tail, count = _rest(after, rest_goal, constraints, limit, budget - examined)
        examined += count
        if tail is not None:
            return (head[0] + tail[0], head[1] + tail[1], tail[2]), examined
        removals = [a.pile for a in head[0] if type(a) is Remove]
        if not removals or removals[-1] in keep or examined >= budget:
            break
        keep = (*keep, removals[-1])
    return None, examined


PROBE = 10
"""The complete search looks at the rest of a "remove A then B" goal within this share of
the limit before the quick searches do."""


def _rest(
    after: Game, goal: Goal, constraints: Constraints, limit: Limit, left: int
) -> tuple[Found | None, int]:
    """The rest of a goal of several removals, from where its first suit's line ends: the
    complete search first, within a tenth of the limit (a first suit after which the rest is
    impossible is dropped at once, and a short rest is found shortest), then phase A with
    half the limit (its shares of the whole limit), within ``left`` positions in all."""
    whole = limit.positions
    search = make_search(after, goal, constraints)
    if out_of_reach(search) is not None:
        return None, 0
    found, probe = _probe(after, search, limit, min(whole // PROBE, left))
    if found is not None:
        return found, probe.positions
    if probe.exhaustive or probe.positions >= left:
        return None, probe.positions
    share = limit.within(min(whole // 2, left - probe.positions))
    found, count = _quick(after, goal, constraints, share, scale=whole)
    return found, probe.positions + count


def _probe(game: Game, search: Search, limit: Limit, size: int) -> tuple[Found | None, Searched]:
    """The complete search within ``size`` positions: the shortest line if it finds one,
    and its outcome (exhaustive: every reachable position closed, the goal impossible)."""
    outcome = astar(search, False, True, limit.within(size), ordered=False)
    found = _finish(game, search, outcome.line) if outcome.line is not None else None
    return found, outcome


def _finish(game: Game, search: Search, line: KeyedLine) -> Found:
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


def _without_detours(game: Game, found: Found) -> Found:
    """Cut detours out of a line of real moves, as :func:`_shorten` does in its search's
    steps: whenever one action from a position of the line reaches a position the line
    visits later, jump there. A quick line is put together from searches of their own (a
    suit at a time, steps of several moves), which this sees across. Every position left
    is one the line passed through, so the line keeps every constraint it kept."""
    actions, _texts, reveal = found
    changed = True
    while changed:
        changed = False
        work = game.copy()
        later = {work.key(): 0}
        for k, action in enumerate(actions, start=1):
            work.push(action)
            later[work.key()] = k
        work = game.copy()
        for i in range(len(actions)):
            best = None
            for action in work.legal_moves():
                work.push(action)
                j = later.get(work.key(), 0)
                work.pop()
                if j > i + 1 and (best is None or j > best[0]):
                    best = (j, action)
            if best is not None:
                actions = [*actions[:i], best[1], *actions[best[0] :]]
                changed = True
                break
            work.push(actions[i])
    work = game.copy()
    texts = []
    for action in actions:
        texts.append(move_text(work, action))
        work.push(action)
    return actions, texts, reveal


def replay_steps(game: Game, search: Search, steps: list[Line]) -> Found:
    """Turn canonical steps into real actions and notation, checking each with the engine
    (the steps remove their suits themselves, whatever the game's rule)."""
    work = game.copy()
    work.autoremove = False
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
