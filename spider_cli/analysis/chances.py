"""What full-information play says of a deal: whether it is won with every card known
(``new winnable``, ``spider --winnable``).

The check is :func:`spider_cli.analysis.autoplay.play` bounded by positions, never by the
clock, so the same request chooses the same deal on any machine, however busy. "Won" is
always with every card known: the search sees the face-down cards and the hand, which a
player does not, so a deal it wins may still be lost by a player who cannot see them.
"""

from __future__ import annotations

from collections.abc import Iterable

from spider_cli.analysis import autoplay
from spider_cli.analysis.goals import Wanted
from spider_cli.rules.engine import Game
from spider_cli.rules.values import Value

CHECK_LIMIT = 1_500_000
"""Positions full-information play may examine to win a deal offered as winnable: about a
second on the compiled core, fifteen on the Python path. Of our deals 0-199 it wins every 1-
and 2-suit deal within it and 190 of the 4-suit ones (a check 0.24 s on average, 2.2 s at
most: ``benchmarks/deal_difficulty.py``, BENCHMARKS.md)."""

TRIES = 30
"""Deals checked, one number after another, before ``new winnable`` gives up."""


class Checked(Value):
    """A deal checked by full-information play: won within :data:`CHECK_LIMIT` positions
    or not, and the positions examined."""

    won: bool
    positions: int


def check(game: Game, limit: int | None = None) -> Checked:
    """Play a deal whose cards are all known, at most ``limit`` positions (None:
    :data:`CHECK_LIMIT`)."""
    result = autoplay.play(game, CHECK_LIMIT if limit is None else limit)
    return Checked(result.won, result.positions)


def fits(checked: Checked, wanted: Wanted) -> bool:
    """Whether a checked deal is the kind asked for."""
    return checked.won


def first_fitting(games: Iterable[Game], wanted: Wanted) -> tuple[int, Checked] | None:
    """The first of ``games`` (deals with every card known) of the kind wanted, by its place
    among them, and its check; None if none is."""
    for place, game in enumerate(games):
        checked = check(game)
        if fits(checked, wanted):
            return place, checked
    return None
