"""The manual's notation read: a typed line of text becomes a command, a command an action.

:func:`parse_command` reads one line (grammar/commands.lark) into a typed command of
:mod:`spider_cli.language.commands`, or raises :class:`NotationError` saying in a player's
words what was expected. :func:`resolve` finds what a move, removal or deal command names in
a game and returns the engine action (for the caller to check against the rules), or raises
:class:`IllegalMoveError` with the precise reason. Writing goes the other way in
:mod:`spider_cli.rules.text`, and reads back:
``resolve(game, parse_command(move_text(game, action))) == action`` for every legal action.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, cast

from spider_cli.analysis.goals import Constraints, Goal, Wanted
from spider_cli.language import grammar, lalr
from spider_cli.language.commandinfo import COMMANDS
from spider_cli.language.commands import (
    Apply,
    Assume,
    Auto,
    Code,
    Command,
    Complete,
    DealCommand,
    Expect,
    Games,
    Help,
    Hint,
    ListSettings,
    Load,
    Locate,
    MoveCommand,
    Moves,
    NewCommand,
    ObviousCommand,
    Odds,
    Open,
    Quit,
    Redo,
    RemoveCommand,
    Replay,
    Restart,
    RunSpec,
    Save,
    Score,
    Set,
    Show,
    Solve,
    Stats,
    TableauCommand,
    Undo,
)
from spider_cli.language.textfiles import shown
from spider_cli.rules.cards import (
    RANK_NAMES,
    SUIT_LETTERS,
    SUIT_NAMES,
    Card,
    card_text,
    parse_rank,
    parse_suit,
    run_text,
)
from spider_cli.rules.deals import Source
from spider_cli.rules.engine import DEAL, PILES, Action, Game, Move, Remove
from spider_cli.rules.errors import IllegalMoveError, NotationError, caret_line

if TYPE_CHECKING:
    from lark import Lark, Transformer
    from lark.exceptions import UnexpectedInput
    from lark.tree import Meta

Token = lalr.Token
"""What the reader's terminal methods get: lark's ``Token`` is the same kind of thing (a
``str`` with its ``type`` and ``column``), so the methods serve both parsers."""


@cache
def command_parser() -> Lark:
    """The parser of grammar/commands.lark that builds a tree whose nodes know their columns.

    :func:`parse_command` uses it to explain a line that does not read; completion and
    highlighting use it to follow a line as it is typed.
    """
    return _tree_parser("commands.lark")


@cache
def _tree_parser(name: str) -> Lark:
    return grammar.load(name)


@cache
def _reading_parser(name: str = "commands.lark") -> lalr.Parser:
    """The parser of the same tables with :class:`_Reader` inside, in
    :mod:`spider_cli.language.lalr` (no lark import): each rule's command value is made as
    the rule is recognised, with no tree."""
    return lalr.Parser(grammar.stored(name), _Reader(), grammar.start_rule(name))


# ---------------------------------------------------------------------------------------------
# From trees to commands


def _fields(children: list[dict[str, Any]]) -> dict[str, Any]:
    """Merge the keyword arguments that a command's clauses contribute."""
    return {key: value for clause in children for key, value in clause.items()}


MAX_DIGITS = 20
"""The longest number a command takes: deal numbers (PySolFC's go up to 10**20 - 1) are the
longest; a count or pile is far shorter."""


