"""The commands a player can type: for each, its type (what :func:`notation.parse_command`
returns), its words with their usage and help, and how the reader builds it, declared
together by :func:`command`.

A command says what was written, not what it means in a position: pile numbers are kept as
typed (1..10, not checked), and cards are named, not found. :func:`notation.resolve` turns
the commands that change the tableau (moves, the obvious move, removals, the deal) into
engine actions for a given game; the others are carried out by the app's table of commands.

The commands that change the tableau are declared in :mod:`spider_cli.language.playing` and
named here too. Adding a command: its rule in grammar/commands.lark (and the tables made
again), its class here with :func:`command` (its words, help and argument) and in
:data:`Command`, and its handler in the app's table (how it is shown, whether it searches).
"""

from __future__ import annotations

from typing import Any

from spider_cli.language.playing import DealCommand as DealCommand
from spider_cli.language.playing import MoveCommand as MoveCommand
from spider_cli.language.playing import ObviousCommand as ObviousCommand
from spider_cli.language.playing import RemoveCommand as RemoveCommand
from spider_cli.language.playing import RunSpec as RunSpec
from spider_cli.language.playing import TableauCommand as TableauCommand
from spider_cli.language.playing import fields, nothing
from spider_cli.language.registry import Argument, Word, command
from spider_cli.rules.cards import SUIT_NAMES, Card
from spider_cli.rules.deals import Source
from spider_cli.rules.errors import NotationError
from spider_cli.rules.goals import Constraints, Goal, Wanted
from spider_cli.rules.values import Value

# ---------------------------------------------------------------------------------------------
# The game and the workbench


@command(
    Word(
        "undo",
        "take back the last move",
        "undo takes a number of actions, as in 'undo' or 'undo 3'",
        "History",
        ("undo [N]",),
    ),
    Word("u", "take back the last move", "u (undo) takes a number, as in 'u' or 'u 3'"),
    undo=lambda children: Undo(*children),
)
class Undo(Value):
    """Take back the last ``n`` actions."""

    n: int = 1


@command(
    Word(
        "redo",
        "replay a move taken back",
        "redo takes a number of actions, as in 'redo' or 'redo 3'",
        "History",
        ("redo [N]",),
    ),
    Word("r", "replay a move taken back", "r (redo) takes a number, as in 'r' or 'r 3'"),
    redo=lambda children: Redo(*children),
)
class Redo(Value):
    """Replay ``n`` actions that were taken back."""

    n: int = 1


@command(
    Word(
        "restart",
        "the same hand again from the start",
        nothing("restart"),
        "History",
        ("restart (same hand again)",),
    ),
    restart=lambda children: Restart(),
)
class Restart(Value):
    """Play the same hand again from the start."""


def _read_new(children: list[dict[str, Any]]) -> NewCommand:
    """A rank of difficulty implies winnable ("new winnable hard" is "new hard")."""
    given = fields(children)
    ranks = [c["wanted"] for c in children if c.get("wanted") not in (None, Wanted.WINNABLE)]
    return NewCommand(**({**given, "wanted": ranks[-1]} if ranks else given))


@command(
    Word(
        "new",
        "a new game: new [N|pysol:N|kpat:N] [suits 1|2|4] [winnable|easy|medium|hard]",
        "new takes a deal number, a suit count (1, 2 or 4), and 'winnable' or a difficulty "
        "(easy, medium, hard), as in 'new 17 suits 2', 'new winnable' or 'new easy'",
        "History",
        ("new [N|pysol:N|kpat:N] [suits 1|2|4] [winnable|easy|medium|hard]",),
    ),
    Word(
        "n",
        "a new game (as 'new')",
        "n (new) takes what new takes, as in 'n 17 suits 2' or 'n winnable'",
    ),
    new=_read_new,
)
class NewCommand(Value):
    """Start deal number ``seed`` (None: a random one) of the 1, 2 or 4-suit game, in the
    numbering of ``source`` (ours, or PySolFC's or KPatience's: "new pysol:14934"); with
    ``wanted`` ("new winnable"), the first deal from that number on that is of that kind."""

    seed: int | None = None
    suits: int | None = None
    source: Source = Source.OURS
    wanted: Wanted | None = None


@command(
    Word(
        "replay",
        "step through the game from the start",
        nothing("replay"),
        "History",
        ("replay (the game from its start)",),
    ),
    replay=lambda children: Replay(),
)
class Replay(Value):
    """Step through the game from its start to the current position."""


