"""Styled text in rows of a width: words kept whole, a line with a caret under it cut around the
caret, paragraphs of the replies laid out at 80 columns joined again and broken at the
screen's width, a hanging indent kept under terms and list marks. What the board's message
area and the line mode's output both use (:func:`rows`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import fragment_list_to_text
from prompt_toolkit.utils import get_cwidth

from spider_cli.rules.errors import width as width_of


def plain(text: StyleAndTextTuples) -> str:
    """The characters of formatted text, without styles (for tests and transcripts)."""
    return fragment_list_to_text(text)


def wrap(line: StyleAndTextTuples, width: int) -> list[StyleAndTextTuples]:
    """One line of formatted text in rows of at most ``width``, broken between words (a
    word longer than a row after a '|' or ',' in it, else where the row ends).

    The rows after the first go under the line's first word, or under the text of an item
    (``- ...``) or the description of a term (``History:    undo [N], redo [N], ...``) when
    that leaves half the width to the text. An indentation of more than half the width
    (text laid out for a wider screen) is cut to half. A term whose description would start
    past half the width has the description on the rows below it, further in."""
    chars = _cells(line)
    rows: list[list[tuple[str, str]]] = []
    term = _TERM.match(plain(line)) if width > 0 else None
    if term and width // 2 < term.end() < len(chars) and _cells_within(chars, width) < len(chars):
        indent = len(term.group(1))
        described = [("", " ")] * min(indent + 4, width // 2) + chars[term.end() :]
        return [_joined(_rstrip(chars[: term.end()])), *wrap(_joined(described), width)]
    if width > 0 and _cells_within(chars, width) < len(chars):
        indent = len(chars) - len(_lstrip(chars))  # a row is cut after its indentation
        if indent > width // 2:  # (text laid out for a wider screen)
            chars, indent = chars[indent - width // 2 :], width // 2
        hang = _hanging_indent("".join(char for _, char in chars), width)
        while (fit := _cells_within(chars, width)) < len(chars):
            cut = next((k for k in range(fit, indent, -1) if chars[k][1] == " "), None)
            if cut is None:  # a word wider than the row: after a '|' or ',' in it, if any
                marks = (k for k in range(fit, indent + 1, -1) if chars[k - 1][1] in "|,")
                cut = next(marks, max(fit, 1))
            rows.append(_rstrip(chars[:cut]))
            rest = _lstrip(chars[cut:])
            chars = [("", " ")] * hang + rest if rest else []
            indent = hang
    if chars or not rows:
        rows.append(chars)
    return [_joined(row) for row in rows]


def _cells_within(cells: list[tuple[str, str]], width: int) -> int:
    """How many of the cells fit in ``width`` columns (a wide character takes two)."""
    used = 0
    for k, (_style, char) in enumerate(cells):
        used += get_cwidth(char)
        if used > width:
            return k
    return len(cells)


def _joined(cells: list[tuple[str, str]]) -> StyleAndTextTuples:
    """(style, text) cells as fragments, neighbours of one style joined."""
    fragments: StyleAndTextTuples = []
    for style, text in cells:
        if fragments and fragments[-1][0] == style:
            fragments[-1] = (style, fragments[-1][1] + text)
        else:
            fragments.append((style, text))
    return fragments


_CARET_ROW = re.compile(r" *\^ *")
"""A row with a caret alone on it: under an error's place in the line above it."""


def rows(lines: Iterable[StyleAndTextTuples], width: int) -> list[StyleAndTextTuples]:
    """Lines of formatted text in rows of at most ``width`` columns, each broken between
    words (:func:`wrap`), but for a line with a caret row under it (the place of an error),
    which is never broken: the two are cut alike around the caret (:func:`cut_around`), so
    that the caret stays under the character it names."""
    lines = _paragraphs(list(lines), width)
    out: list[StyleAndTextTuples] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        caret = lines[index + 1] if index + 1 < len(lines) else None
        if caret is not None and _is_caret_row(caret) and not _is_caret_row(line):
            out += cut_around(line, caret, width)
            index += 2
        else:
            out += wrap(line, width)
            index += 1
    return out


LAID_OUT = 80
"""The width of the longer texts' own line breaks (help, the rules): on a narrower screen
their paragraphs flow again (:func:`_paragraphs`)."""


_SLACK = 8
"""How far short of 80 columns a line may end when the next word was left for the next line
(the help is not laid out tight)."""


