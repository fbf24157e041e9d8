"""The compiled core (csrc/) against the Python reference: the same moves, children, keys and
values on random reachable positions, the same beam searches, and clear errors (never a crash)
on bad input. Skipped where the core was not built; CI builds it and requires it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis import compact, native
from spider_cli.analysis.compact import FACE_DOWN, State
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.search import beam
from spider_cli.analysis.solve import autoplay
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import DEAL, Deal, Move, Remove
from tests.helpers import reachable

core = native._load()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")
COMPILED = native.Core(core) if core is not None else native.PYTHON
"""The core's path, whatever SPIDER_PURE says (these tests compare it with Python's)."""


_reachable = reachable


positions = st.builds(
    lambda n, suits, moves, seed, hidden: (
        compact.encode(_reachable(n, suits, moves, seed, hidden)).piles
    ),
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 120),
    st.integers(0, 2**32),
    st.booleans(),
)


def _removed_fits(piles: State, most: int) -> int:
    """Up to ``most`` suits removed that the position's cards leave room for (the core
    refuses more than two decks hold)."""
    ranks = [sum(1 for p in piles for c in p if c & 15 == r) for r in range(1, 14)]
    return min(most, 8 - max(ranks), (104 - sum(map(len, piles))) // 13)


def _python_actions(piles: State, spaces: list[int], whole: bool) -> list[tuple[int, ...]]:
    return [native.code(a) for a in compact.actions(piles, spaces, whole)]


@settings(max_examples=150, deadline=None)
@given(positions, st.booleans(), st.booleans())
def test_moves_are_the_same_on_both_paths(piles: State, first_only: bool, whole: bool) -> None:
    spaces = [i for i, p in enumerate(piles) if not p]
    if first_only:
        spaces = spaces[:1]
    assert core.actions(piles, spaces, whole) == _python_actions(piles, spaces, whole)


@settings(max_examples=150, deadline=None)
@given(positions)
def test_children_keys_and_values_are_the_same(piles: State) -> None:
    spaces = [i for i, p in enumerate(piles) if not p]
    removed = _removed_fits(piles, 3)
    assert core.rank_key(piles, removed) == compact.rank_key(piles, removed)
    packed, digest = core.state_key(piles)
    assert packed == b"".join(bytes((len(p),)) + p for p in piles)
    assert core.state_key(tuple(bytes(p) for p in piles)) == (packed, digest)
    for action in compact.actions(piles, spaces):
        new, turned, outcome = compact.apply(piles, action)
        assert core.apply(piles, native.code(action)) == (new, turned, outcome)
        assert core.apply_undo(piles, native.code(action)) == list(piles)
        after = _removed_fits(tuple(new), 1)
        assert core.rank_key(new, after) == compact.rank_key(tuple(new), after)


def test_the_codes_of_actions_go_both_ways() -> None:
    for act in (Move(3, 9, 4), Remove(7), DEAL):
        assert native.action(*native.code(act)) == act
    assert isinstance(native.action(2, 0, 0, 0), Deal)


def test_a_removal_turns_up_the_card_under_it_and_undo_puts_the_suit_back() -> None:
    spades = bytes(range(13, 0, -1))
    piles = (bytes((FACE_DOWN + 20,)) + spades, *(b"",) * 9)
    new, turned, outcome = core.apply(piles, (1, 0, 0, 13))
    assert (new[0], turned, outcome) == (bytes((20,)), 0, 1)
    assert core.apply_undo(piles, (1, 0, 0, 13)) == list(piles)
    unknown = (bytes((FACE_DOWN,)) + spades, *(b"",) * 9)
    assert core.apply(unknown, (1, 0, 0, 13)) == compact.apply(unknown, Remove(0))


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 60),
    st.integers(0, 2**32),
    st.sampled_from((1, 2, 4, 16)),
    st.integers(1, 3_000),
    st.one_of(st.sampled_from((0, 1)), st.integers(2, 2**32 - 1)),
)
def test_a_beam_search_is_the_same_on_both_paths(
    number: int, suits: int, moves: int, seed: int, width: int, budget: int, ties: int
) -> None:
    """(Ties broken every way: the second stage's portfolio uses the others.)"""
    start = compact.encode(_reachable(number, suits, moves, seed, hidden=False))
    found = COMPILED.beam(start, width, Limit(budget), ties)
    assert native.PYTHON.beam(start, width, Limit(budget), ties) == found


@pytest.mark.parametrize("width", [4, 64])
def test_ties_broken_another_way_make_another_beam(width: int) -> None:
    """Each tie-break (found last, two shuffles) is the same on both paths and makes a beam
    of its own."""
    start = compact.encode(DealSource.parse("pysol:3", 4).game())
    beams = [COMPILED.beam(start, width, Limit(20_000))]
    for ties in (beam.FOUND_LAST, 2, 3):
        beams.append(COMPILED.beam(start, width, Limit(20_000), ties))
        assert native.PYTHON.beam(start, width, Limit(20_000), ties) == beams[-1]
    assert len({repr(b) for b in beams}) == len(beams)


@pytest.mark.parametrize("ties", [-1, 2**32, 2**70])
def test_a_tie_break_out_of_range_is_refused_on_both_paths(ties: int) -> None:
    start = compact.encode(DealSource.parse("pysol:3", 4).game())
    for path in (COMPILED, native.PYTHON):
        with pytest.raises((ValueError, OverflowError)):
            path.beam(start, 4, Limit(100), ties)


@pytest.mark.parametrize("suits", [1, 4])
def test_full_information_play_is_the_same_on_both_paths(suits: int) -> None:
    game = DealSource.parse("3", suits).game()
    played = autoplay.play(game, Limit(60_000))
    with native.pure():
        assert autoplay.play(game, Limit(60_000)) == played
    assert played.won and played.positions > 0


def test_ctrl_c_and_the_clock_stop_the_core_beam() -> None:
    start = compact.encode(DealSource.parse("12", 4).game())
    calls = []

    def expired() -> bool:
        calls.append(1)
        return len(calls) >= 3

    line, positions = core.beam(start.piles, start.rows, 0, 64, 10**9, 400, expired)
    assert line is None and len(calls) == 3 and positions > 0

    def interrupt() -> bool:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        core.beam(start.piles, start.rows, 0, 64, 10**9, 400, interrupt)


EMPTY = (b"",) * 10


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: core.actions((b"",) * 9, []), ValueError),
        (lambda: core.actions("0123456789", []), TypeError),
        (lambda: core.actions(EMPTY, [11]), ValueError),
        (lambda: core.actions((b"\x01" * 60, b"\x02" * 60, *EMPTY[2:]), []), ValueError),
        (lambda: core.actions((b"\xff", *EMPTY[1:]), []), ValueError),
        (lambda: core.apply((b"\x05", *EMPTY[1:]), (0, 0, 1, 2)), ValueError),
        (lambda: core.apply((b"\x05", *EMPTY[1:]), (0, 0, 0, 1)), ValueError),
        (lambda: core.apply((b"\x05", *EMPTY[1:]), (1, 0, 0, 13)), ValueError),
        (lambda: core.apply((b"\x05", *EMPTY[1:]), (7, 0, 1, 1)), ValueError),
        (lambda: core.apply((b"\x05", *EMPTY[1:]), (0, 0, 10, 1)), ValueError),
        (lambda: core.apply((b"\x05", *EMPTY[1:]), "move"), TypeError),
        (lambda: core.beam(EMPTY, [], 0, 0, 100, 10, None), ValueError),
        (lambda: core.beam(EMPTY, [], 0, 4, -1, 10, None), ValueError),
        (lambda: core.beam(EMPTY, [[1] * 9], 0, 4, 100, 10, None), ValueError),
        (lambda: core.beam(EMPTY, [[0] * 10], 0, 4, 100, 10, None), ValueError),
        (lambda: core.beam(EMPTY, [[1] * 10] * 11, 0, 4, 100, 10, None), ValueError),
        (lambda: core.beam((b"\x40", *EMPTY[1:]), [], 0, 4, 100, 10, None), ValueError),
        (lambda: core.beam(EMPTY, [], 9, 4, 100, 10, None), ValueError),
    ],
)
def test_bad_input_is_refused_clearly(call, error) -> None:
    with pytest.raises(error):
        call()


