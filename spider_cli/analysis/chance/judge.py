"""The full-information search as the judge of sampled worlds (lonelybot's method, for
Spider): a blind player's choices are its *commitments*, each judged by how often the capped
full-information beam wins the worlds a view allows once the commitment is played.

A commitment (:func:`commitments`) is a position from which the next act is irreversible for
a player who cannot see the face-down cards: it turns a card up, deals a row or removes a
suit. Every such act reachable from the view by moves that turn nothing up is one choice, the
many move orders that reach the same position after it being one; the closure is bounded by
a count of positions and visited breadth-first, so the shortest line to each is kept.

A world (:func:`world`) is one of :func:`~spider_cli.analysis.blind.rollouts.sample`'s deals of the
unseen cards into the face-down places and the hand, drawn from a seed of the view: every
commitment is judged on the same worlds (paired). :func:`judge` plays the commitment on the
world and runs the beam of full-information play (:func:`spider_cli.analysis.search.beam.beam`,
the compiled core's where it is built), capped in positions: a win within the cap scores
:data:`SCALE`; a world not won may score a share of how far the search got (:func:`score`).

:func:`choose` is a player: sequential halving over the commitments (the player's own line
among them), a budget of samples, ties kept by the player's own. Everything is bounded by
positions and seeded by the view, so the same position gets the same choice on any machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from spider_cli.analysis import native
from spider_cli.analysis.blind import (
    UNSEEN,
    WEIGHED,
    Candidate,
    Decision,
    Draw,
    Kind,
    Mode,
    PlayerView,
    Weights,
    decide,
    first_reveal,
    rows_of,
    sample,
    seed_of,
    value,
    weights_for,
)
from spider_cli.analysis.chance import search as chancesearch
from spider_cli.analysis.chance.search import JUDGING, Judged, Judging, Level
from spider_cli.analysis.compact import FACE_DOWN, ONE_BYTE, REVEAL, Start, State, actions, apply
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.search.beam import PROGRESS, progress
from spider_cli.analysis.solve import WIDTHS
from spider_cli.rules.engine import DEAL, PILES, Action, Deal, Remove

CLOSURE = 2_000
"""Positions the closure of moves that turn nothing up may visit (:func:`commitments`)."""

CAP = 10_000
"""Positions the judge's full-information search may examine on one world."""

CAPS = (1_000, 10_000)
"""The caps :func:`halving` tries in turn, smallest first (the first at which a world is
won is judged at)."""

KEEP = 8
"""Commitments :func:`choose` judges, the best by the blind player's value (beside the
player's own and the deal)."""

SAMPLES = 64
"""Worlds :func:`choose` spends on a turn, in all."""

MARGIN = 1.5
"""Standard errors by which another line's wins must beat the player's own (:func:`beats`)."""

SCALE = 1_000
"""A world won scores this (``csrc/search.h``: JUDGE_SCALE); one not won, at most this."""


class Act(Enum):
    """The irreversible act a commitment ends with."""

    REVEAL = "reveal"
    DEAL = "deal"
    REMOVE = "remove"
    OWN = "own"  # the blind player's own line, which turns nothing up (a sure line)


@dataclass(frozen=True)
class Commitment:
    """A commitment: the line from the view (its last action the act, the deal included),
    the act, and the position after it as the player sees it (a card turned up still face
    down; for a deal, the position it is dealt onto)."""

    line: tuple[Action, ...]
    act: Act
    after: State


def commitments(
    piles: State, removed: int, hand: int, most: int = CLOSURE
) -> tuple[list[Commitment], int]:
    """Every commitment reachable from ``piles`` (a view's: face-down cards ``FACE_DOWN``;
    ``removed`` suits off, ``hand`` cards in the hand) by moves that turn nothing up, found
    breadth-first within ``most`` positions, each once (by the position after its act; the
    first line found, the shortest). Returns them and the positions visited.

    A suit is not removed while the hand holds cards if fewer than ten would be left in the
    tableau (the blind player's rule: a row could never be dealt)."""
    cards = sum(map(len, piles)) + 13 * removed
    seen = {piles}
    found: dict[tuple[Act, State], Commitment] = {}
    level: list[tuple[State, int, tuple[Action, ...]]] = [(piles, removed, ())]
    positions = 1
    while level:
        nxt: list[tuple[State, int, tuple[Action, ...]]] = []
        for state, off, line in level:
            if hand and all(state):
                key = (Act.DEAL, state)
                if key not in found:
                    found[key] = Commitment((*line, DEAL), Act.DEAL, state)
            spaces = [i for i, p in enumerate(state) if not p][:1]
            for action in actions(state, spaces, whole_into_space=False):
                if isinstance(action, Remove):
                    if hand and cards - 13 * (off + 1) < PILES:
                        continue
                    new, _turned, _outcome = apply(state, action)
                    key = (Act.REMOVE, tuple(new))
                    if key not in found:
                        found[key] = Commitment((*line, action), Act.REMOVE, tuple(new))
                    continue
                new, _turned, outcome = apply(state, action)
                child = tuple(new)
                if outcome == REVEAL:
                    key = (Act.REVEAL, child)
                    if key not in found:
                        found[key] = Commitment((*line, action), Act.REVEAL, child)
                    continue
                if child in seen or positions >= most:
                    continue
                seen.add(child)
                positions += 1
                nxt.append((child, off, (*line, action)))
        level = nxt
    return list(found.values()), positions


