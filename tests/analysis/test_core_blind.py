"""The blind player's search on the compiled core against the Python reference: the same
best value, line, positions and reveals on random positions of blind play, and the same
whole games. Skipped where the core was not built; CI builds it and requires it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis import native
from spider_cli.analysis.bench import blind
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind.evaluation import STANDARD, Weights
from spider_cli.analysis.blind.player import Mode, Request, Turn
from spider_cli.analysis.limits import Limit
from spider_cli.rules.deals import DealSource, Source
from tests.analysis.test_evaluation import any_weights
from tests.helpers import blind_view

core = native._load()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")
COMPILED = native.Core(core) if core is not None else native.PYTHON
"""The core's path, whatever SPIDER_PURE says (these tests compare it with Python's)."""
WEIGHTS = STANDARD.core()


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 150),
    st.integers(0, 2**32),
    st.sampled_from(Mode),
    st.booleans(),
    st.sampled_from((0, 1, 5, 30)),
    st.integers(0, 1_500),
    st.one_of(st.just(STANDARD), any_weights()),
)
def test_the_search_is_the_same_on_both_paths(
    number: int,
    suits: int,
    moves: int,
    seed: int,
    mode: Mode,
    parts: bool,
    width: int,
    budget: int,
    weights: Weights,
) -> None:
    piles, removed, hand = blind_view(number, suits, moves, seed)
    for hand_now in {hand, 0}:
        found: list[blindplayer.Reveal] = []
        request = Request(
            Turn(piles, removed, hand_now, mode, weights), Limit(budget), parts, width
        )
        result = COMPILED.blind_search(request, found)
        reference: list[blindplayer.Reveal] = []
        assert result == native.PYTHON.blind_search(request, reference)
        assert found == reference
        assert COMPILED.blind_search(request) == result


@pytest.mark.parametrize(("number", "suits"), [(0, 4), (2, 1), (3, 2)])
def test_whole_blind_games_are_the_same(number: int, suits: int) -> None:
    deal = DealSource(Source.OURS, number, suits)
    table = blind.Dealer(deal)
    played = blind.play_blind(table, Limit(400))
    with native.pure():
        reference = blind.Dealer(deal)
        assert blind.play_blind(reference, Limit(400)) == played
    assert table.won == reference.won and table.moves == reference.moves


EMPTY = (b"",) * 10


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((EMPTY, 9, 150, 0, 100, True, 0, WEIGHTS, False), ValueError),
        ((EMPTY, 0, 150, -1, 100, True, 0, WEIGHTS, False), ValueError),
        ((EMPTY, 0, 150, 0, -5, True, 0, WEIGHTS, False), ValueError),
        ((EMPTY, 0, 150, 0, 100, True, -1, WEIGHTS, False), ValueError),
        ((EMPTY, 0, 150, 0, 100, True, 0, (1, 2), False), ValueError),
        ((EMPTY, 0, 150, 0, 100, True, 0, list(WEIGHTS), False), ValueError),
        ((EMPTY, 0, 150, 0, 100, True, 0, ((0,) * 8, *WEIGHTS[8:]), False), ValueError),
        ((EMPTY, 0, 150, 0, 100, True, 0, (*WEIGHTS[:-1], None), False), TypeError),
        (((b"\x01" * 105, *EMPTY[1:]), 0, 150, 0, 100, True, 0, WEIGHTS, False), ValueError),
        (("x" * 10, 0, 150, 0, 100, True, 0, WEIGHTS, False), TypeError),
    ],
)
def test_bad_input_is_refused_clearly(args: tuple, error: type[Exception]) -> None:
    with pytest.raises(error):
        core.blind_search(*args)


def test_limits_at_the_edges_of_64_bits() -> None:
    piles, removed, hand = blind_view(5, 1, 0, 0)
    for budget in (0, 1, 2**63 - 1, 10**30):
        _best, _line, positions, reveals = core.blind_search(
            piles, removed, 150, hand, budget, True, 30, WEIGHTS, True
        )
        assert positions <= budget and isinstance(reveals, list)
        assert (positions == 0) == (budget == 0)


def test_the_reveals_kept_are_the_first_found_while_their_lines_hold_the_moves_asked() -> None:
    """Both paths keep the same first reveals when their lines may hold fewer moves than a
    search finds (the cap that bounds the Python objects a turn holds:
    memory.blind_reveal_moves)."""
    piles, removed, hand = blind_view(3, 1, 10, 3)
    every: list = []
    request = Request(Turn(piles, removed, hand, Mode.KEEP), Limit(5_000), True)
    native.PYTHON.blind_search(request, every)
    assert len(every) > 3
    room = sum(len(r.line) for r in every[:3])
    _best, _line, _positions, found = core.blind_search(
        piles, removed, 150, hand, 5_000, True, 0, WEIGHTS, room
    )
    few: list = []
    blindplayer.search(request, few, reveal_moves=room)
    kept = [r for r in every if r.line == every[0].line or r in few]
    assert few[:3] == every[:3] and sum(len(r.line) for r in few) <= room and few == kept
    assert [(score, tuple(native.action(*a) for a in line)) for score, line, *_ in found] == [
        (r.score, r.line) for r in few
    ]
    assert core.blind_search(piles, removed, 150, hand, 5_000, True, 0, WEIGHTS, 0)[3] is None
    with pytest.raises(ValueError, match="the reveals' moves to keep are 0 or more"):
        core.blind_search(piles, removed, 150, hand, 5_000, True, 0, WEIGHTS, -1)
