"""A cursor over a game's positions: the state of the board's analysis view.

``review`` on the board opens a :class:`Study` of the game reviewed: a :class:`Cursor` over
its positions (:class:`~spider_cli.analysis.review.Positions`, one game walked back and
forth, never a copy of every position), the review's marks to jump between, and, at the
move where the deal was lost, the winning line from the position before it, stepped by a
cursor of its own. ``solve``'s and ``hint``'s lines are stepped the same way before
``apply`` (:meth:`Study.of_line`). The cursor stands on a position; the move under it is
the one played *from* there (the review's ``review N`` shows the position before move N
too), so that playing on from the position under the cursor tries another move in its
place (:func:`play_on`).

State only: the tui draws it (:mod:`spider_cli.tui.analysis`) and app/words says it
(:mod:`spider_cli.app.words.stepping`). The blind player's move beside a mark is the
mark's own ``better`` action; the winning line is read in one place, :func:`lost_line`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spider_cli.language.files import positions as layouts
from spider_cli.language.gamefiles import PositionOrigin
from spider_cli.rules.engine import Action, Game
from spider_cli.rules.values import Value

if TYPE_CHECKING:
    from spider_cli.analysis import Mark, Review
    from spider_cli.analysis.review import Positions

__all__ = ["Cursor", "Moment", "Study", "lost_line", "play_on"]


# -- the review's fields, read in one place ---------------------------------------------------


def lost_line(review: Review, before: Game) -> list[Action]:
    """The winning line the review found from ``before``, the position before the move
    where the deal was lost (none where it was not lost), as actions played in turn: the
    line stops at a move that is not legal there (none is, in a line the review found)."""
    work = before.copy()
    line: list[Action] = []
    for action in review.lost.line:
        if work.why_illegal(action) is not None:
            break
        work.push(action)
        line.append(action)
    return line


def _lost_at(review: Review) -> int | None:
    """The move (1 is the first) where the deal was lost with every card known, or None."""
    from spider_cli.analysis import Outlook

    lost = review.lost
    return lost.move if lost.verdict is Outlook.LOST_AT and lost.move else None


# -- the cursor --------------------------------------------------------------------------------


class Cursor:
    """A cursor over the positions of one game from position ``first`` (the moves made
    then) to its last: ``at`` is the one under it, the move under it the one played from
    there (None at the last)."""

    def __init__(self, game: Game, first: int = 0) -> None:
        from spider_cli.analysis.review import Positions

        self.positions: Positions = Positions(game)
        self.actions: tuple[Action, ...] = tuple(game.move_stack)
        self.first = max(0, min(first, len(self.actions)))
        self.at = self.first

    @classmethod
    def over_line(cls, start: Game, line: Sequence[Action]) -> Cursor:
        """A cursor over ``line`` played from ``start`` (a copy: ``start`` is left as it
        is), standing on ``start``; the line stops at a move that is not legal."""
        work = start.copy()
        for action in line:
            if work.why_illegal(action) is not None:
                break
            work.push(action)
        return cls(work, start.moves_made)

    @property
    def last(self) -> int:
        return len(self.actions)

    def go(self, at: int) -> bool:
        """Stand on position ``at`` (kept within the cursor's); whether it moved."""
        at = max(self.first, min(at, self.last))
        moved, self.at = at != self.at, at
        return moved

    def step(self, by: int) -> bool:
        return self.go(self.at + by)

    def position(self) -> Game:
        """The position under the cursor, a copy of its own."""
        return self.positions[self.at]

    def move(self) -> Action | None:
        """The move played from the position under the cursor (None at the last)."""
        return self.actions[self.at] if self.at < self.last else None


class Moment(Value):
    """What the analysis view shows at the cursor: the position (``at`` moves made, of
    ``first`` to ``last`` stepped), the move played from it, the review's mark on that move
    and the blind player's move there, whether the deal was lost at that move, whether the
    winning line is being stepped, and the review's chance in the position (None: not the
    game's, or no review)."""

    position: Game
    at: int
    first: int
    last: int
    move: Action | None
    mark: Mark | None = None
    better: Action | None = None
    lost: bool = False
    in_line: bool = False
    chance: float | None = None
    lost_from: int | None = None
    """Where the winning line starts (the position before the move the deal was lost at)."""
    found: bool = False
    """The positions are a line found (``solve``'s, ``hint``'s) from the game in play."""


@dataclass
class Study:
    """The analysis view's state: a cursor over the game (``game``), the review (None for a
    line found by ``solve`` or ``hint``), and the cursor over the winning line while it is
    stepped (``line``)."""

    game: Cursor
    review: Review | None = None
    line: Cursor | None = None
    found: bool = False
    """The cursor is over a line found (``solve``'s, ``hint``'s), not a game reviewed."""
    _marks: dict[int, Mark] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.review is not None:
            self._marks = {m.move: m for m in self.review.marks}

    @classmethod
    def of_review(cls, game: Game, review: Review) -> Study:
        """The game reviewed, the cursor at its start (the game is left as it is)."""
        return cls(Cursor(game), review)

    @classmethod
    def of_line(cls, game: Game, line: Sequence[Action]) -> Study:
        """A line found from the position ``game`` is in, the cursor there."""
        return cls(Cursor.over_line(game, line), found=True)

    @property
    def cursor(self) -> Cursor:
        """The cursor the keys move: the winning line's while it is stepped."""
        return self.line or self.game

    # -- the keys ------------------------------------------------------------------------------

    def step(self, by: int) -> bool:
        return self.cursor.step(by)

    def home(self) -> bool:
        return self.cursor.go(self.cursor.first)

    def end(self) -> bool:
        return self.cursor.go(self.cursor.last)

    def marks(self) -> list[int]:
        """The positions the marked moves are played from, in the game's order."""
        return sorted(move - 1 for move in self._marks)

    def next_mark(self, forward: bool = True) -> bool:
        """The position of the next marked move after the cursor (``forward``) or the one
        before it: on the game, leaving the winning line; whether there is one."""
        at = self.game.at
        spots = [k for k in self.marks() if (k > at if forward else k < at)]
        if not spots:
            return False
        self.line = None
        return self.game.go(spots[0] if forward else spots[-1])

    def lost_here(self) -> bool:
        """Whether the move under the game's cursor is the one the deal was lost at."""
        lost = None if self.review is None else _lost_at(self.review)
        return lost is not None and self.game.at == lost - 1

    def enter_line(self) -> bool:
        """Step the winning line from the position before the move the deal was lost at
        (the game's cursor is taken there first); whether there is one."""
        lost = None if self.review is None else _lost_at(self.review)
        if self.review is None or lost is None:
            return False
        self.game.go(lost - 1)
        before = self.game.position()
        line = lost_line(self.review, before)
        if not line:
            return False
        self.line = Cursor.over_line(before, line)
        return True

    def leave_line(self) -> bool:
        """Back to the game's cursor from the winning line; whether it was stepped."""
        stepping, self.line = self.line is not None, None
        return stepping

    def toggle_line(self) -> bool:
        """The line key: into the winning line, or out of it; whether either happened."""
        return self.leave_line() or self.enter_line()

    # -- what is shown -------------------------------------------------------------------------

    def moment(self) -> Moment:
        cursor = self.cursor
        position = cursor.position()
        in_line = self.line is not None
        review = self.review
        mark = None if in_line else self._marks.get(cursor.at + 1)
        chance = None
        if review is not None and not in_line and cursor.at < len(review.curve):
            chance = review.curve[cursor.at]
        lost = None if review is None else _lost_at(review)
        return Moment(
            position,
            cursor.at,
            cursor.first,
            cursor.last,
            cursor.move(),
            mark,
            None if mark is None else mark.better,
            not in_line and lost is not None and cursor.at == lost - 1,
            in_line,
            chance,
            None if lost is None else lost - 1,
            self.found,
        )


def play_on(position: Game) -> tuple[Game, PositionOrigin]:
    """A new game that begins from ``position`` as a position file does (every card where
    it is, no moves behind it), and how it began; ``position`` is left as it is."""
    code = layouts.position_code(position)
    return layouts.parse_position_code(code).to_game(), PositionOrigin(code)
