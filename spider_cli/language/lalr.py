"""A small LALR(1) parser of our own that reads lark's stored tables, with no lark import.

Importing lark costs more than all the rest of a ``spider run`` start, so the lines of a
script are read here, from the tables lark made (``grammar/NAME.json``, see
:mod:`spider_cli.language.grammar`), and lark is loaded only to explain a line that does not
read. The parser does what lark's LALR parser does with a ``transformer`` and no tree, and
calls the reader's methods as lark's parse-tree builder would:

- the contextual lexer: in each parser state only the terminals that state can take (and
  the ``%ignore`` ones) are tried, as one regular expression of alternatives in lark's
  order (priority, longest possible match, longest text, name); a keyword that a regular
  terminal also matches is found by that terminal and renamed after it, as lark's
  ``UnlessCallback`` does; tokens know their line and column;
- a terminal's method, if the reader has one, turns its token into a value when it is
  shifted; a rule's method (its alias, else its name) gets the values of its children;
- children are filtered as lark filters them: ``_``-named and anonymous tokens dropped
  (unless the rule keeps all tokens), ``_rule``s inlined into their parent, and a ``?rule``
  with one child replaced by that child.

What it leaves to lark, refusing such tables when it is made (:class:`Parser`): another
parser or lexer than LALR with the contextual lexer, the ``regex`` module or bytes,
placeholders for missing optional parts (``maybe_placeholders``), and a rule that would need
lark's default tree (a rule with no method on the reader, other than an inlined ``_rule`` or
a ``?rule`` whose single child always stands in for it). A line that does not read raises
:class:`ParseError`, with no explanation: lark reads the line again to give one. Completion
and highlighting, which follow a line as it is typed, use lark's interactive parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

_SHIFT = 0
_REDUCE = 1

END = "$END"
"""The type of the token that ends the text."""


class Token(str):
    """A piece of the text read as one terminal: its text, its terminal's name (``type``)
    and where it is, with the attributes of lark's ``Token`` (line and column from 1)."""

    type: str
    value: str
    start_pos: int
    line: int
    column: int
    end_line: int
    end_column: int
    end_pos: int

    def __new__(cls, type_: str, value: str, start_pos: int, line: int, column: int) -> Token:
        token = super().__new__(cls, value)
        token.type = type_
        token.value = value
        token.start_pos = start_pos
        token.line = line
        token.column = column
        return token

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"


class ParseError(Exception):
    """The text does not read: no terminal matches at ``pos``, or the token there is not one
    the grammar takes."""

    def __init__(self, pos: int, what: str) -> None:
        super().__init__(f"{what} at {pos}")
        self.pos = pos


class _Terminal:
    """A terminal of the tables: its name, its regular expression and lark's order key."""

    def __init__(self, data: dict[str, Any]) -> None:
        pattern = data["pattern"]
        self.name: str = data["name"]
        self.priority: int = data["priority"]
        self.is_string = pattern["__type__"] == "PatternStr"
        self.value: str = pattern["value"]
        self.flags = frozenset(pattern["flags"])
        regexp = re.escape(self.value) if self.is_string else self.value
        for flag in sorted(self.flags):
            regexp = f"(?{flag}:{regexp})"
        self.regexp = regexp
        if self.is_string:
            self.max_width = len(self.value)
        elif pattern.get("_width"):
            self.max_width = pattern["_width"][1]
        else:  # lark would work the width out from the expression
            raise ValueError(f"the tables give no width for terminal {self.name}")
        self.has_newline = (
            "\n" in regexp
            or "\\n" in regexp
            or "\\s" in regexp
            or "[^" in regexp
            or ("(?s" in regexp and "." in regexp)
        )

    def order(self) -> tuple[int, int, int, str]:
        """Lark's order of the alternatives of a lexer: the first that matches wins."""
        return (-self.priority, -self.max_width, -len(self.value), self.name)


def _union(terminals: Iterable[_Terminal], flags: int) -> re.Pattern[str]:
    return re.compile("|".join(f"(?P<{t.name}>{t.regexp})" for t in terminals), flags)


