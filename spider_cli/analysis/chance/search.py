"""The search over what could turn up: the blind player's choices weighed on sampled deals.

A player who cannot see the face-down cards or the hand decides between a few lines (each played up
to the first card it turns up), or a deal. :func:`~spider_cli.analysis.blind.weighing.search` weighs
them on the same samples of the cards not seen yet
(:func:`~spider_cli.analysis.blind.rollouts.sample`: the chance nodes, each card that turns up and
each row dealt drawn from exactly the cards the player can count as unseen): the choice is played on
the sample, the blind player plays on for a few turns seeing only its view
(:func:`~spider_cli.analysis.blind.rollouts.rollout`), and where it stops is worth
:data:`~spider_cli.analysis.blind.rollouts.WON` for a win, 0 for a loss, else the learned value's
chance
of a win. Sequential halving spends the budget: the player's own choice is played on every sample,
the others are halved round by round, and the best of them is played instead only if it beats the
player's own by a margin of standard errors of their paired differences.

The budget is a number of sampled games, each bounded in positions, and everything is integers but
the value's logistic, so the same view gets the same choice on any machine. The search is
:mod:`spider_cli.analysis.blind.weighing`'s (the reference), or the compiled core's
(``csrc/chance.c``), which runs it step for step. :func:`~spider_cli.analysis.chance.levels.choose`
is the player at a :class:`Level` (the bench's, ``hint``'s, ``apply``'s and ``auto``'s),
:func:`estimate` its chance played out (``odds``).

Bjarnason, Fern and Tadepalli (ICAPS 2009) took blind Klondike from 13% to 35% by weighing
choices on sampled outcomes with rollouts of a fast policy; Bertsekas's rollout algorithm
is the same idea: a policy improved by simulating it after each choice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum

from spider_cli.analysis import native
from spider_cli.analysis.blind import (
    BEAM,
    MARGIN,
    SEARCHES,
    STANDARD,
    TABLE_SIZE,
    Candidate,
    Decision,
    Draw,
    Effort,
    Kind,
    Line,
    PlayerView,
    Playout,
    Policy,
    Weighed,
    Weights,
    WinModel,
    first_reveal,
    learned,
    rows_of,
    sample,
    seed_of,
    weights_for,
)
from spider_cli.analysis.compact import State
from spider_cli.analysis.intervals import wilson
from spider_cli.analysis.limits import Expired
from spider_cli.rules.engine import DEAL, PILES, Action

# ---------------------------------------------------------------------------------------------
# The player: the blind player's turn, its close choices weighed by the search


class Level(Enum):
    """How hard the player thinks: ``plain`` is the blind player's own turn, no search; the
    others weigh its choices on sampled games (:data:`LEVELS`)."""

    PLAIN = "plain"
    QUICK = "quick"
    STRONG = "strong"
    EXPERT = "expert"
    JUDGE = "judge"  # the full-information search as the judge of sampled worlds (judge.py)


PLAYER_VERSION = 2
"""Raised whenever a change makes the player move otherwise (its searches, its levels, the
rule that keeps its own choice): stored games of another version are then not read back as
this player's. (A new learned value changes the key by itself.)"""


def player_key(level: Level, budget: int, suits: int) -> str:
    """Everything that decides the player's moves in the ``suits``-suit game, as text: the
    key of its stored games (``spider bench --blind --db``): its weights (when not the
    standard ones) and learned value are hashed into it."""
    key = f"{level.value} level, {budget} positions a search, version {PLAYER_VERSION}"
    weights = weights_for(suits)
    if weights != STANDARD:  # (the key of every game stored before the weights file)
        core = weights.core()  # (without a table, as keys were before tables)
        text = repr(core if weights.table else core[:-TABLE_SIZE])
        key += f", weights {hashlib.blake2b(text.encode(), digest_size=4).hexdigest()}"
    if level is not Level.PLAIN:
        model = learned(suits)
        search = LEVELS[level] if level is not Level.JUDGE else (LEVELS[Level.QUICK], JUDGING)
        text = repr((model.bias, model.weights, search))
        key += f", value {hashlib.blake2b(text.encode(), digest_size=4).hexdigest()}"
    return key


