"""What a search answers (:class:`Verdict`), how long full-information play may look
(:data:`PLAY_LIMIT`), and the only way wall time reaches a search (:data:`Clock`,
:func:`deadline`). What a search looks for lives below, in :mod:`spider_cli.rules.goals`."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

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


PLAY_LIMIT = 20_000_000
"""Positions full-information play (:func:`spider_cli.analysis.autoplay.play`) examines
before it gives up: about ten seconds on the compiled core (1.5 to 2 million positions a
second), the hardest deals' worth; a few minutes on the Python path (70,000 to 150,000).
Most deals are won far sooner (pysol:1-100: 0.3 s a deal). Here, in a module the command
line loads anyway, so that its help does not load the searches."""


class Verdict(StrEnum):
    """A search's answer: a line was found, none exists, or the search stopped at its limit."""

    POSSIBLE = "possible"
    IMPOSSIBLE = "impossible"
    UNKNOWN = "unknown"