@command(
    Word(
        "moves",
        "every legal move (* natural)",
        nothing("moves"),
        "Questions",
        ("moves (the legal moves, * = natural: a simple suggestion)",),
    ),
    moves=lambda children: Moves(),
)
class Moves(Value):
    """List the legal moves."""


@command(
    Word(
        "complete",
        "suits with all thirteen cards face up",
        nothing("complete"),
        "Questions",
        ("complete (suits face up in full)",),
    ),
    complete=lambda children: Complete(),
)
class Complete(Value):
    """Which suits could be gathered into a whole run from the cards now face up."""


def _read_locate(children: list[Card | int]) -> Locate:
    (what,) = children
    return Locate(what.rank, what.suit) if isinstance(what, Card) else Locate(what)


@command(
    Word(
        "locate",
        "where the copies of a card are",
        "locate takes a card or a rank, as in 'locate 8h' or 'locate K'",
        "Questions",
        ("locate CARD (or a rank: locate K)",),
    ),
    locate=_read_locate,
)
class Locate(Value):
    """Find every copy of a card ("locate 8h"), or of a rank in any suit ("locate K")."""

    rank: int
    suit: int | None = None


@command(
    Word("score", "the score so far", nothing("score"), "Questions", ("score",)),
    score=lambda children: Score(),
)
class Score(Value):
    """Show the manual's score."""


@command(
    Word(
        "show",
        "the tableau, or one pile in full",
        "show takes a pile or nothing, as in 'show' or 'show 3'",
        "Questions",
        ("show [PILE] (the tableau, or one pile in full)",),
        argument=Argument.PILE,
    ),
    show=lambda children: Show(*children),
)
class Show(Value):
    """Show the tableau, or one pile in full."""

    pile: int | None = None


@command(
    Word("code", "the position as one line", nothing("code"), "Questions", ("code",)),
    code=lambda children: Code(),
)
class Code(Value):
    """Print the position as one pasteable line."""


@command(
    Word(
        "stats",
        "games, wins, streaks and best scores",
        nothing("stats"),
        "Questions",
        ("stats",),
    ),
    stats=lambda children: Stats(),
)
class Stats(Value):
    """Show games, wins and the best score for each variant (1, 2 or 4 suits)."""


@command(
    Word(
        "games",
        "the games played lately",
        "games takes a number of games or nothing, as in 'games' or 'games 50'",
        "History",
        ("games [N]",),
    ),
    Word(
        "history",
        "the games played lately",
        "history takes a number of games or nothing, as in 'history' or 'history 50'",
    ),
    games=lambda children: Games(*children),
)
class Games(Value):
    """List the last ``n`` games begun (None: :data:`gamelog.RECENT`), the newest first."""

    n: int | None = None


@command(
    Word(
        "open",
        "bring back a game of 'games'",
        "open takes a game's number from 'games', as in 'open 12'",
        "History",
        ("open N",),
        argument=Argument.GAME,
    ),
    open=lambda children: Open(children[0]),
)
class Open(Value):
    """Bring game ``number`` of the history back, to replay or continue it."""

    number: int


# ---------------------------------------------------------------------------------------------
# Files


@command(
    Word(
        "save",
        "save the game in a file",
        "save takes a file name, as in 'save game.txt' or 'save \"my game.txt\"'",
        "Files",
        ("save FILE (asks before replacing a file)",),
        argument=Argument.FILE,
    ),
    Word(
        "save!",
        "save the game, replacing the file",
        "save! takes a file name, as in 'save! game.txt'",
        "Files",
        ("save! FILE (replaces it: scripts must say so)",),
        argument=Argument.FILE,
    ),
    save=lambda children: Save(children[0]),
    save_over=lambda children: Save(children[0], replace=True),
)
class Save(Value):
    """Write the game to a file: "save FILE" (never over another file without asking),
    "save! FILE" (``replace``: over the file if it exists)."""

    path: str
    replace: bool = False


@command(
    Word(
        "load",
        "resume a game file or open a position",
        "load takes a file name, as in 'load game.txt' or 'load \"my game.txt\"'",
        "Files",
        ("load FILE (a position, a game file, an example's name or a code)",),
        argument=Argument.FILE_OR_EXAMPLE,
    ),
    load=lambda children: Load(children[0]),
)
class Load(Value):
    """Read a position or a game file."""

    path: str


