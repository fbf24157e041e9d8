"""The player at each level: the blind player's turn from a view, its choices weighed on
sampled deals (:mod:`~spider_cli.analysis.chance.search`), or judged on sampled worlds by the
full-information search at the judge level (:mod:`~spider_cli.analysis.chance.judge`). The
bench, the review and the research scripts play it."""

from __future__ import annotations

from spider_cli.analysis import native
from spider_cli.analysis.blind import (
    WEIGHED,
    Decision,
    Mode,
    PlayerView,
    Weights,
    decide,
    weights_for,
)
from spider_cli.analysis.chance import judge
from spider_cli.analysis.chance.search import JUDGING, Level, Pick, weigh
from spider_cli.analysis.limits import Expired, Limit


def choose(
    view: PlayerView,
    mode: Mode,
    budget: Limit,
    level: Level,
    expired: Expired | None = None,
    weights: Weights | None = None,
) -> Pick:
    """The blind player's turn from ``view`` (:func:`~spider_cli.analysis.blind.decide`), its
    choices then weighed by :func:`~spider_cli.analysis.chance.search.weigh` at ``level``, or
    judged by :func:`~spider_cli.analysis.chance.judge.choose` at the judge level; the
    positions counted include the search's.
    ``weights``: the value's (by default those shipped for the view's number of suits)."""
    unseen = view.unseen() if WEIGHED[view.suits] else ()
    weights = weights or weights_for(view.suits)
    decision = decide(native.backend().blind_search, view.turn(mode, weights), budget, unseen)
    return over(view, decision, level, expired, weights)


def over(
    view: PlayerView,
    decision: Decision,
    level: Level,
    expired: Expired | None = None,
    weights: Weights | None = None,
) -> Pick:
    """The blind player's ``decision`` from ``view`` weighed at ``level``: by the search over
    sampled deals (:func:`~spider_cli.analysis.chance.search.weigh`), or at the judge level by
    the judge (:func:`~spider_cli.analysis.chance.judge.rule`, which has no ``expired``: its
    searches are bounded by positions, and it plays the shipped weights)."""
    if level is Level.JUDGE:
        ruling = judge.rule(view, decision, JUDGING)
        return Pick(ruling.decision, ruling.played, judged=ruling.judged)
    return weigh(view, decision, level, expired, weights or weights_for(view.suits))
