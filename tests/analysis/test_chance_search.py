"""The search over what turns up (spider_cli.analysis.chance.search): rollouts and the search
the same on both paths, samples that hold exactly the unseen cards, the player's view alone,
the same choice every time, and bad input refused by the core."""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis import native
from spider_cli.analysis.bench import blind
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind import rollouts, weighing
from spider_cli.analysis.blind.evaluation import STANDARD, weights_for
from spider_cli.analysis.blind.player import Mode, Turn
from spider_cli.analysis.blind.rollouts import (
    WON,
    Outcome,
    Playout,
    Policy,
    WinModel,
    features,
    rows_of,
    sample,
)
from spider_cli.analysis.blind.view import PlayerView, view_of
from spider_cli.analysis.blind.weighing import Draw, Effort, Line, Weighed
from spider_cli.analysis.chance import levels
from spider_cli.analysis.chance import search as chancesearch
from spider_cli.analysis.chance.search import Level
from spider_cli.analysis.compact import FACE_DOWN, State, encode
from spider_cli.analysis.limits import Expired, Limit
from spider_cli.app.words.notes import unused_text
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import DEAL, Game
from tests.helpers import play_randomly

core = native._load()
needs_core = pytest.mark.skipif(core is None, reason="the compiled core is not built")

SEARCHES = st.lists(
    st.tuples(st.booleans(), st.sampled_from((0, 3, 30))), min_size=1, max_size=3
).map(tuple)

TINY = Policy(60, ((True, 10),), turns=2)
"""A rollout cheap enough for the Python path in a test."""


def rollout(
    piles: State, rows: tuple[bytes, ...], removed: int, policy: Policy, record: bool = False
) -> Outcome:
    """A rollout on the path in use."""
    return native.backend().rollout(Playout(piles, rows, removed, policy, record))


def rollout_python(
    piles: State, rows: tuple[bytes, ...], removed: int, policy: Policy, record: bool = False
) -> Outcome:
    """The Python rollout (the reference), each of its searches on the path in use."""
    search = native.backend().blind_search
    return rollouts.rollout(search, Playout(piles, rows, removed, policy, record))


def _search(
    draw: Draw, lines: Sequence[Line], effort: Effort, expired: Expired | None = None
) -> Weighed:
    """The chance search on the path in use."""
    return native.backend().chance_search(draw, lines, effort, expired)


def _draw(view: PlayerView, seed: int) -> Draw:
    """What the search samples from ``view``, with ``seed``."""
    return Draw(view.piles(), len(view.removed), view.hand // 10, tuple(view.unseen()), seed)


def _played(number: int, suits: int, moves: int, seed: int) -> Game:
    return play_randomly(DealSource(Source.OURS, number, suits).game(), moves, seed)


def _view(number: int, suits: int, moves: int, seed: int) -> PlayerView:
    return view_of(_played(number, suits, moves, seed))


# ---------------------------------------------------------------------------------------------
# Rollouts and the features


@needs_core
@settings(max_examples=8, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 120),
    st.integers(0, 2**32),
    st.integers(0, 150),
    SEARCHES,
    st.sampled_from((0, 1, 7, 40, rollouts.MAX_MOVES)),
    st.sampled_from((0, 1, 3)),
    st.booleans(),
)
def test_rollouts_are_the_same_on_both_paths(
    number: int,
    suits: int,
    moves: int,
    seed: int,
    budget: int,
    searches: tuple[tuple[bool, int], ...],
    horizon: int,
    turns: int,
    record: bool,
) -> None:
    start = encode(_played(number, suits, moves, seed))
    policy = Policy(budget, searches, horizon, turns)
    removed = len(start.removed)
    played = rollout(start.piles, start.rows, removed, policy, record)
    assert played == rollout_python(start.piles, start.rows, removed, policy, record)
    assert played.moves <= horizon
    assert not turns or played.turns <= turns
    if record:
        assert played.log is not None and len(played.log) == played.turns
        if played.turns:  # (a horizon of 0 moves begins no turn)
            assert played.log[0] == features(start.piles, removed, len(start.rows))
    steps = 3 * (played.moves + 1)  # each plays a move, deals, or changes what a space is worth
    assert played.positions <= budget * len(searches) * steps


