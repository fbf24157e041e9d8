"""The search over what could turn up: the blind player's choices weighed on sampled deals.

A player who cannot see the face-down cards or the hand decides between a few lines (each
played up to the first card it turns up), or a deal. :func:`search` weighs them on the same
samples of the cards not seen yet: sample *k* deals the unseen cards into the face-down
places and the hand (:func:`sample`); the candidate is played on it, then the blind player
(:mod:`~spider_cli.analysis.blindplayer`, which sees only its view: :func:`rollout` masks
the face-down cards before each of its searches) plays on for a few turns, and where it stops
is worth :data:`WON` for a win, 0 for a loss, else the learned value's chance of a win
(:class:`Value`, fitted on self-play by ``benchmarks/fit_value.py``). Sequential halving
spends the budget: every round gives each candidate still in the same new samples, then keeps
the better half (the player's own order on a tie), so weak candidates are dropped early and
the close ones get most of the games. Each card that turns up, and each row dealt, is drawn
from exactly the cards the player can count as unseen: the chance nodes of the search.

Everything is integers but the logistic of :meth:`Value.worth`, the samples come from a
generator seeded by the view, and the budget is a number of sampled games (each bounded in
positions), so the same view gets the same choice on any machine. The compiled core
(``csrc/chance.c``) runs the same search step for step; :func:`search_python` is the
reference.

Bjarnason, Fern and Tadepalli (ICAPS 2009) took blind Klondike from 13% to 35% by weighing
choices on sampled outcomes with rollouts of a fast policy; Bertsekas's rollout algorithm
is the same idea: a policy improved by simulating it after each choice.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache
from importlib import resources

from spider_cli.analysis import memory, native
from spider_cli.analysis.bench import wilson
from spider_cli.analysis.blindplayer import (
    BEAM,
    SEARCHES,
    WEIGHED,
    WEIGHTS,
    Candidate,
    Decision,
    Kind,
    Mode,
    Searches,
    decide,
    first_reveal,
    value,
)
from spider_cli.analysis.compact import FACE_DOWN, State, apply
from spider_cli.analysis.view import PlayerView
from spider_cli.rules.cards import KING
from spider_cli.rules.engine import DEAL, PILES, Action, Deal, Game, SplitMix64, shuffle

MAX_MOVES = 1_000
"""Moves a rollout may take (the table's limit, :data:`spider_cli.analysis.blind.MAX_MOVES`)."""

WON = 10_000
"""A leaf's worth when the game is won (a loss is 0; the learned value lies between)."""

Line = tuple[Action, ...]


# ---------------------------------------------------------------------------------------------
# The learned value


FEATURES = (
    "suits complete (removed, or lying face up King to Ace)",
    "cards face down",
    "spaces",
    "piles with cards, none face down",
    "face-up cards on the next higher card of their suit",
    "face-up cards on the next higher card of another suit",
    "face-up cards on a card that does not take them",
    "rows left in the hand",
    "piles with one or two cards face down",
    "the fewest cards face down in a pile that has some (0: none has)",
)
"""What :class:`Value` weighs in a position, read from what a player sees alone."""


def features(piles: State, removed: int, rows: int) -> tuple[int, ...]:
    """The :data:`FEATURES` of a position (``removed`` suits off, ``rows`` rows in the
    hand): face-down cards are only counted, never read."""
    f = [0] * len(FEATURES)
    f[0] = _done(piles, removed)
    f[7] = rows
    for pile in piles:
        if not pile:
            f[2] += 1
            continue
        down = _down(pile)
        f[1] += down
        if not down:
            f[3] += 1
        elif down <= 2:
            f[8] += 1
        if down and (not f[9] or down < f[9]):
            f[9] = down
        for upper, lower in zip(pile[down:], pile[down + 1 :], strict=False):
            if upper == lower + 1:
                f[4] += 1
            elif upper & 15 == (lower & 15) + 1:
                f[5] += 1
            else:
                f[6] += 1
    return tuple(f)


@dataclass(frozen=True)
class Value:
    """A logistic model of winning from a position's :func:`features`: the chance is
    ``1 / (1 + exp(-(bias + weights . features) / 1000))`` (weights in thousandths)."""

    bias: int
    weights: tuple[int, ...]
    made_by: str = ""

    def logit(self, f: Sequence[int]) -> int:
        return self.bias + sum(w * x for w, x in zip(self.weights, f, strict=True))

    def worth(self, f: Sequence[int]) -> int:
        """The chance of a win in ten-thousandths (0 to :data:`WON`)."""
        p = 1.0 / (1.0 + math.exp(-self.logit(f) / 1000.0))
        return math.floor(p * WON + 0.5)

    def core(self) -> tuple[int, tuple[int, ...]]:
        """The model as the compiled core takes it."""
        return self.bias, self.weights


VALUE_FILE = "value.json"
"""The fitted model, shipped in this package beside this module (what made it is inside)."""


@cache
def learned(suits: int) -> Value:
    """The value fitted for the ``suits``-suit game by ``benchmarks/fit_value.py`` (the
    file's ``made_by`` says how)."""
    data = json.loads(resources.files(__package__).joinpath(VALUE_FILE).read_text("utf-8"))
    model = data["models"][str(suits)]
    weights = tuple(int(model["weights"][name]) for name in FEATURES)
    return Value(int(model["bias"]), weights, str(data["made_by"]))


# ---------------------------------------------------------------------------------------------
# Rollouts: the blind player's game on a deal every card of which is known


@dataclass(frozen=True)
class Policy:
    """How a rollout plays: the positions each of a turn's searches examines, the searches
    (:data:`blindplayer.Searches`), and where it stops: after ``moves`` moves or ``turns``
    turns (each turn ends at a card turned up or a row dealt; 0: no limit)."""

    budget: int = 2_000
    searches: Searches = ((True, BEAM),)
    moves: int = MAX_MOVES
    turns: int = 0


@dataclass(frozen=True)
class Outcome:
    """How a rollout ended: won, suits complete (removed or lying in the tableau), suits
    removed, cards still face down and in the hand, moves played, positions examined, the
    blind player's value of the position reached (a space kept), the turns begun, whether it
    stopped lost (no line gains and no row can be dealt), the position reached (face-down
    cards known), and each turn's :func:`features` when they were asked for."""

    won: bool
    done: int
    removed: int
    down: int
    hand: int
    moves: int
    positions: int
    value: int
    turns: int
    lost: bool
    end: State
    log: tuple[tuple[int, ...], ...] | None = None

    def worth(self, model: Value) -> int:
        """What the search counts where the rollout stopped: :data:`WON`, 0 for a loss, else
        the model's chance of a win."""
        if self.won:
            return WON
        if self.lost:
            return 0
        return model.worth(features(self.end, self.removed, self.hand // PILES))


def rollout(
    piles: State, rows: Sequence[Sequence[int]], removed: int, policy: Policy, record: bool = False
) -> Outcome:
    """Play on by the blind player's policy, the deal (``piles`` with the face-down cards
    known, the hand in ``rows`` in dealing order) fully known but the player shown only its
    view. On the compiled core when it is there; each search within the memory ceiling
    (:func:`_capped`)."""
    policy = _capped(policy)
    core = native.core()
    if core is None:
        return rollout_python(piles, rows, removed, policy, record)
    found = core.blind_game(
        piles,
        rows,
        removed,
        policy.budget,
        policy.searches,
        WEIGHTS,
        policy.moves,
        policy.turns,
        record,
    )
    *counts, end, log = found
    won, done, off, down, hand, moves, positions, worth, turns, lost = counts
    return Outcome(
        bool(won),
        done,
        off,
        down,
        hand,
        moves,
        positions,
        worth,
        turns,
        bool(lost),
        tuple(end),
        tuple(log) if log is not None else None,
    )


def rollout_python(
    piles: State, rows: Sequence[Sequence[int]], removed: int, policy: Policy, record: bool = False
) -> Outcome:
    """:func:`rollout` on the Python path (the reference): the blind player's turns
    (:func:`blindplayer.decide` with the policy's searches, no card weighed), each on the
    deal with its face-down cards masked, as :func:`spider_cli.analysis.blind.play_blind`
    plays them."""
    state = list(piles)
    hand = [bytes(row) for row in rows]
    mode = Mode.KEEP
    moves = positions = turns = 0
    lost, new_turn = False, True
    log: list[tuple[int, ...]] = []
    while moves < policy.moves and _done(state, removed) < 8:
        if new_turn:
            if policy.turns and turns == policy.turns:
                break
            if record:
                log.append(features(tuple(state), removed, len(hand)))
            turns += 1
            new_turn = False
        view = tuple(_mask(pile) for pile in state)
        turn = decide(view, removed, PILES * len(hand), mode, policy.budget, (), policy.searches)
        positions += turn.positions
        mode = turn.mode
        if turn.kind is Kind.LINE:
            for action in turn.line[: policy.moves - moves]:
                assert not isinstance(action, Deal)  # (the searches make no deals)
                new, turned, outcome = apply(tuple(state), action)
                state = new
                moves += 1
                removed += outcome > 0
                if turned >= 0:
                    mode = Mode.KEEP  # a card turned up: plan afresh
                    new_turn = True
                    break
        elif turn.kind is Kind.DEAL:
            row = hand.pop(0)
            state = [pile + row[i : i + 1] for i, pile in enumerate(state)]
            moves += 1
            mode = Mode.KEEP
            new_turn = True
        else:
            lost = True
            break
    done = _done(state, removed)
    down = sum(_down(pile) for pile in state)
    worth = value(tuple(_mask(pile) for pile in state), removed, Mode.KEEP)
    return Outcome(
        done == 8,
        done,
        removed,
        down,
        PILES * len(hand),
        moves,
        positions,
        worth,
        turns,
        lost,
        tuple(state),
        tuple(log) if record else None,
    )


def _mask(pile: bytes) -> bytes:
    """The pile as a player sees it: each face-down card unknown."""
    down = _down(pile)
    return bytes([FACE_DOWN] * down) + pile[down:] if down else pile


def _down(pile: bytes) -> int:
    down = 0
    while down < len(pile) and pile[down] >= FACE_DOWN:
        down += 1
    return down


def _done(state: Sequence[bytes], removed: int) -> int:
    """Suits removed and complete King-to-Ace runs lying face up (as
    :meth:`Game.is_won <spider_cli.rules.engine.Game.is_won>` counts them)."""
    total = removed
    for pile in state:
        j = _down(pile)
        while j + 13 <= len(pile):
            if pile[j] & 15 == KING and all(pile[k] == pile[k + 1] + 1 for k in range(j, j + 12)):
                total += 1
                j += 13
            else:
                j += 1
    return total


# ---------------------------------------------------------------------------------------------
# Samples of the unseen cards


def seed_of(view: PlayerView) -> int:
    """A seed drawn from the view alone, the same for the same position on any machine (not
    Python's ``hash``, which changes from run to run)."""
    digest = hashlib.blake2b(repr(view).encode(), digest_size=8).digest()
    return int.from_bytes(digest)


def sample_seed(seed: int, k: int) -> int:
    """Sample ``k``'s seed: the first output of SplitMix64 seeded with ``seed + k``."""
    return SplitMix64(seed + k).next()


def sample(piles: State, unseen: Sequence[int], seed: int, k: int) -> tuple[State, bytes]:
    """Sample ``k`` of the deals a view allows (``piles``: its face-down cards ``FACE_DOWN``;
    ``unseen``: the cards not seen, in order of their codes): the unseen cards shuffled by
    SplitMix64 (:func:`sample_seed`) and dealt into the face-down places pile by pile from
    the bottom; the rest is the hand, in dealing order."""
    cards = shuffle(list(unseen), SplitMix64(sample_seed(seed, k)))
    known = []
    for pile in piles:
        down = _down(pile)
        known.append(bytes(card | FACE_DOWN for card in cards[:down]) + pile[down:])
        del cards[:down]
    return tuple(known), bytes(cards)


def sampled_game(view: PlayerView, seed: int, k: int) -> Game:
    """Sample ``k`` of the deals ``view`` allows (:func:`sample`), as a game every card of
    which is known."""
    known, hand = sample(view.piles(), view.unseen(), seed, k)
    piles = [[card & ~FACE_DOWN if card >= FACE_DOWN else card for card in p] for p in known]
    return Game(piles, list(view.down), list(hand), list(view.removed), view.suits)


def rows_of(hand: bytes) -> tuple[bytes, ...]:
    """The hand in rows of ten, in dealing order."""
    return tuple(hand[r : r + PILES] for r in range(0, len(hand), PILES))


# ---------------------------------------------------------------------------------------------
# The search


MARGIN = 1.0
"""Standard errors of the paired differences by which another choice must beat the
player's own before it is played instead: the best mean of a few noisy estimates is close
to a random pick (BENCHMARKS.md: the sampling player of issue 23), so the player's own
choice stands unless the samples say otherwise. At 2 the quick level hardly ever overruled
it (0 to 3 times a game); 0, 1 and the plain player were within the noise of 50 tuning
deals (9, 10 and 10 won)."""


@dataclass(frozen=True)
class Weighed:
    """What :func:`search` found: the candidate chosen, and for each candidate its worth
    summed over the samples it was played on, how many, and the sum of its differences from
    the player's own choice (the first) on the same samples and of their squares; the
    positions the rollouts examined, the sampled games played, and whether the caller's
    clock stopped it early (the player's own choice is then kept)."""

    chosen: int
    sums: tuple[int, ...]
    counts: tuple[int, ...]
    diffs: tuple[int, ...]
    squares: tuple[int, ...]
    positions: int
    trajectories: int
    stopped: bool = False

    def chance(self, candidate: int) -> float:
        """The candidate's mean worth, as a chance of a win (0 to 1)."""
        count = self.counts[candidate]
        return self.sums[candidate] / (count * WON) if count else 0.0


def search(
    piles: State,
    removed: int,
    rows: int,
    unseen: Sequence[int],
    candidates: Sequence[Line],
    seed: int,
    trajectories: int,
    policy: Policy,
    model: Value,
    expired: Callable[[], bool] | None = None,
    margin: float = MARGIN,
) -> Weighed:
    """Weigh ``candidates`` (lines from the view ``piles``, each ending at the first card it
    turns up if it turns one up, or ``(DEAL,)``; the player's own choice first) on samples of
    ``unseen`` with rollouts of ``policy`` valued by ``model`` (:func:`learned`), about
    ``trajectories`` sampled games in all. The first is played on every sample; the others
    are halved round by round (sequential halving), and the best of them is chosen only if it
    beats the first by ``margin`` standard errors of their paired differences. ``expired``
    (the user's own cap on time) is read between games. On the compiled core when it is
    there."""
    policy = _capped(policy)
    core = native.core()
    if core is None:
        return search_python(
            piles,
            removed,
            rows,
            unseen,
            candidates,
            seed,
            trajectories,
            policy,
            model,
            expired,
            margin,
        )
    chosen, sums, counts, diffs, squares, positions, played, stopped = core.chance_search(
        piles,
        removed,
        rows,
        bytes(unseen),
        [[native.code(a) for a in line] for line in candidates],
        seed & SplitMix64.MASK,
        trajectories,
        policy.budget,
        policy.searches,
        WEIGHTS,
        policy.turns,
        policy.moves,
        model.core(),
        round(margin * 100),
        expired,
    )
    return Weighed(
        chosen,
        tuple(sums),
        tuple(counts),
        tuple(diffs),
        tuple(squares),
        positions,
        played,
        stopped,
    )


def _capped(policy: Policy) -> Policy:
    """The policy with each of its searches held within the memory ceiling (a search holds
    every position it examines)."""
    most = memory.blind_positions()
    return policy if policy.budget <= most else replace(policy, budget=most)


def search_python(
    piles: State,
    removed: int,
    rows: int,
    unseen: Sequence[int],
    candidates: Sequence[Line],
    seed: int,
    trajectories: int,
    policy: Policy,
    model: Value,
    expired: Callable[[], bool] | None = None,
    margin: float = MARGIN,
) -> Weighed:
    """:func:`search` on the Python path (the reference)."""
    n = len(candidates)
    sums, counts, diffs, squares = [0] * n, [0] * n, [0] * n, [0] * n
    positions = played = 0
    alive = list(range(1, n))
    rounds = max(1, math.ceil(math.log2(len(alive)))) if len(alive) > 1 else 1
    used = 0

    def result(chosen: int, stopped: bool = False) -> Weighed:
        return Weighed(
            chosen,
            tuple(sums),
            tuple(counts),
            tuple(diffs),
            tuple(squares),
            positions,
            played,
            stopped,
        )

    for round_ in range(rounds):
        per = max(1, trajectories // ((len(alive) + 1) * rounds))
        for k in range(used, used + per):
            known, hand = sample(piles, unseen, seed, k)
            own = 0
            for c in [0, *alive]:
                outcome = _play(known, rows_of(hand), removed, candidates[c], policy)
                worth = outcome.worth(model)
                positions += outcome.positions
                sums[c] += worth
                counts[c] += 1
                played += 1
                if c:
                    diffs[c] += worth - own
                    squares[c] += (worth - own) ** 2
                else:
                    own = worth
                if expired is not None and expired():
                    return result(0, True)
        used += per
        alive.sort(key=lambda i: (-sums[i], i))
        if len(alive) > 1 and round_ < rounds - 1:
            del alive[(len(alive) + 1) // 2 :]
    if alive and _beats(diffs[alive[0]], squares[alive[0]], counts[alive[0]], margin):
        return result(alive[0])
    return result(0)


def _beats(d: int, q: int, n: int, margin: float) -> bool:
    """Whether paired differences (sum ``d``, sum of squares ``q``, over ``n`` samples) put
    a candidate ahead of the player's own by more than ``margin`` standard errors:
    d > 0 and d² (n - 1) > margin² (n q - d²), in floats in this order (as the core)."""
    if d <= 0 or n < 2:
        return False
    dd = float(d) * float(d)
    return dd * float(n - 1) > margin * margin * (float(n) * float(q) - dd)


def _play(
    known: State, hand: tuple[bytes, ...], removed: int, line: Line, policy: Policy
) -> Outcome:
    """One sampled game: the candidate played on the sample, then a rollout."""
    state = known
    if line == (DEAL,):
        state = tuple(pile + hand[0][i : i + 1] for i, pile in enumerate(state))
        hand = hand[1:]
    else:
        for action in line:
            assert not isinstance(action, Deal)  # (a deal is a candidate alone)
            new, _turned, outcome = apply(state, action)
            state = tuple(new)
            removed += outcome > 0
    return rollout(state, hand, removed, policy)


# ---------------------------------------------------------------------------------------------
# The player: the blind player's turn, its close choices weighed by the search


class Level(Enum):
    """How hard the player thinks: ``plain`` is the blind player's own turn, no search; the
    others weigh its choices on sampled games (:data:`LEVELS`)."""

    PLAIN = "plain"
    QUICK = "quick"
    STRONG = "strong"
    EXPERT = "expert"


PLAYER_VERSION = 2
"""Raised whenever a change makes the player move otherwise (its searches, its levels, the
rule that keeps its own choice): stored games of another version are then not read back as
this player's. (A new learned value changes the key by itself.)"""


def player_key(level: Level, budget: int, suits: int) -> str:
    """Everything that decides the player's moves in the ``suits``-suit game, as text: the
    key of its stored games (``spider bench --blind --db``)."""
    key = f"{level.value} level, {budget} positions a search, version {PLAYER_VERSION}"
    if level is not Level.PLAIN:
        model = learned(suits)
        text = repr((model.bias, model.weights, LEVELS[level]))
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


LEVELS = {
    Level.QUICK: Strength(64, 4, Policy(2_000, ((True, BEAM),), turns=4)),
    Level.STRONG: Strength(256, 6, Policy(2_000, ((True, BEAM),), turns=6)),
    Level.EXPERT: Strength(1_024, 8, Policy(2_000, SEARCHES, turns=8)),
}
"""Each level's search (BENCHMARKS.md, "Blind play that searches what could turn up")."""


@dataclass(frozen=True)
class Choice:
    """A turn of the searching player: the blind player's own decision, the one played (the
    same, or the search's pick first among its lines, or a deal), the candidates weighed and
    what the search found of them (None: the choice was plain, with nothing to weigh)."""

    decision: Decision
    played: Decision
    candidates: tuple[Line, ...] = ()
    weighed: Weighed | None = None


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


def estimate(view: PlayerView, games: int = ODDS_GAMES) -> Estimate:
    """Play ``games`` deals sampled from what ``view`` allows (:func:`sample`, seeded by the
    view) to the end by :data:`ODDS_POLICY`, and count the wins; fewer games on the Python
    path (:data:`PYTHON_SHARE`)."""
    if native.core() is None:
        games = max(1, games // PYTHON_SHARE)
    piles, unseen, seed = view.piles(), view.unseen(), seed_of(view)
    won = 0
    for k in range(games):
        known, hand = sample(piles, unseen, seed, k)
        won += rollout(known, rows_of(hand), len(view.removed), ODDS_POLICY).won
    return Estimate(won, games)


PYTHON_SHARE = 8
"""On the Python path (about 30 times slower) a level plays this many times fewer sampled
games a choice, so that it answers in about the same time; :func:`strength` says so."""


def strength(level: Level) -> Strength:
    """The search of ``level`` on the path in use: :data:`LEVELS`, with a share of its
    sampled games on the Python path (:data:`PYTHON_SHARE`)."""
    full = LEVELS[level]
    if native.core() is not None:
        return full
    return replace(full, trajectories=max(full.candidates, full.trajectories // PYTHON_SHARE))


def choose(
    view: PlayerView,
    mode: Mode,
    budget: int,
    level: Level,
    expired: Callable[[], bool] | None = None,
) -> Choice:
    """The blind player's turn from ``view`` (:func:`blindplayer.decide`), its choices then
    weighed by :func:`weigh` at ``level``; the positions counted include the search's."""
    piles = view.piles()
    unseen = view.unseen() if WEIGHED[view.suits] else ()
    decision = decide(piles, len(view.removed), view.hand, mode, budget, unseen)
    return weigh(view, decision, level, expired)


def weigh(
    view: PlayerView,
    decision: Decision,
    level: Level,
    expired: Callable[[], bool] | None = None,
) -> Choice:
    """The blind player's ``decision`` from ``view``, its choices weighed by :func:`search`
    at ``level`` (:func:`strength`) when there are two or more; the one played comes first."""
    plain = Choice(decision, decision)
    if level is Level.PLAIN or decision.kind is not Kind.LINE or view.hand % PILES:
        return plain
    piles = view.piles()
    chosen = strength(level)
    lines = candidates_of(piles, decision, view.hand, chosen.candidates)
    if len(lines) < 2:
        return plain
    weighed = search(
        piles,
        len(view.removed),
        view.hand // PILES,
        view.unseen(),
        lines,
        seed_of(view),
        chosen.trajectories,
        chosen.policy,
        learned(view.suits),
        expired,
        chosen.margin,
    )
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
    return Choice(decision, played, tuple(lines), weighed)
