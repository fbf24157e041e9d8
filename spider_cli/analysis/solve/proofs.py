"""What shows a goal out of reach without a search: :func:`out_of_reach` (cards that are not
known, piles that cannot empty) and :func:`counted` (the counting argument of
:mod:`spider_cli.analysis.search.counting`). Both hold over the known cards, so "impossible" from
either is a proof."""

from __future__ import annotations

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
from spider_cli.rules.cards import KING, SUIT_NAMES, UNKNOWN, card_text
from spider_cli.rules.goals import GoalKind


def out_of_reach(search: Search) -> str:
    """Why the goal cannot be met whatever is played, when that shows without a search
    (else ""). Over the known cards a pile with an unknown face-down card is never emptied
    (turning that card up ends the line), and a suit with a card neither in the tableau nor
    in a known hand is never completed."""
    goal, start = search.goal, search.start
    piles = start.piles
    hidden = [any(c == FACE_DOWN for c in pile) for pile in piles]
    can_empty = sum(1 for pile, unknown in zip(piles, hidden, strict=True) if not unknown)
    keep = search.constraints.keep_spaces
    if keep > can_empty:
        return (
            f"at most {can_empty} pile{'s' if can_empty != 1 else ''} can ever be "
            f"empty (the others have unknown face-down cards), not the {keep} to keep"
        )
    if goal.kind == GoalKind.TURN_UP:
        down = [any(c >= FACE_DOWN for c in pile) for pile in piles]
        if search.pile >= 0 and not down[search.pile]:
            return f"pile {search.pile + 1} has no face-down card"
        if not any(down):
            return "no pile has a face-down card"
    if goal.kind == GoalKind.SPACE and can_empty <= search.root_spaces:
        return "every pile that is not a space has an unknown face-down card"
    if goal.kind == GoalKind.SPACE and search.pile >= 0:
        covered = [c for c in piles[search.pile] if c >= FACE_DOWN]
        if FACE_DOWN in covered:
            return f"pile {search.pile + 1} has an unknown face-down card"
        if covered and search.constraints.no_turn_up:
            return f"pile {search.pile + 1} has a face-down card, and 'no turn up' keeps it there"
    if goal.kind in (GoalKind.REMOVE, GoalKind.FREE):
        known, where = _reachable_cards(search)
        if goal.kind == GoalKind.FREE and not known.get(goal.card or 0):
            return f"the {card_text(goal.card or 0)} is not among the known cards{where}"
        wanted: dict[int, int] = {}
        for step in goal.steps:
            for suit in step:
                wanted[suit] = wanted.get(suit, 0) + 1
        for suit, sets in sorted(wanted.items()):
            short = [
                card_text(suit * 16 + rank)
                for rank in range(KING, 0, -1)
                if known.get(suit * 16 + rank, 0) < sets
            ]
            if short and sets == 1:
                return (
                    f"the {join(short, 'and')} {'is' if len(short) == 1 else 'are'} not among "
                    f"the known cards{where}, so the {SUIT_NAMES[suit]} cannot be completed"
                )
            if short:
                return (
                    f"{sets} sets of {SUIT_NAMES[suit]} need {sets} of each card, and "
                    f"the known cards{where} have fewer of the {join(short, 'and')}"
                )
    return ""


def counted_out(search: Search, limit: Limit = counting.LIMIT) -> str:
    """Why the counting argument (:mod:`~spider_cli.analysis.search.counting`) rules the goal
    out, or ""."""
    return counted(search, limit)[0]


def counted(search: Search, limit: Limit = counting.LIMIT) -> tuple[str, int]:
    """What the counting argument (:mod:`~spider_cli.analysis.search.counting`) shows before any
    search: why it rules the goal out (else ""), and for a card to turn up in any pile, the one pile
    (its real index) it leaves for the first card turned up (else -1: the goal is then the
    same as turning up a card in that pile).

    It holds only while no deal can come, and counts the goals it can: turning up a card,
    a space, and the next suit of a removal (every suit of the first step must fail). It
    gives up at ``limit`` (in choices)."""
    questions = _questions(search)
    if not questions:
        return "", -1
    goal = search.goal
    if goal.kind == GoalKind.TURN_UP and search.pile < 0:  # any pile: which piles stay open
        found = turn_up_piles(search.start.piles, questions[0], limit)
        if found is None or found[0]:
            return "", found[0][0] if found is not None and len(found[0]) == 1 else -1
        examined = found[1]
    else:
        examined = 0
        for question in questions:
            count = refute(search.start.piles, question, limit.within(limit.positions - examined))
            if count is None:
                return "", -1
            examined += count
    return _short_of_places(examined), -1


def counted_in_moments(search: Search, limit: Limit = moments.LIMIT) -> str:
    """Why the counting argument at several moments of a line
    (:mod:`spider_cli.analysis.search.moments`) rules the goal out, or "" (none found within
    ``limit``: its choices, or the time asked for). For a goal the plain count leaves open:
    it costs more."""
    questions = _questions(search)
    if not questions:
        return ""
    examined = 0
    cards: list[moments.Card] = []
    for question in questions:
        left = limit.within(limit.positions - examined)
        found = moments.refute(search.start.piles, question, left)
        if found is None:
            return ""
        proof, count = found
        examined += count
        cards += [card for card in proof.cards() if card not in cards]
    named = [
        f"the {card_text(card_code(search.start.piles[pile][index]))} of pile {pile + 1}"
        for pile, index in cards
    ]
    if not named:
        when = "at the end of the line"
    elif len(named) == 1:
        when = f"at the end of the line and just before {named[0]} first moves (if it does)"
    else:
        when = (
            f"at the end of the line and just before each of {join(named, 'and')} first "
            f"moves (in any order, if they do)"
        )
    return _short_of_places(examined, when)


def counted_in_every_order(search: Search, limit: Limit = firstmoves.LIMIT) -> str:
    """Why the counting argument made just before every first move of a card, in every
    order (:mod:`spider_cli.analysis.search.firstmoves`), rules the goal out, or "" (none found
    within ``limit``: its states, or the time asked for). It costs more than
    :func:`counted_in_moments`."""
    questions = _questions(search)
    if not questions:
        return ""
    examined = 0
    for question in questions:
        left = limit.within(limit.positions - examined)
        count = firstmoves.refute(search.start.piles, question, left, native.first_moves)
        if count is None:
            return ""
        examined += count
    return _short_of_places(
        examined, "just before each card first moves, in every order of those moves"
    )


def _short_of_places(examined: int, when: str = "") -> str:
    """The counting argument's reason: the count fails (at the moments ``when`` says)."""
    counted = f", counted {when}" if when else ""
    return (
        f"however the cards are played, the moved cards would need more cards one rank "
        f"higher and spaces to lie on than the tableau can offer{counted} (a counting "
        f"argument over {examined:,} choice{'s' if examined != 1 else ''} of the cards that "
        f"never move)"
    )


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


def _reachable_cards(search: Search) -> tuple[dict[int, int], str]:
    """How many copies of each card a line can reach: the tableau's known cards, and the
    hand's rows that can be dealt (every card known: a deal of unknown cards ends the
    line); and " on the table" when the hand does not count."""
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
    return known, "" if dealing else " on the table"


def join(words: list[str], last: str = "or") -> str:
    """Words as a list is said: "a, b or c"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"
