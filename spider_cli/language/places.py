"""Where a part of a command is written in its line: the word an error is about.

A command is a value that does not remember where its words were; an error about one of
them (:class:`~spider_cli.rules.errors.Part`) is placed by reading the line again into
lark's tree, whose tokens know their columns. Only a line that failed is read so, and lark
is loaded then (as it is to explain a line that does not read).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_cli.language.explain import command_parser
from spider_cli.rules.errors import NotationError, Part, SpiderError, caret_line

if TYPE_CHECKING:
    from lark import Token, Tree

_DESTINATIONS = ("to_pile", "onto_card", "any_space", "the_space")
"""The rules of a move's destination ("to 10", "onto Qd", "into a space", "into space 4")."""


def column_of(line: str, part: Part | None, inside: bool = False) -> int:
    """The 1-based column (a character each, a tab one) where ``line`` writes ``part`` of
    its command; the column of the command's first word when ``part`` is None, or the line
    does not write it (or does not read).

    ``inside``: the column of the text inside the word, as the command takes it (a file's
    name without its quotes, a position code without the blanks before it)."""
    command = _command(line)
    if command is None:
        return len(line) - len(line.lstrip()) + 1
    found = None if part is None else _place(command, part, inside)
    return int(command.meta.column) if found is None else found


def place_of(line: str, part: Part, inside: bool = False) -> int | None:
    """The 1-based column where ``line`` writes ``part`` of its command (as
    :func:`column_of`); None when it does not write it (or does not read)."""
    command = _command(line)
    return None if command is None else _place(command, part, inside)


def in_line(error: SpiderError, line: str) -> SpiderError:
    """``error``, raised by the command of one ``line`` (a script's, or typed at the prompt),
    said at the word of the line it is about: line 1, that word's column, and the line with
    a caret under it.

    An error about the text inside a word (:attr:`NotationError.part`: a position code's
    card) counts its column from that word's start. An error about no word, or about one
    the line does not write (a move of a line ``apply`` plays), and one that already has
    its place (the line does not read, or the place is in a file the line loads), are
    returned as they are."""
    notation = error if isinstance(error, NotationError) else None
    if error.part is None or (notation and notation.line > 1):
        return error
    column = place_of(line, error.part, inside=bool(notation and notation.column))
    if column is None:
        return error
    message = str(error)
    if notation:
        column += max(notation.column, 1) - 1
        message = notation.message
    return NotationError(message, 1, column, caret_line(line, column))


Place = tuple[int, str]
"""A word of a line: its column, and its text."""


def _command(line: str) -> Tree[Token] | None:
    """The command of ``line`` as lark's tree, which knows where each word is (None: the
    line holds none, or does not read)."""
    from lark import Tree
    from lark.exceptions import LarkError

    try:
        start = command_parser().parse(line)
    except LarkError:
        return None
    command = start.children[0] if start.children else None
    return command if isinstance(command, Tree) and not command.meta.empty else None


def _tokens(tree: Tree[Token] | None, kind: str | None = None) -> list[Place]:
    """The words of ``tree`` (of terminal ``kind``, if given), in the order of the line."""
    from lark import Token

    if tree is None:
        return []
    tokens = tree.scan_values(lambda v: isinstance(v, Token))
    return [(t.column or 1, str(t)) for t in tokens if kind is None or t.type == kind]


def _first(tree: Tree[Token] | None, kind: str | None = None) -> Place | None:
    """The first word of ``tree`` (of terminal ``kind``, if given)."""
    return next(iter(_tokens(tree, kind)), None)


def _clause(tree: Tree[Token] | None) -> Place | None:
    """Where a clause begins, with its first word, which the tree may leave out ("into a
    space", "winnable")."""
    if tree is None or tree.meta.empty:
        return _first(tree)
    return int(tree.meta.column), ""


def _subtree(tree: Tree[Token], *rules: str) -> Tree[Token] | None:
    """The first subtree of one of the ``rules`` (the tree itself included)."""
    return next(iter(tree.find_pred(lambda t: t.data in rules)), None)


def _place(command: Tree[Token], part: Part, inside: bool) -> int | None:
    """The column of ``part`` of ``command`` (``inside``: of its text, see
    :func:`column_of`); None when the command does not write it."""
    found = _find(command, part)
    if found is None:
        return None
    column, text = found
    if inside:
        if text[:1] in "\"'" and len(text) > 1:
            text = text[1:-1]
            column += 1
        column += len(text) - len(text.lstrip())
    return column


def _find(command: Tree[Token], part: Part) -> Place | None:
    """The word of ``command`` that writes ``part`` (the first of a clause of several)."""
    rule = command.data
    if rule == "move":
        if part is Part.CARDS:
            return _first(_subtree(command, "run"))
        if part is Part.SOURCE:
            return _first(_subtree(command, "source"), "NUMBER")
        if part is Part.DESTINATION:
            where = _subtree(command, *_DESTINATIONS)
            if where is not None and where.data == "any_space":
                return _clause(where)
            return _first(where, "CARD") or _first(where, "NUMBER")
        return None
    if rule == "quick":  # "6s 3 10", "3 10": the card, the pile from, the pile to
        numbers = _tokens(command, "NUMBER")
        if part is Part.CARDS:
            return _first(command, "CARD")
        if part in (Part.SOURCE, Part.PILE):
            return numbers[0]
        if part is Part.DESTINATION:
            return numbers[1]
        return None
    if part in (Part.PILE, Part.SOURCE):  # of "obvious 3", "assume 3 Kh", "remove 8"
        return _first(_subtree(command, "pile", "where", "obvious"), "NUMBER")
    if part is Part.CARDS:
        return _first(command, "CARD")
    if part is Part.SUIT:
        return _first(_subtree(command, "suit"))
    if part is Part.SEED:
        return _first(_subtree(command, "seed"))
    if part is Part.WANTED:
        return _clause(_subtree(command, "winnable", "difficulty"))
    if part is Part.FILE:
        return _first(_subtree(command, "file"))
    if part is Part.NAME:
        return _first(command, "WORD")
    if part is Part.VALUE:
        return _first(command, "VALUE")
    return None
