"""The time played in a game: a stopwatch on an injected clock, paused and resumed.

The REPL and the board pass ``time.perf_counter``; tests pass a clock they move by hand, so
no test waits. The watch is paused while a game is won or lost and while the program is
stopped in the background (Ctrl-Z), and it starts from the time a saved game had already
taken when that game is resumed. As in other Spider programs it counts play, not time away:
a minute after the player's last key (:meth:`Timer.touch`) it stops, until the next key.
"""

from __future__ import annotations

from collections.abc import Callable

IDLE = 60.0
"""Seconds after the player's last key that still count as play."""


class Timer:
    """Seconds played: ``banked`` before the current stretch, plus the stretch that began at
    ``since`` on ``clock`` (None while paused), which ends :data:`IDLE` seconds after the
    player's last key (``last``) if no other comes."""

    def __init__(
        self, clock: Callable[[], float], banked: float = 0.0, since: float | None = None
    ) -> None:
        self.clock = clock
        self.banked = banked
        self.since = since
        self.last = since

    def __repr__(self) -> str:
        return f"Timer({self.seconds():.1f} s, {'running' if self.running else 'paused'})"

    @classmethod
    def started(cls, clock: Callable[[], float], seconds: float = 0.0) -> Timer:
        """A running watch that has already counted ``seconds``."""
        return cls(clock, max(0.0, seconds), clock())

    def fresh(self, seconds: float = 0.0) -> Timer:
        """A new running watch on the same clock (for the next game)."""
        return Timer.started(self.clock, seconds)

    @property
    def running(self) -> bool:
        return self.since is not None

    def seconds(self) -> float:
        """The time counted so far."""
        if self.since is None:
            return self.banked
        end = self.clock()
        if self.last is not None:
            end = min(end, self.last + IDLE)
        return self.banked + max(0.0, end - self.since)

    def touch(self) -> None:
        """The player pressed a key: after a pause of more than :data:`IDLE` seconds the
        watch goes on from now (the minute after the last key counted, the rest not)."""
        now = self.clock()
        if self.since is not None and self.last is not None and now - self.last > IDLE:
            self.banked = self.seconds()
            self.since = now
        self.last = now

    def pause(self) -> None:
        if self.since is not None:
            self.banked = self.seconds()
            self.since = None

    def resume(self) -> None:
        if self.since is None:
            self.since = self.last = self.clock()
