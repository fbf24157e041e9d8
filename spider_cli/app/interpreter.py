"""Commands in two phases: read what a command will do and the questions it needs answered
(:class:`Prepared`), then run it with the answers (:class:`Answers`), which asks nothing.

A move that turns up an unknown card asks which card it is; a ``save`` over a file that
exists asks whether it may replace it. Each front end asks these its own way before the
command runs (the line mode at a prompt, the board in its command line, a script never),
so a command never stops in the middle to ask. A typed line is read once, a move resolved
once and checked against the rules once. ``spider run``, game files and both front ends
share one meaning for every command (``grammar/commands.lark``).

The commands are run by a :class:`Commands` table: one handler a command type, registered
with :meth:`Commands.handles` beside the code it calls (pgspecial's ``special_command``),
each giving the command's typed result and its reply, and saying whether the command
searches (so that a front end shows that it is working and Ctrl-C stops it), how its reply
is shown (:class:`Shown`) and whether it streams its moves as it plays them.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any, Generic, TypeVar

from spider_cli.app.results import Reply
from spider_cli.language import commands as cmd
from spider_cli.rules.cards import Card
from spider_cli.rules.engine import Action, PositionKey
from spider_cli.rules.values import Value

__all__ = ["NO_ANSWERS", "Answers", "Commands", "Handler", "Prepared", "Shown"]


class Prepared(Value):
    """A command read and checked, and the questions it needs answered before it runs."""

    command: cmd.Command | None
    """The command (None for an engine action, chosen with the mouse)."""
    action: Action | None = None
    """The engine action a move, deal or removal means here, legal (None for the others)."""
    at: PositionKey | None = None
    """The position ``action`` was checked in (it runs only there)."""
    reveals: tuple[int, ...] = ()
    """Piles (0..9) where the action turns up an unknown card: which card is it?"""
    pool: tuple[Card, ...] = ()
    """The cards an unknown card can be (each copy once), when there are ``reveals``."""
    replaces: Path | None = None
    """The file a ``save`` would replace: may it?"""


class Answers(Value):
    """The answers to a prepared command's questions. ``cards``: (pile 0..9, card) for the
    reveals the player chose (the others are drawn from the pool); ``replace``: whether the
    file may be replaced (None: not asked, as in a script, which must say ``save!``)."""

    cards: tuple[tuple[int, Card], ...] = ()
    replace: bool | None = None


NO_ANSWERS = Answers()
"""A script's answers: none (cards drawn from the pool, no file replaced)."""


class Shown(Enum):
    """How a front end shows a command's reply."""

    SAID = "said"
    """A few lines under the board (the board redrawn first when the position changed)."""
    READ = "read"
    """A long reply, read whole: it takes the board's screen until a key gives it back."""
    BOARD = "board"
    """The board itself, or one pile of it in detail (``show``)."""
    STEPPED = "stepped"
    """The game stepped through on a copy, a key a move (``replay``)."""


Host = TypeVar("Host")
"""What the commands act on (the session)."""

Handler = Callable[[Host, Any, Prepared, Answers], tuple[object, str]]
"""A command's handler: given what it acts on, the command (of the type it is registered
for; None for an action chosen with the mouse), the command prepared and the answers, it
returns the command's typed result and the reply."""


class Commands(Generic[Host]):
    """The dispatch table: a handler for each command type."""

    def __init__(self) -> None:
        self.handlers: dict[type[cmd.Command] | None, Handler[Host]] = {}
        self.searching: dict[type[cmd.Command] | None, Callable[[Any], bool]] = {}
        self.showing: dict[type[cmd.Command] | None, Shown] = {}
        self.streaming: set[type[cmd.Command] | None] = set()

    def handles(
        self,
        *kinds: type[cmd.Command] | None,
        searches: bool | Callable[[Any], bool] = False,
        shown: Shown = Shown.SAID,
        streams: bool = False,
    ) -> Callable[[Handler[Host]], Handler[Host]]:
        """Register the decorated function as the handler of ``kinds`` (None: an engine
        action chosen with the mouse). ``searches``: whether the command can take long (a
        search, hint's moves one after another, deals checked), or a test of the command
        that says so; ``shown``: how its reply is shown; ``streams``: it plays moves one
        after another, which a front end shows as they are played (``auto``)."""
        test = searches if callable(searches) else (lambda _command: searches)

        def register(handler: Handler[Host]) -> Handler[Host]:
            for kind in kinds:
                assert kind not in self.handlers, f"{kind} has a handler already"
                self.handlers[kind] = handler
                self.searching[kind] = test
                self.showing[kind] = shown
                if streams:
                    self.streaming.add(kind)
            return handler

        return register

    def searches(self, command: cmd.Command | None) -> bool:
        """Whether running ``command`` can take long (Ctrl-C stops it)."""
        return self.searching[None if command is None else type(command)](command)

    def shown(self, command: cmd.Command | None) -> Shown:
        """How ``command``'s reply is shown."""
        return self.showing[None if command is None else type(command)]

    def streams(self, command: cmd.Command | None) -> bool:
        """Whether ``command`` plays moves that are shown as they are played."""
        return (None if command is None else type(command)) in self.streaming

    def run(self, host: Host, prepared: Prepared, answers: Answers) -> Reply:
        """Run a prepared command through its handler."""
        command = prepared.command
        handler = self.handlers[None if command is None else type(command)]
        result, text = handler(host, command, prepared, answers)
        return Reply(text, isinstance(command, cmd.Quit), command, result)
