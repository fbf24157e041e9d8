"""The rules engine, rule by rule, plus property tests of its invariants."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from spider_cli.rules.cards import UNKNOWN, Card
from spider_cli.rules.engine import DEAL, Game, Move, Remove
from spider_cli.rules.errors import IllegalMoveError, PositionError
from spider_cli.rules.placing import (
    complete_suits,
    fitting_move,
    locate,
    obvious,
    obvious_at,
    removal,
)
from spider_cli.rules.shuffle import SplitMix64, ordered_deck, shuffled_deck


def C(text: str) -> int:
    return Card.parse(text)


def cards(text: str) -> list[int]:
    return [UNKNOWN if t == "--" else C(t) for t in text.split()]


def position(piles: list[str], stock: int = 0, removed: tuple[int, ...] = ()) -> Game:
    """A game whose piles are given as text; the hand holds ``stock`` unknown cards."""
    lists = [cards(p) for p in piles]
    down = [sum(1 for c in p if c == UNKNOWN) for p in lists]
    known = sum(len(p) for p in lists) + stock + 13 * len(removed)
    # Fill the rest of the deck into extra face-down unknown cards of pile 10.
    lists[9] = [UNKNOWN] * (104 - known) + lists[9]
    down[9] += 104 - known
    return Game(lists, down, [UNKNOWN] * stock, removed)


EMPTY9 = [""] * 9


# -- the deal ---------------------------------------------------------------------------------


def test_generator_is_splitmix64() -> None:
    # Reference values of SplitMix64 seeded with 0 (as in Vigna's splitmix64.c).
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_pinned_deals_never_change() -> None:
    def first(seed: int, suits: int = 4) -> str:
        return " ".join(str(Card(c)) for c in shuffled_deck(seed, suits)[:8])

    assert first(1) == "6d 7d Js 8s Kc 7h 6c 8s"
    assert first(2) == "10h Ad 6d Jc 2h Qc 5d 3h"
    assert first(2**64 - 1) == "9d 3s 9s As 6h 10c 2c Qs"
    assert first(1, suits=2) == "6s 7s Js 8s Kh 7h 6h 8s"
    assert first(5, suits=1) == "Js 7s 3s 3s 5s Js As 5s"


def test_new_deal_layout() -> None:
    game = Game.new(1)
    assert [len(p) for p in game.piles] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    assert game.down == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert len(game.stock) == 50 and game.deals_left == 5
    spread = Game.new(1, sixth="spread")
    assert spread.down == [5, 4, 4, 5, 4, 4, 5, 4, 4, 5]


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_every_variant_has_eight_full_suits(suits: int) -> None:
    game = Game.new(3, suits=suits)
    everything = Counter(c for p in game.piles for c in p) + Counter(game.stock)
    assert sum(everything.values()) == 104
    assert everything == Counter(ordered_deck(suits))
    assert all(n == 8 // suits for n in everything.values())


# -- moves ------------------------------------------------------------------------------------


def test_card_goes_onto_next_higher_of_any_suit_and_turns_up_a_card() -> None:
    game = position(["-- 9c", "-- 8h", *EMPTY9[:7], "Kd"])
    move = Move(1, 0, 1)
    assert move in game.legal_moves()
    assert not game.is_natural(move)
    game.push(move)
    assert game.face_up(0) == cards("9c 8h")
    assert game.down[1] == 0 and game.face_up(1)[0] != UNKNOWN


def test_runs_move_whole_or_in_part_but_only_within_a_suit() -> None:
    game = position(["-- 9c 8s 7s 6s", "-- 8d", "-- 7h", "", "", "", "", "", "", "Kd"])
    legal = game.legal_moves()
    assert Move(0, 1, 2) in legal  # 7-6s onto 8d
    assert Move(0, 2, 1) in legal  # 6s onto 7h
    assert game.why_illegal(Move(0, 1, 4)) == "9c-6s is not a same-suit run"
    assert Move(0, 3, 3) in legal  # 8-6s into a space
    assert game.why_illegal(Move(0, 1, 1)) == "6s cannot go onto 8d"


def test_king_only_into_a_space() -> None:
    game = position(["-- Ks", "-- Ad", *EMPTY9[:7], "Kd"])
    assert game.why_illegal(Move(0, 1, 1)) == "a King can only go into a space"
    assert game.why_illegal(Move(0, 2, 1)) is None


def test_deal_is_refused_with_a_space_or_an_empty_hand() -> None:
    seven = ["-- 5h", "-- 5d", "-- 5c", "-- 5s", "-- 6h", "-- 6d", "-- 6c"]
    game = position(["-- 2s", "", *seven, "Kd"], stock=10)
    assert game.why_illegal(DEAL) == "cannot deal: pile 2 is a space"
    three = position(["-- 2s", "", *seven[:5], "", "", "Kd"], stock=10)
    assert three.why_illegal(DEAL) == "cannot deal: piles 2, 8 and 9 are spaces"
    full = position(["-- 2s", "-- 3s", *seven, "Kd"], stock=0)
    assert full.why_illegal(DEAL) == "cannot deal: the hand is empty"


def test_deal_puts_a_card_on_every_pile_in_order() -> None:
    game = Game.new(4)
    hand = game.hand
    game.push(DEAL)
    assert [p[-1] for p in game.piles] == hand[:10]
    assert game.deals_left == 4
    game.pop()
    assert game.hand == hand


SPADES = "Ks Qs Js 10s 9s 8s 7s 6s 5s 4s 3s 2s As"


def test_remove_a_complete_suit_turns_up_the_next_card() -> None:
    game = position(["-- " + SPADES, "-- 2h", *EMPTY9[:7], "Kd"])
    assert Remove(0) in game.legal_moves()
    game.push(Remove(0))
    assert game.removed == [0] and len(game.face_up(0)) == 1
    game.pop()
    assert game.face_up(0) == cards(SPADES) and game.removed == []


def test_removal_is_explicit_unless_autoremove() -> None:
    piles = ["-- Ks Qs Js 10s 9s 8s 7s 6s 5s 4s 3s 2s", "-- As", *EMPTY9[:7], "Kd"]
    game = position(piles)
    game.push(Move(1, 0, 1))
    assert game.removed == []
    auto = position(piles)
    auto.autoremove = True
    auto.push(Move(1, 0, 1))
    assert auto.removed == [0] and auto.down[0] == 0
    auto.pop()
    assert auto.key() == position(piles).key()


# -- scoring ----------------------------------------------------------------------------------

SUITS = ("s", "h", "d", "c")


def full_suit(s: str) -> str:
    return " ".join(f"{r}{s}" for r in "K Q J 10 9 8 7 6 5 4 3 2 A".split())


def test_score_is_990_when_won_with_every_suit_removed() -> None:
    game = Game([[] for _ in range(10)], [0] * 10, [], [0, 1, 2, 3] * 2)
    assert game.is_won() and game.score() == 990


def test_score_is_1000_when_won_with_every_suit_in_the_tableau() -> None:
    piles = [cards(full_suit(SUITS[i % 4])) for i in range(8)] + [[], []]
    game = Game(piles, [0] * 10, [], [])
    assert game.is_won() and game.score() == 1000


def test_score_counts_turned_cards_cleared_piles_and_same_suit_pairs() -> None:
    assert Game.new(9).score() == 0
    piles = [cards(full_suit(SUITS[i % 4])) for i in range(6)] + [
        cards("Kd Qd Jd"),
        cards(full_suit("d"))[3:],
        cards(full_suit("c"))[:12],
        cards("Ac"),
    ]
    game = Game(piles, [0] * 10, [], [])
    assert not game.is_won()
    # 44 cards turned, 10 piles cleared, six complete suits, 2 + 9 + 11 same-suit pairs
    assert game.score() == 440 + 150 + 300 + 2 * 22


def test_win_with_four_suits_in_play_adds_two_per_suit_after_three() -> None:
    piles = [cards(full_suit(SUITS[i])) for i in range(4)] + [[]] * 6
    game = Game(piles, [0] * 10, [], [0, 1, 2, 3])
    assert game.score() == 440 + 150 + 400 + 2


# -- history ----------------------------------------------------------------------------------


def test_undo_redo_and_restart_are_exact() -> None:
    game = Game.new(11)
    start = game.key()
    seen = [start]
    for _ in range(30):
        moves = game.legal_moves()
        game.push(moves[len(seen) % len(moves)])
        seen.append(game.key())
    for key in reversed(seen[:-1]):
        game.pop()
        assert game.key() == key
    for key in seen[1:]:
        game.redo()
        assert game.key() == key
    game.restart()
    assert game.key() == start and not game.move_stack
    with pytest.raises(IllegalMoveError):
        Game.new(1).redo()


def test_a_new_move_forgets_the_redo_list() -> None:
    game = Game.new(12)
    game.push(game.legal_moves()[0])
    game.pop()
    game.push(DEAL)
    assert game.next_redo() is None


# -- unknown cards ----------------------------------------------------------------------------


def test_assume_decides_the_next_card_turned_up() -> None:
    game = position(["-- -- Jh", "-- Qs", *EMPTY9[:7], "Kd"], stock=10)
    game.assume(0, C("6s"))
    game.push(Move(0, 1, 1))
    assert game.face_up(0) == cards("6s")
    game.pop()
    assert game.piles[0][-2] == UNKNOWN and list(game.assumed[0]) == [C("6s")]


def test_assuming_a_card_that_is_not_in_the_pool_is_refused() -> None:
    game = position(["-- Jh", "-- Jh", *EMPTY9[:7], "Kd"])
    with pytest.raises(IllegalMoveError, match="every copy is already placed"):
        game.assume(0, C("Jh"))
    game.assume(0, C("Qs"))
    with pytest.raises(IllegalMoveError, match="no unknown card left"):
        game.assume(0, C("Qd"))


def test_assuming_in_a_dealt_game_says_that_no_card_is_unknown() -> None:
    game = Game.new(seed=5, suits=2)
    with pytest.raises(IllegalMoveError, match="no card of this game is unknown"):
        game.assume(0, C("Ks"))


def test_unknown_cards_drawn_from_the_pool_are_replayed_exactly() -> None:
    game = position(["-- -- Jh", "-- Qs", *EMPTY9[:7], "Kd"])
    game.push(Move(0, 1, 1))
    drawn = game.face_up(0)[0]
    assert drawn != UNKNOWN
    game.pop()
    assert game.piles[0][1] == UNKNOWN
    game.redo()
    assert game.face_up(0) == [drawn]


def test_impossible_positions_are_refused() -> None:
    with pytest.raises(PositionError, match="Jh appears 3 times"):
        position(["-- Jh", "-- Jh", "-- Jh", *EMPTY9[:6], "Kd"])
    with pytest.raises(PositionError, match="holds 105 cards"):
        Game([[C("Kd")]] + [[]] * 9, [0] * 10, [UNKNOWN] * 104)
    with pytest.raises(PositionError, match="only face-down"):
        Game([[UNKNOWN] * 104] + [[]] * 9, [104] + [0] * 9)


# -- queries ----------------------------------------------------------------------------------


def test_obvious_place_prefers_remove_then_same_suit_then_other_suit_then_space() -> None:
    game = position(["-- 7s 6h", "-- 7h", "-- 7d", "", *EMPTY9[:5], "Kd"])
    assert obvious(game, 0) == Move(0, 1, 1)
    other = position(["-- 8s 6h", "-- 7d", "-- Kc", "", *EMPTY9[:5], "Kd"])
    assert obvious(other, 0) == Move(0, 1, 1)
    spaced = position(["-- 8s 6h", "-- Qd", "-- Kc", "", *EMPTY9[:5], "Kd"])
    assert obvious(spaced, 0) == Move(0, 3, 1)
    removable = position(["-- " + SPADES, "-- 2h", *EMPTY9[:7], "Kd"])
    assert obvious(removable, 0) == Remove(0)
    stuck = position(
        ["-- 8s 6h", "-- Qd", "-- Kc", "-- 2c", "-- 2d", "-- 2h", "-- 2s", "-- 3c", "-- 3d", "Kd"]
    )
    with pytest.raises(IllegalMoveError, match="nowhere to go: no pile ends with a 7"):
        obvious(stuck, 0)


def test_obvious_place_of_a_card_above_the_bottom_moves_it_and_the_cards_covering_it() -> None:
    game = position(["-- 9h 8s 7s 6s", "-- 9s", "-- 8h", "", *EMPTY9[:5], "Kd"])
    assert obvious(game, 0, 3) == Move(0, 1, 3)  # 8-6s onto its own suit
    assert obvious(game, 0, 2) == Move(0, 2, 2)  # 7-6s onto another suit
    assert obvious(game, 0, 1) == Move(0, 3, 1)  # 6s: only the space
    assert obvious(game, 0) == Move(0, 1, 3)  # the whole run, as before
    with pytest.raises(IllegalMoveError, match="9h cannot move with the cards below it"):
        obvious(game, 0, 4)
    with pytest.raises(IllegalMoveError, match="face down"):
        obvious(game, 0, 5)
    removable = position(["-- 5h " + SPADES, "-- 2h", *EMPTY9[:7], "Kd"])
    assert obvious(removable, 0, 13) == Remove(0)
    assert obvious(removable, 0, 12) == Move(0, 9, 12)  # Q-As onto the Kd of pile 10


def test_a_click_on_a_card_sends_it_and_the_cards_covering_it_to_their_obvious_place() -> None:
    game = position(["-- 9h 8s 7s 6s", "-- 9s", "-- 8h", "", *EMPTY9[:5], "Kd"])
    assert obvious_at(game, 0) == obvious_at(game, 0, 4) == Move(0, 1, 3)  # the bottom card
    assert obvious_at(game, 0, 3) == Move(0, 2, 2)  # 7s: 7-6s onto the 8h
    assert obvious_at(game, 0, 2) == Move(0, 1, 3)  # 8s: 8-6s onto the 9s
    removable = position(["-- 5h " + SPADES, "-- 2h", *EMPTY9[:7], "Kd"])
    assert obvious_at(removable, 0, 3) == Remove(0)  # any card of the complete suit
    assert obvious_at(removable, 0, 13) == Remove(0)
    with pytest.raises(IllegalMoveError, match="there is no pile 11"):
        obvious_at(game, 10)


def test_a_move_by_two_pile_numbers_takes_as_many_cards_as_fit() -> None:
    game = position(["-- 9h 8s 7s 6s", "-- 9s", "-- 8h", "", "-- 4d", *EMPTY9[:4], "Kd"])
    assert fitting_move(game, 0, 1) == Move(0, 1, 3)
    assert fitting_move(game, 0, 2) == Move(0, 2, 2)
    assert fitting_move(game, 0, 3) == Move(0, 3, 3)  # into a space: the whole run
    with pytest.raises(IllegalMoveError, match=r"nothing in pile 1's movable run \(8-6s\)"):
        fitting_move(game, 0, 4)
    with pytest.raises(IllegalMoveError, match="pile 4 is a space"):
        fitting_move(game, 3, 0)
    with pytest.raises(IllegalMoveError, match="there is no pile 11"):
        fitting_move(game, 0, 10)


def test_the_removal_of_a_complete_suit_finds_its_pile() -> None:
    game = position(["-- 2h", "-- 5h " + SPADES, *EMPTY9[:7], "Kd"])
    assert removal(game) == removal(game, suit=0) == removal(game, 1, 0) == Remove(1)
    assert removal(game, 0) == Remove(0)  # named: for the rules to refuse (why_illegal)
    with pytest.raises(IllegalMoveError, match="no pile ends with the hearts, King to Ace"):
        removal(game, suit=1)
    with pytest.raises(IllegalMoveError, match="pile 2 ends with the spades, not the hearts"):
        removal(game, 1, 1)
    with pytest.raises(IllegalMoveError, match="there is no pile 0"):
        removal(game, -1)


def test_complete_suits_and_locate() -> None:
    game = position(["-- " + SPADES, "-- 2h", *EMPTY9[:7], "Kd"])
    assert complete_suits(game) == {0: 1}
    where = locate(game, C("Kd"))
    assert [(w.place, w.pile) for w in where] == [("pile", 9)]


# -- properties -------------------------------------------------------------------------------


class RandomPlay(RuleBasedStateMachine):
    """Random legal play, undo and redo never break the accounting of the 104 cards."""

    def __init__(self) -> None:
        super().__init__()
        self.game = Game.new(0)
        self.keys: list[tuple] = []

    @rule(seed=st.integers(0, 2**64 - 1), suits=st.sampled_from([1, 2, 4]))
    def new_game(self, seed: int, suits: int) -> None:
        self.game = Game.new(seed, suits)
        self.keys = []

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        moves = self.game.legal_moves()
        if moves:
            self.keys.append(self.game.key())
            self.game.push(data.draw(st.sampled_from(moves)))

    @precondition(lambda self: self.keys)
    @rule()
    def undo(self) -> None:
        self.game.pop()
        assert self.game.key() == self.keys.pop()

    @precondition(lambda self: self.game.next_redo() is not None)
    @rule()
    def redo(self) -> None:
        self.keys.append(self.game.key())
        self.game.redo()

    @invariant()
    def every_card_accounted_for(self) -> None:
        game = self.game
        present = Counter(c for p in game.piles for c in p) + Counter(game.stock)
        for suit in game.removed:
            present.update(suit * 16 + r for r in range(1, 14))
        assert present == Counter(ordered_deck(game.suits))
        for i, pile in enumerate(game.piles):
            assert 0 <= game.down[i] <= len(pile)
            assert not pile or game.down[i] < len(pile)

    @invariant()
    def positions_stay_hashable(self) -> None:
        hash(self.game.key())


RandomPlay.TestCase.settings = settings(max_examples=40, stateful_step_count=60, deadline=None)
TestRandomPlay = RandomPlay.TestCase


class UnknownPlay(RuleBasedStateMachine):
    """With unknown cards: pool + pending assumptions always equal the unknown slots."""

    def __init__(self) -> None:
        super().__init__()
        game = Game.new(5)
        piles = [
            [UNKNOWN if j < game.down[i] else c for j, c in enumerate(p)]
            for i, p in enumerate(game.piles)
        ]
        self.game = Game(piles, game.down, [UNKNOWN] * 50, seed=5)
        self.depth = 0

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        moves = self.game.legal_moves()
        if moves:
            self.game.push(data.draw(st.sampled_from(moves)))
            self.depth += 1

    @rule(data=st.data())
    def assume(self, data: st.DataObject) -> None:
        game = self.game
        pile = data.draw(st.integers(0, 9))
        pool = [c for c in range(64) if game.pool[c]]
        if pool and len(game.assumed[pile]) < game.unknown_slots(pile):
            game.assume(pile, data.draw(st.sampled_from(pool)))

    @precondition(lambda self: self.depth)
    @rule()
    def undo(self) -> None:
        self.game.pop()
        self.depth -= 1

    @invariant()
    def pool_matches_unknown_slots(self) -> None:
        game = self.game
        waiting = sum(len(q) for q in game.assumed)
        assert sum(game.pool) + waiting == game.unknown_count()
        assert all(n >= 0 for n in game.pool)


UnknownPlay.TestCase.settings = settings(max_examples=30, stateful_step_count=50, deadline=None)
TestUnknownPlay = UnknownPlay.TestCase


@given(st.integers(0, 2**64 - 1))
@settings(max_examples=50)
def test_copy_is_independent(seed: int) -> None:
    game = Game.new(seed)
    twin = game.copy()
    twin.push(twin.legal_moves()[0])
    assert game.key() == Game.new(seed).key()


def test_a_suit_ready_to_remove_is_said_by_the_move_that_completes_it_only() -> None:
    from spider_cli.app.session import Session

    run = "Ks Qs Js 10s 9s 8s 7s 6s 5s 4s 3s 2s"
    game = position([run, "As", "5h", "6h", "9d", "10d", "3c", "4c", "Jh", "-- Qh"])
    session = Session.of_position(game)
    assert "a complete suit can be removed from pile 1" in session.execute("2 1").text
    assert "can be removed" not in session.execute("3 4").text  # said once, not each move
    assert session.status().ready == (0,)  # still ready: the status line keeps it
