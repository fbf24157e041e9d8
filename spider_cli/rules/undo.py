"""What :meth:`spider_cli.rules.engine.Game.push` keeps to take an action back exactly: the
card a move turned up, the unknown cards a deal or a turn made known (and how, so that a
redo makes them known the same way), the suits autoremove took off, and the rule it was
taken under."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from spider_cli.rules.engine import Action


class Identified(NamedTuple):
    """An unknown card that became known as it arrived face up on ``pile``: the next card
    assumed for that pile (``state`` None), or drawn from the pool with the generator in
    ``state`` before the draw. Taking the action back gives the assumption back, or the
    card to the pool and the generator its state, so that a redo draws the same card."""

    pile: int
    card: int
    state: int | None


class Turn(NamedTuple):
    """A pile's last face-down card turned up (``identified``: how, if it was unknown)."""

    pile: int
    identified: Identified | None = None


class Removed(NamedTuple):
    """A complete suit removed from ``pile`` by autoremove, and the turn that followed."""

    pile: int
    turned: Turn | None


class Undo(NamedTuple):
    """What :meth:`Game.push` keeps to take an action back exactly."""

    action: Action
    turned: Turn | None = None
    """A move's or a removal's: its pile's last face-down card, turned up."""
    dealt: tuple[Identified, ...] = ()
    """A deal's: the unknown cards it dealt."""
    autoremoved: tuple[Removed, ...] = ()
    """The suits autoremove took off after the action, in order."""
    autoremove: bool = False
    """Whether autoremove was on as the action was taken (a game file keeps the rule)."""

    def identified(self) -> list[Identified]:
        """The unknown cards the action turned up or dealt, in the order they became known."""
        known = [self.turned.identified] if self.turned and self.turned.identified else []
        known += self.dealt
        known += (r.turned.identified for r in self.autoremoved if r.turned and r.turned.identified)
        return known