class _Scanner:
    """The lexer of one set of terminals, as lark's ``BasicLexer`` builds it."""

    def __init__(self, terminals: list[_Terminal], flags: int) -> None:
        terminals = sorted(terminals, key=_Terminal.order)
        strings = [t for t in terminals if t.is_string]
        embedded: set[str] = set()
        self.renames: dict[str, re.Pattern[str]] = {}
        for regular in terminals:
            if regular.is_string:
                continue
            unless = []
            for string in strings:
                if string.priority != regular.priority:
                    continue
                found = re.match(regular.regexp, string.value, flags)
                if found and found.group(0) == string.value:
                    unless.append(string)
                    if string.flags <= regular.flags:
                        embedded.add(string.name)
            if unless:
                self.renames[regular.name] = _union(unless, flags)
        self.match = _union([t for t in terminals if t.name not in embedded], flags).match


class _Rule:
    """A rule of the tables, ready to reduce: how many values it takes off the stack, the
    symbol it makes, and how its value is built from them."""

    def __init__(self, data: dict[str, Any], reader: object) -> None:
        options = data["options"]
        self.origin: str = data["origin"]["name"]
        expansion = data["expansion"]
        self.size = len(expansion)
        keep_all: bool = options["keep_all_tokens"]
        self.include = [
            (i, symbol["__type__"] == "NonTerminal" and symbol["name"].startswith("_"))
            for i, symbol in enumerate(expansion)
            if keep_all or not (symbol["__type__"] == "Terminal" and symbol["filter_out"])
        ]
        self.filters = len(self.include) < self.size or any(inline for _, inline in self.include)
        alias: str | None = data["alias"]
        self.expand1 = bool(options["expand1"]) and not alias
        self.inlined = self.origin.startswith("_")
        name = alias or options["template_source"] or self.origin
        self.method: Callable[[list[Any]], Any] | None = getattr(reader, name, None)
        if self.inlined and (alias or self.expand1 or self.method is not None):
            raise ValueError(f"rule {name}: an inlined rule with an alias, '?' or a method")
        always_one = len(self.include) == 1 and not self.include[0][1]
        if not self.inlined and self.method is None and not (self.expand1 and always_one):
            raise ValueError(f"rule {name}: the reader has no method for it")

    def build(self, children: list[Any]) -> Any:
        """The rule's value from its children's, as lark's parse-tree builder makes it."""
        if self.filters:
            kept: list[Any] = []
            for i, inline in self.include:
                if inline:
                    kept += children[i]  # an inlined rule's value is its children's list
                else:
                    kept.append(children[i])
            children = kept
        if self.expand1 and len(children) == 1:
            return children[0]
        if self.method is None:
            return children  # an inlined rule: its children go into its parent's
        return self.method(children)


class _Lazy(dict[Any, Any]):
    """A dict that makes each value the first time it is asked for: a line goes through a
    few of the parser's states, so their rows and lexers are made as they are reached."""

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self._make(key)
        return value


