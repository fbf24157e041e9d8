"""The parts of what :meth:`spider_cli.rules.engine.Game.push` keeps to take an action back
exactly (its ``Undo``): the card a move turned up, the unknown cards a deal or a turn made
known (and how, so that a redo makes them known the same way), and the suits autoremove
took off."""

from __future__ import annotations

from typing import NamedTuple


class Identified(NamedTuple):
    """An unknown card that became known as it arrived face up on ``pile``: the next card
    assumed for that pile (``state`` None), or drawn from the pool with the generator in
    ``state`` before the draw. Taking the action back gives the assumption back, or the
    card to the pool and the generator its state, so that a redo draws the same card."""

    pile: int
    card: int
    state: int | None


class TurnedUp(NamedTuple):
    """A pile's last face-down card turned up (``identified``: how, if it was unknown)."""

    pile: int
    identified: Identified | None = None


class Removed(NamedTuple):
    """A complete suit removed from ``pile`` by autoremove, and the turn that followed."""

    pile: int
    turned: TurnedUp | None
