"""A line of actions carried onto a game under the game's own rule for complete suits.

The searches remove every suit with an explicit ``remove``, as the manual's program did;
a game may instead remove a complete suit by itself (``autoremove``). :func:`fitted` is the
one place where a line made under one rule becomes the actions a game plays under its own:
a removal that autoremove has already made is dropped, and a line recorded with autoremove
on gains the removals a game without it must make. Every part that hands the game a line
(solve, hint, apply, auto, the review, full-information play) goes through it.
"""

from __future__ import annotations

from collections.abc import Iterable

from spider_cli.rules.engine import PILES, Action, Deal, Game, Remove
from spider_cli.rules.text import move_text
from spider_cli.rules.values import Value

__all__ = ["Fitted", "fitted"]


class Fitted(Value):
    """A line as a game plays it: its ``actions`` under the game's rule, each written in
    the manual's notation (``texts``), and whether the whole line was carried (``whole``
    False: the action after the last one carried cannot be played under the game's rule,
    as when the line goes on to move the cards of a suit that autoremove took off)."""

    actions: tuple[Action, ...]
    texts: tuple[str, ...]
    whole: bool


def fitted(game: Game, line: Iterable[Action], autoremoved: bool = False) -> Fitted:
    """``line``, made from ``game``'s position under autoremove ``autoremoved`` (the
    searches' lines: off), as ``game`` plays it under its own rule; ``game`` is left as it
    is. Each action reaches the position the line reaches after it."""
    work = game.copy()
    actions: list[Action] = []
    texts: list[str] = []
    taken = 0  # suits the game's autoremove took that the line removes itself later

    def play(action: Action) -> None:
        nonlocal taken
        before = len(work.removed)
        texts.append(move_text(work, action))
        work.push(action)
        actions.append(action)
        taken += len(work.removed) - before - isinstance(action, Remove)

    for action in line:
        if isinstance(action, Remove) and not work.complete_at_bottom(action.pile) and taken:
            taken -= 1  # autoremove made this removal already
            continue
        if work.why_illegal(action) is not None:
            return Fitted(tuple(actions), tuple(texts), False)
        play(action)
        if autoremoved and not work.autoremove and not isinstance(action, Remove):
            piles = range(PILES) if isinstance(action, Deal) else (action.dst,)
            for pile in piles:
                while work.complete_at_bottom(pile):
                    play(Remove(pile))
            taken = 0
    return Fitted(tuple(actions), tuple(texts), True)
