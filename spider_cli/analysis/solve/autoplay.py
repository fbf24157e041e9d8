"""Full-information play: win a numbered deal with every card known (``spider solve
--seed``, ``spider bench``).

A beam search in the manner of KPatience's solver (spidersolver2): positions ranked by their
"chaos" (:func:`spider_cli.analysis.compact.rank_key`), a beam for each number of deals
made (:mod:`spider_cli.analysis.search.beam`), widened until it wins or its positions run out.
Then, within the same limit, a second stage for the deals the beam loses: the proof by a held
rank (:mod:`spider_cli.analysis.search.blocked`), wide beams again with ties in the ranking broken
other ways, and the complete search (``solver.astar`` toward a win over every move), which
proves a deal unwinnable when it examines every reachable position. "No win found" within
the limit is not a proof; "proved unwinnable" is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from spider_cli.analysis import memory, native
from spider_cli.analysis.compact import FACE_DOWN, ONE_BYTE, Start, apply, encode
from spider_cli.analysis.limits import PLAY_LIMIT, Limit
from spider_cli.analysis.search import (
    FOUND_FIRST,
    FOUND_LAST,
    MAX_LEVELS,
    HeldRank,
    blocked,
    detours,
    settle,
)
from spider_cli.rules.cards import UNKNOWN
from spider_cli.rules.engine import Action, Deal, Game
from spider_cli.rules.goals import Constraints, Goal, GoalKind
from spider_cli.rules.lines import fitted

WIDTHS: tuple[int, ...] = (4, 16, 64, 256, 1024, 4096)
"""The beam widths tried in turn (a wider beam gets what the narrower ones left of the
limit: at the default limit, 4096 is reached only when 1024 fails early)."""

BEAM_VERSION = 2
"""The version of full-information play's beam stage. Anyone who changes what the beam finds
(its moves, ranking, widths, levels, detours) must raise it, and :data:`SECOND_VERSION`
likewise for the second stage: ``spider bench`` keeps results under :func:`search_key`,
and a stored result of another search is then played again rather than reported as this
one's. tests/analysis/test_search_version.py fails when the results of a few deals change while
the versions stay. (Version 2 of the whole search, before the two were told apart, is the
beam of version 2 with the second stage of version 1.)"""

SECOND_VERSION = 3
"""The version of the second stage (the proof by a held rank, :data:`PORTFOLIO` and the
complete search). (1: the beam of 4096 with ties broken the other way; 2: beams of 2048 and
4096 with four and three ways of breaking ties; 3: the proof by a held rank first.)"""


PER_SECOND = 100_000
"""About the positions :func:`play` examines in a second on the Python path, and on the
compiled core (:data:`PER_SECOND_CORE`): "within N seconds" buys N times as many (at most
:data:`PLAY_LIMIT`), whether or not a clock also caps the time."""

PER_SECOND_CORE = 1_500_000


def play_limit(seconds: float | None) -> int:
    """The positions :func:`play` may examine for "within ``seconds``" (None: the default)."""
    rate = PER_SECOND_CORE if native.backend().compiled else PER_SECOND
    return PLAY_LIMIT if not seconds else min(PLAY_LIMIT, round(seconds * rate))


class Stage(Enum):
    """The part of :func:`play` that found the win, or that ended it."""

    BEAM = "beam"
    """The beam, each width in turn (:data:`WIDTHS`)."""
    PORTFOLIO = "portfolio"
    """Wide beams again, ties in the ranking broken other ways (:data:`PORTFOLIO`)."""
    COMPLETE = "complete"
    """The complete search (``solver.astar`` toward a win, best first)."""
    PROOF = "proof"
    """The proof by a held rank (:mod:`spider_cli.analysis.search.blocked`)."""


@dataclass(frozen=True)
class SearchKey:
    """What decides the results of :func:`play` within a limit, as text: the keys of its
    stored results (``spider bench --db``).

    A deal the beam wins is decided by the beam stage alone (the second stage never runs),
    so it is kept under :attr:`beam`, and read back by any search with the same beam
    stage; every other result is kept under :attr:`full`."""

    full: str
    beam: str

    def of(self, stage: Stage | None, won: bool) -> str:
        """The key a result is kept under."""
        return self.beam if won and stage is Stage.BEAM else self.full


def search_key(limit: int) -> SearchKey:
    """The keys of what :func:`play` finds within ``limit`` positions. The compiled core and
    the Python path find the same lines in the same positions (tests/analysis/test_core.py compares
    them), so the path is named only where it can matter: when the memory ceiling, which
    each path turns into positions at its own cost, would stop the complete search short of
    the limit (the beam holds its width, whatever the ceiling)."""
    widths = "-".join(map(str, WIDTHS))
    beam = f"beam version {BEAM_VERSION}, widths {widths}, {MAX_LEVELS} levels"
    full = f"{beam}, second stage version {SECOND_VERSION}"
    compiled = native.backend().compiled
    held = memory.positions(compiled)
    if held < limit:
        path = "compiled core" if compiled else "Python"
        full += f", at most {held} positions held ({path})"
    return SearchKey(full, beam)


@dataclass
class PlayResult:
    """The outcome of :func:`play`: a winning line, or none within the limits; ``proved``
    when the deal is unwinnable, ``held`` saying why: the proof by a held rank, or None (the
    complete search examined every position reachable from the deal)."""

    won: bool
    actions: list[Action]
    positions: int
    seconds: float | None  # measured only when play was given a clock
    width: int
    texts: list[str] = field(default_factory=list)
    stage: Stage = Stage.BEAM
    proved: bool = False
    ties: int = FOUND_FIRST  # how the last beam broke ties in its ranking
    held: HeldRank | None = None
    """The held rank that makes the deal unwinnable (when ``proved`` by it)."""


PLAY = Limit(PLAY_LIMIT)
"""Full-information play's limit unless it is given one: :data:`PLAY_LIMIT` positions."""


