"""The judge of sampled worlds on the compiled core (csrc/judge.c) against the Python
reference (spider_cli.analysis.chance.judge): the same commitments in the same order, and
the same halving (worlds, counts, cap and choice) on random positions of blind play; its
entry points refuse bad input clearly; the judge level plays on the bench. Skipped where
the core was not built; CI builds it and requires it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis import native
from spider_cli.analysis.bench import blind
from spider_cli.analysis.blind import Draw, seed_of
from spider_cli.analysis.blind.view import PlayerView, view_of
from spider_cli.analysis.chance import judge
from spider_cli.analysis.chance.search import Level, player_key
from spider_cli.analysis.compact import FACE_DOWN, Start
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.search import beam
from spider_cli.analysis.solve import WIDTHS
from spider_cli.cli.main import main
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import PILES
from tests.analysis.test_core_garbage import BIG, NEAR_CARDS, SETTINGS, _call, garbage_piles
from tests.helpers import play_randomly

core = native._load()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")
COMPILED = native.Core(core) if core is not None else None
"""The core's path, whatever SPIDER_PURE says (these tests compare it with Python's)."""


def some_view(number: int, suits: int, moves: int, seed: int) -> PlayerView:
    """The player's view some random legal moves into our deal ``number``."""
    return view_of(play_randomly(DealSource.parse(str(number), suits).game(), moves, seed))


def on_the_core(piles: tuple[bytes, ...], removed: int, hand: int, most: int) -> tuple:
    assert COMPILED is not None
    found, positions = COMPILED.judge_commitments(piles, removed, hand, most)
    return [judge.Commitment(line, judge.ACTS[act], after) for act, line, after in found], positions


@settings(max_examples=80, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 120),
    st.integers(0, 2**32),
    st.sampled_from((1, 3, 40, 2_000)),
)
def test_the_commitments_are_the_same_on_both_paths(
    number: int, suits: int, moves: int, seed: int, most: int
) -> None:
    view = some_view(number, suits, moves, seed)
    piles, removed = view.piles(), len(view.removed)
    for hand in {view.hand, 0}:
        assert on_the_core(piles, removed, hand, most) == judge.commitments(
            piles, removed, hand, most
        )


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 80),
    st.integers(0, 2**32),
    st.integers(1, 12),
    st.sampled_from(((30,), (200, 3_000), (1_000,), (50, 500, 5_000))),
    st.sampled_from((0.0, 1.0, 1.5)),
    st.integers(2, 6),
    st.sampled_from((0, 1, 300, 1_000)),
)
def test_the_halving_is_the_same_on_both_paths(
    number: int,
    suits: int,
    moves: int,
    seed: int,
    samples: int,
    caps: tuple[int, ...],
    margin: float,
    lines_kept: int,
    dense: int,
) -> None:
    """Small budgets: the core chooses the same commitment with the same wins, counts,
    positions, cap and scores (binary, and dense of several weights) as
    :func:`judge.halving` on the same worlds."""
    assert COMPILED is not None
    view = some_view(number, suits, moves, seed)
    found, _ = judge.commitments(view.piles(), len(view.removed), view.hand, 200)
    lines = [c.line for c in found][:lines_kept]
    if not lines:
        return
    reference = judge.halving(view, lines, samples, caps, margin, dense=dense)
    draw = Draw(
        view.piles(), len(view.removed), view.hand // PILES, tuple(view.unseen()), seed_of(view)
    )
    got = COMPILED.judge_search(draw, lines, samples, caps, WIDTHS, margin, dense=dense)
    assert got == (
        reference.chosen,
        reference.wins,
        reference.counts,
        reference.positions,
        reference.cap,
        reference.scores,
    )
    low = 1 if dense >= 300 else 0  # (every position has 60 cards face up or more)
    scored = zip(reference.scores, reference.counts, strict=True)
    assert all(low * n <= s <= judge.SCALE * n for s, n in scored)


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(20, 80),
    st.integers(0, 2**32),
    st.booleans(),
    st.sampled_from((WIDTHS, (16,), (4, 64))),
    st.sampled_from((0, 500)),
)
def test_the_halving_is_the_same_where_worlds_are_won(
    number: int, moves: int, seed: int, strict: bool, widths: tuple[int, ...], dense: int
) -> None:
    """One suit, caps that win worlds, the lines in reverse (the player's own a random one):
    the rounds of halving run, and another line is chosen at times, on both paths alike."""
    view = some_view(number, 1, moves, seed)
    found, _ = judge.commitments(view.piles(), len(view.removed), view.hand, 200)
    lines = [c.line for c in found][:6][::-1]
    if not lines:
        return
    margin = 1.0 if strict else 0.0
    with native.pure():
        reference = judge.weigh(view, lines, 12, (3_000, 20_000), margin, widths, dense)
    assert judge.weigh(view, lines, 12, (3_000, 20_000), margin, widths, dense) == reference


