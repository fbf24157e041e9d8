"""The commands that change the tableau: moves, the obvious move, removals and the deal,
declared as :mod:`spider_cli.language.commands` declares the others (which names them too),
and :class:`RunSpec`, the cards a move names. :func:`notation.resolve` turns them into engine
actions for a given game."""

from __future__ import annotations

from typing import Any

from spider_cli.language.registry import Argument, Word, command
from spider_cli.rules.cards import RANK_NAMES, SUIT_LETTERS, Card
from spider_cli.rules.values import Value


def nothing(word: str) -> str:
    """What a command that takes nothing says when something follows it."""
    return f"{word} takes nothing after it"


def fields(children: list[dict[str, Any]]) -> dict[str, Any]:
    """Merge the keyword arguments that a command's clauses contribute."""
    return {key: value for clause in children for key, value in clause.items()}


class RunSpec(Value):
    """Cards named by a move, from the top card (the first to move) down to the bottom one.

    ``8-6s`` is ``RunSpec(8, None, Card 6s)``: the top card's suit, when not written, is the
    bottom card's. A single card ``As`` is ``RunSpec(1, 0, Card As)``. In the quick form
    ``6s 3 10`` only the top card is named: ``RunSpec(6, 0, None)``, down to the pile's end.
    """

    top_rank: int
    top_suit: int | None
    bottom: Card | None

    @property
    def count(self) -> int | None:
        """How many cards the run names (None when its bottom end is open)."""
        return None if self.bottom is None else self.top_rank - self.bottom.rank + 1

    def __str__(self) -> str:
        """The cards as the manual writes them: "8-6s", "Jc-3h", "As" (quick form: "6s")."""
        if self.count == 1:
            return str(self.bottom)
        top = RANK_NAMES[self.top_rank]
        if self.top_suit is not None:
            top += SUIT_LETTERS[self.top_suit]
        return top if self.bottom is None else f"{top}-{self.bottom}"


# ---------------------------------------------------------------------------------------------
# Playing


def _read_quick(children: list[Any]) -> MoveCommand:
    """ "3 10", "6s 3 10": only the top card is named, if any."""
    *top, src, dst = children
    run = RunSpec(top[0].rank, top[0].suit, None) if top else None
    return MoveCommand(run=run, src=src, dst=dst)


@command(
    Word(
        "move",
        "a move, as 'move 8-6s from 3 to 10'",
        None,
        "Playing",
        ("a move (see 'help notation')",),
    ),
    Word("from", "a move from a pile", None),
    move=lambda children: MoveCommand(**fields(children)),
    quick=_read_quick,
)
class MoveCommand(Value):
    """Move cards between piles: "8-6s from 3 to 10", "10-4s onto Js", "3 10", "6s 3 10".

    ``run`` names the cards (None: the longest run that fits); ``src`` and ``dst`` are pile
    numbers as typed (None when not written); ``onto`` is the card the run goes onto ("onto
    Qd", with ``dst`` set by "in column 2"); ``into_space`` asks for a space ("into a space";
    "into space 4" also sets ``dst``).
    """

    run: RunSpec | None = None
    src: int | None = None
    dst: int | None = None
    onto: Card | None = None
    into_space: bool = False


@command(
    Word("deal", "deal a row of ten cards from the hand", nothing("deal"), "Playing", ("deal",)),
    Word("d", "deal a row of ten cards from the hand", "d (deal) takes nothing after it"),
    deal=lambda children: DealCommand(),
)
class DealCommand(Value):
    """Deal a row of ten cards from the hand: "deal", "d"."""


@command(
    Word(
        "remove",
        "take a complete suit off a pile",
        "say which suit or pile, as in 'remove', 'remove 8' or 'remove the spades from 8'",
        "Playing",
        ("remove [PILE]",),
        argument=Argument.COMPLETE_PILE,
    ),
    remove=lambda children: RemoveCommand(**fields(children)),
)
class RemoveCommand(Value):
    """Take a complete suit off a pile: "remove", "remove 8", "remove the spades from 8"."""

    suit: int | None = None
    pile: int | None = None


@command(
    Word(
        "obvious",
        "move a pile's cards to the obvious place",
        "obvious takes a pile, as in 'obvious 3'",
        "Playing",
        ("obvious PILE",),
    ),
    obvious=lambda children: ObviousCommand(children[0]),
)
class ObviousCommand(Value):
    """Move a pile's cards to the manual's "obvious place": "3", "obvious 3"."""

    pile: int


TableauCommand = MoveCommand | ObviousCommand | RemoveCommand | DealCommand
"""The commands :func:`notation.resolve` turns into engine actions."""
