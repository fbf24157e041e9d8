"""solve's goal searches on the compiled core against the Python reference: the same
verdicts, lines, positions and proofs on the manual's recorded questions and on random
positions, goals and constraints. Skipped where the core was not built; CI requires it."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis import native
from spider_cli.analysis.compact import blocks
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.search import goal as goalsearch
from spider_cli.analysis.search.goal import GOAL_KINDS, GoalSpec
from spider_cli.analysis.solve import solver
from spider_cli.app import examples
from spider_cli.language.commands import Solve
from spider_cli.language.files.positions import load_position
from spider_cli.language.notation import parse_command
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import Game
from spider_cli.rules.goals import Constraints, Goal, GoalKind
from tests.helpers import reachable

core = native._load()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")


def _questions() -> list[tuple[str, Game, Solve]]:
    asked = []
    for example in examples.catalogue():
        game = load_position(example.path).to_game() if example.questions else None
        for question in example.questions:
            text = ", ".join(part for part in (question.solve, question.constraints) if part)
            command = parse_command(f"solve {text}, limit 4000")
            assert isinstance(command, Solve) and game is not None
            asked.append((f"{example.name}: {text}", game, command))
    return asked


QUESTIONS = _questions()


def _answer(game: Game, command: Solve) -> tuple:
    found = solver.answer(game, command.goal, command.constraints)
    return (found.status, found.texts, found.positions, found.depth, found.reason, found.reveal)


@pytest.mark.parametrize(("name", "game", "command"), QUESTIONS, ids=[q[0] for q in QUESTIONS])
def test_the_manual_questions_are_answered_the_same(name: str, game: Game, command: Solve) -> None:
    answer = _answer(game, command)
    with native.pure():
        assert _answer(game, command) == answer, name


@pytest.mark.parametrize(("name", "game", "command"), QUESTIONS, ids=[q[0] for q in QUESTIONS])
def test_the_manual_questions_under_autoremove_are_answered_the_same(
    name: str, game: Game, command: Solve
) -> None:
    """The same questions with autoremove on, where a complete suit comes off first."""
    ruled = game.copy()
    ruled.autoremove = True
    answer = _answer(ruled, command)
    with native.pure():
        assert _answer(ruled, command) == answer, name


GAMES = st.builds(
    reachable,
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 150),
    st.integers(0, 2**32),
    st.booleans(),
)
"""Positions reached by random play of a numbered deal (1, 2 or 4 suits), some as their
player sees them."""


GOALS = [
    Goal("turn up"),
    Goal("turn up", pile=2),
    Goal("space"),
    Goal("space", pile=5),
    Goal("remove", steps=((0,),)),
    Goal("remove", steps=((1,), (0,))),
    Goal("remove", steps=((0, 1),)),
    Goal("free", card=0 * 16 + 9),
    Goal("free", card=1 * 16 + 5),
    Goal("win"),
]

CONSTRAINTS = [
    Constraints(),
    Constraints(no_deal=True),
    Constraints(no_deal=True, keep_spaces=1),
    Constraints(no_remove=(2, 3)),
    Constraints(no_new_space=True),
    Constraints(no_turn_up=True, no_deal=True),
    Constraints(autoremove=True),
    Constraints(no_deal=True, autoremove=True),
]


@settings(max_examples=80, deadline=None)
@given(
    GAMES,
    st.sampled_from(GOALS),
    st.sampled_from(CONSTRAINTS),
    st.sampled_from([(False, True, False), (False, True, True), (True, False, True)]),
    st.sampled_from((0, 10)),
    st.integers(1, 1_500),
)
def test_searches_are_the_same_on_random_positions(
    game: Game,
    goal: Goal,
    constraints: Constraints,
    how: tuple[bool, bool, bool],
    chaos_weight: int,
    limit: int,
) -> None:
    search = goalsearch.make_search(game, goal, constraints)
    search.chaos_weight = chaos_weight
    macros, into_spaces, ordered = how
    outcome = solver.astar(search, macros, into_spaces, Limit(limit), ordered)
    with native.pure():
        assert solver.astar(search, macros, into_spaces, Limit(limit), ordered) == outcome


# Turning up a pile of a 1- or 2-suit deal at its start, every card known, ordered: where the
# core once took the least of the piles' runs above a face-down card wrongly. Two face-down
# cards of one suit, the upper a rank higher, count as one run (compact.blocks), so a pile can
# count below 0; the core took -1 for "no pile yet" and so dropped such a pile for the next.
# (deal, suits, pile, (macros, into_spaces, ordered), chaos weight, limit), from a sweep of
# deals 10000-10039 that found 122 such searches apart.
DIVERGED = [
    (10000, 1, 2, (False, True, True), 0, 6),
    (10000, 1, 2, (True, False, True), 0, 200),
    (10000, 1, 0, (True, False, True), 0, 200),
    (10026, 1, 6, (False, True, True), 10, 200),
    (10026, 1, 1, (True, False, True), 10, 200),
    (10029, 2, 1, (False, True, True), 0, 200),
    (10029, 2, 4, (True, False, True), 0, 200),
    (10029, 2, 7, (False, True, True), 10, 200),
]


@pytest.mark.parametrize(("number", "suits", "pile", "how", "chaos_weight", "limit"), DIVERGED)
def test_turning_up_a_pile_whose_runs_count_below_zero_is_searched_the_same(
    number: int,
    suits: int,
    pile: int,
    how: tuple[bool, bool, bool],
    chaos_weight: int,
    limit: int,
) -> None:
    game = reachable(number, suits, 0, 0, False)
    search = goalsearch.make_search(game, Goal(kind=GoalKind.TURN_UP, pile=pile), Constraints())
    assert min(blocks(p) for p in search.start.piles) < 0  # what the example is about
    search.chaos_weight = chaos_weight
    macros, into_spaces, ordered = how
    outcome = solver.astar(search, macros, into_spaces, Limit(limit), ordered)
    with native.pure():
        assert solver.astar(search, macros, into_spaces, Limit(limit), ordered) == outcome


@settings(max_examples=60, deadline=None)
@given(
    st.builds(
        reachable,
        st.integers(0, 10_000),
        st.sampled_from((1, 2)),
        st.integers(0, 30),
        st.integers(0, 2**32),
        st.just(False),
    ),
    st.sampled_from([None, *range(10)]),
    st.sampled_from([Constraints(), Constraints(no_deal=True)]),
    st.sampled_from([(False, True, True), (True, False, True)]),
    st.sampled_from((0, 10)),
    st.integers(1, 1_500),
)
def test_turning_up_is_searched_the_same_early_in_one_and_two_suit_deals(
    game: Game,
    pile: int | None,
    constraints: Constraints,
    how: tuple[bool, bool, bool],
    chaos_weight: int,
    limit: int,
) -> None:
    """Early in a 1- or 2-suit deal, every card known, many face-down cards of one suit lie a
    rank apart: the ordered searches for turning up a card, on both paths (the random
    positions above reach these seldom)."""
    search = goalsearch.make_search(game, Goal(kind=GoalKind.TURN_UP, pile=pile), constraints)
    search.chaos_weight = chaos_weight
    macros, into_spaces, ordered = how
    outcome = solver.astar(search, macros, into_spaces, Limit(limit), ordered)
    with native.pure():
        assert solver.astar(search, macros, into_spaces, Limit(limit), ordered) == outcome


@settings(max_examples=60, deadline=None)
@given(
    GAMES,
    st.sampled_from(GOALS),
    st.sampled_from(CONSTRAINTS),
    st.sampled_from([(), (3,), (0, 6)]),
    st.integers(0, 2),
    st.booleans(),
    st.sampled_from((0, 10)),
    st.integers(1, 40),
    st.integers(1, 3_000),
)
def test_beams_are_the_same_on_random_positions(
    game: Game,
    goal: Goal,
    constraints: Constraints,
    keep: tuple[int, ...],
    done_at: int,
    macros: bool,
    chaos_weight: int,
    width: int,
    limit: int,
) -> None:
    """The beam, the estimate with piles no suit may be removed from, and a goal met by its
    first removal steps, on both paths."""
    search = goalsearch.make_search(game, goal, constraints, keep, done_at)
    search.chaos_weight = chaos_weight
    outcome = solver.astar(search, macros, not macros, Limit(limit), width=width)
    assert not outcome.exhaustive  # a beam drops positions: running dry proves nothing
    with native.pure():
        assert solver.astar(search, macros, not macros, Limit(limit), width=width) == outcome


def test_a_search_stops_when_told_and_on_ctrl_c() -> None:
    game = load_position(examples.find("problem-3")).to_game()  # type: ignore[arg-type]
    search = goalsearch.make_search(
        game, Goal("remove", steps=((3,), (1,))), Constraints(no_deal=True)
    )
    calls: list[int] = []

    def clock() -> float:  # past the end at its second reading
        calls.append(1)
        return float(len(calls))

    outcome = solver.astar(search, False, True, Limit(10**9, clock, 1.5), ordered=False)
    assert outcome.line is None and not outcome.exhaustive and len(calls) == 2

    def interrupt() -> float:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solver.astar(search, False, True, Limit(10**9, interrupt, 0.0), ordered=False)


EMPTY = (b"",) * 10
SPEC = (2, -1, 0, True, 0, 0, False, False, True, False, False, 0, 0, 0, 0, ((1,),), ())


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((SPEC[:5], EMPTY, False, True, True, 0, 100, 2, None), TypeError),
        (((9, *SPEC[1:]), EMPTY, False, True, True, 0, 100, 2, None), ValueError),
        (((2, 11, *SPEC[2:]), EMPTY, False, True, True, 0, 100, 2, None), ValueError),
        (((*SPEC[:15], ((7,),), ()), EMPTY, False, True, True, 0, 100, 2, None), ValueError),
        (((*SPEC[:15], ((1,),) * 9, ()), EMPTY, False, True, True, 0, 100, 2, None), ValueError),
        (((*SPEC[:16], ((1,) * 9,)), EMPTY, False, True, True, 0, 100, 2, None), ValueError),
        (((*SPEC[:16], ((99,) * 10,)), EMPTY, False, True, True, 0, 100, 2, None), ValueError),
        ((SPEC, EMPTY, False, True, True, 0, -1, 2, None), ValueError),
        ((SPEC, EMPTY, False, True, True, 0, 100, -2, None), ValueError),
        (((*SPEC[:14], 9, *SPEC[15:]), EMPTY, False, True, True, 0, 100, 2, None), ValueError),
        ((SPEC, EMPTY, False, True, True, -1, 100, 2, None), ValueError),
        ((SPEC, (b"\x01" * 105, *EMPTY[1:]), False, True, True, 0, 100, 2, None), ValueError),
        ((list(SPEC), EMPTY, False, True, True, 0, 100, 2, None), TypeError),
    ],
)
def test_bad_input_is_refused_clearly(args: tuple, error: type[Exception]) -> None:
    with pytest.raises(error):
        core.goal_search(*args)


def test_limits_at_the_edges_of_64_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Limits up to 10**30 reach the core clamped, and the memory ceiling stops the search."""
    monkeypatch.setenv("SPIDER_MEMORY", "8M")
    game = DealSource.parse("pysol:5", 4).game()
    search = goalsearch.make_search(game, Goal("win"), Constraints())
    for limit in (0, 1, 2**63 - 1, 10**30):
        outcome = solver.astar(search, False, True, Limit(limit), ordered=False)
        assert 1 <= outcome.positions <= 8 * 2**20 // 160 + 1000