def test_limits_at_the_edges_of_64_bits_are_taken_as_they_come() -> None:
    start = compact.encode(DealSource.parse("5", 1).game())
    for budget in (0, 1, 2**63 - 1, 10**30):
        line, positions = core.beam(start.piles, start.rows, 0, 4, budget, 400, None)
        assert positions >= 1
        assert (line is None) == (budget < 1000)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 120),
    st.integers(0, 2**32),
    st.booleans(),
)
def test_each_copy_of_the_rules_agrees_with_the_next(
    number: int, suits: int, moves: int, seed: int, hidden: bool
) -> None:
    """The rules are written three times: the engine (``Game``), the searches' compact
    positions (the Python path) and moves.c (the core). From positions deep into deals the
    engine's moves and removals are compact's, each leading to the position the engine
    reaches, and compact's are the core's, in the same order, with the same results."""
    game = _reachable(number, suits, moves, seed, hidden)
    piles = compact.encode(game).piles
    spaces = [i for i, p in enumerate(piles) if not p]
    python, compiled = native.PYTHON, COMPILED
    found = python.moves(piles, spaces)
    assert set(found) == {a for a in game.legal_moves() if not isinstance(a, Deal)}
    assert compiled.moves(piles, spaces) == found
    for action in found:
        new, turned, outcome = python.apply(piles, action)
        assert compiled.apply(piles, action) == (new, turned, outcome)
        after = game.copy()
        after.push(action)
        reached = compact.encode(after).piles
        if outcome == compact.REVEAL:  # the engine turns up an unknown card, compact stops
            assert reached[turned][:-1] == new[turned][:-1]
            new[turned] = reached[turned]
        assert tuple(new) == reached


def test_a_compiled_search_lets_other_threads_run() -> None:
    """A search on the core holds the GIL, but lets it go now and then: the board's count of
    seconds (a thread) goes on while ``solve`` runs (it stood still before)."""
    import threading

    start = compact.encode(DealSource.parse("pysol:335", 4).game())
    ticks = 0
    done = threading.Event()

    def tick() -> None:
        nonlocal ticks
        while not done.wait(0.02):
            ticks += 1

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        COMPILED.beam(start, 1024, Limit(1_500_000), 2)
    finally:
        done.set()
        ticker.join()
    assert ticks >= 3
