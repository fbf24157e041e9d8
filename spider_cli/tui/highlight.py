"""Live highlighting of the line being typed, by the command grammar itself.

The line is read token by token with the same Lark LALR parser that runs the commands
(``notation.command_parser()``, through its interactive parser), so what is coloured as a
keyword, a pile number or a card is exactly what the command will read. The first point where
the line cannot continue is marked as an error, and the rest of the line with it, before
Enter is pressed. A last word still being typed is not an error while it can still become a
word the grammar accepts there ("fr" on its way to "from", "8-" on its way to "8-6s").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.lexers import Lexer

from spider_cli.language.notation import command_parser
from spider_cli.rules.cards import SUIT_LETTERS, parse_suit
from spider_cli.rules.errors import SpiderError
from spider_cli.tui.render import SUIT_CLASSES

_TOKEN_STYLES = {
    "NUMBER": "class:input.number",
    "SUIT_COUNT": "class:input.number",
    "LEVEL": "class:input.keyword",
    "PATH": "class:input.path",
    "STRING": "class:input.path",
    "WORD": "class:input.word",
    "VALUE": "class:input.word",
    "_COMMENT": "class:input.comment",
    "_GT": "class:input.keyword",
    "_DOT": "",
}

_PARTIAL_CARD = re.compile(
    r"(?:10?|[2-9ajqkt])(?:[shdc♠♥♦♣♤♡♢♧]?(?:-(?:10?|[2-9ajqkt])?)?)?", re.IGNORECASE
)
"""The beginning of a card or a run, as it looks while it is being typed."""


def token_style(token: Token) -> str:
    """The style of one token: keywords, numbers, cards in their suit's colour, files."""
    kind = token.type
    if kind in ("CARD", "RUN", "SUIT"):
        try:
            return SUIT_CLASSES[parse_suit(token.value[-1])]
        except SpiderError:
            return ""
    if kind == "SUIT_NAME":
        return SUIT_CLASSES[SUIT_LETTERS.index(token.value[0].lower())]
    if kind in _TOKEN_STYLES:
        return _TOKEN_STYLES[kind]
    if kind.startswith("_"):
        return "class:input.keyword"
    return ""


def keyword_texts(names: set[str]) -> list[str]:
    """The words of the keyword terminals among ``names`` ("_FROM" is "from")."""
    parser = command_parser()
    words = []
    for name in names:
        if not name.startswith("_") or name in ("_COMMENT", "_DOT", "_GT"):
            continue
        pattern = parser.get_terminal(name).pattern
        if pattern.type == "str":
            words.append(pattern.value.lower())
        else:  # an alternation of words, as "suits"i | "suit"i: its longest
            words += sorted(re.findall(r"[a-z]+", pattern.value), key=len)[-1:]
    return words


def expected_after(before: str) -> tuple[list[Token], set[str]]:
    """The tokens of ``before``, the start of a command, and the terminals that may come
    next; UnexpectedInput when no command starts so."""
    interactive = command_parser().parse_interactive(before)
    tokens = interactive.exhaust_lexer()
    # lark leaves accepts() unannotated; it returns the set of terminal names.
    accepts: set[str] = interactive.accepts()  # type: ignore[no-untyped-call]
    return tokens, accepts


def _still_typing(before: str, word: str) -> bool:
    """Whether ``word``, the unfinished last word after ``before``, can still become valid."""
    try:
        _tokens, accepts = expected_after(before)
    except UnexpectedInput:
        return False
    lower = word.lower()
    if any(k.startswith(lower) for k in keyword_texts(accepts)):
        return True
    if "LEVEL" in accepts and any(k.startswith(lower) for k in ("easy", "medium", "hard")):
        return True
    if accepts & {"CARD", "RUN", "RANK"} and _PARTIAL_CARD.fullmatch(word):
        return True
    if "NUMBER" in accepts and re.fullmatch(r"[0-9]+>?", word):
        return True
    if accepts & {"STRING", "PATH"} and word[:1] in "\"'":
        return True
    return word[:1] == "(" and ")" not in word  # a remark not closed yet


def _error_position(error: UnexpectedInput, line: str) -> int:
    if isinstance(error, UnexpectedToken):
        if error.token.type == "$END":
            return len(line)
        return error.token.start_pos or 0
    if isinstance(error, UnexpectedCharacters):
        return error.pos_in_stream or 0
    return len(line)


def _gap(text: str) -> StyleAndTextTuples:
    """Text the lexer skipped: spaces, and remarks in parentheses."""
    out: StyleAndTextTuples = []
    for part in re.split(r"(\([^()\n]*\))", text):
        if part:
            out.append(("class:input.remark" if part.startswith("(") else "", part))
    return out


def highlight_line(line: str) -> StyleAndTextTuples:
    """The line's fragments: each token styled, the part that cannot parse as an error."""
    fragments: list[tuple[int, str, str]] = []  # (start, style, text)
    at = 0
    try:
        for token in command_parser().parse_interactive(line).iter_parse():
            start = token.start_pos or 0
            if start > at:
                fragments += [(at, s, t) for s, t, *_ in _gap(line[at:start])]
            fragments.append((start, token_style(token), token.value))
            at = token.end_pos or start + len(token.value)
    except UnexpectedInput as error:
        bad = min(_error_position(error, line), len(line))
        fragments = [f for f in fragments if f[0] < bad]
        kept: StyleAndTextTuples = []
        for start, style, text in fragments:
            kept.append((style, text[: bad - start]))
        done = sum(len(fragment[1]) for fragment in kept)
        if done < bad:
            kept += _gap(line[done:bad])
        rest = line[bad:]
        if rest[:1] in ("(", '"', "'") and rest[0].replace("(", ")") not in rest[1:]:
            typing = _still_typing(line[:bad], rest)  # a remark or a quoted name, unclosed
        else:
            word_start = len(line) - len(line.split()[-1]) if line.strip() else len(line)
            typing = (
                not line[-1:].isspace()
                and bad >= word_start
                and _still_typing(line[:word_start], line[word_start:])
            )
        kept.append(("class:input.pending" if typing else "class:input.error", rest))
        return kept
    out: StyleAndTextTuples = [(s, t) for _, s, t in fragments]
    if at < len(line):
        out += _gap(line[at:])
    return out


class CommandLexer(Lexer):
    """prompt_toolkit lexer for the prompt: every line through :func:`highlight_line`."""

    def lex_document(self, document: Document) -> Callable[[int], StyleAndTextTuples]:
        lines = document.lines

        def get_line(number: int) -> StyleAndTextTuples:
            return highlight_line(lines[number]) if number < len(lines) else []

        return get_line
