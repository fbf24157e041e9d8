"""What a search answers (:class:`Verdict`), where it stopped short (:class:`Halted`), how
long full-information play and the blind player may look (:data:`PLAY_LIMIT`,
:data:`TURN_LIMIT`), and how far a search may go
(:class:`Limit`: positions, and the only way wall time reaches a search). What a search
looks for lives below, in :mod:`spider_cli.rules.goals`."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum, StrEnum

from spider_cli.rules.values import Value

Clock = Callable[[], float]
"""Seconds from some fixed point (``time.perf_counter``, say). Searches are bounded by the
positions they examine; a clock is read only when a caller passes one in, to report the
seconds a search took and to stop it at a time its user asked for."""

Expired = Callable[[], bool]
"""True once a search's time is up (see :meth:`Limit.expired`)."""


class OverBudget(Exception):
    """A search passed its :class:`Limit`: its count, or the time its user asked for."""


class Limit(Value):
    """How far a search may go, as python-chess's ``chess.engine.Limit`` says it: ``positions``
    examined, and, given a ``clock``, until the clock reads ``end`` (see :meth:`of`). With no
    clock a search never looks at the time.

    Every search takes one, built once where a command starts and shared out with
    :meth:`within`. What a search counts as a position is its own unit of work: positions
    for the play and goal searches, states for the orders of first moves, choices for the
    counting proofs, positions a move for the blind player."""

    positions: int
    clock: Clock | None = None
    end: float | None = None

    @classmethod
    def of(cls, positions: int, seconds: float | None = None, clock: Clock | None = None) -> Limit:
        """``positions``, and ``seconds`` from now on ``clock`` when both are given."""
        if clock is None or seconds is None:
            return cls(positions, clock)
        return cls(positions, clock, clock() + seconds)

    def within(self, positions: int) -> Limit:
        """The same time, fewer (or other) positions: a share of the limit for one phase."""
        return Limit(positions, self.clock, self.end)

    @property
    def expired(self) -> Expired | None:
        """A test that the time is up, or None when the limit has no time (what the
        compiled core takes)."""
        clock, end = self.clock, self.end
        if clock is None or end is None:
            return None
        return lambda: clock() > end

    def spent(self, examined: int) -> None:
        """Raise :class:`OverBudget` once ``examined`` passes the positions, or when the time
        is up (read every 4,096, so that a clock costs nothing per position)."""
        if examined > self.positions:
            raise OverBudget
        clock, end = self.clock, self.end
        if examined & 4095 == 0 and clock is not None and end is not None and clock() > end:
            raise OverBudget

    def elapsed(self, since: float) -> float | None:
        """Seconds on the clock since ``since`` (a reading of it), or None with no clock."""
        return self.clock() - since if self.clock is not None else None

    def now(self) -> float:
        """The clock's reading (0.0 with no clock)."""
        return self.clock() if self.clock is not None else 0.0


PLAY_LIMIT = 20_000_000
"""Positions full-information play (:func:`spider_cli.analysis.solve.autoplay.play`) examines
before it gives up: the hardest deals' worth; most are won far sooner (the times on each
path: BENCHMARKS.md). Here, in a module the command line loads anyway, so that its help
does not load the searches."""

TURN_LIMIT = Limit(10_000)
"""Positions each of the blind player's searches examines in a turn, wherever it plays: a
hint, ``spider bench --blind``, a review and the library's
:func:`~spider_cli.analysis.blind.player.decide` alike. Chosen for the games it wins
against the time a hint takes (both measured in BENCHMARKS.md, "The player's budget" and
"Hint time"). Here, beside :data:`PLAY_LIMIT`, so that the command line's help does not load
the player."""


class Verdict(StrEnum):
    """A search's answer: a line was found, none exists, or the search stopped at its limit."""

    POSSIBLE = "possible"
    IMPOSSIBLE = "impossible"
    UNKNOWN = "unknown"


class Halt(Enum):
    """Why a search stopped before it could answer (its words:
    :func:`spider_cli.app.words.findings.halted_text`)."""

    SECONDS = "seconds"
    """At the time asked for (:attr:`Halted.seconds`)."""
    MEMORY = "memory"
    """At the memory ceiling of :attr:`Halted.positions` positions (:attr:`Halted.megabytes`)."""
    LIMIT = "limit"
    """At the limit of :attr:`Halted.positions` positions asked for."""
    EXAMINED = "examined"
    """The quick phase alone, after :attr:`Halted.positions` positions."""


class Halted(Value):
    """Where a search stopped: why, and the figures that say it."""

    why: Halt
    positions: int = 0
    seconds: float = 0.0
    megabytes: int = 0
