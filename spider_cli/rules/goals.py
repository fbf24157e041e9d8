"""What a question about a position asks: what to reach (:class:`Goal`), the rules the line
keeps (:class:`Constraints`), and what a new deal must be (:class:`Wanted`).

Plain values, below both the language that reads them from a line and the analysis that
answers them, so that neither needs the other. Piles count from 0, as the engine's do.
"""

from __future__ import annotations

from enum import StrEnum

from spider_cli.rules.values import Value


class GoalKind(StrEnum):
    """What a goal asks for (see :class:`Goal`)."""

    TURN_UP = "turn up"
    SPACE = "space"
    REMOVE = "remove"
    FREE = "free"
    WIN = "win"


class Goal(Value):
    """What ``solve`` looks for (see :mod:`spider_cli.analysis.solve.solver`).

    ``kind`` is :attr:`GoalKind.TURN_UP` (``pile``, 0..9, or None for any pile),
    :attr:`~GoalKind.SPACE` (one more space than at the start; with a ``pile``, the first
    new space is that pile), :attr:`~GoalKind.REMOVE`, :attr:`~GoalKind.FREE` (``card``: a
    copy of it face up with nothing on it, the manual's "free" card) or :attr:`~GoalKind.WIN`.
    For a removal, ``steps`` lists the suits in order: "hearts then clubs" is
    ``((1,), (3,))``; "clubs and hearts" (either order) is ``((3, 1),)``. A kind given as
    its text ("turn up") is taken as the kind.

    >>> Goal(GoalKind.TURN_UP, pile=5)
    Goal(kind=<GoalKind.TURN_UP: 'turn up'>, pile=5, steps=(), card=None)
    >>> Goal("win").kind is GoalKind.WIN
    True
    """

    kind: GoalKind
    pile: int | None = None
    steps: tuple[tuple[int, ...], ...] = ()
    card: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, GoalKind):
            self.__dict__["kind"] = GoalKind(self.kind)  # frozen: set past __setattr__


class Constraints(Value):
    """Rules a ``solve`` line must keep: "no deal", "keep N spaces" (at its end), "no remove
    SUIT" (``no_remove`` lists suits; "no remove" alone lists all four, the goal's own
    removals excepted), "no new space" (no move empties a pile), "no turn up" (no face-down
    card is turned up), "limit N" (positions to examine before answering "unknown") and
    "within N seconds" (time to search before answering "unknown": as many positions as
    that usually allows, and a cap on the time when the search is given a clock).
    ``autoremove`` is the game's rule, not a phrase of ``solve``: with it, a complete suit
    comes off as soon as it is complete, so a line may do nothing else first."""

    no_deal: bool = False
    keep_spaces: int = 0
    no_remove: tuple[int, ...] = ()
    no_new_space: bool = False
    no_turn_up: bool = False
    limit: int | None = None
    seconds: int | None = None
    autoremove: bool = False


class Wanted(StrEnum):
    """What a new deal must be (``new winnable``, ``new easy``): won by full-information
    play (:mod:`spider_cli.analysis.chance.odds`), and of that rank of difficulty when one is
    named."""

    WINNABLE = "winnable"
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
