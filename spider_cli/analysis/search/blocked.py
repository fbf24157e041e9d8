"""Proof that a deal can never be won: a rank whose every card lies face down, held there.

Take a rank R every card of which (of the suits still in play) lies face down in the
tableau: none face up, none in the hand. As long as no R is face up and no pile is empty:

- no suit can be removed, since each needs an R;
- a King moves only into a space, and a card one rank below R only onto an R or into a
  space, so neither can move (they are *blockers*), nor can anything beneath them;
- so a pile that holds a blocker is never emptied, and an R beneath a blocker is never
  turned up. A dealt card only lies on top, and changes neither.

A position where every pile holds a blocker and every R lies beneath one is *sealed*:
whatever is played or dealt, no R is ever turned up and no suit removed. :func:`attempt`
plays every line (every move and every deal) from the position while no R is face up and
no pile is empty; when every line reaches a sealed position, and none turns up an R or
empties a pile, the deal is proved unwinnable. PySolFC's deal 1748 is one: each of its
eight sixes lies beneath a King or a five, in every pile.

Any search limit counts the positions played (a deal with no such rank costs none); the
reasoning is the same for one, two or four suits, and a proof for one suit holds for the
others, whose every line is also a line of one suit.
"""

from __future__ import annotations

from dataclasses import dataclass

from spider_cli.analysis.compact import FACE_DOWN, ONE_BYTE, Start, State, actions, apply
from spider_cli.analysis.limits import Expired
from spider_cli.rules.cards import KING
from spider_cli.rules.engine import PILES, Move


@dataclass(frozen=True)
class HeldRank:
    """A deal proved unwinnable by a held rank: ``rank``'s cards never turn up."""

    rank: int
    positions: int
    """The positions played to show it (1: the deal was sealed as dealt). Its words:
    :func:`spider_cli.app.words.findings.held_text`."""


def _rank(byte: int) -> int:
    return byte & 15


def held_ranks(start: Start) -> list[int]:
    """The ranks whose every card still in play lies face down in the tableau (all cards
    known), smallest first."""
    if any(byte == FACE_DOWN for pile in start.piles for byte in pile):
        return []  # a face-down card is unknown: its rank could be any
    if any(0 in row for row in start.rows):
        return []
    out = {_rank(byte) for pile in start.piles for byte in pile if byte < FACE_DOWN}
    out |= {_rank(card) for row in start.rows for card in row}
    return [rank for rank in range(1, KING + 1) if rank not in out]


def _blockers(rank: int) -> frozenset[int]:
    """The ranks that cannot move while no card of ``rank`` is face up and no pile is
    empty: a King (it moves only into a space), and the rank below ``rank``."""
    return frozenset({KING, rank - 1} - {rank, 0})


def _sealed(piles: State, rank: int, blockers: frozenset[int]) -> bool:
    """Every pile holds a blocker, and every card of ``rank`` lies beneath its pile's
    topmost one."""
    for pile in piles:
        top = max((i for i, byte in enumerate(pile) if _rank(byte) in blockers), default=-1)
        if top < 0 or any(_rank(byte) == rank for byte in pile[top + 1 :]):
            return False
    return True


PROOF_LIMIT = 1_000_000
"""The positions a proof may play before it is given up (the second stage of full-information
play gives it at most what is left of its own limit)."""


def attempt(
    start: Start, limit: int = PROOF_LIMIT, expired: Expired | None = None
) -> tuple[HeldRank | None, int]:
    """A proof that the game of ``start`` (every card known) can never be won, or None when
    none is found within ``limit`` positions played (or before ``expired`` says the time
    is up: it is asked every thousand positions); and the positions played (0 for a deal
    with no held rank)."""
    if len(start.removed) >= 8 or not all(start.piles):
        return None, 0  # won already; or a space, where a blocker could go
    played = 0
    for rank in held_ranks(start):
        proof, positions = _hold(start, rank, limit - played, expired)
        played += positions
        if proof is not None or played >= limit:
            return proof, played
    return None, played


def _hold(
    start: Start, rank: int, limit: int, expired: Expired | None
) -> tuple[HeldRank | None, int]:
    """Every line from ``start`` while no card of ``rank`` is face up and no pile empty,
    depth first: the proof when each ends sealed, None when one turns up a card of
    ``rank`` or empties a pile, or when more than ``limit`` positions are needed; and the
    positions played."""
    blockers = _blockers(rank)
    rows = start.rows
    first = (start.piles, 0)
    seen = {first}
    stack = [first]
    while stack:
        piles, dealt = stack.pop()
        if _sealed(piles, rank, blockers):
            continue
        children: list[tuple[State, int]] = []
        for move in actions(piles, []):
            if type(move) is not Move:
                return None, len(seen)  # a suit to remove: cannot be, but no proof then
            new, turned, _outcome = apply(piles, move)
            if not new[move.src] or (turned >= 0 and _rank(new[move.src][-1]) == rank):
                return None, len(seen)  # a pile emptied, or a card of the rank turned up
            children.append((tuple(new), dealt))
        if dealt < len(rows):
            row = rows[dealt]
            children.append((tuple(piles[i] + ONE_BYTE[row[i]] for i in range(PILES)), dealt + 1))
        for child in children:
            if child not in seen:
                if len(seen) >= limit or (
                    expired is not None and not len(seen) % 1024 and expired()
                ):
                    return None, len(seen)
                seen.add(child)
                stack.append(child)
    return HeldRank(rank, len(seen)), len(seen)
