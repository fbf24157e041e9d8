"""What each command is, in one table: the grammar's messages, completion and ``help`` read it.

One entry for every word that can start a command line (grammar/commands.lark), keyed by the
word as typed; the tests check that the grammar and the table name the same words.
"""

from __future__ import annotations

from spider_cli.rules.values import Value


class CommandInfo(Value):
    """One command word.

    ``summary``: a few words shown beside it in the completion menu. ``takes``: what it
    takes, said when its line does not read (None for moves, whose mistakes have their own
    messages). ``group`` and ``overview``: where and how ``help`` lists it (no group: not
    listed, as for a second spelling).
    """

    summary: str
    takes: str | None
    group: str | None = None
    overview: tuple[str, ...] = ()


def _nothing(word: str) -> str:
    return f"{word} takes nothing after it"


COMMANDS: dict[str, CommandInfo] = {
    "move": CommandInfo(
        "a move, as 'move 8-6s from 3 to 10'",
        None,
        "Playing",
        ("a move (see 'help notation')",),
    ),
    "from": CommandInfo("a move from a pile", None),
    "deal": CommandInfo(
        "deal a row of ten cards from the hand", _nothing("deal"), "Playing", ("deal",)
    ),
    "d": CommandInfo("deal a row of ten cards from the hand", "d (deal) takes nothing after it"),
    "remove": CommandInfo(
        "take a complete suit off a pile",
        "say which suit or pile, as in 'remove', 'remove 8' or 'remove the spades from 8'",
        "Playing",
        ("remove [PILE]",),
    ),
    "obvious": CommandInfo(
        "move a pile's cards to the obvious place",
        "obvious takes a pile, as in 'obvious 3'",
        "Playing",
        ("obvious PILE",),
    ),
    "undo": CommandInfo(
        "take back the last move",
        "undo takes a number of actions, as in 'undo' or 'undo 3'",
        "History",
        ("undo [N]",),
    ),
    "u": CommandInfo("take back the last move", "u (undo) takes a number, as in 'u' or 'u 3'"),
    "redo": CommandInfo(
        "replay a move taken back",
        "redo takes a number of actions, as in 'redo' or 'redo 3'",
        "History",
        ("redo [N]",),
    ),
    "r": CommandInfo("replay a move taken back", "r (redo) takes a number, as in 'r' or 'r 3'"),
    "restart": CommandInfo(
        "the same hand again from the start",
        _nothing("restart"),
        "History",
        ("restart (same hand again)",),
    ),
    "new": CommandInfo(
        "a new game: new [N|pysol:N|kpat:N] [suits 1|2|4] [winnable|easy|medium|hard]",
        "new takes a deal number, a suit count (1, 2 or 4), and 'winnable' or a difficulty "
        "(easy, medium, hard), as in 'new 17 suits 2', 'new winnable' or 'new easy'",
        "History",
        ("new [N|pysol:N|kpat:N] [suits 1|2|4] [winnable|easy|medium|hard]",),
    ),
    "n": CommandInfo(
        "a new game (as 'new')",
        "n (new) takes what new takes, as in 'n 17 suits 2' or 'n winnable'",
    ),
    "replay": CommandInfo(
        "step through the game from the start",
        _nothing("replay"),
        "History",
        ("replay (the game from its start)",),
    ),
    "moves": CommandInfo(
        "every legal move (* natural)",
        _nothing("moves"),
        "Questions",
        ("moves (the legal moves, * = natural: a simple suggestion)",),
    ),
    "complete": CommandInfo(
        "suits with all thirteen cards face up",
        _nothing("complete"),
        "Questions",
        ("complete (suits face up in full)",),
    ),
    "locate": CommandInfo(
        "where the copies of a card are",
        "locate takes a card or a rank, as in 'locate 8h' or 'locate K'",
        "Questions",
        ("locate CARD (or a rank: locate K)",),
    ),
    "score": CommandInfo("the score so far", _nothing("score"), "Questions", ("score",)),
    "show": CommandInfo(
        "the tableau, or one pile in full",
        "show takes a pile or nothing, as in 'show' or 'show 3'",
        "Questions",
        ("show [PILE] (the tableau, or one pile in full)",),
    ),
    "code": CommandInfo("the position as one line", _nothing("code"), "Questions", ("code",)),
    "stats": CommandInfo(
        "games, wins, streaks and best scores",
        _nothing("stats"),
        "Questions",
        ("stats",),
    ),
    "games": CommandInfo(
        "the games played lately",
        "games takes a number of games or nothing, as in 'games' or 'games 50'",
        "History",
        ("games [N]",),
    ),
    "history": CommandInfo(
        "the games played lately",
        "history takes a number of games or nothing, as in 'history' or 'history 50'",
    ),
    "open": CommandInfo(
        "bring back a game of 'games'",
        "open takes a game's number from 'games', as in 'open 12'",
        "History",
        ("open N",),
    ),
    "save": CommandInfo(
        "save the game in a file",
        "save takes a file name, as in 'save game.txt' or 'save \"my game.txt\"'",
        "Files",
        ("save FILE (asks before replacing a file)",),
    ),
    "save!": CommandInfo(
        "save the game, replacing the file",
        "save! takes a file name, as in 'save! game.txt'",
        "Files",
        ("save! FILE (replaces it: scripts must say so)",),
    ),
    "load": CommandInfo(
        "resume a game file or open a position",
        "load takes a file name, as in 'load game.txt' or 'load \"my game.txt\"'",
        "Files",
        ("load FILE (a position, a game file, an example's name or a code)",),
    ),
    "expect": CommandInfo(
        "check the position against a file",
        "expect takes a file name, as in 'expect after.txt'",
        "Files",
        ("expect FILE (check the position against a position file)",),
    ),
    "assume": CommandInfo(
        "say which card an unknown card is",
        "assume takes a pile and a card, as in 'assume 8 6s'",
        "Unknown",
        ("assume PILE CARD (the next unknown card turned up in PILE is CARD)",),
    ),
    "hint": CommandInfo(
        "a suggested move",
        "hint takes nothing, 'next' or 'deeper', as in 'hint', 'hint next' or 'hint deeper'",
        "Analysis",
        ("hint [next|deeper] (the best next move, and why; see 'help hints')",),
    ),
    "h": CommandInfo(
        "a suggested move", "h (hint) takes nothing, 'next' or 'deeper', as in 'h next'"
    ),
    "apply": CommandInfo(
        "play the line found",
        "apply takes a number of moves or nothing, as in 'apply' or 'apply 1'",
        "Analysis",
        ("apply [N] (play the line found)",),
    ),
    "auto": CommandInfo(
        "play hint's moves",
        "auto takes a number of moves or nothing, as in 'auto' or 'auto 20'",
        "Analysis",
        ("auto [N] (play hint's moves until N moves, a deal or the win)",),
    ),
    "solve": CommandInfo(
        "search for a line to a goal",
        "solve takes a goal and constraints, as in 'solve remove hearts then clubs, no deal' "
        "(goals: turn up a card [in pile N], get a space [in pile N], remove SUIT [then SUIT], "
        "free CARD, win; "
        "constraints: no deal, keep N spaces, no remove [SUIT], no new space, no turn up, "
        "limit N, within N seconds; then 'for each reveal' if wanted)",
        "Analysis",
        ("solve GOAL [CONSTRAINTS] [for each reveal] (see 'help solve')",),
    ),
    "odds": CommandInfo(
        "the chance of a win with every card known",
        _nothing("odds"),
        "Analysis",
        ("odds",),  # one word: 'help solve' says more, and the list keeps within 30 rows
    ),
    "o": CommandInfo(
        "the chance of a win with every card known", "o (odds) takes nothing after it"
    ),
    "set": CommandInfo(
        "change a setting, or list them",
        "set takes a name and a value, as in 'set autoremove off', or nothing to list them",
        "Settings",
        (
            "set (list them)",
            "set autoremove on|off",
            "set sixth left|spread (where new deals put a 6th card)",
            "set suits 1|2|4 (a new game's, when none is named)",
        ),
    ),
    "help": CommandInfo(
        "how to play, and the commands",
        "help takes a topic or nothing, as in 'help' or 'help moves'",
        "Also",
        ("help [rules|notation|commands|files|scoring|keys|solve|hints]",),
    ),
    "resign": CommandInfo(
        "give the game up (recorded as lost)", _nothing("resign"), "History", ("resign",)
    ),
    "quit": CommandInfo("leave (the game is kept)", _nothing("quit"), "Also", ("quit",)),
    "q": CommandInfo("leave (the game is kept)", "q (quit) takes nothing after it"),
    "exit": CommandInfo("leave (the game is kept)", _nothing("exit")),
}
"""Every command word, in the order ``help`` lists them."""
