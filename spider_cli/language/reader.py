"""The manual's notation read: one typed line becomes a typed command.

:func:`parse_command` reads a line (grammar/commands.lark) into a command of
:mod:`spider_cli.language.commands` with :class:`Reader` run inside the table-driven parser of
:mod:`spider_cli.language.lalr` (no lark, no tree). A line that does not read is read again
by lark into a tree, and :mod:`spider_cli.language.explain` says why in a player's words.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, cast

from spider_cli.language import grammar, lalr
from spider_cli.language.commands import Command, RunSpec, Solve
from spider_cli.language.explain import explain, tree_parser
from spider_cli.language.registry import BUILDERS
from spider_cli.rules.cards import (
    RANK_NAMES,
    SUIT_LETTERS,
    SUIT_NAMES,
    Card,
    parse_rank,
    parse_suit,
)
from spider_cli.rules.deals import Source, deal_name
from spider_cli.rules.engine import PILES
from spider_cli.rules.errors import NotationError, caret_line, quoted
from spider_cli.rules.goals import Goal, GoalKind, Wanted

if TYPE_CHECKING:
    from lark import Transformer
    from lark.tree import Meta

Token = lalr.Token
"""What the reader's terminal methods get: lark's ``Token`` is the same kind of thing (a
``str`` with its ``type`` and ``column``), so the methods serve both parsers."""


@cache
def _reading_parser(name: str = "commands.lark") -> lalr.Parser:
    """The parser of the same tables with :class:`Reader` inside, in
    :mod:`spider_cli.language.lalr` (no lark import): each rule's command value is made as
    the rule is recognised, with no tree."""
    return lalr.Parser(grammar.stored(name), Reader(), grammar.start_rule(name))


# ---------------------------------------------------------------------------------------------
# From trees to commands


MAX_DIGITS = 20
"""The longest number a command takes: deal numbers (PySolFC's go up to 10**20 - 1) are the
longest; a count or pile is far shorter."""


class Reader:
    """Makes a command of a line's terminals and rules; clauses become keyword arguments
    (dicts), which the command's builder (:data:`registry.BUILDERS`, a method of the rule's
    name) takes. The methods are called by :mod:`spider_cli.language.lalr` as a line is read,
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
        named = deal_name(token)
        assert named is not None  # the grammar's DEAL_NAME is a deal name
        digits = named[1]
        if len(digits) > MAX_DIGITS:  # (never the whole number back: it may be thousands long)
            raise NotationError(
                f"a deal number has at most {MAX_DIGITS} digits, not {len(digits):,}",
                1,
                (token.column or 1) + len(token) - len(digits),
            )
        return named[0], int(digits)

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
            raise NotationError(f"{quoted(token)} names one card: write {bottom}", 1, column)
        if run.top_rank < bottom.rank:
            fix = f"{RANK_NAMES[bottom.rank]}-{RANK_NAMES[run.top_rank]}{SUIT_LETTERS[bottom.suit]}"
            raise NotationError(
                f"{quoted(token)} runs the wrong way: name the top card first, as in {fix}",
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

    def pile(self, children: list[int]) -> int:
        return children[0]

    def suit(self, children: list[int]) -> dict[str, int]:
        return {"suit": children[0]}

    def where(self, children: list[int]) -> dict[str, int]:
        return {"pile": children[0]}

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

    def file(self, children: list[str]) -> str:
        return children[0]

    # -- analysis

    def goal_turn_up(self, children: list[int]) -> Goal:
        return Goal(GoalKind.TURN_UP, children[0] - 1 if children else None)

    def goal_space(self, children: list[int]) -> Goal:
        return Goal(GoalKind.SPACE, children[0] - 1 if children else None)

    def goal_win(self, children: list[Any]) -> Goal:
        return Goal(GoalKind.WIN)

    def goal_free(self, children: list[Card]) -> Goal:
        return Goal(GoalKind.FREE, card=int(children[0]))

    def goal_remove(self, children: list[Any]) -> Goal:
        """ "hearts then clubs": two steps; "clubs and hearts": one step of two suits."""
        steps: list[list[int]] = [[]]
        for child in children:
            if isinstance(child, str):  # STEP, a token: "then" or "and"
                if child.lower() == "then":
                    steps.append([])
            else:
                steps[-1].append(child["suit"])
        return Goal(GoalKind.REMOVE, steps=tuple(tuple(step) for step in steps))

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


for _rule, _build in BUILDERS.items():  # each command's builder, declared with its type
    setattr(Reader, _rule, staticmethod(_build))


@cache
def _placed_reader() -> Transformer[Any, Command | None]:
    """The reader run by lark over a tree, where the clauses that need their column have it
    (lark is imported here, when a line does not read)."""
    from lark import Transformer, v_args

    class _PlacedReader(Reader, Transformer[Any, Command | None]):
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
    reader = Reader()
    kind = "RUN" if "-" in text else "CARD"
    try:
        cards = getattr(reader, kind)(Token(kind, text, 0, 1, 1))
    except NotationError:
        return None
    return reader.run([cards])["run"]


def parse_question(text: str) -> Solve:
    """Read what follows ``solve`` on its own ("remove hearts then clubs, no deal"), as
    ``spider solve FILE GOAL...`` takes it; errors as :func:`parse_command`'s, explained
    as the ``solve`` command's (not as the command its first word names: "remove")."""
    line = text.rstrip("\r\n")
    try:
        return cast(Solve, _read_line(line, "commands.lark#question"))
    except NotationError as error:
        prefix = "solve "
        try:
            _read_line(prefix + line)
        except NotationError as said:
            if said.column is not None and said.column > len(prefix):
                column = said.column - len(prefix)
                raise NotationError(said.message, 1, column, caret_line(line, column)) from None
        raise error from None


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
        tree = tree_parser(tables).parse(line)
    except UnexpectedInput as error:
        raise explain(line, error) from None
    try:
        return _placed_reader().transform(tree)
    except VisitError as error:
        misread = error.orig_exc
        if not isinstance(misread, NotationError):
            raise
        context = caret_line(line, misread.column)
        raise NotationError(misread.message, 1, misread.column, context) from None