class Parser:
    """The LALR(1) parser of stored tables as JSON reads them (string keys:
    :func:`spider_cli.language.grammar.stored`) that builds its result with ``reader``'s
    methods, named after terminals and rules."""

    def __init__(self, tables: dict[str, Any], reader: object, start: str = "start") -> None:
        data, memo = tables["data"], tables["memo"]
        options = data["options"]
        frontend = data["parser"]
        lexer_conf = frontend["lexer_conf"]
        unsupported = {
            "parser": options.get("parser") != "lalr",
            "lexer": options.get("lexer") != "contextual",
            "regex": bool(options.get("regex")),
            "use_bytes": bool(options.get("use_bytes") or lexer_conf.get("use_bytes")),
            "maybe_placeholders": options.get("maybe_placeholders", True),
            "postlex": bool(options.get("postlex")),
            "lexer_callbacks": bool(options.get("lexer_callbacks")),
        }
        refused = [name for name, refuse in unsupported.items() if refuse]
        if refused:
            raise ValueError(f"tables that need lark: {', '.join(refused)}")
        self._flags: int = lexer_conf["g_regex_flags"]
        self._terminals = {
            t.name: t for t in (_Terminal(memo[str(ref["@"])]) for ref in lexer_conf["terminals"])
        }
        self._ignore = frozenset(lexer_conf["ignore"])
        self._newline_types = frozenset(t.name for t in self._terminals.values() if t.has_newline)
        self._shift_methods: dict[str, Callable[[Token], Any]] = {
            name: method
            for name in self._terminals
            if (method := getattr(reader, name, None)) is not None
        }
        self._rules = {  # all made now: a rule the reader cannot build is refused at once
            ref["@"]: _Rule(memo[str(ref["@"])], reader) for ref in data["rules"]
        }
        table = frontend["parser"]
        self._table: dict[str, dict[str, list[Any]]] = table["states"]
        self._names: dict[str, str] = table["tokens"]
        self._start: int = table["start_states"][start]
        self._end: int = table["end_states"][start]
        self._states = _Lazy(self._row)
        self._scanners = _Lazy(self._scanner)
        self._scanner_of: dict[frozenset[str], _Scanner] = {}

    def _row(self, state: int) -> dict[str, tuple[int, Any]]:
        """What state ``state`` does with each symbol: shift to a state, or reduce a rule."""
        names, rules = self._names, self._rules
        return {
            names[symbol]: (_REDUCE, rules[arg["@"]]) if action == _REDUCE else (_SHIFT, arg)
            for symbol, (action, arg) in self._table[str(state)].items()
        }

    def _scanner(self, state: int) -> _Scanner:
        """The lexer of state ``state``: the terminals it takes, and the ignored ones."""
        terminals = self._terminals
        accepts = frozenset(n for n in self._states[state] if n in terminals) | self._ignore
        if accepts not in self._scanner_of:
            self._scanner_of[accepts] = _Scanner([terminals[n] for n in accepts], self._flags)
        return self._scanner_of[accepts]

    def parse(self, text: str) -> Any:
        """The reader's value of ``text``; :class:`ParseError` if it does not read (and
        whatever a reader's method raises)."""
        states, scanners, ignore = self._states, self._scanners, self._ignore
        newline_types, shift_methods = self._newline_types, self._shift_methods
        state_stack = [self._start]
        value_stack: list[Any] = []
        pos, line, line_start, end = 0, 1, 0, len(text)
        token = Token(END, "", 0, 1, 1)  # what ends an empty text
        while True:
            if pos < end:
                scanner = scanners[state_stack[-1]]
                found = scanner.match(text, pos)
                if found is None:
                    raise ParseError(pos, "no terminal matches")
                value = found.group(0)
                kind = found.lastgroup
                assert kind is not None and value  # lark refuses terminals that match nothing
                start, column = pos, pos - line_start + 1
                pos += len(value)
                if kind in newline_types and "\n" in value:
                    line += value.count("\n")
                    line_start = start + value.rindex("\n") + 1
                if kind in ignore:
                    continue  # skipped, whatever it would be renamed to
                token = Token(kind, value, start, line, column)
                token.end_line, token.end_column, token.end_pos = line, pos - line_start + 1, pos
                rename = scanner.renames.get(kind)
                if rename is not None and (keyword := rename.fullmatch(value)) is not None:
                    token.type = kind = keyword.lastgroup or kind
            else:  # the end, where the last token was (as lark places it)
                kind = END
                token = Token(END, "", token.start_pos, token.line, token.column)
            while True:  # reduce as the table says, until the token is shifted (or the end)
                row = states[state_stack[-1]]
                try:
                    action, arg = row[kind]
                except KeyError:
                    raise ParseError(token.start_pos, f"unexpected {kind}") from None
                if action == _SHIFT:
                    if kind == END:
                        raise ParseError(token.start_pos, "a shift of the end")
                    state_stack.append(arg)
                    method = shift_methods.get(kind)
                    value_stack.append(token if method is None else method(token))
                    break
                rule: _Rule = arg
                size = rule.size
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                state_stack.append(states[state_stack[-1]][rule.origin][1])
                value_stack.append(rule.build(children))
                if kind == END and state_stack[-1] == self._end:
                    return value_stack[-1]
