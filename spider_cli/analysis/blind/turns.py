"""What the blind player is asked: a :class:`Turn` (the position it plans from, the worth of
a space and the value's weights), and a :class:`Request` (one search of a turn: the turn,
its :class:`~spider_cli.analysis.limits.Limit` and the search's shape).

Both paths of the search (:func:`spider_cli.analysis.blind.player.search` and the compiled
core's, through :mod:`spider_cli.analysis.native`) take a request, so the arguments of a
search are written here once; :func:`~spider_cli.analysis.blind.player.plan` and
:func:`~spider_cli.analysis.blind.player.decide` take a turn."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from spider_cli.analysis.blind.evaluation import STANDARD, Weights
from spider_cli.analysis.compact import State
from spider_cli.analysis.limits import Limit


class Mode(Enum):
    """What a space is worth to the search: kept (more than a card turned up), used (less),
    or filled before a deal (a loss)."""

    KEEP = 150
    USE = 50
    FILL = -2_000


@dataclass(frozen=True)
class Turn:
    """Where a turn of the blind player starts: the compact ``piles``
    (:mod:`~spider_cli.analysis.compact`), the suits ``removed``, the cards in the ``hand``,
    what a space is worth (``mode``) and the value's ``weights``."""

    piles: State
    removed: int
    hand: int
    mode: Mode = Mode.KEEP
    weights: Weights = STANDARD

    def at(self, mode: Mode) -> Turn:
        """The same turn with a space worth ``mode``."""
        return replace(self, mode=mode)

    def after(self, piles: State, removed: int) -> Turn:
        """The turn from ``piles`` (``removed`` suits off) further along a line: the same
        hand, space and weights."""
        return replace(self, piles=piles, removed=removed)


@dataclass(frozen=True)
class Request:
    """One search of a turn (what a :class:`~spider_cli.analysis.blind.player.BlindSearch`
    takes): the ``turn``, the ``limit`` (its positions: the player's searches are bounded by
    positions alone, never a clock, so a deal is always played the same way), whether
    ``parts`` of runs may go into a space, and the ``width`` of a beam (0: breadth-first)."""

    turn: Turn
    limit: Limit
    parts: bool
    width: int = 0