def test_the_goal_spec_is_written_once() -> None:
    """goalsearch.GoalSpec is the one definition of a goal search as the core takes it: the
    struct in csrc/search.h has its fields in its order (beside the counts of its arrays),
    specs.c reads each with a format letter of its type, and the goal kinds are numbered in
    the order of GoalKind."""
    csrc = Path(__file__).resolve().parents[2] / "csrc"
    header = re.sub(r"/\*.*?\*/", "", (csrc / "search.h").read_text(), flags=re.S)
    struct = re.search(r"typedef struct \{([^}]*)\} GoalSpec;", header)
    assert struct is not None
    names = re.findall(r"(\w+)(?:\[[^\]]*\])*\s*[,;]", struct.group(1))
    counts = {"nsteps", "step_len", "nrows", "row_known"}
    assert [name for name in names if name not in counts] == list(GoalSpec._fields)
    kinds = re.search(r"enum \{\s*(GOAL_[^}]*)\}", header)
    assert kinds is not None
    numbered = [part.split("=") for part in kinds.group(1).split(",")]
    assert [(name.strip(), int(k)) for name, k in numbered] == [
        (f"GOAL_{kind.name}", GOAL_KINDS.index(kind)) for kind in GoalKind
    ]
    specs = (csrc / "specs.c").read_text()
    fmt = re.search(r'int spec_from_py\(.*?PyArg_ParseTuple\(obj, "(\w+);', specs, re.S)
    assert fmt is not None and len(fmt.group(1)) == len(GoalSpec._fields)
    letters = {int: "il", bool: "p", tuple: "O"}
    types = typing.get_type_hints(GoalSpec)
    for letter, name in zip(fmt.group(1), GoalSpec._fields, strict=True):
        kind = typing.get_origin(types[name]) or types[name]
        assert letter in letters[kind], name
