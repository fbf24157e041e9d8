"""The blind player of ``spider bench --blind``: a fast policy that sees only a player's view.

Each turn it searches, breadth-first and within a budget of positions, the moves that only
rearrange face-up cards (:func:`spider_cli.analysis.compact.actions`), and plays the line to the
best-valued position it finds if that is better than where it stands. A line may go on past
a card it turns up, counting that card as the worst it could be (:data:`UNSEEN`: it takes no
card and goes nowhere but into a space), so its value is one the line is sure of; the table
plays the line only up to that card, and the next turn plans with the card seen. The value
follows the published advice for strong play: remove suits, turn up face-down cards (the
piles with the fewest first), get and keep spaces, build same-suit runs and not other
suits'. When no line gains, the spaces are put to use: the search is run again with a space
worth less than a card turned up. When that gains nothing either, a deal is due: the spaces
are filled with the cards that harm the position least (the same search, now valuing a
space as a loss), then the row is dealt (:func:`spider_cli.analysis.blind.play_blind`).

A line is played only if it raises the value or turns up a card, so between two cards
turned up (or two deals) the value strictly rises and the policy cannot loop. Every search
is bounded by positions, so the same deal is always played the same way.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING

from spider_cli.analysis.compact import FACE_DOWN, REVEAL, State, actions, apply, run_length
from spider_cli.rules.engine import PILES, Action, Deal, Remove

if TYPE_CHECKING:
    from spider_cli.analysis.blind import PlayerView

UNSEEN = bytes((15,))
"""A card a line turns up, whatever it is (the worst case): a byte of rank 15, which the
compact moves never move onto another card, nor let another card onto, but may move into
a space, as any card may."""

BUDGET = 2_000
"""Positions each of a turn's two searches examines."""

BUDGETS = {1: BUDGET, 2: BUDGET, 4: 6_000}
"""The default budget of each variant: four suits win more with a longer search (deals
0-19: 2 won at 6,000 positions, none at 2,000), and their games are short."""

REMOVED = 1_000
"""Value of a suit removed (more than the runs it takes away)."""


class Mode(Enum):
    """What a space is worth to the search: kept (more than a card turned up), used (less),
    or filled before a deal (a loss)."""

    KEEP = 150
    USE = 50
    FILL = -2_000


HIDDEN = (0, 100, 190, 270, 340, 400, 450, 490)
"""Cost of a pile's face-down cards, by how many (0 to 7 and more, rising by 40 a card
beyond): each card costs less in a deep pile, so turning up a card where few are left,
towards a space, is worth more."""

CLEAR = 40
"""Value of a pile with cards but none face down."""

SUITED = 20
"""Value of a face-up card lying on the next higher card of its own suit."""

RANKED = -10
"""Value of a face-up card on the next higher card of another suit: less than on no card
at all, so that cards go onto another suit only to gain something else (measured on deals
0-19: 2 suits won 13 at -10, 11 at +6; 4 suits turned up more cards)."""


@dataclass(frozen=True)
class Turn:
    """What the policy would play: a line of moves (empty when none gains; the table plays
    it up to the first card it turns up), and the positions its searches examined."""

    line: tuple[Action, ...]
    positions: int


def hidden_cost(down: int) -> int:
    """The cost of ``down`` face-down cards in one pile (see :data:`HIDDEN`)."""
    if down < len(HIDDEN):
        return HIDDEN[down]
    return HIDDEN[-1] + 40 * (down - len(HIDDEN) + 1)


@lru_cache(maxsize=200_000)
def pile_value(pile: bytes) -> int:
    """A pile's part of a position's value, without spaces (a compact pile: face-down
    bytes are ``FACE_DOWN`` or more; :data:`UNSEEN` is a card turned up, not yet seen)."""
    if not pile:
        return 0
    down = 0
    while down < len(pile) and pile[down] >= FACE_DOWN:
        down += 1
    value = -hidden_cost(down)
    if not down:
        value += CLEAR
    for k in range(down, len(pile) - 1):
        upper, lower = pile[k], pile[k + 1]
        if upper == lower + 1:
            value += SUITED
        elif upper & 15 == (lower & 15) + 1:
            value += RANKED
    return value


def value(piles: State, removed: int, mode: Mode) -> int:
    """How good a position is; ``mode`` gives a space's worth."""
    total = REMOVED * removed
    space = mode.value
    for pile in piles:
        total += pile_value(pile) if pile else space
    return total


def plan(piles: State, removed: int, mode: Mode, hand: int, budget: int = BUDGET) -> Turn:
    """The line (from the position ``piles`` with ``removed`` suits off and ``hand`` cards
    in the hand) to the best-valued position found, going on past cards turned up (each as
    the worst card, :data:`UNSEEN`); an empty line when nothing beats the position as it is.

    Two searches of ``budget`` positions each: one moves only whole runs into spaces, so it
    sees further, the other parts of runs too; the better line wins (the first on a tie)."""
    whole = _search(piles, removed, mode, hand, budget, parts=False)
    split = _search(piles, removed, mode, hand, budget, parts=True)
    best = split if split[0] > whole[0] else whole
    return Turn(best[1], whole[2] + split[2])


def _search(
    piles: State, removed: int, mode: Mode, hand: int, budget: int, parts: bool
) -> tuple[int, tuple[Action, ...], int]:
    """Breadth-first search for the best-valued line within ``budget`` positions: (its
    value, the line, positions examined). ``parts``: parts of runs may go into a space.

    A suit is not removed while the hand holds cards if fewer than ten would be left in the
    tableau: a row could then never be dealt (a complete suit left in place counts as won)."""
    cards = sum(map(len, piles)) + 13 * removed  # in the tableau or removed: the same all along
    space = mode.value
    best = value(piles, removed, mode)
    best_line: tuple[Action, ...] = ()
    seen = {piles}
    frontier: deque[tuple[State, int, int, tuple[Action, ...]]] = deque(
        [(piles, removed, best, ())]
    )
    positions = 0
    while frontier and positions < budget:
        state, off, worth, line = frontier.popleft()
        spaces = [i for i, p in enumerate(state) if not p][:1]  # spaces are interchangeable
        runs = [run_length(p) for p in state]
        for action in actions(state, spaces, whole_into_space=False):
            assert not isinstance(action, Deal)  # (actions gives no deals)
            if positions == budget:
                break
            if isinstance(action, Remove):
                if hand and cards - 13 * (off + 1) < PILES:
                    continue
                src, dst, now = action.pile, action.pile, off + 1
            else:
                src, dst, _count = action
                if not (parts or state[dst]) and _count < runs[src]:
                    continue  # into a space goes a whole run (parts go onto cards)
                now = off
            new, turned, outcome = apply(state, action)
            if outcome == REVEAL:  # the card turned up is not seen until the line is played
                new[turned] = new[turned][:-1] + UNSEEN
            child = tuple(new)
            if child in seen:
                continue
            seen.add(child)
            positions += 1
            # Only the piles the action touched change value (by their own part of it).
            score = worth + REMOVED * (now - off)
            for i in {src, dst}:
                before, after = state[i], new[i]
                score += (pile_value(after) if after else space) - (
                    pile_value(before) if before else space
                )
            frontier.append((child, now, score, (*line, action)))
            if score > best:
                best, best_line = score, (*line, action)
    return best, best_line, positions


def compact_view(view: PlayerView) -> State:
    """The view as compact piles: each face-down card ``FACE_DOWN`` (unknown), then the
    face-up cards."""
    return tuple(
        bytes([FACE_DOWN] * down + list(up))
        for down, up in zip(view.down, view.face_up, strict=True)
    )