class _Reader:
    """Makes a command of a line's terminals and rules; clauses become keyword arguments
    (dicts). The methods are called by :mod:`spider_cli.language.lalr` as a line is read,
    or by lark over a tree (:func:`_placed_reader`)."""

    # -- terminals

    def NUMBER(self, token: Token) -> int:
        if len(token) > MAX_DIGITS:
            raise NotationError(
                f"a number has at most {MAX_DIGITS} digits (no count, pile or deal needs more)",
                1,
                token.column or 1,
            )
        return int(token)

    def DEAL_NAME(self, token: Token) -> tuple[Source, int]:
        """Another program's deal, "pysol:14934" or "kpat:7"."""
        prefix, _, digits = token.partition(":")
        return Source(prefix.lower()), int(digits)

    def SUIT_COUNT(self, token: Token) -> int:
        return int(token)

    def CARD(self, token: Token) -> Card:
        return Card.parse(token)

    def RANK(self, token: Token) -> int:
        return parse_rank(token)

    def SUIT(self, token: Token) -> int:
        return parse_suit(token)

    def SUIT_NAME(self, token: Token) -> int:
        return SUIT_NAMES.index(token.lower().rstrip("s") + "s")

    def RUN(self, token: Token) -> RunSpec:
        """A run such as 8-6s or Jc-3h; it must go down from its top card to its bottom."""
        top, bottom_text = token.split("-")
        bottom = Card.parse(bottom_text)
        has_suit = len(top) > 1 and top != "10"
        run = RunSpec(
            parse_rank(top[:-1] if has_suit else top),
            parse_suit(top[-1]) if has_suit else None,
            bottom,
        )
        column = token.column
        if run.top_rank == bottom.rank:
            raise NotationError(f"'{token}' names one card: write {bottom}", 1, column)
        if run.top_rank < bottom.rank:
            fix = f"{RANK_NAMES[bottom.rank]}-{RANK_NAMES[run.top_rank]}{SUIT_LETTERS[bottom.suit]}"
            raise NotationError(
                f"'{token}' runs the wrong way: name the top card first, as in {fix}",
                1,
                column,
            )
        return run

    def PATH(self, token: Token) -> str:
        return str(token)

    def STRING(self, token: Token) -> str:
        return token[1:-1]

    def WORD(self, token: Token) -> str:
        return token.lower()

    def VALUE(self, token: Token) -> bool | int | str:
        """``on``/``off``-style words become booleans, numbers ints; anything else stays."""
        word = token.lower()
        if word in ("on", "true", "yes"):
            return True
        if word in ("off", "false", "no"):
            return False
        return int(word) if re.fullmatch(r"[+-]?[0-9]+", word) else str(token)

    # -- moves

    def start(self, children: list[Command]) -> Command | None:
        return children[0] if children else None

    def run(self, children: list[RunSpec | Card]) -> dict[str, RunSpec]:
        (cards,) = children
        if isinstance(cards, Card):
            cards = RunSpec(cards.rank, cards.suit, cards)
        return {"run": cards}

    def source(self, children: list[int]) -> dict[str, int]:
        return {"src": children[0]}

    def to_pile(self, children: list[int]) -> dict[str, int]:
        return {"dst": children[0]}

    def onto_card(self, children: list[Any]) -> dict[str, Any]:
        return {"onto": children[0], "dst": children[1] if len(children) > 1 else None}

    def any_space(self, children: list[Any]) -> dict[str, bool]:
        return {"into_space": True}

    def the_space(self, children: list[int]) -> dict[str, Any]:
        return {"into_space": True, "dst": children[0]}

    def move(self, children: list[dict[str, Any]]) -> MoveCommand:
        return MoveCommand(**_fields(children))

    def quick(self, children: list[Any]) -> MoveCommand:
        *top, src, dst = children
        run = RunSpec(top[0].rank, top[0].suit, None) if top else None
        return MoveCommand(run=run, src=src, dst=dst)

    def obvious(self, children: list[int]) -> ObviousCommand:
        return ObviousCommand(children[0])

    def pile(self, children: list[int]) -> int:
        return children[0]

    def deal(self, children: list[Any]) -> DealCommand:
        return DealCommand()

    def suit(self, children: list[int]) -> dict[str, int]:
        return {"suit": children[0]}

    def where(self, children: list[int]) -> dict[str, int]:
        return {"pile": children[0]}

    def remove(self, children: list[dict[str, int]]) -> RemoveCommand:
        return RemoveCommand(**_fields(children))

    # -- the game and the workbench

    def seed(self, children: list[int | tuple[Source, int]]) -> dict[str, Any]:
        if isinstance(children[0], tuple):
            source, number = children[0]
            return {"seed": number, "source": source}
        return {"seed": children[0]}

    def suits(self, children: list[int]) -> dict[str, int]:
        return {"suits": children[0]}

    def winnable(self, children: list[Any]) -> dict[str, Wanted]:
        return {"wanted": Wanted.WINNABLE}

    def LEVEL(self, token: Token) -> Wanted:
        return Wanted(token.lower())

    def difficulty(self, children: list[Wanted]) -> dict[str, Wanted]:
        return {"wanted": children[0]}

    def new(self, children: list[dict[str, Any]]) -> NewCommand:
        """A rank of difficulty implies winnable ("new winnable hard" is "new hard")."""
        fields = _fields(children)
        ranks = [c["wanted"] for c in children if c.get("wanted") not in (None, Wanted.WINNABLE)]
        return NewCommand(**({**fields, "wanted": ranks[-1]} if ranks else fields))

    def restart(self, children: list[Any]) -> Restart:
        return Restart()

    def undo(self, children: list[int]) -> Undo:
        return Undo(*children)

    def redo(self, children: list[int]) -> Redo:
        return Redo(*children)

    def assume(self, children: list[Any]) -> Assume:
        return Assume(*children)

    def moves(self, children: list[Any]) -> Moves:
        return Moves()

    def complete(self, children: list[Any]) -> Complete:
        return Complete()

    def locate(self, children: list[Card | int]) -> Locate:
        (what,) = children
        return Locate(what.rank, what.suit) if isinstance(what, Card) else Locate(what)

    def score(self, children: list[Any]) -> Score:
        return Score()

    def show(self, children: list[int]) -> Show:
        return Show(*children)

    def code(self, children: list[Any]) -> Code:
        return Code()

    def file(self, children: list[str]) -> str:
        return children[0]

    def load(self, children: list[str]) -> Load:
        return Load(children[0])

    def save(self, children: list[str]) -> Save:
        return Save(children[0])

    def save_over(self, children: list[str]) -> Save:
        return Save(children[0], replace=True)

    def expect(self, children: list[str]) -> Expect:
        return Expect(children[0])

    def set(self, children: list[Any]) -> Set | ListSettings:
        return Set(*children) if children else ListSettings()

    def help(self, children: list[str]) -> Help:
        return Help(*children)

    def quit(self, children: list[Any]) -> Quit:
        return Quit()

    def replay(self, children: list[Any]) -> Replay:
        return Replay()

    def stats(self, children: list[Any]) -> Stats:
        return Stats()

    def games(self, children: list[int]) -> Games:
        return Games(*children)

    def open(self, children: list[int]) -> Open:
        return Open(children[0])

    # -- analysis

    def hint(self, children: list[Any]) -> Hint:
        return Hint(deeper=bool(children))

    def odds(self, children: list[Any]) -> Odds:
        return Odds()

    def apply(self, children: list[int]) -> Apply:
        return Apply(*children)

    def auto(self, children: list[int]) -> Auto:
        return Auto(*children)

    def goal_turn_up(self, children: list[int]) -> Goal:
        return Goal("turn up", children[0] if children else None)

    def goal_space(self, children: list[int]) -> Goal:
        return Goal("space", children[0] if children else None)

    def goal_win(self, children: list[Any]) -> Goal:
        return Goal("win")

    def goal_free(self, children: list[Card]) -> Goal:
        return Goal("free", card=int(children[0]))

    def goal_remove(self, children: list[Any]) -> Goal:
        """ "hearts then clubs": two steps; "clubs and hearts": one step of two suits."""
        steps: list[list[int]] = [[]]
        for child in children:
            if isinstance(child, str):  # STEP, a token: "then" or "and"
                if child.lower() == "then":
                    steps.append([])
            else:
                steps[-1].append(child["suit"])
        return Goal("remove", steps=tuple(tuple(step) for step in steps))

    def no_deal(self, children: list[Any]) -> dict[str, Any]:
        return {"no_deal": True}

    # Four clauses put their own column in a message. A rule's position is known only over
    # a tree (:func:`_placed_reader`); read with no tree, they say column 0, and
    # parse_command then reads the line again through the tree for the column.

    def keep_spaces(self, children: list[int], column: int = 0) -> dict[str, Any]:
        count = children[0] if children else 1
        if count > PILES:
            raise NotationError(
                f"there are only {PILES} piles: keep {PILES} spaces at most", 1, column
            )
        return {"keep_spaces": count}

    def no_remove(self, children: list[dict[str, int]], column: int = 0) -> dict[str, Any]:
        if children:
            return {"no_remove": (children[0]["suit"],), "named_at": column}
        return {"no_remove": (0, 1, 2, 3)}

    def no_new_space(self, children: list[Any]) -> dict[str, Any]:
        return {"no_new_space": True}

    def no_turn_up(self, children: list[Any]) -> dict[str, Any]:
        return {"no_turn_up": True}

    def limit(self, children: list[int], column: int = 0) -> dict[str, Any]:
        if children[0] < 1:
            raise NotationError("the limit is a number of positions: 1 or more", 1, column)
        return {"limit": children[0]}

    def within(self, children: list[int], column: int = 0) -> dict[str, Any]:
        if children[0] < 1:
            raise NotationError("the time is a number of seconds: 1 or more", 1, column)
        return {"seconds": children[0]}

    def for_each(self, children: list[Any]) -> dict[str, Any]:
        return {"each_reveal": True}

    def solve(self, children: list[Any]) -> Solve:
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

    question = solve  # the same clauses, without the word "solve" (parse_question)


