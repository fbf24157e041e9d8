"""Rollouts: the blind player's game played on from a position whose every card is known, as
it plays it seeing only its view (:func:`rollout`, the reference of ``csrc/rollout.c``),
and what the search over what turns up (:mod:`~spider_cli.analysis.chance.search`) needs
beside them: the learned value of where a rollout stops (:class:`WinModel`, the
:data:`FEATURES` of a view, fitted by ``benchmarks/fit_value.py``), and the deals a view
allows (:func:`sample`), drawn from exactly the cards its player can count as unseen.

Everything is integers but the logistic of :meth:`WinModel.worth`, and the samples come from a
generator seeded by the view, so the same view gives the same games on any machine.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from spider_cli.analysis.blind.evaluation import STANDARD, Weights, value
from spider_cli.analysis.blind.player import (
    BEAM,
    BlindSearch,
    Decision,
    Kind,
    Mode,
    Searches,
    Turn,
    decide,
)
from spider_cli.analysis.blind.view import PlayerView
from spider_cli.analysis.compact import FACE_DOWN, State, apply
from spider_cli.analysis.limits import Limit
from spider_cli.rules.cards import KING
from spider_cli.rules.engine import PILES, Action, Deal, Game
from spider_cli.rules.shuffle import SplitMix64, shuffle

Chooser = Callable[[State, int, int, Decision], tuple[Action, ...]]
"""Picks a turn's line from its :class:`~spider_cli.analysis.blind.player.Decision`, given the
position as the player sees it, the suits removed and the rows left."""

MAX_MOVES = 1_000
"""Moves a rollout may take (the table's limit,
:data:`spider_cli.analysis.bench.blind.MAX_MOVES`)."""

WON = 10_000
"""A leaf's worth when the game is won (a loss is 0; the learned value lies between)."""


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
"""What :class:`WinModel` weighs in a position, read from what a player sees alone."""


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
class WinModel:
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
def learned(suits: int) -> WinModel:
    """The value fitted for the ``suits``-suit game by ``benchmarks/fit_value.py`` (the
    model's ``made_by`` says how, or the file's where the model has none)."""
    data = json.loads(resources.files(__package__).joinpath(VALUE_FILE).read_text("utf-8"))
    model = data["models"][str(suits)]
    weights = tuple(int(model["weights"][name]) for name in FEATURES)
    return WinModel(int(model["bias"]), weights, str(model.get("made_by", data["made_by"])))


# ---------------------------------------------------------------------------------------------
# Rollouts: the blind player's game on a deal every card of which is known


@dataclass(frozen=True)
class Policy:
    """How a rollout plays: the positions each of a turn's searches examines, the searches
    (:data:`blindplayer.Searches`), and where it stops: after ``moves`` moves or ``turns``
    turns (each turn ends at a card turned up or a row dealt; 0: no limit), and the
    weights its searches value positions by."""

    budget: int = 2_000
    searches: Searches = ((True, BEAM),)
    moves: int = MAX_MOVES
    turns: int = 0
    weights: Weights = STANDARD


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

    def worth(self, model: WinModel) -> int:
        """What the search counts where the rollout stopped: :data:`WON`, 0 for a loss, else
        the model's chance of a win."""
        if self.won:
            return WON
        if self.lost:
            return 0
        return model.worth(features(self.end, self.removed, self.hand // PILES))


@dataclass(frozen=True)
class Playout:
    """A sampled game to play on, as both paths of :func:`rollout` take it: the deal's
    ``piles`` (the face-down cards known), the hand's ``rows`` in dealing order, the suits
    ``removed``, the ``policy`` that plays it, and whether to ``record`` the features at the
    start of each turn."""

    piles: State
    rows: Sequence[Sequence[int]]
    removed: int
    policy: Policy
    record: bool = False


def rollout(search: BlindSearch, playout: Playout, choose: Chooser | None = None) -> Outcome:
    """Play on by the blind player's policy, the deal (the piles with the face-down cards
    known, the hand in rows in dealing order) fully known but the player shown only its
    view: the blind player's turns (:func:`blindplayer.decide` with the policy's searches,
    each a ``search``; no card weighed), each on the deal with its face-down cards masked,
    as :func:`spider_cli.analysis.bench.blind.play_blind` plays them. The Python path (the
    reference of csrc/rollout.c); :func:`spider_cli.analysis.native.backend` gives the
    path to take. ``choose``, when given, picks the line to play among a turn's candidates
    (an experiment's other judge, ``benchmarks/td_value.py``; the core has none)."""
    removed, policy, record = playout.removed, playout.policy, playout.record
    state = list(playout.piles)
    hand = [bytes(row) for row in playout.rows]
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
        view = tuple(masked(pile) for pile in state)
        at = Turn(view, removed, PILES * len(hand), mode, policy.weights)
        turn = decide(search, at, Limit(policy.budget), (), policy.searches)
        positions += turn.positions
        mode = turn.mode
        if turn.kind is Kind.LINE:
            line = choose(view, removed, len(hand), turn) if choose else turn.line
            for action in line[: policy.moves - moves]:
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
    worth = value(tuple(masked(pile) for pile in state), removed, Mode.KEEP.value, policy.weights)
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


def masked(pile: bytes) -> bytes:
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
    return Game(piles, list(view.down), list(hand)[::-1], list(view.removed), view.suits)


def rows_of(hand: bytes) -> tuple[bytes, ...]:
    """The hand in rows of ten, in dealing order."""
    return tuple(hand[r : r + PILES] for r in range(0, len(hand), PILES))


def capped(policy: Policy, most: int) -> Policy:
    """The policy with each of its searches held within ``most`` positions, the memory
    ceiling (a search holds every position it examines)."""
    return policy if policy.budget <= most else replace(policy, budget=most)
