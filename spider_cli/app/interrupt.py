"""Ctrl-C that never lands in the middle of a move.

Python raises KeyboardInterrupt between any two steps, so a Ctrl-C pressed while ``auto``
plays could stop ``Game.push`` with the cards taken from one pile and not yet put on the
other. The terminal installs :func:`handler` for SIGINT while commands run; the session
changes the game inside ``with HELD:``, where a Ctrl-C only waits, and the interrupt is
raised as the block ends, the move whole. Signals belong to the process, so there is one
:data:`HELD` for all sessions.

SIGTERM and SIGHUP (the system shutting down, the terminal closed) stop what runs as Ctrl-C
does, never in the middle of a move, but end spider: :class:`Terminated` is raised instead
(:func:`terminating` installs them while a person plays), and the front end keeps the game
in the journal and says so.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType, TracebackType
from typing import Any


class Terminated(SystemExit):
    """SIGTERM or SIGHUP: spider is asked to end. A SystemExit, so that no ``except
    Exception`` (nor the handling of Ctrl-C) takes it for an error to carry on after; its
    exit status is the shell's for the signal (128 + its number)."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum
        self.name = signal.Signals(signum).name


class Held:
    """A block in which Ctrl-C waits (see the module's docstring); blocks may nest."""

    __slots__ = ("depth", "pending")

    def __init__(self) -> None:
        self.depth = 0
        self.pending: BaseException | None = None
        """What to raise as the block ends (a signal came within it), or None."""

    def __enter__(self) -> None:
        self.depth += 1

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.depth -= 1
        if not self.depth and self.pending is not None:
            pending, self.pending = self.pending, None
            if kind is None:  # an error already on its way out is not replaced
                raise pending

    def handler(self, signum: int, frame: FrameType | None) -> None:
        """The SIGINT handler: KeyboardInterrupt at once, or when the held block ends."""
        self._stop(KeyboardInterrupt())

    def terminate(self, signum: int, frame: FrameType | None) -> None:
        """The SIGTERM and SIGHUP handler: :class:`Terminated`, at once or when the held
        block ends."""
        self._stop(Terminated(signum))

    def _stop(self, error: BaseException) -> None:
        if not self.depth:
            raise error
        if not isinstance(self.pending, Terminated):  # ending outranks a Ctrl-C
            self.pending = error


HELD = Held()
"""The process's one held block: ``with HELD:`` around every change of a live game."""


def install() -> Any:
    """Install :data:`HELD`'s handler for SIGINT (main thread only); the handler it replaces."""
    HELD.pending = None
    return signal.signal(signal.SIGINT, HELD.handler)


ENDING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that end spider as a person plays (:func:`terminating`)."""


@contextlib.contextmanager
def terminating() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated` (never within a
    move); the handlers before are put back after it (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = [(signum, signal.signal(signum, HELD.terminate)) for signum in ENDING]
    try:
        yield
    finally:
        for signum, handler in previous:
            signal.signal(signum, handler)