@cache
def _placed_reader() -> Transformer[Any, Command | None]:
    """The reader run by lark over a tree, where the clauses that need their column have it
    (lark is imported here, when a line does not read)."""
    from lark import Transformer, v_args

    class _PlacedReader(_Reader, Transformer[Any, Command | None]):
        @v_args(meta=True)
        def keep_spaces(self, meta: Meta, children: list[int]) -> dict[str, Any]:
            return super().keep_spaces(children, meta.column)

        @v_args(meta=True)
        def no_remove(self, meta: Meta, children: list[dict[str, int]]) -> dict[str, Any]:
            return super().no_remove(children, meta.column)

        @v_args(meta=True)
        def limit(self, meta: Meta, children: list[int]) -> dict[str, Any]:
            return super().limit(children, meta.column)

        @v_args(meta=True)
        def within(self, meta: Meta, children: list[int]) -> dict[str, Any]:
            return super().within(children, meta.column)

    return _PlacedReader()


def parse_command(text: str) -> Command | None:
    """Read one line: a command, or None for a blank or comment-only line.

    Raises :class:`NotationError` (and nothing else, whatever the text) with the column of
    the problem, the line with a caret under it, and what was expected in a player's words.
    A line is first read with no tree (fast); a line that does not read is read again into a
    tree, whose positions the explanation needs. Commands are immutable values, so a line
    read before (scripts and game files repeat moves often) is answered from a cache.
    """
    return _read_line(text.rstrip("\r\n"))