def test_a_late_position_is_judged_alike_on_both_paths() -> None:
    view = some_view(5, 1, 40, 7)
    found, _ = judge.commitments(view.piles(), len(view.removed), view.hand)
    lines = [c.line for c in found][:5]
    with native.pure():
        reference = judge.weigh(view, lines, 24, (2_000, 20_000), 0.0)
    assert judge.weigh(view, lines, 24, (2_000, 20_000), 0.0) == reference
    assert reference.wins == (7, 5, 2, 1, 1) and reference.counts == (7, 7, 3, 1, 1)


VIEW = (b"\x40\x01", b"\x40\x02", *((b"\x40\x0d",) * 8))
"""Ten piles of one face-down card under an Ace, a Two, and eight Kings."""
UNSEEN = bytes(suit + rank for suit in (0, 16) for rank in range(3, 13))
"""The unseen cards: ten face-down, a row in the hand."""


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((VIEW, 9, 10, 100), ValueError),
        ((VIEW, 0, -1, 100), ValueError),
        ((VIEW, 0, 10, 0), ValueError),
        ((VIEW, 0, 10, 10**8), ValueError),
        (((b"\x41\x01", *VIEW[1:]), 0, 10, 100), ValueError),  # a known face-down card
        (("x" * 10, 0, 10, 100), TypeError),
        (((b"\x01" * 105, *VIEW[1:]), 0, 10, 100), ValueError),
    ],
)
def test_the_closure_refuses_bad_input_clearly(args: tuple, error: type[Exception]) -> None:
    with pytest.raises(error):
        core.judge_commitments(*args)


MOVE = [(0, 0, 1, 1)]  # the Ace onto the Two: it turns a card up
GOOD = (VIEW, 0, 1, UNSEEN, [MOVE], 7, 4, (100,), (4,), 400, 150, None)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({4: []}, ValueError),  # no line
        ({4: [MOVE] * 65}, ValueError),
        ({4: [[(0, 1, 0, 1)]]}, ValueError),  # a Two onto an Ace
        ({4: [[*MOVE, (0, 1, 0, 1)]]}, ValueError),  # on past the card turned up
        ({4: [[(2, 0, 0, 0), (0, 0, 1, 1)]]}, ValueError),  # a deal not last
        ({2: 0, 3: UNSEEN[:10], 4: [[(2, 0, 0, 0)]]}, ValueError),  # a deal, no row
        ({4: [[(0, 0, 1)]]}, TypeError),
        ({4: [["move"]]}, TypeError),
        ({3: UNSEEN[:19]}, ValueError),  # the unseen cards do not fill the places
        ({6: 0}, ValueError),
        ({7: ()}, ValueError),
        ({7: (0,)}, ValueError),
        ({7: (1,) * 9}, ValueError),
        ({8: (0,)}, ValueError),
        ({9: 0}, ValueError),
        ({10: -1}, ValueError),
        ({2: 11}, ValueError),
    ],
)
def test_the_judge_refuses_bad_input_clearly(change: dict, error: type[Exception]) -> None:
    args = [change.get(i, a) for i, a in enumerate(GOOD)]
    with pytest.raises(error):
        core.judge_search(*args)


def test_the_judge_answers_a_small_position() -> None:
    chosen, wins, counts, positions, cap, stopped, scores = core.judge_search(*GOOD)
    assert (chosen, len(wins), counts, cap, stopped) == (0, 1, [4], 100, False)
    assert scores == [judge.SCALE * w for w in wins]  # (no dense score: only wins count)
    assert 0 < positions <= 4 * 2 * 100  # (a beam stops within a level of its cap)


