"""The counting argument at several moments of a line: never wrong (the brute force over the
engine agrees on small random positions where order matters), and it proves the manual's
answers that the count at the end of a line leaves open."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis.limits import Limit
from spider_cli.analysis.search import goal as goalsearch
from spider_cli.analysis.search import moments
from spider_cli.analysis.search.counting import Question
from spider_cli.analysis.solve import proofs
from spider_cli.app.words.findings import proof_text
from spider_cli.language.commands import Solve
from spider_cli.language.notation import parse_command
from spider_cli.rules.cards import Card
from spider_cli.rules.engine import Game
from spider_cli.rules.goals import Constraints, GoalKind
from tests.analysis.test_counting import GOALS, reachable
from tests.analysis.test_solver import TooBig, example, scatter, table

BUDGET = 30_000


def two_suits(seed: int) -> Game:
    """22-45 cards of two suits of a double deck, dealt at random into the ten piles, some
    face down (known or not): big enough for the order of moves to matter, small enough to
    list every position."""
    rng = random.Random(seed)
    cards = [Card.of(rank, suit) for rank in range(1, 14) for suit in (0, 1)] * 2
    cards = rng.sample(cards, rng.randrange(22, 46))
    return table(scatter(rng, cards, 0.6, top=True), removed=(2, 3))


def asked(
    seed: int, goal: str, keep: int, no_turn_up: bool, no_new_space: bool
) -> tuple[Game, Constraints, goalsearch.Search]:
    """The position of ``seed``, the constraints, and the search for the goal under them."""
    game = two_suits(seed)
    constraints = Constraints(
        no_deal=True, keep_spaces=keep, no_turn_up=no_turn_up, no_new_space=no_new_space
    )
    return game, constraints, goalsearch.make_search(game, GOALS[goal], constraints)


QUESTION = (
    st.integers(0, 100_000),
    st.sampled_from(sorted(GOALS)),
    st.integers(0, 1),
    st.booleans(),
    st.booleans(),
)
"""A question on a random position of :func:`asked`: its seed, goal, spaces to keep, and
whether "no turn up" and "no new space" hold."""


def search_for(game: Game, text: str) -> goalsearch.Search:
    command = parse_command(f"solve {text}")
    assert isinstance(command, Solve)
    return goalsearch.make_search(game, command.goal, command.constraints)


@settings(max_examples=100, deadline=None)
@given(*QUESTION)
def test_the_moments_are_never_wrong(
    seed: int, goal: str, keep: int, no_turn_up: bool, no_new_space: bool
) -> None:
    """Whenever the count at several moments answers "impossible" where the count at the
    end does not (that one is tested in test_counting.py), trying every move finds no line
    either."""
    game, constraints, search = asked(seed, goal, keep, no_turn_up, no_new_space)
    reason = proofs.counted_in_moments(search, Limit(BUDGET))
    if reason is not None and proofs.counted(search)[0] is None:
        with contextlib.suppress(TooBig):
            assert not reachable(game, GOALS[goal], constraints, 50_000), reason


@pytest.mark.parametrize(
    ("seed", "goal", "keep", "no_turn_up", "no_new_space"),
    [
        (103, "space", 0, True, False),
        (115, "turn up", 0, True, False),
        (161, "space in pile 1", 0, False, False),
        (168, "turn up in pile 1", 0, False, False),
        (230, "space", 0, True, False),
        (323, "turn up in pile 1", 0, False, True),
        (349, "space", 0, False, False),
        (432, "turn up", 1, True, False),
        (630, "space", 0, False, False),
        (749, "space", 1, False, False),
        (790, "turn up in pile 1", 0, False, True),
        (867, "turn up in pile 1", 0, True, True),
    ],
)
def test_it_proves_what_the_end_alone_cannot(
    seed: int, goal: str, keep: int, no_turn_up: bool, no_new_space: bool
) -> None:
    """Random positions where the count at the end passes, and counting again before a
    card's first move shows the goal out of reach (found by a run over 6,000 questions):
    the brute force agrees."""
    game, constraints, search = asked(seed, goal, keep, no_turn_up, no_new_space)
    assert proofs.counted(search)[0] is None
    reason = proofs.counted_in_moments(search, Limit(BUDGET))
    assert reason is not None and reason.cards, reason  # it names a card's first move
    assert not reachable(game, GOALS[goal], constraints, 50_000)


@pytest.mark.parametrize(
    ("name", "question", "card"),
    [
        ("problem-3", "remove clubs then hearts, no deal, no turn up", "the Jd of pile 8"),
        ("problem-5", "get a space in pile 2, no deal, no remove", "the 4s of pile 2"),
        ("problem-5", "get a space in pile 3, no deal, no remove", "the 2d of pile 8"),
    ],
)
def test_the_manuals_answers_it_proves(name: str, question: str, card: str) -> None:
    """Three of the manual's "impossible" answers that the count at the end and the
    searches left open (problem 5's pile 2: nothing could take the 4-As when the 4s moves)."""
    search = search_for(example(name), question)
    assert proofs.counted(search)[0] is None
    reason = proofs.counted_in_moments(search)
    assert reason is not None and f"just before {card} first moves" in proof_text(reason)


@pytest.mark.parametrize(
    ("name", "question"),
    [
        ("problem-2", "turn up a card in pile 6, no deal, keep 1 space"),
        ("problem-5-jacks-swapped", "remove spades, no deal, no new space"),
    ],
)
def test_it_never_proves_a_possible_answer(name: str, question: str) -> None:
    """The manual's "possible" answers stay open, whatever the splits (problem 2's line
    first moves a run into the space that it cleared: a card first moved to a space counts
    as moved)."""
    assert proofs.counted_in_moments(search_for(example(name), question)) is None


def test_it_gives_up_past_its_budget() -> None:
    """Each split multiplies the counts, so the proof stops after a set number of choices,
    on any machine the same."""
    search = search_for(example("problem-5"), "get a space in pile 3, no deal, no remove")
    assert proofs.counted_in_moments(search, Limit(260_000)) is None
    assert proofs.counted_in_moments(search, Limit(280_000)) is not None


def test_it_stops_when_the_time_asked_for_is_up() -> None:
    """ "within N seconds" caps the proof too: it asks the clock every 4,096 choices."""
    search = search_for(example("problem-5"), "get a space in pile 3, no deal, no remove")
    later, up = (
        Limit(moments.MOMENT_LIMIT.positions, clock=lambda: 1.0, end=end) for end in (2.0, 0.0)
    )
    assert proofs.counted_in_moments(search, later) is not None
    assert proofs.counted_in_moments(search, up) is None


def test_a_proof_names_its_splits() -> None:
    """The proof of problem 5's pile 2 splits once, on the 4s (pile 2, sixth card from the
    bottom... counted from 0: 7), within the budget."""
    search = search_for(example("problem-5"), "get a space in pile 2, no deal, no remove")
    question = Question(kind=GoalKind.SPACE, target=1, spaces=1, most_spaces=1, first=True)
    found = moments.refute(search.start.piles, question)
    assert found is not None
    proof, examined = found
    assert proof.cards() == [(1, 7)]
    assert len(proof.branches) == 2  # not moved by the end; moved before it
    assert 0 < examined <= moments.MOMENT_LIMIT.positions


def test_a_run_first_moved_into_a_space_counts_as_moved() -> None:
    """No card but a King or the Ah can move, and only into the space: the count just
    before the Kh's first move must let it go there (a bottom holds a moved card, and the
    Kh is one)."""
    game = table(["-- Kh", "Ks", "Kd", "Kc", "Ks", "Kd", "Kc", "Kh", "Ah", ""])
    search = search_for(game, "turn up a card in pile 1, no deal")
    assert proofs.counted_in_moments(search) is None
    assert reachable(game, GOALS["turn up in pile 1"], Constraints(no_deal=True))