def clear_line_cache() -> None:
    """Forget the lines :func:`parse_command` has read (for benchmarks of a fresh read)."""
    _read_line.cache_clear()


def read_run(text: str) -> RunSpec | None:
    """The cards a move names by one word ("8-6s", "Jc-3h", "As"), or None if the word
    names none (completion asks this of the word being typed)."""
    reader = _Reader()
    kind = "RUN" if "-" in text else "CARD"
    try:
        cards = getattr(reader, kind)(Token(kind, text, 0, 1, 1))
    except NotationError:
        return None
    return reader.run([cards])["run"]


def parse_question(text: str) -> Solve:
    """Read what follows ``solve`` on its own ("remove hearts then clubs, no deal"), as
    ``spider solve FILE GOAL...`` takes it; errors as :func:`parse_command`'s."""
    return cast(Solve, _read_line(text.rstrip("\r\n"), "commands.lark#question"))


@lru_cache(maxsize=4096)
def _read_line(line: str, tables: str = "commands.lark") -> Command | None:
    """:func:`parse_command` for a line without its line break (cached; errors are not)."""
    try:
        return cast(Command | None, _reading_parser(tables).parse(line))
    except (lalr.ParseError, NotationError):
        return _read_through_tree(line, tables)


def _read_through_tree(line: str, tables: str = "commands.lark") -> Command | None:
    """Read with lark, into a tree, a line the fast parser could not read: the command, or
    the NotationError that says where the line goes wrong and why."""
    from lark.exceptions import UnexpectedInput, VisitError

    try:
        tree = _tree_parser(tables).parse(line)
    except UnexpectedInput as error:
        pos = _error_pos(line, error)
        context = caret_line(line.split("\n", 1)[0], pos + 1)
        raise NotationError(_explain(line, pos, error), 1, pos + 1, context) from None
    try:
        return _placed_reader().transform(tree)
    except VisitError as error:
        misread = error.orig_exc
        if not isinstance(misread, NotationError):
            raise
        context = caret_line(line, misread.column)
        raise NotationError(misread.message, 1, misread.column, context) from None


