"""The words of the board's analysis view (:mod:`spider_cli.app.views.stepping`): what the
move under the cursor is, its mark and the blind player's move, the curve's rows with the
signs of the moves under them, the keys, and what playing on from a position says."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_cli.app.words.replies import curve_cells, curve_per_row, mark_text
from spider_cli.rules.engine import Deal
from spider_cli.rules.text import move_text
from spider_cli.rules.values import Value

if TYPE_CHECKING:
    from spider_cli.analysis import Review
    from spider_cli.app.views.stepping import Moment

__all__ = ["SIGNS", "CurveRow", "curve_rows", "keys_text", "moment_lines", "played_on_text"]

SIGNS = {"inaccuracy": "i", "mistake": "m", "blunder": "b"}
"""The sign under the curve of a move the review marked, by its mark; ``|`` a deal, ``x``
the move the deal was lost at with every card known."""
LABEL = 5
"""Columns before a row's first cell: its number and a space, as the review's curve."""


class CurveRow(Value):
    """A row under the board: ``text`` (the label, then a cell a position); ``first``, the
    position of its first cell for a row of the curve (None: the signs of the moves)."""

    text: str
    first: int | None = None


def curve_rows(review: Review, width: int, ascii: bool = False) -> list[CurveRow]:
    """The review's chance curve in rows within ``width`` columns (as the review cuts them),
    a cell a position, each row with the signs of the moves played from its positions
    under it: '|' a deal, i, m, b an inaccuracy, a mistake, a blunder, x the move the deal
    was lost at."""
    from spider_cli.analysis import Outlook

    per_row = curve_per_row(width)
    cells = curve_cells(review.curve, ascii)
    signs = {k - 1: "|" for k in review.deals}
    signs |= {m.move - 1: SIGNS.get(m.severity.value, "?") for m in review.marks}
    if review.lost.verdict is Outlook.LOST_AT and review.lost.move:
        signs[review.lost.move - 1] = "x"
    rows = []
    for first in range(0, len(cells), per_row):
        chunk = cells[first : first + per_row]
        rows.append(CurveRow(f"{first:>4} {chunk}", first))
        marks = "".join(signs.get(first + k, " ") for k in range(len(chunk)))
        if marks.strip():
            rows.append(CurveRow(f"{'':>4} {marks.rstrip()}"))
    return rows


def _percent(chance: float) -> str:
    return f"{100 * chance:.0f}%"


def moment_lines(moment: Moment) -> list[str]:
    """What the view says of the position under the cursor and the move played from it."""
    position, move = moment.position, moment.move
    if moment.in_line or moment.found:
        step = f"position {moment.at - moment.first} of {moment.last - moment.first}"
        head = (
            f"A win from before move {moment.first + 1}: {step}"
            if moment.in_line
            else f"The line found here: {step}"
        )
        end = "the line is won here" if moment.in_line else "the line's end"
        played = end if move is None else f"next {move_text(position, move)}"
        return [f"{head}, {played}"]
    chance = "" if moment.chance is None else f" (chance {_percent(moment.chance)})"
    if move is None:
        lines = [f"After move {moment.at}, the last{chance}: the position in play"]
    else:
        what = "dealt" if isinstance(move, Deal) else f"played {move_text(position, move)}"
        lines = [f"Before move {moment.at + 1} of {moment.last}{chance}: {what}"]
    mark = moment.mark
    if mark is not None:
        lines.append(mark_text(mark, position))
    if moment.lost:
        lines.append("Here the deal was lost with every card known: w steps a win from here")
    return lines


def keys_text(moment: Moment, marks: bool, arrows: str = "<-/->") -> str:
    """The view's keys, in a line: n/p where the review marked moves (``marks``), w where
    the deal was lost (and in its winning line); ``arrows``, Left and Right as drawn."""
    more = "  n/p: mark" if marks and not moment.in_line else ""
    if moment.in_line:
        more += "  w: back to the game"
    elif moment.lost_from is not None:
        more += "  w: the win"
    return f"{arrows}: move  Home/End{more}  Enter: play on from here  q: back"


def played_on_text(moment: Moment, number: int | None) -> str:
    """What playing on from the position under the cursor says (``number``: the game's in
    the history, if recorded): the new game, and how to get the game in play back."""
    game = "the game" if number is None else f"game {number}"
    back = f"; 'open {number}' brings game {number} back as it was" if number is not None else ""
    if moment.in_line or moment.found:
        what = "the winning line" if moment.in_line else "the line found"
        step = moment.at - moment.first
        return f"A new game from position {step} of {what} in {game}{back}."
    return f"A new game from the position after move {moment.at} of {game}{back}."


def played_on_name(moment: Moment, number: int | None) -> str:
    """The new game's start, in a word, as the history lists it."""
    at = moment.at if not (moment.in_line or moment.found) else f"{moment.at}+"
    return f"game {number} at {at}" if number is not None else f"move {at}"
