"""What a search looks for (:class:`Goal`), and the rules its line keeps (:class:`Constraints`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True, slots=True)
class Goal:
    """What ``solve`` looks for (see :mod:`spider_cli.analysis.solver`).

    ``kind`` is "turn up" (``pile`` as typed, or None for any pile), "space", "remove",
    "free" (``card``: a copy of it face up with nothing on it, the manual's "free" card) or
    "win". For "remove", ``steps`` lists the suits in order: "hearts then clubs" is
    ``((1,), (3,))``; "clubs and hearts" (either order) is ``((3, 1),)``.
    """

    kind: str
    pile: int | None = None
    steps: tuple[tuple[int, ...], ...] = ()
    card: int | None = None


@dataclass(frozen=True, slots=True)
class Constraints:
    """Rules a ``solve`` line must keep: "no deal", "keep N spaces" (at its end), "no remove
    SUIT" (``no_remove`` lists suits; "no remove" alone lists all four, the goal's own
    removals excepted), "no new space" (no move empties a pile), "no turn up" (no face-down
    card is turned up), "limit N" (positions to examine before answering "unknown") and
    "within N seconds" (time to search before answering "unknown")."""

    no_deal: bool = False
    keep_spaces: int = 0
    no_remove: tuple[int, ...] = ()
    no_new_space: bool = False
    no_turn_up: bool = False
    limit: int | None = None
    seconds: int | None = None


class Verdict(StrEnum):
    """A search's answer: a line was found, none exists, or the search stopped at its limit."""

    POSSIBLE = "possible"
    IMPOSSIBLE = "impossible"
    UNKNOWN = "unknown"