def test_the_judge_level_plays_on_the_bench_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(blind, "MAX_MOVES", 3)
    db = str(tmp_path / "judge.sqlite")
    argv = ["bench", "--blind", "--level", "judge", "--budget", "200", "--suits", "1"]
    argv += ["--seeds", "3", "--jobs", "1", "--db", db, "--json"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["limits"]["level"] == "judge" and first["played"] == 1
    assert main(argv) == 0  # from the file: nothing played again
    assert json.loads(capsys.readouterr().out)["deals"] == first["deals"]
    assert player_key(Level.JUDGE, 200, 1) != player_key(Level.QUICK, 200, 1)


@SETTINGS
@given(garbage_piles(), st.data())
def test_the_judge_refuses_garbage_clearly(piles: tuple[bytes, ...], data: Any) -> None:
    """Garbage positions, numbers, cards and lines: refused (ValueError, TypeError,
    OverflowError) or answered, never a crash."""
    number, small = data.draw(BIG), data.draw(st.integers(-2, 12))
    action = data.draw(
        st.tuples(st.integers(-1, 3), st.integers(-1, 10), st.integers(-1, 10), st.integers(-1, 14))
    )
    unseen = bytes(data.draw(st.lists(NEAR_CARDS, max_size=60)))
    _call(core.judge_commitments, piles, small, small * 10, 50)
    _call(core.judge_commitments, piles, 0, number, number)
    lines = data.draw(st.sampled_from(([[action]], [[action], [(2, 0, 0, 0)]], [[action] * 3])))
    caps = data.draw(st.sampled_from(((50,), (number,), (), (50, number))))
    widths = data.draw(st.sampled_from(((4,), (number,), (4, 16), ())))
    _call(
        core.judge_search,
        piles,
        small,
        small % 6,
        unseen,
        lines,
        number,
        3,
        caps,
        widths,
        50,
        150,
        None,
    )
    _call(
        core.judge_search, piles, 0, 0, unseen, lines, 0, number, (50,), (4,), small, number, None
    )


def test_a_suit_comes_off_only_where_a_row_could_still_be_dealt() -> None:
    """A complete suit on a small tableau: with a row in the hand it stays (fewer than ten
    cards would be left to deal onto), with none it is a commitment; alike on both paths."""
    suit = bytes(range(13, 0, -1))
    few = (suit, *((b"",) * 9))
    more = (suit, *(bytes([FACE_DOWN, 16 + r]) for r in range(5, 14)))
    for piles, hand, removal in ((few, 10, False), (few, 0, True), (more, 10, True)):
        found, positions = judge.commitments(piles, 0, hand)
        assert on_the_core(piles, 0, hand, judge.CLOSURE) == (found, positions)
        assert any(c.act is judge.Act.REMOVE for c in found) == removal


def test_the_judge_stops_at_the_ceiling_it_is_given() -> None:
    """Both entry points hold their searches under the byte ceiling they are given (a
    MemoryError saying so), and answer with room."""
    view = some_view(11, 4, 10, 3)
    piles, removed = view.piles(), len(view.removed)
    with pytest.raises(MemoryError, match="memory ceiling of 4096 bytes"):
        core.judge_commitments(piles, removed, view.hand, 100_000, 4096)
    draw = (piles, removed, view.hand // PILES, bytes(view.unseen()))
    found, _ = judge.commitments(piles, removed, view.hand, 50)
    lines = [[native.code(a) for a in c.line] for c in found[:2]]
    args = (*draw, lines, 1, 4, (10**6,), (256,), 400, 150, None)
    with pytest.raises(MemoryError, match="memory ceiling of 4096 bytes"):
        core.judge_search(*args, 4096)
    assert core.judge_search(*args[:7], (50,), *args[8:])[5] is False


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 80),
    st.integers(0, 2**32),
    st.sampled_from((1, 4, 16)),
    st.integers(1, 3_000),
)
def test_the_beam_reports_the_same_progress_on_both_paths(
    number: int, suits: int, moves: int, seed: int, width: int, cap: int
) -> None:
    """The most progress the beam reached (the judge's dense score) is the same on the core
    and the Python reference, at least the start's, at most the bound."""
    assert COMPILED is not None
    view = some_view(number, suits, moves, seed)
    piles, rows = judge.world(view, seed_of(view), 0)
    start = Start(piles, tuple(tuple(r) for r in rows), tuple(range(len(view.removed))))
    got = COMPILED.beam_best(start, width, Limit(cap))
    assert got == beam.beam_best(start, width, Limit(cap))
    assert beam.progress(piles, len(view.removed)) <= got[2] <= beam.PROGRESS


def test_a_world_scores_its_progress_unless_won() -> None:
    assert judge.score(judge.Verdict(True, 5, 10), 0) == judge.SCALE
    assert judge.score(judge.Verdict(False, 5, beam.PROGRESS), 1_000) == judge.SCALE
    assert judge.score(judge.Verdict(False, 5, 104), 500) == 500 * 104 // beam.PROGRESS
    assert judge.score(judge.Verdict(False, 5, 104), 0) == 0


def test_beats_weighs_the_paired_differences() -> None:
    assert judge.beats([1, 1, 1, 0], [0, 0, 0, 0], 1.5)  # 3 discordant: 3 >= 1.5 * 3**0.5
    assert not judge.beats([1, 1, 0, 0], [0, 0, 1, 0], 1.5)  # a lead of 1
    assert judge.beats([900, 900, 900, 900], [400, 400, 400, 400], 1.5, 1_000)
    assert not judge.beats([1_000, 0, 1_000, 0], [0, 1_000, 0, 100], 1.5, 1_000)