# ---------------------------------------------------------------------------------------------
# Saying what went wrong


def _error_pos(line: str, error: UnexpectedInput) -> int:
    """Where the problem is: the unexpected character or token, or the end of the line."""
    from lark.exceptions import UnexpectedEOF, UnexpectedToken

    if isinstance(error, UnexpectedEOF) or (
        isinstance(error, UnexpectedToken) and error.token.type == "$END"
    ):
        return len(line.rstrip())
    return cast(int, error.pos_in_stream)  # set for a character or a token in the line


# Typical mistakes in moves, by the message they deserve: ``match_examples`` finds the one
# that fails in the same parser state as the line being read.
_MOVE_MISTAKES: dict[str, list[str]] = {
    "say where to: 'to PILE'": ["Jh from 8", "8-6s from column 3 x", "from 3", "move from 3"],
    "say which pile, as in 'from 3' or 'from column 3'": ["Jh from", "Jh from x", "from x"],
    "say where to: 'to PILE', 'onto CARD' or 'into a space'": ["Jh to", "Jh onto x", "Jh into"],
    "say 'into a space' or 'into space PILE'": ["Jh into a", "Jh into a x"],
    "say 'the space', or the card to go onto, as in 'onto the Qd'": ["Jh onto the", "Jh to the x"],
    "say which space, as in 'into space 4'": ["Jh into space", "Jh into space x"],
    "say which pile, as in 'onto Qd in column 2'": ["Jh onto Qd in", "Jh onto Qd in x"],
    "say where from and where to, as in '8-6s from 3 to 10'": ["8-6s", "As", "As x", "8-6s x"],
    "the quick form is 'CARD FROM TO', as in '6s 3 10'": ["6s 3", "6s 3 x", "6s 3>"],
    "the quick form is 'FROM TO', as in '3 10' or '3>10'": ["3 x", "3>", "3> x"],
}


_PHRASES = {
    "NUMBER": "a number",
    "CARD": "a card (as 6s)",
    "RUN": "a run (as 8-6s)",
    "RANK": "a rank",
    "SUIT": "a suit",
    "SUIT_NAME": "a suit",
    "SUIT_COUNT": "1, 2 or 4",
    "PATH": "a file name",
    "STRING": "a file name",
    "WORD": "a word",
    "VALUE": "a value",
    "_GT": "'>'",
    "_SUITS": "'suits'",
    "$END": "the end of the line",
}
"""Terminals in a player's words; keywords are quoted as they are written."""

