"""Fuzzing: whole scripts, position files and file names, generated and mutated.

Every run must end in a result or a clear error (a SpiderError, exit status 1 for a
script): never another exception, which ``spider`` would report as an internal error. The
suite runs a few hundred examples of each; the long run in BENCHMARKS.md runs 10,000
scripts and 2,000 position files with ``HYPOTHESIS_PROFILE=fuzz``. Hangs are caught there
by the time per example that it reports, not by a timed assertion here.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from spider_cli.app import examples
from spider_cli.app.cli import run_scripts
from spider_cli.app.session import Session
from spider_cli.language import grammar, positions
from spider_cli.rules.errors import SpiderError

settings.register_profile(
    "fuzz",
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
SCRIPTS = 10_000 if PROFILE else 150
POSITIONS = 2_000 if PROFILE else 150
NAMES = 1_000 if PROFILE else 100

_SEARCHES = re.compile(r"\b(solve|hint|apply)\b", re.IGNORECASE)
"""Lines that start a search are left out: searches are bounded by positions examined (and
tested apart); at their default limits a few hundred of them would take minutes."""


@functools.cache
def _example_texts() -> list[str]:
    """The manual's examples as text: position files and game files to mutate."""
    return [entry.path.read_text(encoding="utf-8") for entry in examples.catalogue()]


def _command_sentences() -> st.SearchStrategy[str]:
    built = grammar.build("commands.lark")
    explicit = {
        t.name: st.from_regex(t.pattern.to_regexp(), fullmatch=True).map(" {} ".format)
        for t in built.terminals
        if t.name not in built.ignore_tokens
    }
    return from_lark(built, explicit=explicit)


def _mutated(texts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A text with a slice cut out, a slice repeated, or random characters put in."""

    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        text = draw(texts)
        at = draw(st.integers(0, len(text)))
        end = draw(st.integers(at, min(len(text), at + 200)))
        how = draw(st.sampled_from(["cut", "repeat", "insert"]))
        if how == "cut":
            return text[:at] + text[end:]
        if how == "repeat":
            return text[:end] + text[at:end] * draw(st.integers(1, 5)) + text[end:]
        return text[:at] + draw(st.text(max_size=20)) + text[at:]

    return mutate()


def _line() -> st.SearchStrategy[str]:
    return st.one_of(
        _command_sentences(),
        st.text(max_size=60),
        st.sampled_from(["8-6s from 3 to 10", "deal", "undo 99", "redo", "3", "remove"]),
    )


def _scripts() -> st.SearchStrategy[str]:
    """Whole scripts: lines of the grammar, noise, and mutated game files."""
    written = st.lists(_line(), max_size=12).map("\n".join)
    files = _mutated(st.sampled_from(_example_texts()))
    return st.one_of(written, files, st.binary(max_size=300).map(lambda b: b.decode("latin-1")))


def _run(script: str) -> int:
    out, err = io.StringIO(), io.StringIO()
    lines = [line for line in script.split("\n") if not _SEARCHES.search(line)]
    path_free = "\n".join(lines)
    session = Session.new_game(seed=0, base_dir=Path("/nonexistent-spider-fuzz"))
    saved = sys.stdin
    sys.stdin = io.StringIO(path_free)
    try:
        return run_scripts(["-"], out, err, session=session)
    finally:
        sys.stdin = saved


@settings(
    max_examples=SCRIPTS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(_scripts())
def test_any_script_ends_in_a_result_or_a_clear_error(script: str) -> None:
    assert _run(script) in (0, 1)


def _position_texts() -> st.SearchStrategy[str]:
    positions_only = [t for t in _example_texts() if not t.startswith("# spider game file")]
    return st.one_of(
        from_lark(grammar.build("position.lark")),
        _mutated(st.sampled_from(positions_only)),
        st.text(max_size=400),
    )


@settings(
    max_examples=POSITIONS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(_position_texts())
def test_any_position_file_reads_or_is_refused_clearly(text: str) -> None:
    with contextlib.suppress(SpiderError):
        positions.read_position(text).to_game()


_NAMES = st.text(min_size=1, max_size=300).filter(
    lambda name: "/" not in name and not name.startswith("~")
)
"""Names that stay inside the test's own directory (no absolute path, no other home)."""


@settings(max_examples=NAMES, deadline=None)
@given(_NAMES)
def test_any_file_name_reads_writes_or_is_refused_clearly(name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        session = Session.new_game(seed=1, base_dir=Path(folder))
        for verb in (session.save, session.load, session.expect):
            with contextlib.suppress(SpiderError):
                verb(name)