def test_a_rollout_wins_a_won_position_at_once_and_counts_what_is_left() -> None:
    done = tuple(bytes(range(13, 0, -1)) if i < 8 else b"" for i in range(10))
    outcome = rollout(done, (), 0, Policy(100))
    piles = 8 * (STANDARD.clear + 12 * STANDARD.suited) + 2 * Mode.KEEP.value
    assert outcome == Outcome(True, 8, 0, 0, 0, 0, 0, piles, 0, False, done)
    assert outcome.worth(rollouts.learned(1)) == WON
    start = encode(DealSource(Source.OURS, 3, 1).game())
    lost = rollout_python(start.piles, start.rows, 0, Policy(0))
    assert not lost.won and lost.lost and lost.down == 44 and lost.hand == 0
    assert lost.moves == 5 and lost.turns == 6  # the start and a turn after each row dealt
    assert lost.worth(rollouts.learned(1)) == 0
    two = rollout_python(start.piles, start.rows, 0, Policy(0, turns=2))
    assert two.turns == 2 and two.hand == 30 and not two.lost  # two turns, each ending in a deal


def test_a_rollout_plans_on_the_view_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[State] = []
    real = rollouts.decide

    def spy(search: object, turn: Turn, *args: object) -> blindplayer.Decision:
        given.append(turn.piles)
        return real(search, turn, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(rollouts, "decide", spy)
    start = encode(DealSource(Source.OURS, 9, 4).game())
    rollout_python(start.piles, start.rows, 0, Policy(60, moves=20))
    assert given and all(byte <= FACE_DOWN for piles in given for pile in piles for byte in pile)
    assert sum(pile.count(FACE_DOWN) for pile in given[0]) == 44


def test_the_features_count_what_a_player_sees() -> None:
    piles = (
        bytes([FACE_DOWN + 5, FACE_DOWN, 0x0D, 0x0C, 0x1B, 0x2A]),  # K-Q suited, Q-J, J-10 not
        b"",
        bytes([0x05, 0x03]),  # a break
        bytes([FACE_DOWN, 0x07]),
    ) + (b"",) * 6
    f = features(piles, 1, 3)
    assert f == (1, 3, 7, 1, 1, 2, 1, 3, 2, 1)
    assert len(f) == len(rollouts.FEATURES)


def test_the_learned_value_ships_for_each_variant_and_rises_with_suits_complete() -> None:
    for suits in (1, 2, 4):
        model = rollouts.learned(suits)
        assert len(model.weights) == len(rollouts.FEATURES)
        assert "fit_value.py" in model.made_by or "hand" in model.made_by
        start = encode(DealSource(Source.OURS, 0, suits).game())
        f = features(start.piles, 0, len(start.rows))
        better = (f[0] + 2, *f[1:])
        assert 0 <= model.worth(f) <= model.worth(better) <= WON
    assert WinModel(0, (0,) * 10).worth((1,) * 10) == WON // 2


# ---------------------------------------------------------------------------------------------
# Samples


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([1, 2, 4]),
    st.integers(0, 60),
    st.integers(0, 2**32),
    st.integers(0, 2**64 - 1),
    st.integers(0, 1000),
)
def test_every_sample_holds_the_unseen_cards_and_agrees_with_the_view(
    seed: int, suits: int, moves: int, pick: int, sample_seed: int, k: int
) -> None:
    view = view_of(play_randomly(Game.new(seed, suits), moves, pick))
    game = rollouts.sampled_game(view, sample_seed, k)
    hidden = [c for p, d in zip(game.piles, game.down, strict=True) for c in p[:d]]
    assert Counter(hidden + game.hand) == Counter(view.unseen())
    assert view_of(game) == view  # every face-up card, count and removed suit as seen
    known, hand = sample(view.piles(), view.unseen(), sample_seed, k)
    assert encode(game).piles == known and b"".join(rows_of(hand)) == bytes(game.hand)


# ---------------------------------------------------------------------------------------------
# The search


def _candidates(view: PlayerView, most: int = 3) -> list[chancesearch.Line]:
    piles = view.piles()
    turn = Turn(piles, len(view.removed), view.hand, Mode.KEEP)
    decision = blindplayer.decide(native.backend().blind_search, turn, Limit(300))
    return chancesearch.candidates_of(piles, decision, view.hand, most)