_SILENT = {"_DOT", "_COMMENT", "$END"}
"""Terminals too obvious to list among the things that could come next."""


def _explain(line: str, pos: int, error: UnexpectedInput) -> str:
    """What was expected at ``pos``, in a player's words."""
    from lark.exceptions import UnexpectedCharacters

    if isinstance(error, UnexpectedCharacters):
        if error.char == "(":
            return "a remark in parentheses needs its closing ')'"
        if error.char in "'\"":
            return f"a quoted name needs its closing {error.char}"
        if error.char == "\n":
            return "one command per line"
    start, word = _word_at(line, pos)
    word = shown(word)  # quoted in the message: a control character stays escaped
    words = line.split()
    info = COMMANDS.get(words[0].lower()) if words else None
    usage = info.takes if info else None
    if usage is None or words[0].lower() in ("assume", "locate"):
        problem = _card_problem(word)
        if problem:
            return problem
    in_first_word = bool(word) and start == len(line) - len(line.lstrip())
    if in_first_word and not word[0].isdigit():  # a digit starts a quick move
        return f"unknown command '{word}' (type help for the commands)"
    if usage is not None:
        return usage
    try:
        label = error.match_examples(command_parser().parse, _MOVE_MISTAKES)
    except TypeError:  # lark 1.3 formats a parser state with %d when an error at the end
        label = None  # of the line has other accepts than the example's: no label then
    if label is None:
        return _expected(error, word)
    return f"{label}, not '{word}'" if word else label


def _word_at(line: str, pos: int) -> tuple[int, str]:
    """Where the word around ``pos`` starts, and the word without a final period or remark.

    At the end of the line there is no word ("").
    """
    if pos >= len(line.rstrip()):
        return pos, ""
    start = pos
    while start > 0 and not line[start - 1].isspace():
        start -= 1
    end = pos + 1
    while end < len(line) and not line[end].isspace():
        end += 1
    chunk = line[start:end]
    return start, re.split(r"[#(]", chunk)[0].rstrip(".") or chunk


@cache
def _shapes() -> tuple[re.Pattern[str], re.Pattern[str], frozenset[str]]:
    """The grammar's patterns for a card and a rank, and its keywords."""
    parser = command_parser()
    card = re.compile(parser.get_terminal("CARD").pattern.to_regexp())
    rank = re.compile(parser.get_terminal("RANK").pattern.to_regexp())
    keywords = frozenset(t.pattern.value for t in parser.terminals if t.pattern.type == "str")
    return card, rank, keywords


def _card_problem(word: str) -> str | None:
    """What is wrong with a word that looks like a card or a run but is not one."""
    card, rank, keywords = _shapes()
    top, dash, bottom = word.partition("-")
    if dash:
        piles = re.fullmatch(r"[0-9]+-[0-9]+", word)
        if piles and int(top) <= int(bottom):  # going up: not a run, but two piles
            quick = f"'{top} {bottom}' or '{top}>{bottom}'"
            return f"to move from pile {top} to pile {bottom}, write {quick}"
        if not (card.fullmatch(top) or rank.fullmatch(top)):
            return f"'{top}' is not a card" if top else f"'{word}' is not a run"
        if rank.fullmatch(bottom):
            suit = top[-1] if card.fullmatch(top) else "s"
            return f"a run needs a suit on its last card, as in {word}{suit}"
        return None if card.fullmatch(bottom) else f"'{bottom or word}' is not a card"
    looks_like_card = re.fullmatch(r"(?:[0-9]{1,2}|[ajqkt])[^\s0-9]", word, re.IGNORECASE)
    if looks_like_card and not card.fullmatch(word) and word.lower() not in keywords:
        return f"'{word}' is not a card"
    return None


