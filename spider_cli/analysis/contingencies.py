"""``for each reveal``: the goal again for every card a face-down card could turn out to be
(:func:`contingencies`), and the report of it the manual's way (:func:`contingency_text`)."""

from __future__ import annotations

from dataclasses import dataclass

from spider_cli.analysis.compact import State, apply, encode
from spider_cli.analysis.goals import Clock, Verdict
from spider_cli.analysis.proofs import join
from spider_cli.analysis.solver import NO_CONSTRAINTS, Answer, check_goal, limit_of, solve
from spider_cli.rules.cards import RANK_WORDS, SUIT_NAMES, card_text
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
        prefix = solve(game, Goal(GoalKind.TURN_UP), reach, limit_of(reach, clock))
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
            outcomes.append((card, copies, solve(work, goal, per_card, limit_of(per_card, clock))))
        results.append(Contingency(action, text, pile + 1, outcomes))
    return prefix, results


def describe_cards(cards: list[int], pool: dict[int, int]) -> str:
    """Cards as a player says them: whole ranks by name ("a Jack, 4 or King"), then the
    single cards of ranks whose other suits differ ("the 9h")."""
    by_rank: dict[int, list[int]] = {}
    for card in cards:
        by_rank.setdefault(card & 15, []).append(card)
    ranks: list[str] = []
    singles: list[str] = []
    for rank in sorted(by_rank):
        every = [c for c in pool if c & 15 == rank]
        if sorted(by_rank[rank]) == sorted(every):
            ranks.append(RANK_WORDS[rank])
        else:
            singles.extend(card_text(c) for c in sorted(by_rank[rank]))
    parts = []
    if ranks:
        parts.append(("an " if ranks[0][0] in "A8" else "a ") + join(ranks))
    if singles:
        parts.append("the " + join(singles))
    return ", or ".join(parts)


def goal_text(goal: Goal) -> str:
    """The goal in words, as typed."""
    if goal.kind == GoalKind.TURN_UP:
        return "turn up a card" + (f" in pile {goal.pile + 1}" if goal.pile is not None else "")
    if goal.kind == GoalKind.SPACE:
        return "get a space" + (f" in pile {goal.pile + 1}" if goal.pile is not None else "")
    if goal.kind == GoalKind.WIN:
        return "win"
    if goal.kind == GoalKind.FREE:
        return f"free the {card_text(goal.card or 0)}"
    steps = [" and ".join(SUIT_NAMES[s] for s in step) for step in goal.steps]
    return "remove the " + " then ".join(steps)


def contingency_text(goal: Goal, prefix: Answer | None, found: list[Contingency]) -> str:
    """The report of :func:`contingencies`, the manual's way: "if it's a Jack, 4 or King..."."""
    lines = []
    if prefix is not None:
        if not found:
            return "no line over the known cards turns up a card: " + prefix.summary()
        lines.append("first, to turn up a card: " + ", ".join(prefix.texts[:-1]))
    for item in found:
        _yes, total = item.share(Verdict.POSSIBLE)
        lines.append(
            f"{item.text} turns up a card in pile {item.pile} "
            f"({total} unknown card{'s' if total != 1 else ''} it could be):"
        )
        pool = {card: n for card, n, _a in item.outcomes}
        for status, verb in (
            (Verdict.POSSIBLE, "possible"),
            (Verdict.IMPOSSIBLE, "impossible"),
            (Verdict.UNKNOWN, "unknown (search limit)"),
        ):
            cards = item.cards(status)
            if not cards:
                continue
            count, total = item.share(status)
            lines.append(
                f"  {goal_text(goal)}: {verb} if it is {describe_cards(cards, pool)} "
                f"({count} of {total}, {100 * count / total:.0f}%)"
            )
        examples = [(c, a) for c, _n, a in item.outcomes if a.found and a.texts]
        if examples:
            card, answer = min(examples, key=lambda e: (len(e[1].texts), e[0]))
            lines.append(f"  for example, after {card_text(card)}: " + ", ".join(answer.texts))
    return "\n".join(lines)


def contingency_status(prefix: Answer | None, found: list[Contingency]) -> Verdict:
    """The verdict of a ``for each reveal`` report: possible when some card the turned-up
    card could be leads to the goal, impossible when none can, else unknown."""
    if not found:
        return prefix.status if prefix is not None and not prefix.found else Verdict.UNKNOWN
    statuses = {result.status for item in found for _c, _n, result in item.outcomes}
    if Verdict.POSSIBLE in statuses:
        return Verdict.POSSIBLE
    return Verdict.IMPOSSIBLE if statuses == {Verdict.IMPOSSIBLE} else Verdict.UNKNOWN