def play(
    game: Game,
    limit: Limit = PLAY,
    widths: tuple[int, ...] = WIDTHS,
    give_up: bool = False,
    second: bool = True,
) -> PlayResult:
    """Find a winning line for a game whose cards are all known (a numbered deal).

    Beam search level by level: every position of the beam is expanded, the children are ranked by
    :func:`~spider_cli.analysis.compact.rank_key`, and the best ``width`` are kept for each number
    of deals made. Each width in turn until a win or ``limit`` (its positions; memory is bounded by
    the beam: the seen-set holds only kept positions). The limit's clock (None: none is read) times
    the play, and stops it at the limit's time.

    The second stage (``second``) plays the deals the beam does not win with what it leaves
    of the limit (the widest beam often runs dry, at its last level or with no child left,
    well short of it): first the proof by a held rank (:func:`blocked.attempt`, at most
    :data:`blocked.PROOF_LIMIT` positions; a deal with no held rank costs none), which
    ends the play with the deal ``proved`` unwinnable when it holds; then the beams of
    :data:`PORTFOLIO` break ties other ways, then the
    complete search (:func:`_complete`) gets what they leave; when it examines every
    reachable position, the result is ``proved`` unwinnable.
    With ``give_up`` (a quick check, no second stage), a wider beam is not begun when it
    could not run its course in what is left (:func:`hopeless`): a deal not won then costs
    less, and a few deals won late are not won. A card unknown is the caller's bug.
    """
    start = encode(game)
    if any(c == FACE_DOWN for p in start.piles for c in p) or any(
        UNKNOWN in row for row in start.rows
    ):
        raise ValueError("full-information play needs every card known (a numbered deal)")
    began = limit.now()
    backend = native.backend(start.cards)
    expired = limit.expired
    positions = 0
    width = widths[0]
    ties = FOUND_FIRST
    found = None
    count = 0
    stage = Stage.BEAM
    proved = False

    second = second and not give_up  # (a quick check has no second stage)

    def over() -> bool:
        return positions >= limit.positions or (expired is not None and expired())

    for width in widths:
        if give_up and hopeless(count, limit.positions - positions):
            break
        found, count = backend.beam(start, width, limit.within(limit.positions - positions))
        positions += count
        if found is not None or over():
            break
    if found is None and second and not over():
        left = min(blocked.PROOF_LIMIT, limit.positions - positions)
        proof, count = blocked.attempt(start, left, expired)
        positions += count
        if proof is not None:
            took = limit.elapsed(began)
            return PlayResult(False, [], positions, took, width, [], Stage.PROOF, True, ties, proof)
    if found is None and second and not over():
        stage = Stage.PORTFOLIO
        for beam_width, beam_ties in PORTFOLIO:
            left = limit.positions - positions
            if left < SHORTEST_WIN * beam_width:
                continue  # it could not reach a win
            width, ties = beam_width, beam_ties
            found, count = backend.beam(start, width, limit.within(left), ties)
            positions += count
            if found is not None or over():
                break
    if found is None and second and not over():
        stage = Stage.COMPLETE
        found, count, proved = _complete(game, start, limit.within(limit.positions - positions))
        positions += count
    took = limit.elapsed(began)
    if found is None:
        return PlayResult(False, [], positions, took, width, [], stage, proved, ties)
    line, texts = _as_played(game, detours.clean(start, found))
    return PlayResult(True, line, positions, took, width, texts, stage, False, ties)