def _expected(error: UnexpectedInput, word: str) -> str:
    """The generic message: the things that could have come next."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(error, UnexpectedCharacters):
        names = error.allowed or set()
    elif isinstance(error, UnexpectedToken):
        names = error.accepts or error.expected
    elif isinstance(error, UnexpectedEOF):
        names = set(error.expected)
    else:
        names = set()
    parser = command_parser()
    phrases: list[str] = []
    for name in sorted(set(names) - _SILENT):
        if name in _PHRASES:
            phrase = _PHRASES[name]
        else:
            phrase = f"'{parser.get_terminal(name).pattern.value.lower()}'"
        if phrase not in phrases:
            phrases.append(phrase)
    unexpected = f"'{word}'" if word else "the end of the line"
    if not phrases:
        return f"unexpected {unexpected}: the command is complete without it"
    listed = ", ".join(phrases[:-1]) + " or " + phrases[-1] if len(phrases) > 1 else phrases[0]
    return f"expected {listed}, not {unexpected}"


# ---------------------------------------------------------------------------------------------
# From commands to engine actions


def _index(pile: int) -> int:
    """The engine's index (0..9) of a pile numbered as typed (1..10)."""
    if not 1 <= pile <= PILES:
        raise IllegalMoveError(f"there is no pile {pile}")
    return pile - 1


def _bottom_text(game: Game, pile: int) -> str:
    """How a pile ends, for messages: "it ends with 4h" or "it is a space"."""
    cards = game.piles[pile]
    return f"it ends with {card_text(cards[-1])}" if cards else "it is a space"


def resolve(game: Game, cmd: TableauCommand) -> Action:
    """The engine action a command names in ``game``; IllegalMoveError says why none is named.

    The action found is not checked against the rules (a move onto a card of the wrong rank,
    a deal onto a space): the caller checks it once, with ``game.why_illegal``, the one
    source of the rules' messages. Only where the command leaves a choice (two piles end
    with the card named) is the first legal one taken.
    """
    if isinstance(cmd, ObviousCommand):
        return game.obvious(cmd.pile - 1)
    if isinstance(cmd, MoveCommand):
        return _resolve_move(game, cmd)
    if isinstance(cmd, DealCommand):
        return DEAL
    return _resolve_remove(game, cmd)


def _resolve_remove(game: Game, cmd: RemoveCommand) -> Remove:
    """The pile named, else the first that ends with a complete suit (of the suit named)."""
    if cmd.pile is not None:
        pile = _index(cmd.pile)
        cards = game.piles[pile]
        if cmd.suit is not None and game.is_legal(Remove(pile)) and cards[-1] >> 4 != cmd.suit:
            raise IllegalMoveError(
                f"pile {cmd.pile} ends with the {SUIT_NAMES[cards[-1] >> 4]}, "
                f"not the {SUIT_NAMES[cmd.suit]}"
            )
        return Remove(pile)
    for pile, cards in enumerate(game.piles):
        if game.is_legal(Remove(pile)) and cmd.suit in (None, cards[-1] >> 4):
            return Remove(pile)
    what = "a complete suit" if cmd.suit is None else f"the {SUIT_NAMES[cmd.suit]}"
    raise IllegalMoveError(f"no pile ends with {what}, King to Ace")


def _resolve_move(game: Game, cmd: MoveCommand) -> Move:
    """Find the source, the cards and the destination a move command names."""
    run = cmd.run
    if run is not None and run.bottom is not None and run.top_suit not in (None, run.bottom.suit):
        raise IllegalMoveError(f"{run} is not a same-suit run")
    if cmd.src is not None:
        sources = [_index(cmd.src)]
    elif run is not None and run.bottom is not None:
        sources = [i for i, cards in enumerate(game.piles) if cards and cards[-1] == run.bottom]
        if not sources:
            raise IllegalMoveError(f"no pile ends with {run.bottom}")
    else:
        raise IllegalMoveError("say which pile to move from, as in 'from 3'")
    if len(sources) == 1:
        return _move_from(game, cmd, sources[0])
    first_error: IllegalMoveError | None = None
    for src in sources:  # when two piles end with the card named, the first that can move
        try:
            move = _move_from(game, cmd, src)
            reason = game.why_illegal(move)
            if not reason:
                return move
            raise IllegalMoveError(reason)
        except IllegalMoveError as error:
            first_error = first_error or error
    assert first_error is not None
    raise first_error


