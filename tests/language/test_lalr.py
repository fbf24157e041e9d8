"""Our LALR runtime (spider_cli.language.lalr) reads every line as lark reads it from the
same tables: the same command, the same calls of the reader's methods with the same tokens,
or a failure at the same place; and ``spider run`` of a script that reads needs no lark."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark
from lark.exceptions import UnexpectedInput

from spider_cli.language import grammar, lalr
from spider_cli.language import reader as reader_module
from spider_cli.rules.errors import NotationError

_TABLES = grammar.stored("commands.lark")


def _token(token: Any) -> tuple[object, ...]:
    """A token as plain data, whichever parser made it."""
    return (
        "token",
        token.type,
        str(token),
        token.line,
        token.column,
        token.start_pos,
        token.end_line,
        token.end_column,
        token.end_pos,
    )


def _plain(value: Any) -> Any:
    """A reader's value with every token in it as plain data (lark's Token and ours differ)."""
    if isinstance(value, str) and hasattr(value, "type"):
        return _token(value)
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return value


def _recorder() -> object:
    """A reader with a method for every terminal and every rule that can have one: each
    gives back what it was called with, so that two parsers' calls can be compared."""
    data, memo = _TABLES["data"], _TABLES["memo"]
    lexer_conf = data["parser"]["lexer_conf"]
    terminals = [memo[str(ref["@"])]["name"] for ref in lexer_conf["terminals"]]
    rules = {
        rule["alias"] or rule["origin"]["name"]
        for rule in (memo[str(ref["@"])] for ref in data["rules"])
        if not rule["origin"]["name"].startswith("_")
    }
    methods: dict[str, Any] = {name: staticmethod(_token) for name in terminals}
    for name in rules:
        methods[name] = staticmethod(functools.partial(lambda n, children: (n, children), name))
    return type("Recorder", (), methods)()


@functools.cache
def _parsers(reader: str) -> tuple[lalr.Parser, Lark]:
    """Ours and lark's parser of the command tables, with the real reader or the recorder."""
    made = reader_module.Reader() if reader == "real" else _recorder()
    ours = lalr.Parser(_TABLES, made)
    theirs = grammar.load("commands.lark", transformer=made, propagate_positions=False)
    return ours, theirs


def _outcome(parse: Any, text: str) -> tuple[object, ...]:
    """What a parser makes of ``text``: the value, the NotationError a reader's method
    raised, or where the text stops reading."""
    try:
        return ("read", _plain(parse(text)))
    except NotationError as error:
        return ("misread", error.message, error.column)
    except lalr.ParseError as error:
        return ("does not read", error.pos)
    except UnexpectedInput as error:
        return ("does not read", error.pos_in_stream)


def _check_the_same(text: str) -> None:
    for reader in ("real", "recorder"):
        ours, theirs = _parsers(reader)
        assert _outcome(ours.parse, text) == _outcome(theirs.parse, text), (reader, text)


@functools.cache
def _built() -> Lark:
    return grammar.build("commands.lark")


def _sentences(spaced: bool) -> st.SearchStrategy[str]:
    """Sentences of the real grammar, their tokens with spaces around them or run together
    (which lark may read otherwise, or not at all: both parsers must agree)."""
    built = _built()
    explicit = {
        t.name: st.from_regex(t.pattern.to_regexp(), fullmatch=True)
        for t in built.terminals
        if t.name not in built.ignore_tokens
    }
    if spaced:
        explicit = {name: s.map(" {} ".format) for name, s in explicit.items()}
    return from_lark(built, explicit=explicit)


_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
_SENTENCES = st.one_of(_sentences(spaced=True), _sentences(spaced=False))


@_SETTINGS
@given(_SENTENCES)
def test_the_sentences_of_the_grammar_read_as_lark_reads_them(sentence: str) -> None:
    _check_the_same(sentence)


