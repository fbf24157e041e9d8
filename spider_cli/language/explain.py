"""Saying in a player's words why a line does not read (the notation's error messages).

A line the fast reader (:mod:`spider_cli.language.reader`) cannot read is read again by lark
into a tree; lark's error says where the line stops making sense, and :func:`explain` turns
that into a :class:`NotationError`: the column, the line with a caret under it, and what was
expected, from typical mistakes (:data:`_MOVE_MISTAKES`), the command's usage, or the
grammar's own list of what could come next.
"""

from __future__ import annotations

import difflib
import re
from functools import cache
from typing import TYPE_CHECKING, cast

from spider_cli.language import grammar
from spider_cli.language.files.textfiles import shown
from spider_cli.language.help import TOPICS
from spider_cli.language.registry import WORDS
from spider_cli.rules.errors import NotationError, caret_line, quoted

if TYPE_CHECKING:
    from lark import Lark
    from lark.exceptions import UnexpectedInput


@cache
def command_parser() -> Lark:
    """The parser of grammar/commands.lark that builds a tree whose nodes know their columns.

    :func:`parse_command` uses it to explain a line that does not read; completion and
    highlighting use it to follow a line as it is typed.
    """
    return tree_parser("commands.lark")


@cache
def tree_parser(name: str) -> Lark:
    """The lark parser of a grammar file, whose trees know their columns."""
    return grammar.load(name)


def explain(line: str, error: UnexpectedInput) -> NotationError:
    """The error to raise for a line lark could not read: where, and why in a player's words."""
    pos = _error_pos(line, error)
    message = _explain(line, pos, error)
    if message.startswith(_UNKNOWN):  # "hlep": the caret under the word, not under its "l"
        pos = _word_at(line, pos)[0]
    context = caret_line(line.split("\n", 1)[0], pos + 1)
    if message.startswith(_UNKNOWN) and message.endswith(quoted(_word_at(line, pos)[1])):
        return UnknownCommandError(message, 1, pos + 1, context)
    return NotationError(message, 1, pos + 1, context)


class UnknownCommandError(NotationError):
    """A line whose first word starts no command, and is no slip for one: at the prompt it
    is said with :data:`HELP_SUFFIX` (in a file or a script, 'type help' means nothing)."""


HELP_SUFFIX = " (type help for the commands)"
"""What the prompt adds to an :class:`UnknownCommandError`."""


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

_UNKNOWN = "unknown command "

_SILENT = {"_DOT", "_COMMENT", "$END"}
"""Terminals too obvious to list among the things that could come next."""


def _explain(line: str, pos: int, error: UnexpectedInput) -> str:
    """What was expected at ``pos``, in a player's words."""
    from lark.exceptions import UnexpectedCharacters

    if isinstance(error, UnexpectedCharacters):
        if error.char == "(":
            return "a remark in parentheses needs its closing ')'"
        if error.char in "'\"":
            if line[pos + 1 : pos + 2] == error.char:
                return "a quoted name cannot be empty: write the name between the quotes"
            return f"a quoted name needs its closing {error.char}"
        if error.char == "\n":
            return "one command per line"
    start, word = _word_at(line, pos)
    word = shown(word)  # quoted in the message: a control character stays escaped
    words = line.split()
    info = WORDS.get(words[0].lower()) if words else None
    usage = info.takes if info else None
    if usage is None or words[0].lower() in ("assume", "locate"):
        problem = _card_problem(word)
        if problem:
            return problem
    in_first_word = bool(word) and start == len(line) - len(line.lstrip())
    if in_first_word and not word[0].isdigit():  # a digit starts a quick move
        return _unknown_command(word)
    if usage is not None:
        return usage
    try:
        label = error.match_examples(command_parser().parse, _MOVE_MISTAKES)
    except TypeError:  # lark 1.3 formats a parser state with %d when an error at the end
        label = None  # of the line has other accepts than the example's: no label then
    if label is None:
        return _expected(error, word)
    return f"{label}, not {quoted(word)}" if word else label


def _unknown_command(word: str) -> str:
    """A first word that starts no command: the help topic of that name, or the command it
    is a slip for (two letters swapped or one missed, as 'hitn' or 'sove'), if any."""
    lowered = word.lower()
    if lowered in TOPICS:
        return f"{_UNKNOWN}{quoted(word)}: 'help {lowered}' shows that topic"
    words = [known for known in WORDS if len(known) > 1]
    close = difflib.get_close_matches(lowered, words, n=1, cutoff=0.75)
    if close:
        return f"{_UNKNOWN}{quoted(word)}: did you mean '{close[0]}'?"
    return f"{_UNKNOWN}{quoted(word)}"


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
        if piles and max(len(top), len(bottom)) > 20:  # (nor would int() take 5,000 digits)
            return "a number has at most 20 digits (no count, pile or deal needs more)"
        if piles and int(top) <= int(bottom):  # going up: not a run, but two piles
            quick = f"'{top} {bottom}' or '{top}>{bottom}'"
            return f"to move from pile {top} to pile {bottom}, write {quick}"
        if not (card.fullmatch(top) or rank.fullmatch(top)):
            return f"{quoted(top)} is not a card" if top else f"{quoted(word)} is not a run"
        if rank.fullmatch(bottom):
            suit = top[-1] if card.fullmatch(top) else "s"
            return f"a run needs a suit on its last card, as in {word}{suit}"
        return None if card.fullmatch(bottom) else f"{quoted(bottom or word)} is not a card"
    looks_like_card = re.fullmatch(r"(?:[0-9]{1,2}|[ajqkt])[^\s0-9]", word, re.IGNORECASE)
    if looks_like_card and not card.fullmatch(word) and word.lower() not in keywords:
        return f"{quoted(word)} is not a card"
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
    unexpected = quoted(word) if word else "the end of the line"
    if not phrases:
        return f"unexpected {unexpected}: the command is complete without it"
    listed = ", ".join(phrases[:-1]) + " or " + phrases[-1] if len(phrases) > 1 else phrases[0]
    return f"expected {listed}, not {unexpected}"
