"""The time played in a game: a stopwatch on an injected clock, paused and resumed.

The REPL and the board pass ``time.perf_counter``; tests pass a clock they move by hand, so
no test waits. The watch is paused while a game is won or lost and while the program is
stopped in the background (Ctrl-Z), and it starts from the time a saved game had already
taken when that game is resumed.
"""

from __future__ import annotations

from collections.abc import Callable


class Timer:
    """Seconds played: ``banked`` before the current stretch, plus the stretch that began at
    ``since`` on ``clock`` (None while paused)."""

    def __init__(
        self, clock: Callable[[], float], banked: float = 0.0, since: float | None = None
    ) -> None:
        self.clock = clock
        self.banked = banked
        self.since = since

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
        return self.banked + max(0.0, self.clock() - self.since)

    def pause(self) -> None:
        if self.since is not None:
            self.banked = self.seconds()
            self.since = None

    def resume(self) -> None:
        if self.since is None:
            self.since = self.clock()