@needs_core
@settings(max_examples=6, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 80),
    st.integers(0, 2**32),
    st.integers(1, 9),
    st.integers(0, 2**64 - 1),
)
def test_the_search_is_the_same_on_both_paths(
    number: int, suits: int, moves: int, seed: int, trajectories: int, sample_seed: int
) -> None:
    view = _view(number, suits, moves, seed)
    lines = _candidates(view) or [(DEAL,)] * (view.hand > 0 and all(view.piles()))
    if not lines:
        return
    draw, effort = _draw(view, sample_seed), Effort(trajectories, TINY, rollouts.learned(suits))
    assert effort.margin == weighing.MARGIN  # (by default)
    found = _search(draw, lines, effort)
    assert _search(draw, lines, effort) == found  # the same every time
    with native.pure():
        assert _search(draw, lines, effort) == found
    assert 0 <= found.chosen < len(lines) and found.counts[found.chosen] == max(found.counts)
    assert sum(found.counts) == found.trajectories
    assert all(0 <= s <= WON * c for s, c in zip(found.sums, found.counts, strict=True))


def test_the_players_own_choice_is_played_on_every_sample_and_stands_unless_beaten() -> None:
    view = _view(3, 4, 10, 3)
    lines = _candidates(view, 5)
    assert len(lines) == 6  # (five lines and the deal)
    draw, effort = _draw(view, 5), Effort(60, TINY, rollouts.learned(4), 0.0)
    found = _search(draw, lines, effort)
    others = len(lines) - 1
    rounds = max(1, (others - 1).bit_length())
    assert (
        found.counts[0]
        == max(found.counts)
        == sum(max(1, 60 // ((alive + 1) * rounds)) for alive in _halvings(others, rounds))
    )
    assert min(found.counts[1:]) == 60 // ((others + 1) * rounds)  # out after the first round
    best = max(range(1, len(lines)), key=lambda i: (found.counts[i], found.sums[i], -i))
    assert found.chosen in (0, best)
    assert (found.chosen == best) == (found.diffs[best] > 0)  # margin 0: any gain
    assert _search(draw, lines, replace(effort, margin=100.0)).chosen == 0  # never sure enough
    assert found.diffs[0] == found.squares[0] == 0


def _halvings(others: int, rounds: int) -> list[int]:
    """The candidates beside the player's own in each round of sequential halving."""
    alive, seen = others, []
    for r in range(rounds):
        seen.append(alive)
        if alive > 1 and r < rounds - 1:
            alive = (alive + 1) // 2
    return seen


def test_a_candidate_beats_the_players_own_only_by_the_margin() -> None:
    beats = weighing._beats
    assert beats(50, 50, 50, 2.0)  # +1 on every one of 50 samples: sure
    assert not beats(0, 0, 50, 0.0) and not beats(-5, 25, 5, 0.0)
    assert beats(1, 1, 2, 0.0) and not beats(10, 100, 1, 0.0)  # one sample tells no spread
    noisy = [300, -260, 310, -250]  # +25 on average, spread about 320
    d, q = sum(noisy), sum(x * x for x in noisy)
    assert beats(d, q, 4, 0.1) and not beats(d, q, 4, 2.0)


def test_the_choice_depends_on_the_view_alone_and_is_the_same_every_time() -> None:
    """The spy test: two deals that look the same to the player (the same face-up cards, the
    face-down cards and the hand dealt otherwise) get the same choice."""
    game = _played(12, 4, 25, 12)
    view = view_of(game)
    other = rollouts.sampled_game(view, 99, 0)
    assert view_of(other) == view and other.hand != game.hand
    chosen = levels.choose(view_of(game), Mode.KEEP, Limit(300), Level.QUICK)
    assert levels.choose(view_of(other), Mode.KEEP, Limit(300), Level.QUICK) == chosen
    assert chosen.weighed is not None and chosen.candidates  # it did weigh choices


def test_the_player_is_given_only_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[object] = []
    searched: list[State] = []
    real_choose = levels.choose
    path = type(native.backend())
    real_search = path.chance_search

    def spy(view: object, *args: object, **kwargs: object) -> chancesearch.Pick:
        given.append(view)
        return real_choose(view, *args, **kwargs)  # type: ignore[arg-type]

    def spy_search(self: object, draw: Draw, *args: object) -> Weighed:
        searched.append(draw.piles)
        return real_search(self, draw, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(levels, "choose", spy)
    monkeypatch.setattr(path, "chance_search", spy_search)
    monkeypatch.setattr(blind, "MAX_MOVES", 12)
    table = blind.Dealer(DealSource(Source.OURS, 7, 4))
    first = blind.play_blind(table, Limit(200), Level.QUICK)
    assert given and all(type(view) is PlayerView for view in given)
    assert searched and all(b <= FACE_DOWN for piles in searched for p in piles for b in p)
    again = blind.play_blind(blind.Dealer(DealSource(Source.OURS, 7, 4)), Limit(200), Level.QUICK)
    assert again == first


def test_the_plain_level_is_the_blind_players_own_turn() -> None:
    view = _view(4, 2, 40, 4)
    choice = levels.choose(view, Mode.KEEP, Limit(300), Level.PLAIN)
    piles = view.piles()
    assert (
        choice.played
        == choice.decision
        == blindplayer.decide(
            native.backend().blind_search,
            Turn(piles, len(view.removed), view.hand, Mode.KEEP),
            Limit(300),
            view.unseen(),
        )
    )
    assert choice.weighed is None


def test_a_clock_that_runs_out_stops_the_search_with_the_players_own_choice() -> None:
    view = _view(12, 4, 25, 12)
    lines = _candidates(view, 4)
    draw, effort = _draw(view, 5), Effort(1000, TINY, rollouts.learned(4), 0.0)
    calls = []

    def expired() -> bool:
        calls.append(1)
        return len(calls) >= 3

    for pure in (False, True):
        calls.clear()
        with native.pure() if pure else _nothing():
            found = _search(draw, lines, effort, expired)
        assert found.stopped and found.trajectories == 3 and found.chosen == 0


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def test_the_player_key_names_what_decides_the_moves() -> None:
    plain = chancesearch.player_key(Level.PLAIN, 2_000, 4)
    quick = chancesearch.player_key(Level.QUICK, 2_000, 4)
    assert plain != quick and "plain" in plain and "value" in quick and "value" not in plain
    assert chancesearch.player_key(Level.QUICK, 3_000, 4) != quick
    assert chancesearch.player_key(Level.STRONG, 2_000, 4) != quick
    two = chancesearch.player_key(Level.QUICK, 2_000, 2)
    tuned = weights_for(4) != STANDARD  # (a key names weights other than the standard ones)
    assert ("weights" in quick) == tuned and ("weights" in two) == (weights_for(2) != STANDARD)
    assert two.split(", value")[0] == quick.split(", weights" if tuned else ", value")[0]
    assert str(chancesearch.PLAYER_VERSION) in quick


# ---------------------------------------------------------------------------------------------
# The core's boundary


def _good() -> list[object]:
    view = _view(12, 4, 25, 12)
    lines = [[native.code(a) for a in line] for line in _candidates(view)]
    return [
        view.piles(),
        0,
        view.hand // 10,
        bytes(view.unseen()),
        lines,
        1,
        4,
        10,
        ((True, 0),),
        STANDARD.core(),
        1,
        50,
        rollouts.learned(4).core(),
        200,
        None,
    ]


BAD = [
    (1, 9, ValueError),  # nine suits removed
    (2, 11, ValueError),  # eleven rows
    (3, b"\x00" * 3, ValueError),  # too few unseen cards
    (4, [], ValueError),  # no candidate
    (4, [[(0, 0, 1, 99)]], ValueError),  # a move of cards the pile has not
    (4, [[(0, 0, 1, 1), (7, 0, 0, 0)]], ValueError),
    (4, [[(2, 0, 0, 0), (2, 0, 0, 0)]], ValueError),  # a deal not alone
    (4, [[(1, 0, 0, 13)]], ValueError),  # a removal of no suit
    (4, [["x"]], TypeError),
    (5, "seed", TypeError),
    (6, 0, ValueError),  # no trajectory
    (6, 10**12, ValueError),
    (8, (), ValueError),  # no search
    (10, -1, ValueError),  # turns
    (12, (0, (1,) * 9), ValueError),  # nine weights
    (12, (0, (10**9,) * 10), ValueError),  # a weight beyond a million
    (12, "value", TypeError),
    (13, -1, ValueError),  # a margin below 0
    (14, "soon", TypeError),  # a clock that cannot be called
]


@needs_core
@pytest.mark.parametrize(("place", "bad", "error"), BAD)
def test_bad_input_to_the_core_is_refused_clearly(
    place: int, bad: object, error: type[Exception]
) -> None:
    args = _good()
    core.chance_search(*args)  # (the good arguments pass)
    args[place] = bad
    with pytest.raises(error):
        core.chance_search(*args)


@needs_core
def test_a_view_with_a_known_or_misplaced_face_down_card_is_refused() -> None:
    args = _good()
    piles = list(args[0])  # type: ignore[call-overload]
    known = next(i for i, p in enumerate(piles) if p and p[0] == FACE_DOWN)
    piles[known] = bytes([FACE_DOWN + 3]) + piles[known][1:]
    with pytest.raises(ValueError, match="view"):
        core.chance_search(piles, *args[1:])
    piles = list(args[0])  # type: ignore[call-overload]
    up = next(i for i, p in enumerate(piles) if p and p[-1] < FACE_DOWN)
    piles[up] = piles[up] + bytes([FACE_DOWN])
    with pytest.raises(ValueError):
        core.chance_search(piles, *args[1:])


@needs_core
def test_garbage_never_crashes_the_search() -> None:
    rng = random.Random(7)
    args = _good()
    for _ in range(300):
        trial = list(args)
        piles = [bytes(rng.randrange(256) for _ in range(rng.randrange(8))) for _ in range(10)]
        trial[0] = piles
        trial[3] = bytes(rng.randrange(256) for _ in range(rng.randrange(60)))
        with contextlib.suppress(ValueError, TypeError):
            core.chance_search(*trial)


def test_the_value_file_names_what_made_it() -> None:
    from importlib import resources

    data = json.loads(
        resources.files("spider_cli.analysis.blind").joinpath("value.json").read_text("utf-8")
    )
    assert data["made_by"] and set(data["models"]) == {"1", "2", "4"}
    assert all(set(model["weights"]) == set(rollouts.FEATURES) for model in data["models"].values())


@pytest.mark.parametrize("pure", [False, True])
def test_ctrl_c_stops_the_search_between_games(pure: bool) -> None:
    view = _view(3, 4, 10, 3)
    lines = _candidates(view, 3)
    calls = []

    def interrupted() -> bool:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return False

    draw, effort = _draw(view, 5), Effort(500, TINY, rollouts.learned(4))
    with native.pure() if pure else _nothing(), pytest.raises(KeyboardInterrupt):
        _search(draw, lines, effort, interrupted)
    assert len(calls) == 2  # read after each game, and the first raise ends the search


def test_each_rollout_search_is_held_within_the_memory_ceiling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from spider_cli.analysis import memory

    assert rollouts.capped(Policy(2_000, turns=3), 5) == Policy(5, turns=3)
    assert rollouts.capped(Policy(2_000), 10**9) == Policy(2_000)
    start = encode(DealSource(Source.OURS, 3, 1).game())
    monkeypatch.setattr(memory, "blind_positions", lambda compiled: 5)
    capped = native.backend().rollout(Playout(start.piles, start.rows, 0, Policy(2_000, turns=1)))
    assert 0 < capped.positions <= 5 * capped.moves + 5  # each search stops at 5


def test_a_hint_looks_ahead_on_the_core_and_not_on_the_python_path() -> None:
    """On the compiled core a hint weighs its choices at the quick level; on the Python
    path, 30 times slower, it plays the plain player's move ('hint deeper' looks ahead
    there), rather than a smaller search that would move otherwise, and the note on the
    slow path says so."""
    from spider_cli.analysis import hints
    from spider_cli.app.session import Session
    from spider_cli.app.words.advice import hint_text

    if native.backend().compiled:
        session = Session.new_game(3, 4)
        advice = session.analysis.hint()
        text = hint_text(session.analysis.analysed(), advice)
        assert advice.looked is not None
        assert "looked ahead over" in text and "choices weighed" in text
        assert hints.hint_level() is Level.QUICK and hints.hint_level(True) is Level.STRONG
        assert hints.hint_level(True, Level.EXPERT) is Level.EXPERT
        assert hints.hint_level(True, Level.JUDGE) is Level.JUDGE
        assert hints.hint_level(False, Level.PLAIN) is Level.PLAIN
    with native.pure():
        slow = Session.new_game(3, 4).analysis.hint()
        assert hints.hint_level() is Level.PLAIN and hints.hint_level(True) is Level.QUICK
        assert hints.hint_level(False, Level.JUDGE) is Level.QUICK
        assert hints.hint_level(True, Level.STRONG) is Level.STRONG
    assert slow.looked is None
    assert "a hint does not look ahead" in unused_text(native.Unused(native.Reason.NOT_BUILT))
