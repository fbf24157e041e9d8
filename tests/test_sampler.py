"""The sampling player (spider_cli.analysis.sampler): rollouts the same on both paths, samples
that hold exactly the unseen cards, the player view alone, and the same choice every time."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from randomplay import play_randomly

from spider_cli.analysis import blind, blindplayer, native, sampler
from spider_cli.analysis.blind import PlayerView, view_of
from spider_cli.analysis.blindplayer import WEIGHTS, Mode
from spider_cli.analysis.compact import FACE_DOWN, State, encode
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import Game

core = native._load()
needs_core = pytest.mark.skipif(core is None, reason="the compiled core is not built")

SEARCHES = st.lists(
    st.tuples(st.booleans(), st.sampled_from((0, 3, 30))), min_size=1, max_size=3
).map(tuple)


def _played(number: int, suits: int, moves: int, seed: int) -> Game:
    return play_randomly(DealSource(Source.OURS, number, suits).game(), moves, seed)


def _view(number: int, suits: int, moves: int, seed: int) -> PlayerView:
    return view_of(_played(number, suits, moves, seed))


@needs_core
@settings(max_examples=8, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 120),
    st.integers(0, 2**32),
    st.integers(0, 150),
    SEARCHES,
    st.sampled_from((0, 1, 7, 40, sampler.MAX_MOVES)),
)
def test_rollouts_are_the_same_on_both_paths(
    number: int,
    suits: int,
    moves: int,
    seed: int,
    budget: int,
    searches: tuple[tuple[bool, int], ...],
    horizon: int,
) -> None:
    start = encode(_played(number, suits, moves, seed))
    policy = sampler.Policy(budget, searches, horizon)
    removed = len(start.removed)
    played = sampler.rollout(start.piles, start.rows, removed, policy)
    assert played == sampler.rollout_python(start.piles, start.rows, removed, policy)
    assert played.moves <= horizon
    turns = 3 * (played.moves + 1)  # each plays a move, deals, or changes what a space is worth
    assert played.positions <= budget * len(searches) * turns


def test_a_rollout_wins_a_won_position_at_once_and_counts_what_is_left() -> None:
    done = tuple(bytes(range(13, 0, -1)) if i < 8 else b"" for i in range(10))
    outcome = sampler.rollout(done, (), 0, sampler.Policy(100))
    piles = 8 * (blindplayer.CLEAR + 12 * blindplayer.SUITED) + 2 * Mode.KEEP.value
    assert outcome == sampler.Outcome(True, 8, 0, 0, 0, 0, 0, piles)
    assert outcome.score == sampler.WON + outcome.value
    start = encode(DealSource(Source.OURS, 3, 1).game())
    lost = sampler.rollout_python(start.piles, start.rows, 0, sampler.Policy(0))
    assert not lost.won and lost.down == 44 and lost.hand == 0  # no move found: every row dealt
    assert lost.moves == 5 and lost.score == lost.value < 0
    assert sampler.rollout_python(start.piles, start.rows, 0, sampler.Policy(0, moves=2)).hand == 30


def test_a_rollout_plans_on_the_view_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[State] = []
    real = sampler.decide

    def spy(piles: State, *args: object) -> blindplayer.Decision:
        given.append(piles)
        return real(piles, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(sampler, "decide", spy)
    start = encode(DealSource(Source.OURS, 9, 4).game())
    sampler.rollout_python(start.piles, start.rows, 0, sampler.Policy(60, moves=20))
    assert given and all(byte <= FACE_DOWN for piles in given for pile in piles for byte in pile)
    assert sum(pile.count(FACE_DOWN) for pile in given[0]) == 44


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([1, 2, 4]),
    st.integers(0, 60),
    st.integers(0, 2**32),
    st.integers(0, 2**64 - 1),
)
def test_every_sample_holds_the_unseen_cards_and_agrees_with_the_view(
    seed: int, suits: int, moves: int, pick: int, sample_seed: int
) -> None:
    view = view_of(play_randomly(Game.new(seed, suits), moves, pick))
    for game in sampler.samples(view, 3, sample_seed):
        hidden = [c for p, d in zip(game.piles, game.down, strict=True) for c in p[:d]]
        assert Counter(hidden + game.stock) == Counter(view.unseen())
        assert view_of(game) == view  # every face-up card, count and removed suit as seen


SMALL = sampler.Sampling(3, sampler.Policy(40))


@needs_core
@pytest.mark.parametrize(("number", "suits", "moves"), [(0, 4, 0), (12, 4, 25), (4, 2, 40)])
def test_the_choice_is_the_same_every_time_and_on_both_paths(
    number: int, suits: int, moves: int
) -> None:
    view = _view(number, suits, moves, number)
    chosen = sampler.choose(view, Mode.KEEP, 300, SMALL)
    assert sampler.choose(view, Mode.KEEP, 300, SMALL) == chosen
    with native.pure():
        assert sampler.choose(view, Mode.KEEP, 300, SMALL) == chosen


def test_the_choice_weighs_lines_that_turn_a_card_up_by_rollouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rolled: list[int] = []
    real = sampler.rollout

    def counted(*args: object) -> sampler.Outcome:
        outcome = real(*args)  # type: ignore[arg-type]
        rolled.append(outcome.positions)
        return outcome

    monkeypatch.setattr(sampler, "rollout", counted)
    view = _view(0, 4, 0, 0)
    turn = sampler.choose(view, Mode.KEEP, 300, SMALL)
    piles = blindplayer.compact_view(view)
    plain = blindplayer.decide(piles, 0, view.hand, Mode.KEEP, 300, view.unseen())
    assert rolled and len(rolled) % SMALL.samples == 0  # every line on every sample
    assert turn.positions == plain.positions + sum(rolled)
    assert turn.kind is plain.kind is blindplayer.Kind.LINE and turn.mode is plain.mode
    assert blindplayer._first_reveal(piles, turn.line)
    assert {c.line for c in plain.candidates} <= {c.line for c in turn.candidates}


def test_the_blind_players_line_stands_unless_the_samples_clearly_beat_it() -> None:
    base = [10, 20, 30, 40]
    noisy = [110, -60, 130, 0]  # better on average (+15), but by less than two standard errors
    steady = [15, 26, 34, 47]  # better by 5.5 on every sample
    assert sampler._pick([base, noisy], 2.0) == 0
    assert sampler._pick([base, noisy], 0.0) == 1  # (no margin: the best mean)
    assert sampler._pick([base, noisy, steady], 2.0) == 2
    assert sampler._pick([base, [c - 1 for c in base]], 0.0) == 0
    assert sampler._pick([base, base], 0.0) == 0  # a tie keeps the blind player's line
    assert sampler._pick([[5], [9]], 2.0) == 0  # one sample gives no spread: never sure
    assert sampler._pick([[5], [9]], 0.0) == 1


def test_the_sampling_player_is_given_only_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[object] = []
    real = sampler.choose

    def spy(view: object, *args: object) -> blindplayer.Decision:
        given.append(view)
        return real(view, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(sampler, "choose", spy)
    monkeypatch.setattr(blind, "MAX_MOVES", 12)
    table = blind.Table(DealSource(Source.OURS, 7, 4))
    first = blind.play_blind(table, 200, SMALL)
    assert given and all(type(view) is PlayerView for view in given)
    assert blind.play_blind(blind.Table(DealSource(Source.OURS, 7, 4)), 200, SMALL) == first


@needs_core
@pytest.mark.parametrize(
    ("args", "error"),
    [
        (((b"\x40",) + (b"",) * 9, (), 0, 10, ((True, 0),), WEIGHTS, 10), ValueError),
        (((b"",) * 10, (), 9, 10, ((True, 0),), WEIGHTS, 10), ValueError),
        (((b"",) * 10, (), 0, 10, (), WEIGHTS, 10), ValueError),
        (((b"",) * 10, (), 0, 10, ((True, 0),) * 4, WEIGHTS, 10), ValueError),
        (((b"",) * 10, (), 0, 10, ((True, -1),), WEIGHTS, 10), ValueError),
        (((b"",) * 10, (), 0, 10, ((True,),), WEIGHTS, 10), TypeError),
        (((b"",) * 10, (), 0, -1, ((True, 0),), WEIGHTS, 10), ValueError),
        (((b"",) * 10, (), 0, 10, ((True, 0),), WEIGHTS, -1), ValueError),
        (((b"",) * 10, ((1,) * 9,), 0, 10, ((True, 0),), WEIGHTS, 10), ValueError),
        (((b"\x0e",) + (b"",) * 9, (), 0, 10, ((True, 0),), WEIGHTS, 10), ValueError),
    ],
)
def test_bad_input_is_refused_clearly(args: tuple, error: type[Exception]) -> None:
    with pytest.raises(error):
        core.blind_game(*args)
