"""The blind player: its lines gain or turn up a card, it keeps enough cards to deal, and it
moves only what a player sees."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis import native
from spider_cli.analysis.bench import blind
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind.evaluation import STANDARD, Weights, pile_value, unseen_ranks, value
from spider_cli.analysis.blind.player import UNSEEN, Kind, Mode
from spider_cli.analysis.blind.turns import Request, Turn
from spider_cli.analysis.compact import REVEAL, State, actions, apply, encode
from spider_cli.analysis.limits import Limit
from spider_cli.app import examples
from spider_cli.language.files.positions import load_position
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import Deal, Game, Move, Remove
from tests.analysis.test_evaluation import any_weights

SMALL = Limit(2_000)
"""The positions a search these tests were written at examines (the player's default then)."""


def _follow(piles: State, removed: int, line: tuple) -> tuple[State, int, bool]:
    """Play a line on compact piles as the table would: up to the first card turned up."""
    for action in line:
        assert not isinstance(action, Deal)
        new, _turned, outcome = apply(piles, action)
        piles, removed = tuple(new), removed + isinstance(action, Remove)
        if outcome == REVEAL:
            return piles, removed, True
    return piles, removed, False


def _turns_in(number: int, suits: int, turns: int) -> blind.Dealer:
    """A deal some turns of play in (where there is more to do), each turn's line played
    up to its card turned up, or a row dealt when there is no line."""
    table = blind.Dealer(DealSource(Source.OURS, number, suits))
    for _ in range(turns):
        view = table.view()
        turn = blindplayer.plan(
            native.backend().blind_search, Turn(view.piles(), len(view.removed), 1), SMALL
        )
        spaces = any(not up and not down for up, down in zip(view.face_up, view.down, strict=True))
        if not turn.line and (spaces or not view.hand):
            break  # no line, and no row may be dealt: far enough in
        for action in turn.line or (Deal(),):
            if table.play(action):
                break
    return table


@settings(max_examples=25, deadline=None)
@given(
    number=st.integers(0, 10**6),
    suits=st.sampled_from((1, 2, 4)),
    turns=st.integers(0, 6),
    mode=st.sampled_from(Mode),
)
def test_a_line_raises_the_value_unless_it_turns_up_a_card(
    number: int, suits: int, turns: int, mode: Mode
) -> None:
    table = _turns_in(number, suits, turns)
    view = table.view()
    piles = view.piles()
    at = Turn(piles, len(view.removed), view.hand, mode)
    turn = blindplayer.plan(native.backend().blind_search, at, Limit(300), view.unseen())
    end, removed, turned = _follow(piles, len(view.removed), turn.line)
    before = value(piles, len(view.removed), mode.value, STANDARD)
    assert turned or not turn.line or value(end, removed, mode.value, STANDARD) > before
    weighed = (blindplayer.CHOICES + 1) * blindplayer.SAMPLES * blindplayer.LOOK
    assert turn.positions <= 3 * 300 + weighed


@settings(max_examples=25, deadline=None)
@given(
    number=st.integers(0, 10**6),
    suits=st.sampled_from((1, 2, 4)),
    turns=st.integers(0, 8),
    parts=st.booleans(),
    width=st.sampled_from((0, 1, 5, 30)),
    weights=st.one_of(st.just(STANDARD), any_weights()),
)
def test_a_search_values_its_line_as_the_position_it_leads_to(
    number: int, suits: int, turns: int, parts: bool, width: int, weights: Weights
) -> None:
    # The searches value a child from its parent by the piles a move touched: the sum must
    # be the value of the position at the end of the line (cards turned up as UNSEEN).
    table = _turns_in(number, suits, turns)
    view = table.view()
    piles = view.piles()
    reveals: list[blindplayer.Reveal] = []
    at = Turn(piles, len(view.removed), view.hand, Mode.USE, weights)
    best, line, positions = native.backend().blind_search(
        Request(at, Limit(400), parts, width), reveals
    )
    state, removed = piles, len(view.removed)
    for action in line:
        new, turned, outcome = apply(state, action)
        if outcome == REVEAL:
            new[turned] = new[turned][:-1] + UNSEEN
        state, removed = tuple(new), removed + isinstance(action, Remove)
    assert best == value(state, removed, Mode.USE.value, weights)
    assert positions <= 400
    for reveal in reveals:  # each ends at its first card turned up, and says where
        end, _removed, turned_up = _follow(piles, len(view.removed), reveal.line)
        assert turned_up and not _follow(piles, len(view.removed), reveal.line[:-1])[2]
        assert end[reveal.pile][:-1] == reveal.state[reveal.pile][:-1]
        assert reveal.state[reveal.pile][-1:] == UNSEEN


@settings(max_examples=30, deadline=None)
@given(number=st.integers(0, 10**6), suits=st.sampled_from((1, 2, 4)), turns=st.integers(0, 12))
def test_the_unseen_cards_are_exactly_the_face_down_cards_and_the_hand(
    number: int, suits: int, turns: int
) -> None:
    table = _turns_in(number, suits, turns)
    game = table._Dealer__game  # type: ignore[attr-defined]  # (the test may look; the player may not)
    hidden = [c for p, d in zip(game.piles, game.down, strict=True) for c in p[:d]] + game.stock
    assert table.view().unseen() == sorted(hidden)


def test_samples_are_every_kind_when_few_else_spread_over_the_ranks() -> None:
    assert blindplayer.samples([3, 3, 7, 12, 12, 12], 8) == [(3, 2), (7, 1), (12, 3)]
    unseen = [suit * 16 + rank for suit in range(4) for rank in range(1, 14)] * 2
    picked = blindplayer.samples(unseen, 8)
    assert len(picked) == 8 and all(weight == 1 for _card, weight in picked)
    ranks = [card & 15 for card, _weight in picked]
    assert ranks == sorted(ranks) and ranks[0] <= 2 and ranks[-1] >= 12


def _spades() -> list[int]:
    """A whole suit of spades, King to Ace (a spade's code is its rank)."""
    return list(range(13, 0, -1))


def test_no_suit_is_removed_when_too_few_cards_would_be_left_to_deal() -> None:
    # Six suits removed; a complete one in pile 1, three cards beside it, ten in the hand.
    piles = [_spades(), [13], [12], [11]] + [[]] * 6
    hand = list(range(1, 11))
    game = Game(piles, [0] * 10, hand[::-1], removed=[0] * 6, suits=1)
    state = tuple(bytes(p) for p in game.piles)
    held = blindplayer.plan(native.backend().blind_search, Turn(state, 6, hand=10), SMALL)
    assert not any(isinstance(a, Remove) for a in held.line)
    free = blindplayer.plan(native.backend().blind_search, Turn(state, 6, hand=0), SMALL)
    assert Remove(0) in free.line


@given(bottoms=st.lists(st.integers(1, 13), min_size=8, max_size=8), suit=st.integers(0, 3))
def test_a_card_turned_up_in_a_plan_takes_no_card_and_goes_nowhere_but_a_space(
    bottoms: list[int], suit: int
) -> None:
    cards = tuple(bytes([suit * 16 + rank]) for rank in bottoms)
    piles: State = (bytes([64]) + UNSEEN, b"", *cards)
    for action in actions(piles, [1]):
        assert isinstance(action, Move) and action.dst != 0
        assert action.src != 0 or action.dst == 1
    unseen = unseen_ranks(piles, 0)
    assert pile_value(UNSEEN + bytes([12]), STANDARD, unseen) == pile_value(
        bytes([14, 12]), STANDARD, unseen
    )


def test_a_turn_deals_only_with_every_space_filled_and_is_lost_with_no_hand() -> None:
    """decide: nothing gains with a space on the table and cards in the hand, so the space
    is filled first (a line decided with a space a loss); with no space, a deal; with the
    hand empty, the game is lost (a position two decks can hold: eight Kings)."""
    blockers = [bytes(p) for p in ([13, 1], [29, 17], [45, 33], [61, 49], [12, 49], [29, 33])]
    spaced: State = (bytes([13, 9]), b"", *blockers, bytes([45, 41]), bytes([61, 57]))
    fill = blindplayer.decide(native.backend().blind_search, Turn(spaced, 0, 10), SMALL)
    assert fill.kind is Kind.LINE and fill.mode is Mode.FILL
    end, _removed, _turned = _follow(spaced, 0, fill.line)
    assert all(end)
    full = (spaced[0], bytes([28, 25]), *spaced[2:])
    deal = blindplayer.decide(native.backend().blind_search, Turn(full, 0, 10), SMALL)
    assert (deal.kind, deal.line, deal.exhausted) == (Kind.DEAL, (), True)
    assert (
        blindplayer.decide(native.backend().blind_search, Turn(full, 0, 0), SMALL).kind is Kind.LOST
    )


def test_a_turn_ranks_its_candidates_best_first_each_line_once() -> None:
    """The line played comes first; the others follow by the value they reach."""
    table = _turns_in(5, 2, 3)
    view = table.view()
    piles = view.piles()
    at = Turn(piles, len(view.removed), view.hand, Mode.KEEP)
    turn = blindplayer.decide(native.backend().blind_search, at, Limit(500), view.unseen())
    assert turn.kind is Kind.LINE and len(turn.candidates) > 2
    assert turn.candidates[0].line == turn.line
    others = [c.score for c in turn.candidates[1:]]
    assert others == sorted(others, reverse=True)
    assert len({c.line for c in turn.candidates}) == len(turn.candidates)


def test_known_face_down_cards_are_played_past_as_any_move() -> None:
    """A face-down card the player knows (a position's, 'assume') is its code plus
    FACE_DOWN: a line turning it up goes on with it (the 6h onto the 7h turns up the 5s,
    which goes onto the 6s: a space got);
    unknown, the line can do nothing with it."""
    aces = [bytes([33])] * 7
    known: State = (bytes([64 + 5, 22]), bytes([23]), bytes([61, 6]), *aces)  # 6h, 7h, Kc 6s
    line = blindplayer.decide(native.backend().blind_search, Turn(known, 0, 0), SMALL).line
    assert line[:1] == (Move(0, 1, 1),) and Move(0, 2, 1) in line
    end, _removed, turned = _follow(known, 0, line)
    assert not turned and not end[0]
    unknown = (bytes([64, 22]), *known[1:])
    assert (
        Move(0, 2, 1)
        not in blindplayer.decide(native.backend().blind_search, Turn(unknown, 0, 0), SMALL).line
    )


def test_a_space_is_spent_to_turn_up_a_card_when_it_comes_back_often_enough() -> None:
    """The manual's first problem, as the bench's player sees it: the best sure line (the
    As onto the 2s) is worth more than any line that moves a run into the space to turn a
    card up, counting the space as lost; but the space comes back for half the cards tried,
    so the player digs column 3, with the deuces swapped first (an 8 turned up there then
    takes column 10's 7-2d). Over every card it could be, the space comes back for 17 of
    32 and play goes on for 26 of 32; 23 of 32 without the swap."""
    game = load_position(examples.find("problem-1")).to_game()
    piles = encode(game).piles
    unseen = [card for card, copies in enumerate(game.pool) for _ in range(copies)]
    turn = Turn(piles, 0, len(game.stock), Mode.KEEP)
    decision = blindplayer.decide(native.backend().blind_search, turn, Limit(10_000), unseen)
    assert decision.line[:5] == (
        Move(9, 4, 1),  # As onto the 2s
        Move(9, 1, 1),  # the deuces swapped through the space
        Move(5, 9, 1),
        Move(1, 5, 1),
        Move(2, 1, 3),  # the 8-6s into the space: column 3's card turns up
    )
    cards = [(card, copies) for card, copies in enumerate(game.pool) if copies]
    swapped = blindplayer.reveal_of(piles, decision.line[:5], 0)
    plain = blindplayer.reveal_of(piles, (Move(9, 4, 1), Move(2, 1, 3)), 0)
    assert swapped is not None and plain is not None
    judged = blindplayer.contingency(native.backend().blind_search, turn, swapped, cards)
    assert (judged.back, judged.on) == (17 / 32, 26 / 32)
    judged = blindplayer.contingency(native.backend().blind_search, turn, plain, cards)
    assert (judged.back, judged.on) == (17 / 32, 23 / 32)
    assert blindplayer.decide(native.backend().blind_search, turn, Limit(10_000)).line == (
        Move(9, 4, 1),
    )  # without the unseen cards weighed, the sure line
