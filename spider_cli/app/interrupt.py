"""Ctrl-C that never lands in the middle of a move.

Python raises KeyboardInterrupt between any two steps, so a Ctrl-C pressed while ``auto``
plays could stop ``Game.push`` with the cards taken from one pile and not yet put on the
other. The terminal installs :func:`handler` for SIGINT while commands run; the session
changes the game inside ``with HELD:``, where a Ctrl-C only waits, and the interrupt is
raised as the block ends, the move whole. Signals belong to the process, so there is one
:data:`HELD` for all sessions.
"""

from __future__ import annotations

import signal
from types import FrameType, TracebackType
from typing import Any


class Held:
    """A block in which Ctrl-C waits (see the module's docstring); blocks may nest."""

    __slots__ = ("depth", "pending")

    def __init__(self) -> None:
        self.depth = 0
        self.pending = False

    def __enter__(self) -> None:
        self.depth += 1

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.depth -= 1
        if not self.depth and self.pending:
            self.pending = False
            if kind is None:  # an error already on its way out is not replaced
                raise KeyboardInterrupt

    def handler(self, signum: int, frame: FrameType | None) -> None:
        """The SIGINT handler: KeyboardInterrupt at once, or when the held block ends."""
        if self.depth:
            self.pending = True
        else:
            raise KeyboardInterrupt


HELD = Held()
"""The process's one held block: ``with HELD:`` around every change of a live game."""


def install() -> Any:
    """Install :data:`HELD`'s handler for SIGINT (main thread only); the handler it replaces."""
    HELD.pending = False
    return signal.signal(signal.SIGINT, HELD.handler)
