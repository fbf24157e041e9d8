"""What a search looks for (:class:`Goal`), the rules its line keeps (:class:`Constraints`),
and the only way wall time reaches a search (:data:`Clock`, :func:`deadline`)."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from spider_cli.rules.values import Value

Clock = Callable[[], float]
"""Seconds from some fixed point (``time.perf_counter``, say). Searches are bounded by the
positions they examine; a clock is read only when a caller passes one in, to report the
seconds a search took and to stop it at a time its user asked for."""

Expired = Callable[[], bool]
"""True once a search's time is up (see :func:`deadline`)."""


def deadline(clock: Clock | None, seconds: float | None) -> Expired | None:
    """A test that ``seconds`` have passed on ``clock`` since now, or None (no time cap) when
    either is missing: with no clock, a search never looks at the time."""
    if clock is None or seconds is None:
        return None
    end = clock() + seconds
    return lambda: clock() > end


class Goal(Value):
    """What ``solve`` looks for (see :mod:`spider_cli.analysis.solver`).

    ``kind`` is "turn up" (``pile`` as typed, or None for any pile), "space" (one more
    space than at the start; with a ``pile``, the first new space is that pile), "remove",
    "free" (``card``: a copy of it face up with nothing on it, the manual's "free" card) or
    "win". For "remove", ``steps`` lists the suits in order: "hearts then clubs" is
    ``((1,), (3,))``; "clubs and hearts" (either order) is ``((3, 1),)``.
    """

    kind: str
    pile: int | None = None
    steps: tuple[tuple[int, ...], ...] = ()
    card: int | None = None


class Constraints(Value):
    """Rules a ``solve`` line must keep: "no deal", "keep N spaces" (at its end), "no remove
    SUIT" (``no_remove`` lists suits; "no remove" alone lists all four, the goal's own
    removals excepted), "no new space" (no move empties a pile), "no turn up" (no face-down
    card is turned up), "limit N" (positions to examine before answering "unknown") and
    "within N seconds" (time to search before answering "unknown": as many positions as
    that usually allows, and a cap on the time when the search is given a clock)."""

    no_deal: bool = False
    keep_spaces: int = 0
    no_remove: tuple[int, ...] = ()
    no_new_space: bool = False
    no_turn_up: bool = False
    limit: int | None = None
    seconds: int | None = None


PLAY_LIMIT = 20_000_000
"""Positions full-information play (:func:`spider_cli.analysis.autoplay.play`) examines
before it gives up: about ten seconds on the compiled core (1.5 to 2 million positions a
second), the hardest deals' worth; a few minutes on the Python path (70,000 to 150,000).
Most deals are won far sooner (pysol:1-100: 0.3 s a deal). Here, in a module the command
line loads anyway, so that its help does not load the searches."""


class Wanted(StrEnum):
    """What a new deal must be (``new winnable``, ``new easy``): won by full-information
    play (:mod:`spider_cli.analysis.chances`), and of that rank of difficulty when one is
    named. Here, in a module the command line loads anyway, so that reading a command does
    not load the searches."""

    WINNABLE = "winnable"
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Verdict(StrEnum):
    """A search's answer: a line was found, none exists, or the search stopped at its limit."""

    POSSIBLE = "possible"
    IMPOSSIBLE = "impossible"
    UNKNOWN = "unknown"