_CHARACTERS = "0123456789 \t-><.,#()'\"\n\x00\u00a0shdcSHDCajqktAJQKTxyz♠♥"


@_SETTINGS
@given(st.one_of(st.text(), st.text(alphabet=_CHARACTERS, max_size=30)))
def test_any_text_reads_as_lark_reads_it(text: str) -> None:
    _check_the_same(text)


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    """A sentence of the grammar with a few characters cut, added, changed or moved."""
    text = draw(_SENTENCES)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        change = draw(st.sampled_from(["cut", "add", "case", "swap", "double"]))
        if change == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 4)) :]
        elif change == "add":
            text = text[:at] + draw(st.sampled_from(_CHARACTERS)) + text[at:]
        elif change == "case":
            text = text[:at] + text[at:].swapcase()
        elif change == "swap" and at + 1 < len(text):
            text = text[:at] + text[at + 1] + text[at] + text[at + 2 :]
        else:
            text = text[:at] + text[at:] + text[at:]
    return text


@_SETTINGS
@given(_mutated())
def test_mutated_sentences_read_as_lark_reads_them(text: str) -> None:
    _check_the_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "# only a remark",
        "8-6s from 3 to 10.",
        "Jc-3h from column 5 onto the Qd in column 2 (a remark) # and a comment",
        "solve remove hearts then the clubs and spades, no remove, keep a space for each reveal",
        "solve remove clubs, no remove clubs",
        "solve win, limit 0",
        "solve get a space, within 60 secs",
        "6-8s from 3 to 10",
        "set autoremove on",
        "load 'my game.spider'",
        "remove the spades from column 8",
        "3>10",
        "10s 3 10",
        "d",
        "deal\n",
        "x",
    ],
)
def test_lines_of_every_kind_read_as_lark_reads_them(text: str) -> None:
    _check_the_same(text)


def test_tables_it_cannot_follow_are_refused_when_it_is_made() -> None:
    """Rather than read otherwise than lark: placeholders for missing parts (the position
    grammar's tables), and rules the reader has no method for."""
    with pytest.raises(ValueError, match="maybe_placeholders"):
        lalr.Parser(grammar.stored("position.lark"), object())
    with pytest.raises(ValueError, match="no method"):
        lalr.Parser(_TABLES, object())


def _spider_run(tmp_path: Path, lines: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    script = tmp_path / "script.spider"
    script.write_text(lines, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "spider_cli", "run", str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    return done, script


def _imported(stderr: str) -> set[str]:
    """The modules ``-X importtime`` lists."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def test_spider_run_of_a_script_that_reads_imports_no_lark(tmp_path: Path) -> None:
    lines = "new 1\n7 6\nundo\nredo 1\nscore  (a remark)\nshow 7 # pile 7\n"
    done, _ = _spider_run(tmp_path, lines)
    assert done.returncode == 0, done.stderr
    assert "score 10" in done.stdout
    imported = _imported(done.stderr)
    assert "spider_cli.language.notation" in imported
    assert not {name for name in imported if name.split(".")[0] == "lark"}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "Jh onto x",
            "2: error: character 9: say where to: 'to PILE', 'onto CARD' or 'into a space', "
            "not 'x'\nJh onto x\n        ^\n",
        ),
        (
            "solve win, limit 0",
            "2: error: character 12: the limit is a number of positions: 1 or more\n"
            "solve win, limit 0\n           ^\n",
        ),
    ],
)
def test_spider_run_of_a_line_that_does_not_read_says_why_as_before(
    tmp_path: Path, line: str, message: str
) -> None:
    done, script = _spider_run(tmp_path, f"new 1\n{line}\n")
    assert done.returncode == 1
    errors = "".join(
        f"{text}\n" for text in done.stderr.splitlines() if not text.startswith("import time:")
    )
    assert errors == f"{script}:{message}"
    assert "lark" in _imported(done.stderr)  # loaded to explain the line