@dataclass(frozen=True)
class Strength:
    """A level's search: sampled games a choice, the most candidates weighed, the rollouts'
    policy, and the standard errors by which another choice must beat the player's own
    (:data:`MARGIN`)."""

    trajectories: int
    candidates: int
    policy: Policy = field(default_factory=Policy)
    margin: float = MARGIN

    def effort(self, model: WinModel, weights: Weights = STANDARD) -> Effort:
        """The search's :class:`Effort` at this level with ``model``, the variant's learned
        value: a level is the same in every variant, so it builds its effort rather than
        holding one (and :func:`player_key` hashes its fields as they are)."""
        policy = replace(self.policy, weights=weights)
        return Effort(self.trajectories, policy, model, self.margin)


LEVELS = {
    Level.QUICK: Strength(64, 4, Policy(2_000, ((True, BEAM),), turns=4)),
    Level.STRONG: Strength(256, 6, Policy(2_000, ((True, BEAM),), turns=6)),
    Level.EXPERT: Strength(1_024, 8, Policy(2_000, SEARCHES, turns=8)),
}
"""Each level's search (BENCHMARKS.md, "Blind play that searches what could turn up")."""


@dataclass(frozen=True)
class Judging:
    """The judge level's search (:mod:`spider_cli.analysis.chance.judge`): worlds a turn in
    all, the caps of positions tried smallest first, the commitments judged beside the
    player's own line and the deal, the closure's bound in positions, and the standard errors
    by which another line must beat the player's own; and whether, where no line wins a
    world at any cap, the quick level decides (else the blind player's own choice). A world
    not won scores ``dense`` thousandths of the progress its search reached (0: nothing; a
    world won scores a thousand), and then the quick level decides only where every line
    scored the same; ``widths`` are the beam's in turn on a world (none: the solver's); with
    ``quick_first`` the quick level's choice, not the blind player's, is the own line that
    another must beat."""

    samples: int = 32
    caps: tuple[int, ...] = (10_000, 100_000)
    keep: int = 4
    closure: int = 2_000
    margin: float = 1.5
    fallback: bool = True  # the quick level decides where nothing is won (else the plain)
    dense: int = 0
    widths: tuple[int, ...] = ()
    quick_first: bool = False


JUDGING = Judging(
    samples=48,
    caps=(100_000,),
    keep=3,
    margin=0.5,
    dense=100,
    widths=(16,),
    quick_first=True,
)
"""The judge level's settings (docs/research/judge.md, "Third round": the quick level's choice
stands unless another line beats it on the same worlds, judged by width 16 alone within
100,000 positions, the setting that ranked lines most as blind play's outcomes did)."""


@dataclass(frozen=True)
class Judged:
    """A turn of the judge (:func:`spider_cli.analysis.chance.judge.choose`): the candidates'
    lines, each's wins and worlds judged, the one chosen, the positions examined (the judge's
    and the closure's), the cap the worlds were judged at, and each's scores summed
    (:func:`spider_cli.analysis.chance.judge.score`)."""

    lines: tuple[tuple[Action, ...], ...]
    wins: tuple[int, ...]
    counts: tuple[int, ...]
    chosen: int
    positions: int
    cap: int = 0  # the cap judged at
    scores: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pick:
    """A turn of the searching player: the blind player's own decision, the one played (the
    same, or the search's pick first among its lines, or a deal), the candidates weighed and
    what the search found of them (None: the choice was plain, with nothing to weigh), or at
    the judge level what the judge found."""

    decision: Decision
    played: Decision
    candidates: tuple[Line, ...] = ()
    weighed: Weighed | None = None
    judged: Judged | None = None  # at the judge level: what the judge found


def candidates_of(piles: State, decision: Decision, hand: int, most: int) -> list[Line]:
    """The choices the search weighs: the blind player's lines, each cut at the first card
    it turns up, its own first, each once, at most ``most``; and the deal, where a row can be
    dealt (cards in the hand, no space)."""
    lines: list[Line] = []
    for candidate in decision.candidates:
        first = first_reveal(piles, candidate.line)
        cut = candidate.line[:first] if first else candidate.line
        if cut and cut not in lines:
            lines.append(cut)
        if len(lines) == most:
            break
    if hand and all(piles) and decision.kind is Kind.LINE:
        lines.append((DEAL,))
    return lines


ODDS_GAMES = 64
"""Sampled games :func:`estimate` plays to the end (a share within about 10 points)."""

ODDS_POLICY = Policy(2_000, SEARCHES)
"""The policy :func:`estimate` plays them with: the blind player's three searches, no
look-ahead (the expert level's rollouts)."""