def _paragraphs(lines: list[StyleAndTextTuples], width: int) -> list[StyleAndTextTuples]:
    """Text laid out at 80 columns, on a narrower screen: each line that continues the
    line before it joined to it, so that :func:`wrap` breaks the paragraph anew instead of
    leaving a short row at every old break.

    A line continues the one before when that one is broken at the screen's width, ends
    near 80 columns (this line's first word did not fit there, or nearly), is not a row of
    columns, and does not end a sentence or open a list (``.`` ``:``);
    and when the line starts where the rows after the first go (under an item's text or a
    term's description) without starting an item or a term of its own. A line above or on
    a caret row is never joined."""
    if width >= LAID_OUT:
        return lines
    out: list[StyleAndTextTuples] = []
    for k, line in enumerate(lines):
        text = plain(line)
        if out and _continues(plain(out[-1]), plain(lines[k - 1]), text, width):
            following = lines[k + 1] if k + 1 < len(lines) else None
            if not _is_caret_row(line) and not (following and _is_caret_row(following)):
                joined = [*_rstrip(_cells(out[-1])), ("", " "), *_lstrip(_cells(line))]
                out[-1] = _joined(joined)
                continue
        out.append(line)
    return out


def _continues(before: str, last: str, text: str, width: int) -> bool:
    """Does the line ``text`` go on with the paragraph ``before`` (:func:`_paragraphs`),
    whose last line as laid out is ``last``?"""
    if not text.strip() or get_cwidth(before) <= width:
        return False
    if get_cwidth(last.rstrip()) + 1 + get_cwidth(text.split()[0]) <= LAID_OUT - _SLACK:
        return False  # its next word would have fitted well: the break is meant
    if last.rstrip().endswith((".", ":")) or _is_caret_row([("", last)]):
        return False
    indent = len(text) - len(text.lstrip(" "))
    hang = _hanging_indent(before, LAID_OUT)
    if indent != hang or "  " in last[hang:].rstrip():
        return False  # not under the text, or the line before is a row of columns
    return _HANGING.match(text) is None  # not an item or a term of its own


def _cells(line: StyleAndTextTuples) -> list[tuple[str, str]]:
    return [(fragment[0], char) for fragment in line for char in fragment[1]]


def _is_caret_row(line: StyleAndTextTuples) -> bool:
    return _CARET_ROW.fullmatch(plain(line)) is not None


def cut_around(
    line: StyleAndTextTuples, caret: StyleAndTextTuples, width: int
) -> list[StyleAndTextTuples]:
    """A line and the caret row under it, cut alike to ``width`` terminal columns around
    the caret, an ellipsis where either side is cut: [line, caret row].

    Columns are the terminal's (a wide character takes two, as the caret row counts them);
    a wide character cut in two at an edge shows as a blank."""
    at = plain(caret).index("^")
    caret_style = next((style for style, text, *_ in caret if "^" in text), "")
    cells: list[tuple[str, str]] = []  # (style, text) per column: "" for a wide one's second
    for style, text, *_ in line:
        for char in text:
            columns = width_of(char)
            if columns == 0 and cells:  # a combining mark, on the character before it
                before = next(k for k in range(len(cells) - 1, -1, -1) if cells[k][1])
                cells[before] = (cells[before][0], cells[before][1] + char)
                continue
            cells += [(style, char)] + [(style, "")] * (columns - 1)
    total = max(len(cells), at + 1)
    if total > width >= 3:
        start = max(0, min(at - width // 2, total - width))
        end = start + width
        cells = (cells + [("", " ")] * (total - len(cells)))[start:end]
        if start:  # cut on the left: an ellipsis, and a blank for a wide one's second half
            cells[0] = (cells[0][0], "…")
            if cells[1][1] == "":
                cells[1] = (cells[1][0], " ")
        if end < total:  # cut on the right: the same
            if cells[-1][1] == "":
                cells[-2] = (cells[-2][0], " ")
            cells[-1] = (cells[-1][0], "…")
        at -= start
    return [_joined(cells), [(caret_style, " " * at + "^")]]


_TERM = re.compile(r"( *)[^-*\s](?:.*?\S)? {2,}(?=\S)")
"""A term and the gap after it, two spaces or more (not an item): ``Quick:   3 10 ...``."""

_HANGING = re.compile(r" *(?:[-*] +|\S.*?\S {2,}(?=\S)|\S {2,}(?=\S))")
"""The start of an item (``- ``), or a term (one character or more) followed by two spaces
or more: what the rows after a line's first go under."""


def _hanging_indent(text: str, width: int) -> int:
    """Where the rows after a line's first start (:func:`wrap`): under an item's text or a
    term's description when that leaves half the width, else under the line's first word."""
    hanging = _HANGING.match(text)
    if hanging and hanging.end() <= width // 2:
        return hanging.end()
    return min(len(text) - len(text.lstrip(" ")), width // 2)


def _lstrip(chars: list[tuple[str, str]]) -> list[tuple[str, str]]:
    start = 0
    while start < len(chars) and chars[start][1] == " ":
        start += 1
    return chars[start:]


def _rstrip(chars: list[tuple[str, str]]) -> list[tuple[str, str]]:
    end = len(chars)
    while end and chars[end - 1][1] == " ":
        end -= 1
    return chars[:end]
