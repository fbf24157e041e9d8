"""Full-information play's beam search, on the Python path (the reference of csrc/beam.c):
KPatience's pruning of the moves (:func:`beam_moves`), complete suits removed at once
(:func:`settle`), and one beam of a given width (:func:`beam`); the widths tried in turn are
:func:`spider_cli.analysis.solve.autoplay.play`'s."""

from __future__ import annotations

from collections.abc import Iterator

from spider_cli.analysis.compact import (
    FACE_DOWN,
    ONE_BYTE,
    Start,
    State,
    actions,
    apply,
    completes_suit,
    rank_key,
    run_length,
)
from spider_cli.analysis.limits import Limit
from spider_cli.rules.engine import DEAL, PILES, Action, Move, Remove
from spider_cli.rules.shuffle import SplitMix64

MAX_LEVELS = 400
"""A beam gives up after this many moves (wins take 100 to 300): a wider beam comes next."""

Trail = tuple["Trail", Action] | None
"""A beam node's line, newest action last: (the line before it, the action), None at the
start; shared between a node's children, and unwound only for the winning line."""


def beam_moves(piles: State, endgame: bool) -> Iterator[Move]:
    """Moves worth trying in full-information play (KPatience's pruning, not exhaustive):
    :func:`~spider_cli.analysis.compact.actions` with the first space only and no whole pile into
    it, less a run split onto a card unless that makes a longer run of its own suit, and
    (with the hand empty) less a run split into the space."""
    space = next((i for i, p in enumerate(piles) if not p), -1)
    for action in actions(piles, [space] if space >= 0 else [], whole_into_space=False):
        if type(action) is not Move:
            continue  # removals are made at once (see settle)
        p = piles[action.src]
        m = action.count
        length = run_length(p)
        q = piles[action.dst]
        split = m < length
        if not q:
            if endgame and m < length:
                continue
        elif split and (q[-1] != p[-m] + 1 or run_length(q) + m <= length):
            continue  # a split goes only onto its own suit, making the run longer
        yield action


def settle(piles: list[bytes]) -> tuple[list[bytes], list[Remove]]:
    """Remove every complete suit at a pile's bottom (always right in full-information play)."""
    removals: list[Remove] = []
    again = True
    while again:
        again = False
        for i, p in enumerate(piles):
            if len(p) >= 13 and completes_suit(p):  # (the length test first: it is cheap)
                new, _turned, _outcome = apply(tuple(piles), Remove(i))
                piles = new
                removals.append(Remove(i))
                again = True
    return piles, removals


FOUND_FIRST = 0
"""Ties in the beam's ranking go to the child found first (the beam's own order)."""
FOUND_LAST = 1
"""Ties go to the child found last. Any larger number (up to :data:`TIES_MAX`) shuffles
them, a different shuffle for each number (:func:`tie`)."""
TIES_MAX = 2**32 - 1

ORDER_MASK = (1 << 36) - 1


def level_seed(ties: int, level: int) -> int:
    """The shuffle of ties at a level (the first being 1): SplitMix64's first output."""
    return SplitMix64(ties << 16 | level).next()


def tie(order: int, ties: int, seed: int) -> int:
    """Where the child found ``order``-th at a level goes among its equals in the ranking,
    smaller first, for the way ``ties`` are broken and the level's :func:`level_seed`."""
    if ties == FOUND_FIRST:
        return order
    if ties == FOUND_LAST:
        return ORDER_MASK - order
    return SplitMix64(seed + order).next() & ORDER_MASK


PROGRESS = 13 * 8 + 104
"""The most :func:`progress` a position can have (``csrc/search.h``: JUDGE_PROGRESS)."""


def progress(piles: State, removed: int) -> int:
    """How far a position has got, for the judge's dense score: 13 a suit removed and 1 a
    card not face down (104 less the face-down count); ``csrc/beam.c``'s beam_progress."""
    down = sum(1 for pile in piles for card in pile if card & FACE_DOWN)
    return 13 * removed + max(0, 104 - down)


def beam(
    start: Start, width: int, limit: Limit, ties: int = FOUND_FIRST
) -> tuple[list[Action] | None, int]:
    """One beam search of the given width, within ``limit``: the winning actions, or None;
    the positions seen. Ties in the ranking are broken by ``ties`` (:data:`FOUND_FIRST`,
    :data:`FOUND_LAST` or a shuffle's number). The reference of the compiled core's
    ``beam`` (csrc/beam.c)."""
    line, positions, _best = beam_best(start, width, limit, ties)
    return line, positions


def beam_best(
    start: Start, width: int, limit: Limit, ties: int = FOUND_FIRST
) -> tuple[list[Action] | None, int, int]:
    """:func:`beam`, and the most :func:`progress` of a position it examined (the start's
    included; the core's ``beam_best``)."""
    if not 0 <= ties <= TIES_MAX:
        raise ValueError("ties are broken by a number from 0 to 2**32-1")
    budget, expired = limit.positions, limit.expired
    rows = start.rows
    piles0, removals0 = settle(list(start.piles))
    removed0 = len(start.removed) + len(removals0)
    root_node: Trail = None
    for r in removals0:
        root_node = (root_node, r)
    beam = [(tuple(piles0), 0, removed0, root_node)]
    best = progress(beam[0][0], removed0)
    seen = {(beam[0][0], 0)}
    positions = 1
    level = 0
    while beam and level < MAX_LEVELS:
        level += 1
        children: list[tuple[int, tuple[int, int], State, int, Trail]] = []
        level_seen: set[tuple[State, int]] = set()
        for piles, dealt, removed, node in beam:
            endgame = dealt >= len(rows)
            options: list[tuple[Action, list[bytes]]] = []
            for move in beam_moves(piles, endgame):
                new, _turned, _outcome = apply(piles, move)
                options.append((move, new))
            if not endgame and all(piles):
                row = rows[dealt]
                options.append((DEAL, [piles[i] + ONE_BYTE[row[i]] for i in range(PILES)]))
            for action, new in options:
                new, removals = settle(new)
                child = tuple(new)
                child_dealt = dealt + (action is DEAL)
                key = (child, child_dealt)
                if key in seen or key in level_seen:
                    continue
                level_seen.add(key)
                child_removed = removed + len(removals)
                child_node: Trail = (node, action)
                for r in removals:
                    child_node = (child_node, r)
                if child_removed >= 8:
                    return unwind(child_node), positions + len(level_seen), best
                best = max(best, progress(child, child_removed))
                children.append(
                    (child_dealt, rank_key(child, child_removed), child, child_removed, child_node)
                )
        positions += len(level_seen)
        if positions > budget or (expired is not None and expired()):
            return None, positions, best
        seed = level_seed(ties, level)
        order = sorted(
            range(len(children)),  # (stable: equal ranks keep the order found)
            key=lambda k: (children[k][0], children[k][1], tie(k, ties, seed)),
        )
        children = [children[k] for k in order]
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
    return None, positions, best


def unwind(node: Trail) -> list[Action]:
    line: list[Action] = []
    while node is not None:
        node, action = node
        line.append(action)
    line.reverse()
    return line