ACTS = (Act.REVEAL, Act.DEAL, Act.REMOVE)
"""The acts by the core's numbers (``csrc/search.h``: JUDGE_REVEAL, JUDGE_DEAL, JUDGE_REMOVE)."""


def closure(
    piles: State, removed: int, hand: int, most: int = CLOSURE
) -> tuple[list[Commitment], int]:
    """:func:`commitments` on the path :func:`native.backend` gives: the compiled core's
    (``csrc/judge.c``, the same commitments in the same order) where it is built, else the
    reference."""
    backend = native.backend()
    if not isinstance(backend, native.Core):
        return commitments(piles, removed, hand, most)
    found, positions = backend.judge_commitments(piles, removed, hand, most)
    return [Commitment(line, ACTS[act], after) for act, line, after in found], positions


def worth(removed: int, commitment: Commitment, weights: Weights) -> int:
    """The blind player's value of the position after a commitment (a card it turns up
    counted as the worst, :data:`~spider_cli.analysis.blind.player.UNSEEN`), to rank them."""
    after = [p[:-1] + UNSEEN if p and p[-1] == FACE_DOWN else p for p in commitment.after]
    off = removed + sum(isinstance(a, Remove) for a in commitment.line)
    return value(tuple(after), off, Mode.KEEP.value, weights)


def world(view: PlayerView, seed: int, k: int) -> tuple[State, tuple[bytes, ...]]:
    """World ``k`` of the view (every card known: face-down cards as code + ``FACE_DOWN``)
    and its hand in rows, dealing order: :func:`~spider_cli.analysis.blind.rollouts.sample`."""
    known, hand = sample(view.piles(), view.unseen(), seed, k)
    return known, rows_of(hand)


def played(
    piles: State, rows: Sequence[bytes], removed: int, line: Sequence[Action]
) -> tuple[State, tuple[bytes, ...], int]:
    """A line played on a world whose every card is known (a face-down card it uncovers is
    turned up): the piles, the rows left and the suits removed."""
    state, left = piles, list(rows)
    for action in line:
        if isinstance(action, Deal):
            row = left.pop(0)
            state = tuple(p + ONE_BYTE[row[i]] for i, p in enumerate(state))
            continue
        new, _turned, _outcome = apply(state, action)
        state = tuple(new)
        removed += isinstance(action, Remove)
    return state, tuple(left), removed


@dataclass(frozen=True)
class Verdict:
    """One world judged: won within the cap, the positions the search examined, and the
    most progress (:func:`~spider_cli.analysis.search.beam.progress`) of a position it
    reached."""

    won: bool
    positions: int
    best: int = 0


def score(verdict: Verdict, dense: int) -> int:
    """A world's score: :data:`SCALE` when won, else ``dense`` thousandths of the share of
    :data:`~spider_cli.analysis.search.beam.PROGRESS` its search reached (integers, the
    core's ``verdict``)."""
    return SCALE if verdict.won else dense * verdict.best // PROGRESS


def judge(
    piles: State,
    rows: Sequence[bytes],
    removed: int,
    cap: int = CAP,
    widths: Sequence[int] = WIDTHS,
) -> Verdict:
    """The full-information beam of ``spider solve --seed`` on a world (its widths in turn,
    :data:`~spider_cli.analysis.solve.autoplay.WIDTHS`, or ``widths``, sharing ``cap``
    positions, no second stage), on the path :func:`native.backend` gives."""
    start = Start(piles, tuple(tuple(r) for r in rows), tuple(range(removed)))
    backend = native.backend(start.cards)
    used = 0
    best = progress(piles, removed)
    for width in widths:
        if used >= cap:
            break
        line, count, reached = backend.beam_best(start, width, Limit(cap - used))
        used += count
        best = max(best, reached)
        if line is not None:
            return Verdict(True, used, best)
    return Verdict(False, used, best)