SHORTEST_WIN = 100
"""A win takes at least about this many moves (100 to 300), and each level of a full beam
examines at least its width in positions: a beam of the portfolio is begun only with this
many times its width left (a beam overshoots its budget by up to a level)."""

PORTFOLIO: tuple[tuple[int, int], ...] = (
    (2048, FOUND_LAST),
    (2048, 2),
    (2048, 3),
    (2048, 4),
    (4096, FOUND_LAST),
    (4096, 2),
    (4096, 3),
)
"""The second stage's beams, (width, ties) in turn: the beam again with ties in its ranking
broken other ways (:func:`spider_cli.analysis.search.beam.tie`), the narrower first, as each of
them wins deals the others lose. Of the 25 deals of PySolFC's 1-8800 that the beam did not
win within 20,000,000 positions, the beam of 4096 with ties broken the other way (version
1) won 7 in what the beam left, these 10 (BENCHMARKS.md)."""


def _complete(game: Game, start: Start, limit: Limit) -> tuple[list[Action] | None, int, bool]:
    """The complete search toward a win from the deal (``solver.astar``, best first, every
    move, within ``limit`` and the memory ceiling, on the path ``native.backend`` gives): a
    winning line (its complete suits removed at the end), or None; the positions examined;
    whether every reachable position was examined (the deal is then unwinnable)."""
    from spider_cli.analysis.search import make_search
    from spider_cli.analysis.solve import solver  # (loaded with the first complete search)

    search = make_search(game, Goal(GoalKind.WIN), Constraints())
    outcome = solver.astar(search, False, True, limit, ordered=True)
    if outcome.line is None:
        return None, outcome.positions, outcome.exhaustive
    # In the search's own order of piles (sorted when no deal can follow): made real here.
    line, _texts, _reveal = solver.replay_steps(game, search, [step for _key, step in outcome.line])
    piles = list(start.piles)
    dealt = 0
    for action in line:
        if isinstance(action, Deal):
            piles = [p + ONE_BYTE[c] for p, c in zip(piles, start.rows[dealt], strict=True)]
            dealt += 1
        else:
            piles = apply(tuple(piles), action)[0]
    _piles, removals = settle(piles)  # the suits the search left complete in the tableau
    return [*line, *removals], outcome.positions, False


GIVE_UP_GROWTH = 2
"""A beam four times as wide costs about four times as many positions to run its course as
the narrower one that ran its course without a win; :func:`hopeless` asks for only twice as
many, to keep the deals won by a wider beam that ends sooner (none of our 4-suit deals
200-399 is lost by it: BENCHMARKS.md)."""


def hopeless(last: int, left: int) -> bool:
    """Whether the next, wider beam could not run its course in ``left`` positions, the
    last one having run its course in ``last`` (0: none ran yet)."""
    return last * GIVE_UP_GROWTH > left


def _as_played(game: Game, line: list[Action]) -> tuple[list[Action], list[str]]:
    """A winning line of the searches' (they remove their suits themselves) as ``game``
    plays it under its own rule for complete suits, in notation, checked by the engine."""
    carried = fitted(game, line)
    work = game.copy()
    for action in carried.actions:
        work.push(action)
    if not carried.whole or not work.is_won():  # pragma: no cover
        raise AssertionError(f"full-information play's line does not win: {carried.texts}")
    return list(carried.actions), list(carried.texts)
