"""The count just before every first move, in every order: never wrong (the brute force over
the engine agrees on small random positions), and it proves answers that the count at a few
moments leaves open, problem 4's two among them."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings

from spider_cli.analysis import native
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.search import firstmoves
from spider_cli.analysis.search.counting import setting
from spider_cli.analysis.solve import proofs
from spider_cli.app.words.findings import answer_summary
from tests.analysis.test_counting import GOALS, reachable
from tests.analysis.test_moments import QUESTION, asked, search_for
from tests.analysis.test_solver import TooBig, ask, example

BUDGET = 20_000
core = native._load()


@settings(max_examples=100, deadline=None)
@given(*QUESTION)
def test_every_order_is_never_wrong(
    seed: int, goal: str, keep: int, no_turn_up: bool, no_new_space: bool
) -> None:
    """Whenever the count in every order of first moves answers "impossible" where the count
    at the end does not (that one is tested in test_counting.py), trying every move finds no
    line either."""
    game, constraints, search = asked(seed, goal, keep, no_turn_up, no_new_space)
    reason = proofs.counted_in_every_order(search, Limit(BUDGET))
    if reason is not None and proofs.counted(search)[0] is None:
        with contextlib.suppress(TooBig):
            assert not reachable(game, GOALS[goal], constraints, 50_000), reason


@pytest.mark.skipif(core is None, reason="the compiled core is not built")
@settings(max_examples=150, deadline=None)
@given(*QUESTION)
def test_the_core_examines_the_same_states_as_the_python_path(
    seed: int, goal: str, keep: int, no_turn_up: bool, no_new_space: bool
) -> None:
    """The compiled search (``_core.orders``) against the Python one, end by end: the same
    answer after the same number of states, within the budget or past it."""
    _game, _constraints, search = asked(seed, goal, keep, no_turn_up, no_new_space)
    for question in proofs._questions(search):
        found = setting(search.start.piles, question, Limit(BUDGET))
        for final in found.finals if found is not None else ():
            orders = firstmoves.Orders(search.start.piles, final, found)
            for budget in (BUDGET, 50):
                compiled = core.orders(*orders.tables(), budget, None)
                fresh = firstmoves.Orders(search.start.piles, final, found)
                assert compiled == fresh.search(Limit(budget))


@pytest.mark.parametrize(
    ("seed", "goal", "keep", "no_turn_up", "no_new_space", "states"),
    [
        (230, "turn up", 1, False, False, 63),
        (244, "space in pile 1", 0, False, False, 724),
        (253, "space", 0, False, False, 46),
        (253, "turn up in pile 1", 0, False, False, 46),
        (285, "space", 1, True, False, 17),
        (285, "turn up", 1, False, False, 102),
        (307, "turn up in pile 1", 0, False, False, 129),
        (323, "remove hearts", 0, False, False, 395),
        (333, "space", 1, False, False, 1),  # no first move can start the line at all
    ],
)
def test_it_proves_what_the_count_at_a_few_moments_cannot(
    seed: int, goal: str, keep: int, no_turn_up: bool, no_new_space: bool, states: int
) -> None:
    """Random positions where the count at the end and the count at the moments the splits
    choose both pass, and every order of first moves fails: the brute force agrees."""
    game, constraints, search = asked(seed, goal, keep, no_turn_up, no_new_space)
    (question,) = proofs._questions(search)
    assert firstmoves.refute(search.start.piles, question, Limit(BUDGET)) == states
    assert proofs.counted(search)[0] is None
    assert proofs.counted_in_moments(search, Limit(30_000)) is None
    assert not reachable(game, GOALS[goal], constraints, 50_000)


@pytest.mark.parametrize(
    "question",
    [
        "get a space, no deal, no remove spades, no remove hearts, no remove diamonds, "
        "no remove clubs",
        "remove diamonds, no deal, no remove clubs",
    ],
)
def test_problem_4s_impossible_answers_are_proved(question: str) -> None:
    """The manual's two "impossible" answers of problem 4, which no search has settled:
    every order of first moves that the count allows ends short of the goal."""
    search = search_for(example("problem-4"), question)
    (counted,) = proofs._questions(search)
    assert firstmoves.refute(search.start.piles, counted, run=native.first_moves) == 250_230


def test_a_goal_the_manual_reaches_is_never_refuted() -> None:
    """Problem 5 with the Jacks swapped: the spades come out with no new space (the manual's
    19 moves), so some order of first moves reaches the end."""
    search = search_for(example("problem-5-jacks-swapped"), "remove spades, no deal, no new space")
    (question,) = proofs._questions(search)
    assert firstmoves.refute(search.start.piles, question) is None


def test_the_budget_and_the_clock_stop_it() -> None:
    """Past its budget, or once the time asked for is up, it proves nothing."""
    search = search_for(example("problem-5"), "get a space in pile 2, no deal, no remove")
    (question,) = proofs._questions(search)
    on_the_path = native.first_moves
    assert firstmoves.refute(search.start.piles, question, Limit(1_000), on_the_path) is None
    up = Limit(10**6, clock=lambda: 1.0, end=0.0)  # the time asked for is up
    assert firstmoves.refute(search.start.piles, question, up, on_the_path) is None
    assert firstmoves.refute(search.start.piles, question, run=on_the_path) == 136_246


def test_solve_gives_the_proof_when_the_moments_give_none() -> None:
    """`solve` tries it after the count at a few moments, with a state for every ten
    positions of its limit, and says which count failed."""
    game, _constraints, _search = asked(323, "remove hearts", 0, False, False)
    answer = ask(game, "remove hearts, no deal, limit 20000")
    assert answer.status == "impossible", answer_summary(answer)
    assert answer.reason == proofs.Proof(proofs.Ground.COUNTED_IN_EVERY_ORDER, count=395)
    said = answer_summary(answer)
    assert "just before each card first moves, in every order of those moves" in said
    assert "over 395 choices" in said
