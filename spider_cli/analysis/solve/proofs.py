"""What shows a goal out of reach without a search: :func:`out_of_reach` (cards that are not
known, piles that cannot empty) and :func:`counted` (the counting argument of
:mod:`spider_cli.analysis.search.counting`). Both hold over the known cards, so "impossible" from
either is a proof: a :class:`Proof` (its words: :func:`spider_cli.app.words.findings.proof_text`),
None when there is none."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypedDict

from spider_cli.analysis import native
from spider_cli.analysis.compact import FACE_DOWN, card_code
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.search import (
    Question,
    Search,
    counting,
    firstmoves,
    moments,
    refute,
    turn_up_piles,
)
from spider_cli.rules.cards import KING, UNKNOWN
from spider_cli.rules.goals import GoalKind


class Ground(Enum):
    """What a :class:`Proof` stands on."""

    TOO_FEW_SPACES = "too few spaces"
    """At most :attr:`Proof.count` piles can ever empty, fewer than the :attr:`Proof.keep`
    spaces to keep (the others have unknown face-down cards)."""
    PILE_NOT_DOWN = "pile not down"
    """The pile to turn a card up in has no face-down card."""
    NONE_DOWN = "none down"
    """No pile has a face-down card."""
    NONE_CAN_EMPTY = "none can empty"
    """Every pile that is not a space has an unknown face-down card."""
    PILE_UNKNOWN = "pile unknown"
    """The pile to empty has an unknown face-down card."""
    PILE_KEPT = "pile kept"
    """The pile to empty has a face-down card, and 'no turn up' keeps it there."""
    CARD_UNKNOWN = "card unknown"
    """The card to free is not among the known cards."""
    SUIT_SHORT = "suit short"
    """Cards of the suit to remove (:attr:`Proof.cards`) are not among the known cards."""
    SETS_SHORT = "sets short"
    """:attr:`Proof.count` sets of the suit need that many of each card; the known cards
    have fewer of :attr:`Proof.cards`."""
    COUNTED = "counted"
    """The counting argument, over :attr:`Proof.count` choices of the cards that never move."""
    COUNTED_AT_MOMENTS = "counted at moments"
    """The counting argument at the end of the line and just before each of the cards
    :attr:`Proof.cards` (in piles :attr:`Proof.piles`) first moves."""
    COUNTED_IN_EVERY_ORDER = "counted in every order"
    """The counting argument just before each card first moves, in every order."""


@dataclass(frozen=True)
class Proof:
    """Why a goal is out of reach: its :class:`Ground`, and the values it names (a count,
    the spaces to keep, a pile (0-based), a card, a suit, cards with the piles they are
    in, and whether the hand did not count: ``on_table``)."""

    ground: Ground
    count: int = 0
    keep: int = 0
    pile: int = -1
    card: int = 0
    suit: int = 0
    cards: tuple[int, ...] = ()
    piles: tuple[int, ...] = ()
    on_table: bool = False


def out_of_reach(search: Search) -> Proof | None:
    """Why the goal cannot be met whatever is played, when that shows without a search
    (else None). Over the known cards a pile with an unknown face-down card is never emptied
    (turning that card up ends the line), and a suit with a card neither in the tableau nor
    in a known hand is never completed."""
    goal, start = search.goal, search.start
    piles = start.piles
    hidden = [any(c == FACE_DOWN for c in pile) for pile in piles]
    can_empty = sum(1 for pile, unknown in zip(piles, hidden, strict=True) if not unknown)
    keep = search.constraints.keep_spaces
    if keep > can_empty:
        return Proof(Ground.TOO_FEW_SPACES, count=can_empty, keep=keep)
    if goal.kind == GoalKind.TURN_UP:
        down = [any(c >= FACE_DOWN for c in pile) for pile in piles]
        if search.pile >= 0 and not down[search.pile]:
            return Proof(Ground.PILE_NOT_DOWN, pile=search.pile)
        if not any(down):
            return Proof(Ground.NONE_DOWN)
    if goal.kind == GoalKind.SPACE and can_empty <= search.root_spaces:
        return Proof(Ground.NONE_CAN_EMPTY)
    if goal.kind == GoalKind.SPACE and search.pile >= 0:
        covered = [c for c in piles[search.pile] if c >= FACE_DOWN]
        if FACE_DOWN in covered:
            return Proof(Ground.PILE_UNKNOWN, pile=search.pile)
        if covered and search.constraints.no_turn_up:
            return Proof(Ground.PILE_KEPT, pile=search.pile)
    if goal.kind in (GoalKind.REMOVE, GoalKind.FREE):
        known, on_table = _reachable_cards(search)
        if goal.kind == GoalKind.FREE and not known.get(goal.card or 0):
            return Proof(Ground.CARD_UNKNOWN, card=goal.card or 0, on_table=on_table)
        wanted: dict[int, int] = {}
        for step in goal.steps:
            for suit in step:
                wanted[suit] = wanted.get(suit, 0) + 1
        for suit, sets in sorted(wanted.items()):
            short = tuple(
                suit * 16 + rank
                for rank in range(KING, 0, -1)
                if known.get(suit * 16 + rank, 0) < sets
            )
            if short:
                ground = Ground.SUIT_SHORT if sets == 1 else Ground.SETS_SHORT
                return Proof(ground, count=sets, suit=suit, cards=short, on_table=on_table)
    return None


def counted(search: Search, limit: Limit = counting.COUNT_LIMIT) -> tuple[Proof | None, int]:
    """What the counting argument (:mod:`~spider_cli.analysis.search.counting`) shows before
    any search: why it rules the goal out (else None), and for a card to turn up in any pile,
    the one pile (its real index) it leaves for the first card turned up (else -1: the goal
    is then the same as turning up a card in that pile).

    It holds only while no deal can come, and counts the goals it can: turning up a card,
    a space, and the next suit of a removal (every suit of the first step must fail). It
    gives up at ``limit`` (in choices)."""
    questions = _questions(search)
    if not questions:
        return None, -1
    goal = search.goal
    if goal.kind == GoalKind.TURN_UP and search.pile < 0:  # any pile: which piles stay open
        found = turn_up_piles(search.start.piles, questions[0], limit)
        if found is None or found[0]:
            return None, found[0][0] if found is not None and len(found[0]) == 1 else -1
        examined = found[1]
    else:
        examined = 0
        for question in questions:
            count = refute(search.start.piles, question, limit.within(limit.positions - examined))
            if count is None:
                return None, -1
            examined += count
    return Proof(Ground.COUNTED, count=examined), -1


def counted_in_moments(search: Search, limit: Limit = moments.MOMENT_LIMIT) -> Proof | None:
    """Why the counting argument at several moments of a line
    (:mod:`spider_cli.analysis.search.moments`) rules the goal out, or None (none found within
    ``limit``: its choices, or the time asked for). For a goal the plain count leaves open:
    it costs more."""
    questions = _questions(search)
    if not questions:
        return None
    examined = 0
    cards: list[moments.Card] = []
    for question in questions:
        left = limit.within(limit.positions - examined)
        found = moments.refute(search.start.piles, question, left)
        if found is None:
            return None
        proof, count = found
        examined += count
        cards += [card for card in proof.cards() if card not in cards]
    return Proof(
        Ground.COUNTED_AT_MOMENTS,
        count=examined,
        cards=tuple(card_code(search.start.piles[pile][index]) for pile, index in cards),
        piles=tuple(pile for pile, _index in cards),
    )


def counted_in_every_order(search: Search, limit: Limit = firstmoves.ORDER_LIMIT) -> Proof | None:
    """Why the counting argument made just before every first move of a card, in every
    order (:mod:`spider_cli.analysis.search.firstmoves`), rules the goal out, or None (none found
    within ``limit``: its states, or the time asked for). It costs more than
    :func:`counted_in_moments`."""
    questions = _questions(search)
    if not questions:
        return None
    examined = 0
    for question in questions:
        left = limit.within(limit.positions - examined)
        count = firstmoves.refute(search.start.piles, question, left, native.first_moves)
        if count is None:
            return None
        examined += count
    return Proof(Ground.COUNTED_IN_EVERY_ORDER, count=examined)


def _questions(search: Search) -> list[Question]:
    """The counting argument's questions for the search's goal (every one must be ruled
    out), or none when it cannot count that goal: while a deal can come, or past the first
    space when the goal names its pile."""
    goal, cons = search.goal, search.constraints
    if not search.sorted_mode or goal.kind not in (
        GoalKind.TURN_UP,
        GoalKind.SPACE,
        GoalKind.REMOVE,
    ):
        return []
    common = _question_terms(search)
    if goal.kind == GoalKind.TURN_UP:
        return [
            Question(kind=GoalKind.TURN_UP, target=search.pile, spaces=cons.keep_spaces, **common)
        ]
    if goal.kind == GoalKind.SPACE:
        first = search.pile >= 0  # a named pile must be the first new space
        if first and cons.keep_spaces > search.root_spaces + 1:
            return []  # the line goes on past the first space: not what it counts
        if first and common["most_spaces"] is None:
            common["most_spaces"] = search.root_spaces + 1
        return [
            Question(
                kind=GoalKind.SPACE,
                target=search.pile,
                spaces=max(cons.keep_spaces, search.root_spaces + 1),
                first=first,
                **common,
            )
        ]
    return [Question(kind=GoalKind.REMOVE, suit=suit, **common) for suit in goal.steps[0]]


class _QuestionTerms(TypedDict):
    """The terms of a counting question (see :class:`Question`) that every goal shares."""

    no_turn_up: bool
    most_spaces: int | None
    others: tuple[int, ...]


def _question_terms(search: Search) -> _QuestionTerms:
    """The terms of the counting argument's question that every goal shares."""
    cons = search.constraints
    goal_suits = {suit for step in search.goal.steps for suit in step}
    return {
        "no_turn_up": cons.no_turn_up,
        "most_spaces": search.root_spaces if cons.no_new_space else None,
        "others": tuple(s for s in range(4) if s not in goal_suits | search.forbidden),
    }


def _reachable_cards(search: Search) -> tuple[dict[int, int], bool]:
    """How many copies of each card a line can reach: the tableau's known cards, and the
    hand's rows that can be dealt (every card known: a deal of unknown cards ends the
    line); and whether only those on the table count (the hand does not)."""
    reach = [c for pile in search.start.piles for c in pile if c != FACE_DOWN]
    rows = search.start.rows
    dealing = not search.constraints.no_deal and bool(rows) and UNKNOWN not in rows[0]
    if dealing:
        for row in rows:
            if UNKNOWN in row:
                break
            reach.extend(row)
    known: dict[int, int] = {}
    for c in reach:
        code = card_code(c)
        known[code] = known.get(code, 0) + 1
    return known, not dealing
