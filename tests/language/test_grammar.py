"""The grammars' stored tables: made from the grammar files as they are now, and read back."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark
from lark.exceptions import UnexpectedInput

from spider_cli.language import grammar


@pytest.mark.parametrize("name", list(grammar.GRAMMARS))
def test_the_stored_tables_are_made_from_the_grammar_as_it_is(name: str) -> None:
    stored = json.loads(grammar.tables_path(name).read_text(encoding="utf-8"))
    assert stored["grammar"] == name
    assert stored["sha256"] == grammar.digest(name), (
        f"grammar/{name} changed since its tables were made: "
        "run `python -m spider_cli.language.grammar` and commit the .json files"
    )


@pytest.mark.parametrize(
    ("name", "text"), [("commands.lark", "8-6s from 3 to 10"), ("position.lark", "1: -- Jc 10h\n")]
)
def test_tables_made_now_read_back_into_a_parser_like_the_grammars(name: str, text: str) -> None:
    made = grammar.from_tables(grammar.decode(grammar.tables_text(name)))
    assert made.parse(text) == grammar.load(name).parse(text) == _built(name).parse(text)
    assert {t.name for t in made.terminals} == {t.name for t in _built(name).terminals}


@functools.cache
def _built(name: str) -> Lark:
    return grammar.build(name)


@functools.cache
def _sentences(name: str) -> st.SearchStrategy[str]:
    """Sentences of the grammar; the commands' tokens spaced so that two never run together."""
    built = _built(name)
    if name != "commands.lark":
        return from_lark(built)
    return from_lark(
        built,
        explicit={
            t.name: st.from_regex(t.pattern.to_regexp(), fullmatch=True).map(" {} ".format)
            for t in built.terminals
            if t.name not in built.ignore_tokens
        },
    )


def _outcome(parser: Lark, text: str) -> object:
    """The tree, or the error and where it is."""
    try:
        return parser.parse(text)
    except UnexpectedInput as error:
        return type(error).__name__, error.line, error.column


@pytest.mark.parametrize("name", list(grammar.GRAMMARS))
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_stored_tables_read_what_the_grammar_reads_into_the_same_tree(
    name: str, data: st.DataObject
) -> None:
    sentence = data.draw(_sentences(name))
    assert _outcome(grammar.load(name), sentence) == _outcome(_built(name), sentence)


def test_the_parsers_keep_nothing_in_the_players_directories(tmp_path: Path) -> None:
    """No cache of built parsers: a file there would be unpickled, so could run code."""
    reading = """
from spider_cli.language.files import formats
from spider_cli.language import notation
from spider_cli.rules.errors import NotationError
notation.parse_command("new 1")
try:
    notation.parse_command("x")  # read again into a tree, to explain it
except NotationError:
    formats.parser()
    print("read")
"""
    done = subprocess.run(
        [sys.executable, "-c", reading],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "SPIDER_HOME": str(tmp_path)},
    )
    assert done.stdout == "read\n"
    assert list(tmp_path.iterdir()) == []
