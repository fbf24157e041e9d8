"""``for each reveal``: the goal again for every card a face-down card could turn out to be
(:func:`contingencies`), and its verdict (:func:`contingency_status`); its words are
:func:`spider_cli.app.words.findings.contingency_text`."""

from __future__ import annotations

from dataclasses import dataclass

from spider_cli.analysis.compact import State, apply, encode
from spider_cli.analysis.limits import Clock, Verdict
from spider_cli.analysis.solve.solver import NO_CONSTRAINTS, Answer, answer, check_goal, limit_of
from spider_cli.rules.engine import Action, Deal, Game, Move, Remove
from spider_cli.rules.errors import QuestionError
from spider_cli.rules.goals import Constraints, Goal, GoalKind
from spider_cli.rules.text import move_text
from spider_cli.rules.values import replace


@dataclass
class Contingency:
    """One move that turns up an unknown card, and the answer for each card it could be.

    ``outcomes`` holds (card, copies among the unknown cards, answer) for each distinct card.
    """

    action: Action
    text: str
    pile: int
    outcomes: list[tuple[int, int, Answer]]

    def cards(self, status: Verdict) -> list[int]:
        return [card for card, _n, answer in self.outcomes if answer.status == status]

    def share(self, status: Verdict) -> tuple[int, int]:
        """(copies with this answer, copies in all) among the unknown cards."""
        total = sum(n for _card, n, _answer in self.outcomes)
        return sum(n for _c, n, a in self.outcomes if a.status == status), total


DEFAULT_CARD_LIMIT = 30_000
"""Positions examined for each card in ``for each reveal`` unless a limit is given."""


def reveal_actions(game: Game, constraints: Constraints = NO_CONSTRAINTS) -> list[Action]:
    """The moves and removals available now that turn up an unknown card, one for each
    different result (moves into different spaces count once)."""
    found: dict[tuple[State, type[Move | Remove]], Move | Remove] = {}
    for action in game.legal_moves():
        if isinstance(action, Deal) or not game.unknown_reveals(action):
            continue
        if isinstance(action, Remove) and _suit_at(game, action.pile) in constraints.no_remove:
            continue
        new, _turned, _outcome = apply(encode(game).piles, action)
        found.setdefault((tuple(sorted(new)), type(action)), action)

    def order(action: Move | Remove) -> tuple[int, bool, tuple[int, ...]]:
        return action[0], isinstance(action, Remove), tuple(action)

    ordered: list[Move | Remove] = sorted(found.values(), key=order)
    return list(ordered)


def _suit_at(game: Game, pile: int) -> int:
    return game.piles[pile][-1] >> 4


def contingencies(
    game: Game, goal: Goal, constraints: Constraints = NO_CONSTRAINTS, clock: Clock | None = None
) -> tuple[Answer | None, list[Contingency]]:
    """For each move that turns up an unknown card, and each card it could be: the goal.

    The moves considered are those available now; when there are none, the shortest line
    that turns up a card is found first (returned as the first value) and its last move is
    the one considered. Each card's search stops at ``constraints.limit`` positions
    (default :data:`DEFAULT_CARD_LIMIT`); ``clock`` only times the searches.
    """
    check_goal(goal)
    if constraints.no_turn_up:
        raise QuestionError("'for each reveal' needs a card turned up: drop 'no turn up'")
    if constraints.seconds:
        raise QuestionError(
            "'for each reveal' runs one search a card: give it 'limit N' "
            "(positions a card) rather than a time"
        )
    base = game
    prefix: Answer | None = None
    moves = reveal_actions(game, constraints)
    if not moves:
        reach = replace(constraints, keep_spaces=0, no_turn_up=False)
        prefix = answer(game, Goal(GoalKind.TURN_UP), reach, limit_of(reach, clock))
        if not prefix.found or prefix.reveal is None:
            return prefix, []
        base = game.copy()
        for action in prefix.actions[:-1]:
            base.push(action)
        moves = [prefix.actions[-1]]
    per_card = replace(constraints, no_turn_up=False, limit=constraints.limit or DEFAULT_CARD_LIMIT)
    results = []
    pool = base.pool
    for action in moves:
        (pile,) = base.unknown_reveals(action)
        text = move_text(base, action)
        outcomes = []
        for card in range(64):
            if not pool[card]:
                continue
            copies = pool[card]
            work = base.copy()
            work.assume(pile, card)
            work.push(action)
            outcomes.append((card, copies, answer(work, goal, per_card, limit_of(per_card, clock))))
        results.append(Contingency(action, text, pile + 1, outcomes))
    return prefix, results


def contingency_status(prefix: Answer | None, found: list[Contingency]) -> Verdict:
    """The verdict of a ``for each reveal`` report: possible when some card the turned-up
    card could be leads to the goal, impossible when none can, else unknown."""
    if not found:
        return prefix.status if prefix is not None and not prefix.found else Verdict.UNKNOWN
    statuses = {result.status for item in found for _c, _n, result in item.outcomes}
    if Verdict.POSSIBLE in statuses:
        return Verdict.POSSIBLE
    return Verdict.IMPOSSIBLE if statuses == {Verdict.IMPOSSIBLE} else Verdict.UNKNOWN