def candidates(
    view: PlayerView, decision: Decision, keep: int, weights: Weights, most: int = CLOSURE
) -> tuple[list[tuple[Action, ...]], int]:
    """The lines judged: the blind player's own line (cut at its first card turned up)
    first, then the deal where one can be made now, then the ``keep`` best commitments by
    :func:`worth`, each line once. Returns them and the closure's positions."""
    piles, removed = view.piles(), len(view.removed)
    own = decision.line
    first = first_reveal(piles, own)
    lines: list[tuple[Action, ...]] = []
    if decision.kind is Kind.LINE:
        lines.append(own[:first] if first else own)
    elif decision.kind is Kind.DEAL:
        lines.append((DEAL,))
    found, positions = closure(piles, removed, view.hand, most)
    deals = [c for c in found if c.act is Act.DEAL and not c.line[:-1]]
    ranked = sorted(
        (c for c in found if c.act is not Act.DEAL or c.line[:-1]),
        key=lambda c: -worth(removed, c, weights),
    )  # (stable: the first found on a tie)
    for c in [*deals, *ranked[:keep]]:
        if c.line not in lines:
            lines.append(c.line)
    return lines, positions


def halving(
    view: PlayerView,
    lines: Sequence[tuple[Action, ...]],
    samples: int = SAMPLES,
    caps: Sequence[int] = CAPS,
    margin: float = MARGIN,
    widths: Sequence[int] = WIDTHS,
    dense: int = 0,
) -> Judged:
    """Sequential halving over ``lines`` (the first the player's own): each round gives the
    candidates left an equal share of the rounds' ``samples`` on the same worlds (the first
    worlds of the view's seed), then keeps the better half by scores (:func:`score`, with
    ``dense``: with 0, a line's wins), the earlier line on a
    tie, and the player's own line always (as the quick level does: it is judged on every
    world). The last other line left is chosen if it :func:`beats` the player's own on the
    same worlds, else the player's own.

    The cap is the first of ``caps`` (smallest first) at which some line wins a world of
    the first round (with a dense score, at which some line scores above 0): the least
    saturated that tells the lines apart (a search with more positions wins more). When none
    does at any cap, the halving stops there (the player's own stands, nothing won)."""
    seed = seed_of(view)
    removed = len(view.removed)
    rounds = max(1, (len(lines) - 1).bit_length())
    worlds: list[tuple[State, tuple[bytes, ...]]] = []
    positions = 0

    won: list[list[int]] = [[] for _ in lines]  # each line's score on each world judged

    def run(i: int, target: int, cap: int) -> None:
        nonlocal positions
        while len(worlds) < target:
            worlds.append(world(view, seed, len(worlds)))
        for k in range(len(won[i]), target):
            piles, rows = worlds[k]
            state, left, off = played(piles, rows, removed, lines[i])
            verdict = judge(state, left, off, cap, widths)
            won[i].append(score(verdict, dense))
            positions += verdict.positions

    each = max(1, samples // (rounds * len(lines)))
    cap = caps[-1]
    for cap in caps:
        won = [[] for _ in lines]
        for i in range(len(lines)):
            run(i, each, cap)
        if any(map(any, won)):
            break
    alive = list(range(len(lines)))
    while any(map(any, won)):
        others = sorted((i for i in alive if i), key=lambda i: (-sum(won[i]), i))
        alive = [0, *sorted(others[: max(1, len(others) // 2)])]
        if len(others) <= 1:
            break
        target = len(won[0]) + max(1, samples // (rounds * len(alive)))
        for i in alive:
            run(i, target, cap)
    best = alive[1] if len(alive) > 1 else 0
    chosen = best if best and beats(won[best], won[0], margin, SCALE) else 0
    wins = tuple(sum(w == SCALE for w in line) for line in won)
    counts = tuple(map(len, won))
    return Judged(tuple(lines), wins, counts, chosen, positions, cap, tuple(map(sum, won)))


def weigh(
    view: PlayerView,
    lines: Sequence[tuple[Action, ...]],
    samples: int = SAMPLES,
    caps: Sequence[int] = CAPS,
    margin: float = MARGIN,
    widths: Sequence[int] = WIDTHS,
    dense: int = 0,
) -> Judged:
    """:func:`halving` on the path :func:`native.backend` gives: the compiled core's
    (``csrc/judge.c``, the same worlds, counts and choice) where it is built, else the
    reference."""
    backend = native.backend()
    fits = 1 <= len(lines) <= MOST_LINES and all(len(line) <= LONGEST for line in lines)
    if not isinstance(backend, native.Core) or not fits:
        return halving(view, lines, samples, caps, margin, widths, dense)
    piles, rows = view.piles(), view.hand // PILES
    draw = Draw(piles, len(view.removed), rows, tuple(view.unseen()), seed_of(view))
    got = backend.judge_search(draw, lines, samples, caps, widths, margin, dense=dense)
    if got is None:  # (stopped: never without a clock)
        return halving(view, lines, samples, caps, margin, widths, dense)
    chosen, wins, counts, positions, cap, scores = got
    return Judged(tuple(lines), wins, counts, chosen, positions, cap, scores)


MOST_LINES = 64
"""The most lines the core judges at once (``csrc/search.h``: JUDGE_MAX_LINES)."""

LONGEST = 1_000
"""The longest line the core takes (``csrc/glue.h``: MAX_LINE)."""


def beats(other: Sequence[int], own: Sequence[int], margin: float = MARGIN, scale: int = 1) -> bool:
    """Whether ``other`` scored clearly more on the same worlds than ``own`` (each a score a
    world, ``scale`` a world won): the other's lead is at least two worlds won and at least
    ``margin`` times the square root of the sum of the squared differences. With scores 0 or
    1 that is McNemar's test, roughly: of the worlds only one of them won, a lead of
    ``margin`` times the square root of their number. In integers, as the core does it
    (``margin`` in hundredths)."""
    diffs = [o - w for o, w in zip(other, own, strict=True)]
    lead = sum(diffs)
    hundredths = round(margin * 100)
    squares = sum(d * d for d in diffs)
    return lead >= 2 * scale and 10_000 * lead * lead >= hundredths * hundredths * squares


def told(judged: Judged, dense: int) -> bool:
    """Whether the judge told the lines apart: some world won (with a dense score: the
    lines' scores not all the same)."""
    if dense:
        return max(judged.scores) > min(judged.scores)
    return max(judged.wins) > 0


@dataclass(frozen=True)
class Ruling:
    """What :func:`choose` decided: the blind player's own decision, the one to play (its
    own, or with the judge's line first, or the quick level's), and what the judge found
    (None: nothing was weighed)."""

    decision: Decision
    played: Decision
    judged: Judged | None


def choose(
    view: PlayerView,
    mode: Mode,
    budget: Limit,
    settings: Judging = JUDGING,
    widths: Sequence[int] | None = None,
) -> Ruling:
    """The judge's player: the blind player's turn (:func:`blindplayer.decide`), then, when
    it plays a line or deals, its choice and the best commitments weighed by :func:`weigh`
    as ``settings`` say (each world by the beam's ``widths`` in turn: the settings', else
    :data:`WIDTHS`; other widths for tuning); the blind player's own turn when the game is
    lost or the hand holds part of a row. Where no world is won within the cap by any line
    (early in a game), the judge cannot rank them: the quick level's look-ahead
    (:func:`chancesearch.weigh`) decides instead. With ``quick_first`` set the quick
    level's choice is the own line (judged on every world, played unless another beats it)."""
    weights = weights_for(view.suits)
    unseen = view.unseen() if WEIGHED[view.suits] else ()
    search = native.backend().blind_search
    decision = decide(search, view.turn(mode, weights), budget, unseen)
    return rule(view, decision, settings, widths)


def rule(
    view: PlayerView,
    decision: Decision,
    settings: Judging = JUDGING,
    widths: Sequence[int] | None = None,
) -> Ruling:
    """:func:`choose` after the blind player's turn: its ``decision`` from ``view`` judged
    (``hint`` makes the turn itself, from the game as its player knows it)."""
    weights = weights_for(view.suits)
    if decision.kind is Kind.LOST or view.hand % PILES:
        return Ruling(decision, decision, None)
    base = decision
    if settings.quick_first:
        base = chancesearch.weigh(view, decision, Level.QUICK, weights=weights).played
    lines, closed = candidates(view, base, settings.keep, weights, settings.closure)
    if len(lines) < 2:
        return Ruling(decision, base, None)
    if widths is None:
        widths = settings.widths or WIDTHS
    judged = weigh(
        view, lines, settings.samples, settings.caps, settings.margin, widths, settings.dense
    )
    judged = replace(judged, positions=judged.positions + closed)
    line = lines[judged.chosen]
    spent = base.positions + judged.positions
    if settings.fallback and not told(judged, settings.dense):  # quick decides
        pick = base if settings.quick_first else None
        if pick is None:
            pick = chancesearch.weigh(view, decision, Level.QUICK, weights=weights).played
        return Ruling(decision, replace(pick, positions=pick.positions + judged.positions), judged)
    if judged.chosen == 0:
        return Ruling(decision, replace(base, positions=spent), judged)
    if line == (DEAL,):
        return Ruling(decision, Decision(Kind.DEAL, Mode.KEEP, (), spent), judged)
    played = Decision(Kind.LINE, Mode.KEEP, (Candidate(line, 0), *decision.candidates), spent)
    return Ruling(decision, played, judged)
