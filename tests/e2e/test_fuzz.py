"""Fuzzing: whole scripts, position files and file names, generated and mutated.

Every run must end in a result or a clear error (a SpiderError, exit status 1 for a
script): never another exception, which ``spider`` would report as an internal error. The
suite runs a few hundred examples of each; the long run in BENCHMARKS.md runs 10,000
scripts and 2,000 position files with ``HYPOTHESIS_PROFILE=fuzz``. Hangs are caught there
by the time per example that it reports, not by a timed assertion here. Position files are
also built from the position grammar's own tokens, every sequence of up to three in a pile
or the hand, and given to ``spider show``, ``load`` and ``expect``.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from spider_cli.app import examples
from spider_cli.app.files.gamelog import GameLog
from spider_cli.app.keeping import history_facts
from spider_cli.app.session import Session
from spider_cli.cli.main import main, run_scripts
from spider_cli.language import grammar
from spider_cli.language.files import positions
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
    """Run the script from a file in a directory of its own, so that whatever it saves
    stays there (a script's files are relative to the script)."""
    out, err = io.StringIO(), io.StringIO()
    lines = [line for line in script.split("\n") if not _SEARCHES.search(line)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.spider"
        path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
        before = set(Path.cwd().iterdir())
        status = run_scripts([str(path)], out, err)
        assert set(Path.cwd().iterdir()) == before, "a script wrote outside its directory"
        return status


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


_SAMPLES = {
    "CARD": ("Qh",),
    "DASHES": ("--", "-"),
    "EMPTY": ("(sp)",),
    "KNOWN": ("[Qs]", "[Qs Jh]"),
    "INT": ("3",),
    "COLON": (":",),
}
"""Texts of the position grammar's terminals that can stand in a pile: ``--`` a face-down
cell, ``-`` an empty pile in a code, ``[Qs Jh]`` two cards where one is due."""

_OTHER_PILES = [(5, "Ks"), (5, "Kd"), (5, "Kc"), (5, "Qd"), (5, "Qc"), (5, "Jh"), (5, "Js")]
_OTHER_PILES += [(5, "Jd"), (4, "Jc")]
"""Piles 2 to 10: face-down cards and a card, 53 in all, so that with one card in pile 1
the position is a deal's (54 cards, 50 in the hand)."""


@functools.cache
def _position_grammar() -> tuple[dict[str, re.Pattern[str]], dict[str, list[list[str]]]]:
    """The position grammar's terminals (name to pattern) and rules (name to expansions)."""
    built = grammar.build("position.lark")
    terminals = {t.name: re.compile(t.pattern.to_regexp()) for t in built.terminals}
    rules: dict[str, list[list[str]]] = {}
    for rule in built.rules:
        rules.setdefault(rule.origin.name, []).append([s.name for s in rule.expansion])
    return terminals, rules


def _terminals_of(rule: str) -> list[str]:
    """The terminals that can appear inside ``rule`` of the position grammar."""
    terminals, rules = _position_grammar()
    found: set[str] = set()
    todo, seen = [rule], {rule}
    while todo:
        for expansion in rules[todo.pop()]:
            for name in expansion:
                if name in terminals:
                    found.add(name)
                elif name not in seen:
                    seen.add(name)
                    todo.append(name)
    return sorted(found)


def _in_every_order(rule: str, most: int = 3) -> Iterator[tuple[str, ...]]:
    """Every sequence of up to ``most`` tokens that can stand in ``rule``, each terminal
    written as each of its samples (a terminal without a sample is a KeyError: add one)."""
    terminals, _rules = _position_grammar()
    texts = [text for name in _terminals_of(rule) for text in _SAMPLES[name]]
    for name in _terminals_of(rule):
        for text in _SAMPLES[name]:
            assert terminals[name].fullmatch(text), (name, text)
    for count in range(most + 1):
        yield from itertools.product(texts, repeat=count)


def _with_pile_1(layout: str, tokens: tuple[str, ...]) -> str:
    """A position whose pile 1 (or hand, for ``layout`` "hand") is ``tokens``, written in
    ``layout``."""
    others = [["--"] * down + [card] for down, card in _OTHER_PILES]
    if layout == "code":
        piles = ["".join(tokens), *(f"{down}:{card}" for down, card in _OTHER_PILES)]
        return "spider:4/50/-/" + "/".join(piles)
    if layout in ("lines", "hand"):
        first = ["Qh"] if layout == "hand" else list(tokens)
        rows = [" ".join([f"{i + 1}:", *pile]) for i, pile in enumerate([first, *others])]
        return "\n".join(["stock: " + " ".join(tokens)] * (layout == "hand") + rows)
    piles = [list(tokens), *others]
    depth = max(map(len, piles))
    rows = [[pile[d] if d < len(pile) else "" for pile in piles] for d in range(depth)]
    if layout == "grid":
        return "\n".join("".join(f"{cell:<8}" for cell in row).rstrip() for row in rows)
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)


_SLOTS = {"lines": "cell", "grid": "cell", "table": "cell", "hand": "cell", "code": "code_pile"}
"""Each layout, and the rule of the grammar its varied part is made of."""


@pytest.mark.parametrize("layout", list(_SLOTS))
def test_piles_of_the_grammars_tokens_in_every_order_show_load_and_expect_or_are_refused(
    layout: str, tmp_path: Path
) -> None:
    """Pile 1 (or the hand) made of every sequence of the tokens that can stand there,
    markers among them: ``spider show`` ends in 0 or a clear error (1), ``expect`` and
    ``load`` raise only a player's error, and the game in progress survives it."""
    path = tmp_path / "position.txt"
    session = Session.new_game(seed=1, base_dir=tmp_path)
    for tokens in _in_every_order(_SLOTS[layout]):
        text = _with_pile_1(layout, tokens)
        path.write_text(text, encoding="utf-8")
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            status = main(["show", str(path)])
        assert status in (0, 1), (text, err.getvalue())
        for verb in (session.expect, session.load):
            before = positions.position_code(session.game)
            try:
                verb(path.name)
            except SpiderError:
                assert positions.position_code(session.game) == before, text


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


EDGES = [2**63 - 1, 2**63, 2**64, 10**30, -1]
"""Numbers at the edges of 64 bits (and past them, and below zero)."""

NUMBERED_COMMANDS = [
    "undo {n}",
    "redo {n}",
    "new {n}",
    "new {n} suits 2",
    "new pysol:{n}",
    "new kpat:{n}",
    "games {n}",
    "history {n}",
    "open {n}",
    "apply {n}",
    "auto {n}",
    "show {n}",
    "obvious {n}",
    "{n}",
    "{n} 3",
    "3 {n}",
    "Jh {n} 3",
    "8h from {n} to 3",
    "8h from 3 to {n}",
    "Ah from 1 into space {n}",
    "Ah onto Kd in column {n}",
    "remove {n}",
    "remove the spades from column {n}",
    "assume {n} Ah",
    "solve win, limit {n}",
    "solve win, within {n} seconds",
    "solve win, keep {n} spaces",
    "solve get a space in pile {n}",
    "solve turn up a card in pile {n}",
]
"""Every command that takes a number, with the number in each place it can be."""


@pytest.mark.parametrize("number", EDGES)
@pytest.mark.parametrize("command", NUMBERED_COMMANDS)
def test_every_number_at_the_edges_is_a_result_or_a_clear_error(
    tmp_path: Path, command: str, number: int
) -> None:
    log = GameLog(tmp_path / "games.sqlite")
    session = Session.new_game(seed=0, base_dir=tmp_path, log=log)
    session.play(session.game.legal_moves()[0])
    log.record(None, history_facts(session))
    before = session.game.key()
    try:
        session.execute(command.format(n=number))
    except SpiderError:
        assert session.game.key() == before


CLI_NUMBERS = [
    ["solve", "--seed", "{n}", "--limit", "1"],
    ["solve", "--seed", "pysol:{n}", "--limit", "1"],
    ["solve", "--seed", "kpat:{n}", "--limit", "1"],
    ["solve", "--seed", "0", "--limit", "1", "--time-limit", "{n}"],
    ["solve", "--seed", "0", "--suits", "1", "--time-limit", "1", "--limit", "{n}"],
    ["solve", "start.txt", "win,", "limit", "{n}"],
    ["show", "pysol:{n}"],
    ["show", "kpat:{n}"],
    ["play", "--seed", "{n}"],
    ["bench", "--seeds", "{n}", "--limit", "1"],
    ["bench", "--seeds", "0-{n}", "--limit", "1"],
    ["bench", "--seeds", "pysol:{n}", "--limit", "1"],
    ["bench", "--seeds", "0", "--suits", "1", "--time-limit", "1", "--limit", "{n}"],
    ["bench", "--seeds", "0", "--limit", "1", "--time-limit", "{n}"],
    ["bench", "--seeds", "0", "--limit", "1", "--jobs", "{n}"],
    ["bench", "--blind", "--seeds", "0", "--budget", "{n}"],
]
"""Every option of the command line that takes a number."""


@pytest.mark.parametrize("number", EDGES)
@pytest.mark.parametrize("argv", CLI_NUMBERS, ids=" ".join)
def test_every_number_on_the_command_line_is_a_result_or_a_clear_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    number: int,
) -> None:
    if "--budget" in argv and number == 2**63 - 1:
        pytest.skip("the blind player's search is then bounded by nothing it is given")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SPIDER_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("score\n"))
    Path("start.txt").write_text(positions.position_code(Session.new_game(seed=0).game, hide=True))
    status = main(
        [word.format(n=number) for word in argv]
        + ["--db", "r.sqlite"] * (argv[0] == "bench" and "--blind" not in argv)
    )
    err = capsys.readouterr().err
    assert status in (0, 1, 2, 3) and "internal error" not in err, err


@pytest.mark.parametrize("seconds", ["nan", "inf", "-inf", "1e400", "0"])
def test_a_time_limit_must_be_a_finite_positive_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seconds: str
) -> None:
    argv = ["bench", "--seeds", "0", "--limit", "1", "--db", str(tmp_path / "r.sqlite")]
    assert main([*argv, f"--time-limit={seconds}"]) == 2
    assert "argument --time-limit: a positive number is needed" in capsys.readouterr().err


@pytest.mark.parametrize("jobs", ["0", "-3", "x"])
def test_bench_jobs_must_be_a_positive_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    argv = ["bench", "--seeds", "0", "--limit", "1", "--db", str(tmp_path / "r.sqlite")]
    assert main([*argv, f"--jobs={jobs}"]) == 2
    assert "argument --jobs: a positive number is needed" in capsys.readouterr().err
    assert not (tmp_path / "r.sqlite").exists()  # nothing was played
