"""A ``solve`` command answered (:func:`solve`): "win" with every card known by
full-information play, ``for each reveal`` by :mod:`spider_cli.analysis.solve.contingencies`,
everything else by :func:`spider_cli.analysis.solve.solver.answer`."""

from __future__ import annotations

from typing import NamedTuple

from spider_cli.analysis.limits import Clock, Limit, Verdict
from spider_cli.analysis.solve.autoplay import PlayResult, play, play_limit
from spider_cli.analysis.solve.contingencies import Contingency, contingencies, contingency_status
from spider_cli.analysis.solve.solver import NO_CONSTRAINTS, Answer, answer, check_goal, limit_of
from spider_cli.rules.engine import Action, Game
from spider_cli.rules.goals import Constraints, Goal, GoalKind
from spider_cli.rules.values import replace


class EachReveal(NamedTuple):
    """A ``for each reveal`` answer: the line that first turns up a card (None when a move
    of the position already does), and the answers for each card it could be."""

    prefix: Answer | None
    found: list[Contingency]


class Report(NamedTuple):
    """What a ``solve`` question found: the goal asked, the search's own result (a
    :class:`Answer`, full-information play's :class:`PlayResult`, or :class:`EachReveal`),
    the line ``apply`` plays (engine actions for the game asked about), and the verdict
    (for ``for each reveal``, possible when some card the turned-up card could be leads to
    the goal, impossible when none can, else unknown). Its words:
    :func:`spider_cli.app.words.findings.report_text`."""

    goal: Goal
    found: Answer | PlayResult | EachReveal
    actions: list[Action]
    status: Verdict


def solve(
    game: Game,
    goal: Goal,
    constraints: Constraints = NO_CONSTRAINTS,
    each_reveal: bool = False,
    clock: Clock | None = None,
) -> Report:
    """Answer a ``solve`` question on a game; a question that cannot be asked raises
    :class:`~spider_cli.rules.errors.QuestionError`.

    "win" with every card known and no constraint but the time is full-information play
    (:func:`play`; a deal not won within its limits is "unknown", "impossible" only when
    its complete search proved it unwinnable); everything else is the exhaustive search
    (:func:`~spider_cli.analysis.solve.solver.answer`). Every search is bounded by positions;
    ``clock`` (None: none is read) times the answer and caps "within N seconds".
    """
    check_goal(goal)
    if each_reveal:
        prefix, found = contingencies(game, goal, constraints, clock)
        line = prefix.actions if prefix is not None and found else []
        return Report(goal, EachReveal(prefix, found), line, contingency_status(prefix, found))
    untimed = replace(constraints, seconds=None)
    if goal.kind is GoalKind.WIN and untimed == NO_CONSTRAINTS and game.unknown_count() == 0:
        result = play(game, Limit.of(play_limit(constraints.seconds), constraints.seconds, clock))
        verdict = (
            Verdict.POSSIBLE
            if result.won
            else Verdict.IMPOSSIBLE
            if result.proved
            else Verdict.UNKNOWN
        )
        return Report(goal, result, result.actions, verdict)
    searched = answer(game, goal, constraints, limit_of(constraints, clock))
    return Report(goal, searched, searched.actions, searched.status)