@command(
    Word(
        "expect",
        "check the position against a file",
        "expect takes a file name, as in 'expect after.txt'",
        "Files",
        ("expect FILE (check the position with a file)",),
        argument=Argument.FILE,
    ),
    expect=lambda children: Expect(children[0]),
)
class Expect(Value):
    """Check that the position is the one in a file (for scripts and tests)."""

    path: str


@command(
    Word(
        "run",
        "run the commands of a script in this game",
        "run takes a file name, as in 'run moves.spider', or an example's name",
        "Files",
        ("run FILE (a script)",),
        argument=Argument.FILE_OR_EXAMPLE,
    ),
    run_script=lambda children: RunScript(children[0]),
)
class RunScript(Value):
    """Run a script's commands, one a line, in the game in progress, as ``spider run``
    does: "run moves.spider", or an example script by its name."""

    path: str


@command(
    Word(
        "assume",
        "say which card an unknown card is",
        "assume takes a pile and a card, as in 'assume 8 6s'",
        "Unknown",
        ("assume PILE CARD (the next unknown card turned up in PILE is CARD)",),
        argument=Argument.HIDDEN_PILE,
    ),
    assume=lambda children: Assume(*children),
)
class Assume(Value):
    """Decide the next unknown card turned up on a pile: "assume 8 6s"."""

    pile: int
    card: Card


# ---------------------------------------------------------------------------------------------
# Analysis


def _read_hint(children: list[Any]) -> Hint:
    how = str(children[0]).lower() if children else ""
    return Hint(deeper=how == "deeper", following=how == "next")


@command(
    Word(
        "hint",
        "a suggested move",
        "hint takes nothing, 'next' or 'deeper', as in 'hint', 'hint next' or 'hint deeper'",
        "Analysis",
        ("hint [next|deeper] (the best next move, and why; see 'help hints')",),
    ),
    Word("h", "a suggested move", "h (hint) takes nothing, 'next' or 'deeper', as in 'h next'"),
    hint=_read_hint,
)
class Hint(Value):
    """Suggest the blind player's best move, with the manual's reason for it; ``deeper``:
    the best with searches ten times longer ("hint deeper"); ``following``: its next choice
    after the one given last here ("hint next")."""

    deeper: bool = False
    following: bool = False


def _read_apply(children: list[Any]) -> Apply:
    """ "apply", "apply 3", "apply all"."""
    if not children:
        return Apply()
    if isinstance(children[0], int):
        return Apply(children[0])
    return Apply(whole=True)  # "all"


@command(
    Word(
        "apply",
        "play the line found",
        "apply takes a number of moves, 'all' or nothing, as in 'apply', 'apply 3' or 'apply all'",
        "Analysis",
        ("apply [N|all] (play the move hinted, or the line solve found)",),
    ),
    apply=_read_apply,
)
class Apply(Value):
    """Play what the last ``solve`` or ``hint`` found: after a hint its move (``whole``:
    the hint's whole line), after ``solve`` its whole line; ``n``: its next ``n`` moves."""

    n: int | None = None
    whole: bool = False


@command(
    Word(
        "auto",
        "play hint's moves",
        "auto takes a number of moves or nothing, as in 'auto' or 'auto 20'",
        "Analysis",
        ("auto [N] (play hint's moves until N moves, a deal or the win)",),
    ),
    auto=lambda children: Auto(*children),
)
class Auto(Value):
    """Play hint's moves one at a time: at most ``n`` (None: until a deal is due, the win,
    or no move is left)."""

    n: int | None = None


def _read_solve(children: list[Any]) -> Solve:
    """The goal, then the clauses (the reader's dicts): constraints, "for each reveal"."""
    goal, *clauses = children
    fields: dict[str, Any] = {}
    no_remove: set[int] = set()
    each = False
    for clause in clauses:
        if "each_reveal" in clause:
            each = True
        elif "no_remove" in clause:
            named = "named_at" in clause
            if named and any(clause["no_remove"][0] in step for step in goal.steps):
                suit = SUIT_NAMES[clause["no_remove"][0]]
                raise NotationError(
                    f"the goal removes the {suit}: 'no remove {suit}' cannot hold with it",
                    1,
                    clause["named_at"],
                )
            no_remove.update(clause["no_remove"])
        else:
            fields.update(clause)
    constraints = Constraints(no_remove=tuple(sorted(no_remove)), **fields)
    return Solve(goal, constraints, each)