def _move_from(game: Game, cmd: MoveCommand, src: int) -> Move:
    """The move of ``cmd`` out of pile ``src`` (0-based), not checked against the rules."""
    cards = game.piles[src]
    if not cards:
        raise IllegalMoveError(f"pile {src + 1} is a space")
    run = cmd.run
    if run is not None and run.bottom is not None and cards[-1] != run.bottom:
        raise IllegalMoveError(_not_at_bottom(game, src, run))
    dst = _destination(game, cmd, src)
    if run is None:
        count = _fitting_count(game, src, dst)
    elif run.count is None:
        count = _count_from_top(game, src, run)
        if not count:
            raise IllegalMoveError(f"pile {src + 1} has no {run} in its movable run")
    else:
        count = run.count
    return Move(src, dst, count)


def _destination(game: Game, cmd: MoveCommand, src: int) -> int:
    """The pile (0-based) a move goes to: named, ending with a card, or a space."""
    if cmd.onto is not None:
        if cmd.dst is not None:
            dst = _index(cmd.dst)
            cards = game.piles[dst]
            if not cards or cards[-1] != cmd.onto:
                raise IllegalMoveError(
                    f"{cmd.onto} is not at the bottom of pile {cmd.dst} ({_bottom_text(game, dst)})"
                )
            return dst
        for dst, cards in enumerate(game.piles):
            if dst != src and cards and cards[-1] == cmd.onto:
                return dst
        raise IllegalMoveError(f"no pile ends with {cmd.onto}")
    if cmd.into_space:
        if cmd.dst is not None:
            dst = _index(cmd.dst)
            if game.piles[dst]:
                raise IllegalMoveError(f"pile {cmd.dst} is not a space")
            return dst
        spaces = game.spaces()
        if not spaces:
            raise IllegalMoveError("there is no space")
        return spaces[0]
    if cmd.dst is None:
        raise IllegalMoveError("say where to: 'to PILE'")
    return _index(cmd.dst)


def _fitting_count(game: Game, src: int, dst: int) -> int:
    """How many cards of pile ``src`` fit on pile ``dst``: all of its run for a space."""
    length = game.run_length(src)
    target = game.piles[dst]
    if not target or src == dst:
        return length
    count = (target[-1] & 15) - (game.piles[src][-1] & 15)
    if 1 <= count <= length:
        return count
    run = run_text(game.piles[src][-length:])
    raise IllegalMoveError(
        f"nothing in pile {src + 1}'s movable run ({run}) can go onto {card_text(target[-1])}"
    )


def _count_from_top(game: Game, src: int, run: RunSpec) -> int:
    """How many cards move when the run's top card and those below it leave pile ``src``.

    0 when the top card is not in the pile's movable run.
    """
    cards = game.piles[src]
    for count in range(1, game.run_length(src) + 1):
        card = cards[-count]
        if card & 15 == run.top_rank and run.top_suit in (None, card >> 4):
            return count
    return 0


def _not_at_bottom(game: Game, src: int, run: RunSpec) -> str:
    """Why ``run`` cannot leave pile ``src``, whose last card is not the run's bottom card.

    A single card higher up the movable run gets a hint: write the run from it.
    """
    where = f"pile {src + 1} ({_bottom_text(game, src)})"
    if run.count != 1:
        return f"{run} is not at the bottom of {where}"
    count = _count_from_top(game, src, run)
    if not count:
        return f"pile {src + 1} has no {run} in its movable run"
    hint = run_text(game.piles[src][-count:])
    return f"{run} is not at the bottom of {where}: to move it and the cards below it, write {hint}"
