"""The search over what could turn up, on the Python path (the reference of
csrc/chance.c): candidate lines weighed on the same samples of the cards not seen yet, each
played on by rollouts, with sequential halving (see :mod:`spider_cli.analysis.chance.search`,
the player that uses it)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from spider_cli.analysis.blind.rollouts import (
    WON,
    Outcome,
    Playout,
    Policy,
    WinModel,
    rows_of,
    sample,
)
from spider_cli.analysis.compact import State, apply
from spider_cli.analysis.limits import Expired
from spider_cli.rules.engine import DEAL, Action, Deal

Line = tuple[Action, ...]
"""A choice the search weighs: moves up to and with the first card they turn up, or the deal."""


class Rollout(Protocol):
    """A sampled game played on (:func:`spider_cli.analysis.blind.rollouts.rollout`, or the
    compiled core's, as :func:`spider_cli.analysis.native.backend` gives it)."""

    def __call__(self, playout: Playout) -> Outcome: ...


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

    @classmethod
    def of(
        cls,
        chosen: int,
        tallies: Sequence[Sequence[int]],
        positions: int,
        trajectories: int,
        stopped: bool = False,
    ) -> Weighed:
        """From the tallies as either path keeps them while it weighs (the sums, counts,
        diffs and squares, in that order)."""
        sums, counts, diffs, squares = (tuple(tally) for tally in tallies)
        return cls(chosen, sums, counts, diffs, squares, positions, trajectories, stopped)

    @property
    def deals(self) -> int:
        """The sampled deals the choices were played on: the player's own choice is played
        on every one (``trajectories`` counts the games, every choice's on each deal, and
        is the effort's, rounded down to whole rounds)."""
        return self.counts[0] if self.counts else 0

    def chance(self, candidate: int) -> float:
        """The candidate's mean worth, as a chance of a win (0 to 1)."""
        count = self.counts[candidate]
        return self.sums[candidate] / (count * WON) if count else 0.0


@dataclass(frozen=True)
class Draw:
    """What the search's samples are drawn from: the view's ``piles`` (each face-down card
    ``FACE_DOWN``), the suits ``removed``, the ``rows`` left in the hand, the ``unseen``
    cards (in order of their codes, as :func:`~spider_cli.analysis.blind.rollouts.sample` takes
    them) and the ``seed`` of the samples (the same view, the same samples)."""

    piles: State
    removed: int
    rows: int
    unseen: tuple[int, ...]
    seed: int


@dataclass(frozen=True)
class Effort:
    """How hard the search works: about ``trajectories`` sampled games in all, each played
    on by rollouts of ``policy`` and valued where it stops by ``model`` (the variant's
    :func:`~spider_cli.analysis.blind.rollouts.learned` value); another choice is played only if
    it beats the player's own by ``margin`` standard errors (:data:`MARGIN`)."""

    trajectories: int
    policy: Policy
    model: WinModel
    margin: float = MARGIN


def search(
    rollout: Rollout,
    draw: Draw,
    candidates: Sequence[Line],
    effort: Effort,
    expired: Expired | None = None,
) -> Weighed:
    """Weigh ``candidates`` (lines from the view ``draw.piles``, each ending at the first
    card it turns up if it turns one up, or ``(DEAL,)``; the player's own choice first) on
    samples of ``draw``, each played on by a ``rollout`` of ``effort.policy`` valued by
    ``effort.model``, about ``effort.trajectories`` sampled games in all. The first is played
    on every sample; the others are halved round by round (sequential halving), and the best
    of them is chosen only if it beats the first by ``effort.margin`` standard errors of
    their paired differences. ``expired`` (the user's own cap on time) is read between
    games. The Python path (the reference of csrc/chance.c)."""
    n = len(candidates)
    sums, counts, diffs, squares = [0] * n, [0] * n, [0] * n, [0] * n
    positions = played = 0
    alive = list(range(1, n))
    rounds = max(1, math.ceil(math.log2(len(alive)))) if len(alive) > 1 else 1
    used = 0

    def result(chosen: int, stopped: bool = False) -> Weighed:
        return Weighed.of(chosen, (sums, counts, diffs, squares), positions, played, stopped)

    for round_ in range(rounds):
        per = max(1, effort.trajectories // ((len(alive) + 1) * rounds))
        for k in range(used, used + per):
            known, hand = sample(draw.piles, draw.unseen, draw.seed, k)
            own = 0
            for c in [0, *alive]:
                line = candidates[c]
                outcome = _play(rollout, known, rows_of(hand), draw.removed, line, effort.policy)
                worth = outcome.worth(effort.model)
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
    if alive and _beats(diffs[alive[0]], squares[alive[0]], counts[alive[0]], effort.margin):
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
    rollout: Rollout,
    known: State,
    hand: tuple[bytes, ...],
    removed: int,
    line: Line,
    policy: Policy,
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
    return rollout(Playout(state, hand, removed, policy))
