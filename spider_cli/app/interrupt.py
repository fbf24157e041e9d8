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

A signal must not be raised inside an event loop that waits for keys either: raised between
two of the loop's own steps, it can lose a callback that a task waits for, and the loop
then waits for ever as it shuts down (a SIGTERM at the prompt hung spider that way). While a
terminal waits (:func:`waiting`), a signal is kept and handed to a ``wake`` function that
ends the terminal's loop from inside it; it is raised as the block ends. A command run from
that loop is :func:`acting`: there a signal stops it at once, as anywhere else.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
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

    __slots__ = ("acting", "ctrl_c", "depth", "pending", "wake")

    def __init__(self) -> None:
        self.depth = 0
        self.ctrl_c = 0
        """The Ctrl-Cs the handler has had (a script ends after the command one stopped)."""
        self.pending: BaseException | None = None
        """What to raise as the block ends (a signal came within it), or None."""
        self.wake: Callable[[BaseException], None] | None = None
        """While a terminal waits for keys (:func:`waiting`): what ends its loop."""
        self.acting = 0
        """Commands running within that wait (:func:`acting`)."""

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
                self._deliver(pending)

    def handler(self, signum: int, frame: FrameType | None) -> None:
        """The SIGINT handler: KeyboardInterrupt at once, or when the held block ends."""
        self.ctrl_c += 1
        self._stop(KeyboardInterrupt())

    def terminate(self, signum: int, frame: FrameType | None) -> None:
        """The SIGTERM and SIGHUP handler: :class:`Terminated`, at once or when the held
        block ends."""
        self._stop(Terminated(signum))

    def _stop(self, error: BaseException) -> None:
        if self.depth:  # within a move: raised as it ends
            self._keep(error)
        else:
            self._deliver(error)

    def _keep(self, error: BaseException) -> None:
        if not isinstance(self.pending, Terminated):  # ending outranks a Ctrl-C
            self.pending = error

    def _deliver(self, error: BaseException) -> None:
        """Raise ``error`` now, or (a terminal waiting for keys) keep it and wake the loop."""
        if self.wake is None or self.acting:
            raise error
        self._keep(error)
        if self.pending is not None:
            self.wake(self.pending)

    def take(self) -> BaseException | None:
        """The signal kept (it is no longer kept), or None."""
        pending, self.pending = self.pending, None
        return pending


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


@contextlib.contextmanager
def scripted() -> Iterator[Callable[[], bool]]:
    """A script's commands: within the block Ctrl-C never lands within a move (:data:`HELD`'s
    handler), and the function it gives says whether a Ctrl-C came since it began. A command
    Ctrl-C stops may keep what it did and go on (``auto`` its moves, ``review`` what it had
    found, as at the prompt), but a script has nobody to stop for: it ends after that
    command, and none of its later lines runs (a ``save!`` after an ``auto`` cut short
    would replace a file with a game the script never finished). Main thread only (elsewhere
    the handler stays, and the function says no)."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    previous = install()
    began = HELD.ctrl_c
    try:
        yield lambda: HELD.ctrl_c != began
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def waiting(wake: Callable[[BaseException], None]) -> Iterator[None]:
    """While a terminal's event loop waits for keys: a signal is not raised inside the loop
    but kept, and ``wake`` is called with it (from the signal handler: it may only schedule
    the loop's end); the block raises it as it ends. A Ctrl-C kept gives way to an ending
    that comes out of the block."""
    previous = HELD.wake, HELD.acting
    HELD.wake, HELD.acting = wake, 0
    try:
        yield
    except BaseException as error:
        pending = HELD.take()
        if pending is None or pending is error or not isinstance(pending, Terminated):
            raise
        raise pending from None
    else:
        pending = HELD.take()
        if pending is not None:
            raise pending
    finally:
        HELD.wake, HELD.acting = previous


@contextlib.contextmanager
def acting() -> Iterator[None]:
    """A command run from a terminal's loop: within it a signal stops the command at once
    (never within a move), as outside the loop. A signal kept before it began stops it
    before it begins."""
    if HELD.wake is not None and not HELD.acting and not HELD.depth:
        pending = HELD.take()
        if pending is not None:
            raise pending
    HELD.acting += 1
    try:
        yield
    finally:
        HELD.acting -= 1