@dataclass(frozen=True)
class Estimate:
    """The blind player's chance from a view, played out: of ``games`` sampled games, each
    played to the end by :data:`ODDS_POLICY`, how many were won."""

    won: int
    games: int

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the share won, as fractions."""
        return wilson(self.won, self.games)


def estimate(
    view: PlayerView,
    games: int = ODDS_GAMES,
    seed: int | None = None,
    narrow: float | None = None,
    progress: Progress | None = None,
) -> Estimate:
    """Play ``games`` deals sampled from what ``view`` allows (:func:`sample`, seeded by the
    view, or by ``seed``: two views sampled with one seed are compared on deals alike) to
    the end by :data:`ODDS_POLICY` with the weights shipped for its number of suits, and
    count the wins; fewer games on the Python path (:data:`PYTHON_SHARE`).

    With ``narrow``, the games stop after a batch of :data:`BATCH` once the 95% interval of
    the share won is at most that wide (a rule on the results, never on the clock: the same
    view always plays the same games). ``progress`` is told (games played, games at most)
    after each game."""
    backend = native.backend()
    policy = replace(ODDS_POLICY, weights=weights_for(view.suits))
    if not backend.compiled:
        games = max(1, games // PYTHON_SHARE)
    piles, unseen = view.piles(), view.unseen()
    seed = seed_of(view) if seed is None else seed
    won = 0
    for k in range(games):
        known, hand = sample(piles, unseen, seed, k)
        won += backend.rollout(Playout(known, rows_of(hand), len(view.removed), policy)).won
        if progress is not None:
            progress(k + 1, games)
        if narrow is not None and (k + 1) % BATCH == 0 and k + 1 < games:
            low, high = wilson(won, k + 1)
            if high - low <= narrow:
                return Estimate(won, k + 1)
    return Estimate(won, games)


Progress = Callable[[int, int], None]
"""Told how far a count of games has gone: (played, at most)."""

BATCH = 16
"""``odds`` looks at its interval after every this many games (:func:`estimate`)."""

_LOW, _HIGH = wilson(ODDS_GAMES // 2, ODDS_GAMES)
ODDS_WIDTH = _HIGH - _LOW
"""How narrow the interval of the blind player's share must be for ``odds`` to stop before
:data:`ODDS_GAMES`: as narrow as all of them give at worst (a share of a half, about 24
points), so that stopping early is never less precise than the whole count can be. A share
near 0 or 1 is that narrow after a game or two dozen."""


PYTHON_SHARE = 8
"""On the Python path (much slower: docs/benchmarks.md) :func:`estimate` plays this many
times fewer games, so that ``odds`` answers in about the same time; its answer says how
many. (A level's search is never cut: the same level plays the same move on both paths.)"""


def weigh(
    view: PlayerView,
    decision: Decision,
    level: Level,
    expired: Expired | None = None,
    weights: Weights | None = None,
) -> Pick:
    """The blind player's ``decision`` from ``view``, its choices weighed by the chance
    search (:func:`spider_cli.analysis.blind.weighing.search`) at ``level`` (:data:`LEVELS`)
    when there are two or more; the one played comes first."""
    plain = Pick(decision, decision)
    if level is Level.PLAIN or decision.kind is not Kind.LINE or view.hand % PILES:
        return plain
    piles = view.piles()
    chosen = LEVELS[level]
    lines = candidates_of(piles, decision, view.hand, chosen.candidates)
    if len(lines) < 2:
        return plain
    draw = Draw(piles, len(view.removed), view.hand // PILES, tuple(view.unseen()), seed_of(view))
    effort = chosen.effort(learned(view.suits), weights or weights_for(view.suits))
    weighed = native.backend().chance_search(draw, lines, effort, expired)
    positions = decision.positions + weighed.positions
    line = lines[weighed.chosen]
    if weighed.chosen == 0:  # the player's own line stands, whole
        played = replace(decision, positions=positions)
    elif line == (DEAL,):
        played = Decision(Kind.DEAL, decision.mode, (), positions)
    else:
        score = next(c.score for c in decision.candidates if c.line[: len(line)] == line)
        ahead = (Candidate(line, score), *decision.candidates)
        played = replace(decision, candidates=ahead, positions=positions)
    return Pick(decision, played, tuple(lines), weighed)
