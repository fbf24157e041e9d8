"""The sampling player: the blind player's choices weighed by games played out on samples of
the cards it has not seen.

The blind player (:mod:`spider_cli.analysis.blindplayer`) values a line that turns a card up
as if the card were the worst it could be. Where its searches offer several such lines, this
player deals the cards it cannot see at random (each sample holds exactly the unseen cards:
the face-down places and the hand), plays each line on every sample, then plays on by the
blind player's own policy (a *rollout*, :func:`rollout`, on the compiled core) and scores
where the rollout ends. The blind player's line stands unless another beats it clearly on the
same samples (:func:`_pick`: common random numbers, a paired test). The samples are drawn by a
generator seeded with the view, so the same position gets the same choice on any machine. A
rollout sees only what a player would: its searches run on the sample with the face-down
cards masked, exactly as the table's own game does.

Experimental (``spider bench --blind --samples N``): within the noise of 200 deals it is not
yet stronger than the blind player; BENCHMARKS.md lists every setting measured.

Bjarnason, Fern and Tadepalli (ICAPS 2009) raised blind Klondike this way, with rollouts of a
fast policy over samples of the unseen cards; full-information solves of the samples, which
they found too optimistic, are not used: with every card known almost every Spider deal is
won, so they cannot tell the lines apart.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from spider_cli.analysis import memory, native
from spider_cli.analysis.blindplayer import (
    BEAM,
    CHOICES,
    WEIGHED,
    WEIGHTS,
    Candidate,
    Decision,
    Kind,
    Mode,
    Searches,
    _first_reveal,
    compact_view,
    decide,
    value,
)
from spider_cli.analysis.compact import FACE_DOWN, Start, State, apply, encode
from spider_cli.rules.cards import KING
from spider_cli.rules.engine import PILES, Action, Deal, Game, SplitMix64, shuffle

if TYPE_CHECKING:
    from spider_cli.analysis.blind import PlayerView

MAX_MOVES = 1_000
"""Moves a rollout may take (the table's limit, :data:`spider_cli.analysis.blind.MAX_MOVES`)."""

WON = 5_000
"""A rollout's score for a win, beside the value of the position it ends in."""


@dataclass(frozen=True)
class Policy:
    """How a rollout plays: the positions each of a turn's searches examines, the searches,
    (:data:`blindplayer.Searches`; one beam is the cheapest), and the moves after
    which it stops (its horizon: the position reached is then valued)."""

    budget: int = 2_000
    searches: Searches = ((True, BEAM),)
    moves: int = MAX_MOVES


@dataclass(frozen=True)
class Sampling:
    """The sampling player's settings: samples a choice is weighed on, the rollouts' policy,
    and how sure the samples must be to overrule the blind player (``margin``: standard
    errors of the paired differences in score; 0 plays the best mean). The defaults are the
    best of the settings measured (BENCHMARKS.md): rollouts of 20 moves, valued where they
    end, vary less than whole games and cost a fifth."""

    samples: int = 8
    rollouts: Policy = Policy(moves=20)
    margin: float = 2.0


@dataclass(frozen=True)
class Outcome:
    """How a rollout ended: won, suits complete (removed or lying in the tableau), suits
    removed, cards still face down and in the hand, moves played, positions examined, and
    the blind player's value of the position it reached (:func:`blindplayer.value`, a space
    kept)."""

    won: bool
    done: int
    removed: int
    down: int
    hand: int
    moves: int
    positions: int
    value: int

    @property
    def score(self) -> int:
        """What the game achieved: a win above all, then the value of where it ended (a
        rollout of four suits is seldom won, so the value tells lines apart)."""
        return WON * self.won + self.value


# ---------------------------------------------------------------------------------------------
# Samples of the unseen cards


def seed_of(view: PlayerView) -> int:
    """A seed drawn from the view alone, the same for the same position on any machine (not
    Python's ``hash``, which changes from run to run)."""
    digest = hashlib.blake2b(repr(view).encode(), digest_size=8).digest()
    return int.from_bytes(digest)


def samples(view: PlayerView, count: int, seed: int) -> list[Game]:
    """``count`` deals consistent with ``view``, every card known: the unseen cards
    (:meth:`PlayerView.unseen`) shuffled by SplitMix64 seeded with ``seed``, dealt into the
    face-down places pile by pile, the rest as the hand."""
    rng = SplitMix64(seed)
    deals = []
    for _ in range(count):
        cards = shuffle(view.unseen(), rng)
        piles = []
        for down, up in zip(view.down, view.face_up, strict=True):
            piles.append(cards[:down] + list(up))
            del cards[:down]
        deals.append(Game(piles, list(view.down), cards, view.removed, view.suits))
    return deals


# ---------------------------------------------------------------------------------------------
# Rollouts: the blind player's game on a deal every card of which is known


def rollout(piles: State, rows: Sequence[Sequence[int]], removed: int, policy: Policy) -> Outcome:
    """Play the rest of a game by the blind player's policy, the deal (``piles`` with the
    face-down cards known, the hand in ``rows`` in dealing order) fully known but the player
    shown only its view. On the compiled core when it is there; each search within the memory
    ceiling (:func:`memory.blind_positions`)."""
    core = native.core()
    if core is not None:
        try:
            budget = min(policy.budget, memory.blind_positions(compiled=True))
            found = core.blind_game(
                piles, rows, removed, budget, policy.searches, WEIGHTS, policy.moves
            )
        except ValueError:  # beyond the core's bounds: Python's turn
            pass
        else:
            won, done, off, down, hand, moves, positions, worth = found
            return Outcome(bool(won), done, off, down, hand, moves, positions, worth)
    return rollout_python(piles, rows, removed, policy)


def rollout_python(
    piles: State, rows: Sequence[Sequence[int]], removed: int, policy: Policy
) -> Outcome:
    """:func:`rollout` on the Python path (the reference): the blind player's turns
    (:func:`blindplayer.decide` with the policy's searches, no card weighed), each on the
    deal with its face-down cards masked, as :func:`spider_cli.analysis.blind.play_blind`
    plays them."""
    state = list(piles)
    hand = [bytes(row) for row in rows]
    mode = Mode.KEEP
    moves = positions = 0
    while moves < policy.moves and _done(state, removed) < 8:
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
                    break
        elif turn.kind is Kind.DEAL:
            row = hand.pop(0)
            state = [pile + row[i : i + 1] for i, pile in enumerate(state)]
            moves += 1
            mode = Mode.KEEP
        else:
            break
    done = _done(state, removed)
    down = sum(_down(pile) for pile in state)
    worth = value(tuple(_mask(pile) for pile in state), removed, Mode.KEEP)
    return Outcome(done == 8, done, removed, down, PILES * len(hand), moves, positions, worth)


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
# The player


def choose(view: PlayerView, mode: Mode, budget: int, sampling: Sampling = Sampling()) -> Decision:
    """The blind player's turn from ``view`` (:func:`blindplayer.decide`), unless its line
    turns a card up and one of the :data:`CHOICES` best-valued other lines that turn a card
    up does clearly better on :attr:`Sampling.samples` sampled deals played on by rollouts
    (:func:`_pick`); then that line, cut at its card, comes first. The positions counted
    include the rollouts'."""
    piles = compact_view(view)
    removed = len(view.removed)
    unseen = view.unseen() if WEIGHED[view.suits] else ()
    decision = decide(piles, removed, view.hand, mode, budget, unseen)
    if decision.kind is not Kind.LINE:
        return decision
    lines: list[tuple[Action, ...]] = []
    for candidate in decision.candidates:
        first = _first_reveal(piles, candidate.line)
        if not lines and not first:
            return decision  # the line is sure: it turns up no card to guess
        cut = candidate.line[:first]
        if first and cut not in lines:
            lines.append(cut)
        if len(lines) > CHOICES:
            break
    if len(lines) == 1:
        return decision
    deals = [encode(game) for game in samples(view, sampling.samples, seed_of(view))]
    judged = [[_judge(deal, line, removed, sampling.rollouts) for deal in deals] for line in lines]
    spent = sum(positions for row in judged for _score, positions in row)
    best = _pick([[score for score, _positions in row] for row in judged], sampling.margin)
    candidates = decision.candidates
    if best:
        chosen = next(c for c in candidates if c.line[: len(lines[best])] == lines[best])
        candidates = (Candidate(lines[best], chosen.score), *candidates)
    return replace(decision, candidates=candidates, positions=decision.positions + spent)


def _judge(deal: Start, line: tuple[Action, ...], removed: int, policy: Policy) -> tuple[int, int]:
    """A line's score on one sampled deal (the rollout's after it) and the positions spent."""
    state = deal.piles
    for action in line:
        assert not isinstance(action, Deal)  # (the searches make no deals)
        new, _turned, outcome = apply(state, action)
        state = tuple(new)
        removed += outcome > 0
    played = rollout(state, deal.rows, removed, policy)
    return played.score, played.positions


def _pick(scores: list[list[int]], margin: float) -> int:
    """Which line to play, given each line's scores on the same samples: the first (the
    blind player's own) unless another beats it on the samples by more than ``margin``
    standard errors of the paired differences; then the one that beats it by most."""
    best, best_mean = 0, 0.0
    n = len(scores[0])
    for k, row in enumerate(scores[1:], 1):
        diffs = [a - b for a, b in zip(row, scores[0], strict=True)]
        mean = sum(diffs) / n
        if n > 1:
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
            sure = mean > margin * spread / math.sqrt(n)
        else:
            sure = not margin  # one sample tells nothing of the spread
        if mean > best_mean and sure:
            best, best_mean = k, mean
    return best
