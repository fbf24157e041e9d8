"""The value the blind player's searches maximize (spider_cli/analysis/blind/evaluation.py): each
feature counts what its docstring says, the compiled core sums the same value on random
positions and weights, the weights file reads (and a bad one is refused), and the standard
weights play today's player move for move."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis import native
from spider_cli.analysis.bench import blind
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind import rollouts
from spider_cli.analysis.blind.evaluation import (
    FEATURES,
    HIDDEN_KINDS,
    STANDARD,
    TABLE_SIZE,
    Weights,
    pile_class,
    pile_value,
    shipped,
    tops_value,
    unseen_ranks,
    value,
    weights_for,
)
from spider_cli.analysis.blind.player import UNSEEN
from spider_cli.analysis.blind.rollouts import Playout
from spider_cli.analysis.chance.search import Level
from spider_cli.analysis.compact import FACE_DOWN, State, encode
from spider_cli.analysis.limits import Limit
from spider_cli.rules.deals import DealSource, Source
from tests.helpers import blind_view

core = native._load()
GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "standard_player.json").read_text())


def any_weights() -> st.SearchStrategy[Weights]:
    """Weights of every feature, small and large, of either sign."""
    weight = st.integers(-500, 500)
    return st.builds(
        Weights,
        hidden=st.tuples(*[weight] * HIDDEN_KINDS),
        hidden_step=weight,
        clear=weight,
        suited=weight,
        ranked=weight,
        removed=weight,
        broken=weight,
        ace_top=weight,
        king_base=weight,
        run_square=weight,
        refill=weight,
        unlock=weight,
        dup_tops=weight,
        homes=weight,
        table=st.one_of(st.just(()), st.tuples(*[weight] * TABLE_SIZE)),
    )


def only(name: str, weight: int = 1) -> Weights:
    """Weights that count one feature alone."""
    zero = Weights((0,) * HIDDEN_KINDS, 0, 0, 0, 0, 0)
    if name == "hidden":
        return Weights(tuple(range(HIDDEN_KINDS)), weight, 0, 0, 0, 0)
    return Weights(zero.hidden, **{n: weight if n == name else 0 for n in FEATURES[1:]})


def card(rank: int, suit: int = 0) -> int:
    return suit * 16 + rank


DOWN = FACE_DOWN
NONE_UNSEEN = (0,) * 16
ALL_UNSEEN = (0, *[8] * 13, 0, 0)


def pile(*cards: int) -> bytes:
    return bytes(cards)


@pytest.mark.parametrize(
    ("name", "cards", "unseen", "count"),
    [
        ("clear", pile(card(9), card(8)), NONE_UNSEEN, 1),
        ("clear", pile(DOWN, card(9)), NONE_UNSEEN, 0),
        ("suited", pile(DOWN, card(9), card(8), card(7, 1)), NONE_UNSEEN, 1),
        ("ranked", pile(DOWN, card(9), card(8), card(7, 1)), NONE_UNSEEN, 1),
        ("broken", pile(card(9), card(3), card(2, 1), card(12)), NONE_UNSEEN, 2),
        ("ace_top", pile(DOWN, card(5), card(1, 2)), NONE_UNSEEN, 1),
        ("ace_top", pile(DOWN, card(2, 2), card(1, 2)), NONE_UNSEEN, 0),  # on its own 2
        ("ace_top", pile(card(1)), NONE_UNSEEN, 1),
        ("king_base", pile(DOWN, card(13), card(12)), NONE_UNSEEN, 1),
        ("king_base", pile(card(13), card(12)), NONE_UNSEEN, 0),  # nothing under it
        ("run_square", pile(card(9), card(8), card(7), card(6, 1), card(5, 1)), NONE_UNSEEN, 5),
        ("refill", pile(card(9), card(8)), ALL_UNSEEN, 8),  # eight 10s unseen
        ("refill", pile(card(13), card(12)), ALL_UNSEEN, 0),  # nothing takes a King
        ("refill", pile(DOWN, card(9)), ALL_UNSEEN, 0),
        ("unlock", pile(DOWN, DOWN, card(6)), (0, 0, 0, 0, 0, 0, 0, 3, *[0] * 8), 3),
        ("unlock", UNSEEN, ALL_UNSEEN, 0),  # a card turned up is no rank
    ],
)
def test_each_pile_feature_counts_what_it_says(
    name: str, cards: bytes, unseen: tuple[int, ...], count: int
) -> None:
    assert pile_value(cards, only(name, 7), unseen) == 7 * count


@pytest.mark.parametrize(
    ("cards", "down", "run", "beneath", "king"),
    [
        (pile(card(4)), 0, 1, 0, 0),
        (pile(DOWN, DOWN, card(9), card(8), card(7)), 2, 3, 0, 0),
        (pile(DOWN, card(9, 1), card(8), card(7)), 1, 2, 1, 0),  # on a 9 of another suit
        (pile(card(3), card(8), card(7)), 0, 2, 2, 0),  # on a card that does not take it
        (pile(*[DOWN] * 7, card(13), card(12)), 5, 2, 0, 1),  # 5 stands for more
        (pile(*[card(k) for k in range(13, 0, -1)]), 0, 6, 0, 1),  # 6 for longer
        (pile(DOWN, card(5)) + UNSEEN, 1, 1, 2, 0),  # a card turned up takes nothing
    ],
)
def test_a_piles_class_is_what_lies_face_down_and_its_top_run(
    cards: bytes, down: int, run: int, beneath: int, king: int
) -> None:
    assert pile_class(cards) == ((down * 6 + run - 1) * 3 + beneath) * 2 + king
    table = tuple(range(TABLE_SIZE))
    weights = Weights((0,) * HIDDEN_KINDS, 0, 0, 0, 0, 0, table=table)
    assert pile_value(cards, weights, NONE_UNSEEN) == pile_class(cards)


def test_weights_come_back_whole_from_what_the_core_takes() -> None:
    for weights in (STANDARD, weights_for(4), Weights((1,) * 8, 2, 3, 4, 5, 6, table=(7,) * 216)):
        assert Weights.from_core(weights.core()) == weights
        assert Weights.from_dict(weights.as_dict()) == weights


def test_the_hidden_costs_go_by_the_count_face_down() -> None:
    weights = only("hidden", 5)  # 0..7 cost 0..7; each more costs 5
    for down, cost in [(0, 0), (1, 1), (7, 7), (8, 12), (10, 22)]:
        assert pile_value(bytes([DOWN] * down) + bytes([card(4)]), weights, NONE_UNSEEN) == -cost


def test_the_top_cards_count_together() -> None:
    piles: State = (
        pile(DOWN, card(12)),
        pile(card(12, 1)),
        pile(card(12, 2)),
        pile(DOWN, card(6)),
        pile(card(1)),
        b"",
        *[pile(DOWN)] * 4,  # face-down tops count for nothing
    )
    unseen = unseen_ranks(piles, 0)
    assert unseen[11] == 8 and unseen[5] == 8 and unseen[12] == 5
    assert tops_value(piles, only("dup_tops", 3), unseen) == 3 * 2  # three Queens: two more
    # Jacks onto the Queens, 5s onto the 6 (the Ace takes nothing): 8 + 8 unseen
    assert tops_value(piles, only("homes", 2), unseen) == 2 * 16


def test_unseen_cards_are_eight_a_rank_less_those_seen_and_removed() -> None:
    piles: State = (pile(card(5), card(5, 1), DOWN | card(5)), *[b""] * 9)
    unseen = unseen_ranks(piles, 2)
    assert unseen[5] == 8 - 2 - 2 and unseen[6] == 6 and unseen[0] == unseen[15] == 0
    assert unseen_ranks((pile(*[card(5)] * 9), *[b""] * 9), 0)[5] == 0  # never below 0


@pytest.mark.skipif(core is None, reason="the compiled core is not built")
@settings(max_examples=80, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from((1, 2, 4)),
    st.integers(0, 150),
    st.integers(0, 2**32),
    any_weights(),
    st.integers(-3000, 3000),
    st.data(),
)
def test_the_core_sums_the_same_value(
    number: int,
    suits: int,
    moves: int,
    seed: int,
    weights: Weights,
    space: int,
    data: st.DataObject,
) -> None:
    piles, removed, _hand = blind_view(number, suits, moves, seed)
    if data.draw(st.booleans()):  # a card a line turned up, not yet seen
        k = data.draw(st.integers(0, 9))
        if piles[k]:
            piles = (*piles[:k], piles[k][:-1] + UNSEEN, *piles[k + 1 :])
    assert core is not None
    assert core.blind_value(piles, removed, space, weights.core()) == value(
        piles, removed, space, weights
    )


@pytest.mark.skipif(core is None, reason="the compiled core is not built")
def test_the_core_refuses_weights_of_another_shape() -> None:
    assert core is not None
    piles = (b"",) * 10
    for bad, error in [
        ((1, 2), ValueError),
        (STANDARD.core()[:-1], ValueError),
        ([0] * len(STANDARD.core()), ValueError),
        ((*STANDARD.core()[:-1], "x"), TypeError),
        ((*STANDARD.core()[:-1], 10**7), ValueError),
        ((*STANDARD.core()[:-1], 2**70), OverflowError),
    ]:
        with pytest.raises(error):
            core.blind_value(piles, 0, 150, bad)


def test_the_weights_file_has_a_set_for_each_number_of_suits() -> None:
    sets = shipped()
    assert set(sets) == {1, 2, 4}
    for suits, entry in sets.items():
        assert entry.weights == weights_for(suits)
        assert entry.made_by and entry.deals
        assert Weights.from_dict(entry.weights.as_dict()) == entry.weights


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"hidden": [0] * 7}, "'hidden' is a list of 8"),
        ({"hidden": "0"}, "'hidden' is a list of 8"),
        ({"hidden": [0] * 8, "clear": 1.5}, "'clear' is a whole number"),
        ({"hidden": [0] * 8, "clear": True}, "'clear' is a whole number"),
        ({"hidden": [0] * 8, "sparkle": 3}, "unknown features: sparkle"),
        ({"hidden": [0] * 8, "table": [1] * 5}, "'table' is a list of 216"),
        ({"hidden": [0] * 8, "table": [0.5] * 216}, "'table' is a list of 216"),
    ],
)
def test_a_bad_weights_entry_is_refused_by_name(data: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Weights.from_dict(data)


class Recording(blind.Dealer):
    """A table that keeps the moves played on it."""

    def __init__(self, deal: DealSource) -> None:
        super().__init__(deal)
        self.log: list[str] = []

    def play(self, action: blind.Action) -> bool:
        self.log.append(str(action))
        return super().play(action)


def _played(key: str) -> str:
    suits, number, budget = map(int, key.split("/"))
    table = Recording(DealSource(Source.OURS, number, suits))
    blind.play_blind(table, Limit(budget), Level.PLAIN, STANDARD)
    digest = hashlib.sha256("\n".join(table.log).encode()).hexdigest()[:16]
    return f"{digest} {len(table.log)} {table.won}"


@pytest.mark.skipif(core is None, reason="the compiled core is not built")
@pytest.mark.parametrize("key", sorted(GOLDEN["core_player"]))
def test_the_standard_weights_play_as_the_player_did_before_them(key: str) -> None:
    assert _played(key) == GOLDEN["core_player"][key]


@pytest.mark.parametrize("key", sorted(GOLDEN["python_player"]))
def test_the_standard_weights_play_as_before_on_the_python_path(key: str) -> None:
    with native.pure():
        assert _played(key) == GOLDEN["python_player"][key]


@pytest.mark.skipif(core is None, reason="the compiled core is not built")
@pytest.mark.parametrize("key", sorted(GOLDEN["core_games"]))
def test_the_standard_weights_play_the_cores_games_as_before(key: str) -> None:
    suits, number = map(int, key.split("/"))
    start = encode(DealSource(Source.OURS, number, suits).game())
    policy = rollouts.Policy(2_000, blindplayer.SEARCHES, weights=STANDARD)
    end = native.backend().rollout(Playout(start.piles, start.rows, 0, policy))
    digest = hashlib.sha256(repr(end.end).encode()).hexdigest()[:16]
    assert [end.won, end.done, end.moves, end.positions, digest] == GOLDEN["core_games"][key]
