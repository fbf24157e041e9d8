"""How far a long search has gone, in words, for the line that ticks while it runs.

A search that plays many games (``odds``) says after each how far it is (:func:`say`, in
the words of :func:`odds_played`); the
terminal's ticking line (:func:`spider_cli.tui.player.ticking`) reads it (:func:`said`)
every half second, from another thread, and shows it with the seconds. One search runs at
a time in a process, so there is one line; a script has no ticking line, and what is said
is simply not shown.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spider_cli.analysis.chance.odds import Played

_lock = threading.Lock()
_said = ""


def say(text: str) -> None:
    """The search is this far (its words replace the last)."""
    global _said
    with _lock:
        _said = text


def said() -> str:
    """How far the search running is, or "" (none has said)."""
    with _lock:
        return _said


def clear() -> None:
    """A search begins or ends: nothing said yet."""
    say("")


def odds_played(played: Played) -> str:
    """How far ``odds`` is, as its progress line says it."""
    if played.blind:
        return f"{played.done} of {played.of} games played blind"
    return f"{played.done} of {played.of} deals played seeing all"


def say_odds(played: Played) -> None:
    """``odds`` is this far: :func:`say` it in words."""
    say(odds_played(played))