@command(
    Word(
        "solve",
        "search for a line to a goal",
        "solve takes a goal and constraints, as in 'solve remove hearts then clubs, no deal' "
        "(goals: turn up a card [in pile N], get a space [in pile N], remove SUIT [then SUIT], "
        "free CARD, win; "
        "constraints: no deal, keep N spaces, no remove [SUIT], no new space, no turn up, "
        "limit N, within N seconds; then 'for each reveal' if wanted)",
        "Analysis",
        ("solve GOAL [CONSTRAINTS] (see 'help solve')",),
    ),
    solve=_read_solve,
    question=_read_solve,  # the same clauses, without the word "solve" (parse_question)
)
class Solve(Value):
    """``solve GOAL [CONSTRAINTS] [for each reveal]``: search the known cards for a line."""

    goal: Goal
    constraints: Constraints = Constraints()
    each_reveal: bool = False


@command(
    Word(
        "odds",
        "the chance of a win with every card known",
        nothing("odds"),
        "Analysis",
        ("odds",),  # one word: 'help solve' says more, and the list keeps within 30 rows
    ),
    Word("o", "the chance of a win with every card known", "o (odds) takes nothing after it"),
    odds=lambda children: Odds(),
)
class Odds(Value):
    """The chance of a win from here with every card known: the share of deals consistent
    with what the player sees that full-information play wins."""


def _read_review(children: list[Any]) -> Review:
    """ "review", "review 43", "review again" (or "review --again")."""
    if children and isinstance(children[0], int):
        return Review(children[0])
    return Review(again=bool(children))


@command(
    Word(
        "review",
        "where the game was lost, and each move's cost",
        "review takes a move's number, 'again' or nothing, as in 'review', 'review 43' or "
        "'review again'",
        "Analysis",
        ("review [N|again]",),  # (help review says more: the list keeps within 30 rows)
    ),
    review=_read_review,
)
class Review(Value):
    """Review the game from its start: where it was lost with every card known, the chance
    of a win after each move, and the moves that cost it most; with ``move``, show the
    position before that marked move, with the move played and the better one; ``again``:
    made anew, though a review of the game is kept in the history."""

    move: int | None = None
    again: bool = False


# ---------------------------------------------------------------------------------------------
# Settings, help, leaving


@command(
    Word(
        "set",
        "change a setting, or list them",
        "set takes a name and a value, as in 'set autoremove off', or nothing to list them",
        "Settings",
        (
            "set (list them)",
            "set autoremove on|off",
            "set sixth left|spread (where new deals put a 6th card)",
            "set suits 1|2|4 (a new game's, when none is named)",
            "set level plain|quick|strong|expert|judge (the player hint follows)",
        ),
        argument=Argument.SETTING,
    ),
    set=lambda children: Set(*children) if children else ListSettings(),
)
class Set(Value):
    """Change a setting: "set autoremove on" (``value`` True), "set delay 3" (``value`` 3)."""

    name: str
    value: bool | int | str


class ListSettings(Value):
    """List the settings and their values: "set" alone."""


@command(
    Word(
        "help",
        "how to play, and the commands",
        "help takes a topic or nothing, as in 'help' or 'help moves'",
        "Also",
        ("help [rules|notation|files|scoring|keys|solve|hints|review]",),
        argument=Argument.TOPIC,
    ),
    help=lambda children: Help(*children),
)
class Help(Value):
    """Show the commands, or the help on one topic."""

    topic: str | None = None


@command(
    Word(
        "resign", "give the game up (recorded as lost)", nothing("resign"), "History", ("resign",)
    ),
    resign=lambda children: Resign(),
)
class Resign(Value):
    """Give the game up: the history of games records it as lost."""


@command(
    Word("quit", "leave (the game is kept)", nothing("quit"), "Also", ("quit",)),
    Word("q", "leave (the game is kept)", "q (quit) takes nothing after it"),
    Word("exit", "leave (the game is kept)", nothing("exit")),
    quit=lambda children: Quit(),
)
class Quit(Value):
    """Leave spider."""


Command = (
    MoveCommand
    | DealCommand
    | RemoveCommand
    | ObviousCommand
    | Undo
    | Redo
    | Restart
    | NewCommand
    | Replay
    | Moves
    | Complete
    | Locate
    | Score
    | Show
    | Code
    | Stats
    | Games
    | Open
    | Save
    | Load
    | Expect
    | RunScript
    | Assume
    | Hint
    | Apply
    | Auto
    | Solve
    | Odds
    | Review
    | Set
    | ListSettings
    | Help
    | Resign
    | Quit
)
"""Any command :func:`notation.parse_command` can return."""
