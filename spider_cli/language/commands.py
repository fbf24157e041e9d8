"""The commands a player can type, as typed values (what :func:`notation.parse_command` returns).

A command says what was written, not what it means in a position: pile numbers are kept as
typed (1..10, not checked), and cards are named, not found. :func:`notation.resolve` turns
the commands that change the tableau (moves, the obvious move, removals, the deal) into
engine actions for a given game; the others are carried out by the CLI.
"""

from __future__ import annotations

from spider_cli.rules.cards import RANK_NAMES, SUIT_LETTERS, Card
from spider_cli.rules.deals import Source
from spider_cli.rules.errors import SpiderError
from spider_cli.rules.goals import Constraints, Goal, Wanted
from spider_cli.rules.values import Value, replace


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


class ObviousCommand(Value):
    """Move a pile's cards to the manual's "obvious place": "3", "obvious 3"."""

    pile: int


class DealCommand(Value):
    """Deal a row of ten cards from the hand: "deal", "d"."""


class RemoveCommand(Value):
    """Take a complete suit off a pile: "remove", "remove 8", "remove the spades from 8"."""

    suit: int | None = None
    pile: int | None = None


class NewCommand(Value):
    """Start deal number ``seed`` (None: a random one) of the 1, 2 or 4-suit game, in the
    numbering of ``source`` (ours, or PySolFC's or KPatience's: "new pysol:14934"); with
    ``wanted`` ("new winnable"), the first deal from that number on that is of that kind."""

    seed: int | None = None
    suits: int | None = None
    source: Source = Source.OURS
    wanted: Wanted | None = None


class Restart(Value):
    """Play the same hand again from the start."""


class Undo(Value):
    """Take back the last ``n`` actions."""

    n: int = 1


class Redo(Value):
    """Replay ``n`` actions that were taken back."""

    n: int = 1


class Assume(Value):
    """Decide the next unknown card turned up on a pile: "assume 8 6s"."""

    pile: int
    card: Card


class Moves(Value):
    """List the legal moves."""


class Complete(Value):
    """Which suits could be gathered into a whole run from the cards now face up."""


class Locate(Value):
    """Find every copy of a card ("locate 8h"), or of a rank in any suit ("locate K")."""

    rank: int
    suit: int | None = None


class Score(Value):
    """Show the manual's score."""


class Show(Value):
    """Show the tableau, or one pile in full."""

    pile: int | None = None


class Code(Value):
    """Print the position as one pasteable line."""


class Load(Value):
    """Read a position or a game file."""

    path: str


class Save(Value):
    """Write the game to a file: "save FILE" (never over another file without asking),
    "save! FILE" (``replace``: over the file if it exists)."""

    path: str
    replace: bool = False


class Expect(Value):
    """Check that the position is the one in a file (for scripts and tests)."""

    path: str


class Set(Value):
    """Change a setting: "set autoremove on" (``value`` True), "set delay 3" (``value`` 3)."""

    name: str
    value: bool | int | str


class ListSettings(Value):
    """List the settings and their values: "set" alone."""


class Settings(Value):
    """The settings ``set NAME VALUE`` changes: remove complete suits at once, which four
    piles get a sixth card in a new deal ("left" or "spread"), and the suits of a new game
    when none is named (``spider`` with no ``--suits``)."""

    autoremove: bool = False
    sixth: str = "left"
    suits: int = 4

    def changed(self, name: str, value: bool | str) -> Settings:
        """These settings with one changed (a name and value from :func:`setting_value`)."""
        if name == "autoremove":
            return replace(self, autoremove=bool(value))
        if name == "suits":
            return replace(self, suits=int(value))
        return replace(self, sixth=str(value))


SETTING_VALUES: dict[str, dict[str, bool | str]] = {
    "autoremove": {
        "on": True,
        "off": False,
        "true": True,
        "false": False,
        "yes": True,
        "no": False,
        "1": True,
        "0": False,
    },
    "sixth": {"left": "left", "spread": "spread", "1,4,7,10": "spread"},
    "suits": {"1": "1", "2": "2", "4": "4"},
}
"""Each setting's name, and the words it takes with the value each one means."""


def setting_value(command: Set) -> tuple[str, bool | str]:
    """The setting a ``set`` command names and the value it means; SpiderError if none."""
    name = command.name.lower()
    values = SETTING_VALUES.get(name)
    if values is None:
        raise SpiderError(f"no setting called {name!r} (settings: {', '.join(SETTING_VALUES)})")
    value = values.get(str(command.value).lower())
    if value is None:
        raise SpiderError(f"{name} can be {', '.join(sorted(set(map(str, values))))}")
    return name, value


class Help(Value):
    """Show the commands, or the help on one topic."""

    topic: str | None = None


class Quit(Value):
    """Leave spider."""


class Resign(Value):
    """Give the game up: the history of games records it as lost."""


class Replay(Value):
    """Step through the game from its start to the current position."""


class Stats(Value):
    """Show games, wins and the best score for each variant (1, 2 or 4 suits)."""


class Games(Value):
    """List the last ``n`` games begun (None: :data:`gamelog.RECENT`), the newest first."""

    n: int | None = None


class Open(Value):
    """Bring game ``number`` of the history back, to replay or continue it."""

    number: int


class Solve(Value):
    """``solve GOAL [CONSTRAINTS] [for each reveal]``: search the known cards for a line."""

    goal: Goal
    constraints: Constraints = Constraints()
    each_reveal: bool = False


class Hint(Value):
    """Suggest the blind player's best move, with the manual's reason for it; ``deeper``:
    the best with searches ten times longer ("hint deeper"); ``following``: its next choice
    after the one given last here ("hint next")."""

    deeper: bool = False
    following: bool = False


class Odds(Value):
    """The chance of a win from here with every card known: the share of deals consistent
    with what the player sees that full-information play wins."""


class Apply(Value):
    """Play the line the last ``solve`` or ``hint`` found: all of it, or its next ``n`` moves."""

    n: int | None = None


class Auto(Value):
    """Play hint's moves one at a time: at most ``n`` (None: until a deal is due, the win,
    or no move is left)."""

    n: int | None = None


Command = (
    MoveCommand
    | ObviousCommand
    | DealCommand
    | RemoveCommand
    | NewCommand
    | Restart
    | Undo
    | Redo
    | Assume
    | Moves
    | Complete
    | Locate
    | Score
    | Show
    | Code
    | Load
    | Save
    | Expect
    | Set
    | ListSettings
    | Help
    | Quit
    | Resign
    | Replay
    | Stats
    | Games
    | Open
    | Solve
    | Hint
    | Odds
    | Apply
    | Auto
)
"""Any command :func:`notation.parse_command` can return."""

TableauCommand = MoveCommand | ObviousCommand | RemoveCommand | DealCommand
"""The commands :func:`notation.resolve` turns into engine actions."""
