"""Hints: the best next move by search, and the manual's reason for it."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest

from spider_cli.analysis import hints, native
from spider_cli.analysis.bench import blind
from spider_cli.analysis.chance import Level, levels
from spider_cli.analysis.limits import Limit
from spider_cli.app import examples
from spider_cli.app.session import Session
from spider_cli.app.words.advice import advice_text, hint_text
from spider_cli.language import commands as cmd
from spider_cli.language.files.positions import load_position
from spider_cli.language.notation import parse_command
from spider_cli.rules.cards import UNKNOWN, Card
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import Action, Game, Move, Remove
from spider_cli.rules.errors import SpiderError
from tests.analysis.test_solver import stop_clocks

BLOCKERS = ["Kd Ad", "Kc Ac", "Kd Ac", "Kc Ad", "Kh Ah", "Ks As"]
"""Piles that never help: an Ace (nothing goes on it) on a King (it cannot leave its pile)."""


def table(piles: list[str], removed: tuple[int, ...] = (), hand: bool = True) -> Game:
    """A game from piles written top to bottom ("--" an unknown face-down card); the other
    cards are unknown, in the hand, or (``hand=False``) face down on top of pile 10."""
    lists = [[UNKNOWN if w == "--" else Card.parse(w) for w in text.split()] for text in piles]
    down = [sum(1 for c in p if c == UNKNOWN) for p in lists]
    rest = 104 - sum(len(p) for p in lists) - 13 * len(removed)
    if hand:
        return Game(lists, down, [UNKNOWN] * rest, removed)
    lists[9] = [UNKNOWN] * rest + lists[9]
    down[9] += rest
    return Game(lists, down, [], removed)


def said(game: Game, **options: Any) -> tuple[hints.Advice, str]:
    """The hint for ``game`` (``options``: :func:`hints.hint`'s), and its words (the app's,
    before the choice's rank and the note on ``apply``)."""
    advice = hints.hint(game, **options)
    return advice, advice_text(game, advice)


def test_a_won_game_needs_nothing() -> None:
    advice, text = said(table([""] * 10, removed=(0, 0, 1, 1, 2, 2, 3, 3)))
    assert advice.kind is hints.HintKind.WON and text.startswith("the game is won")


def test_a_complete_suit_is_removed() -> None:
    spades = "Ks Qs Js 10s 9s 8s 7s 6s 5s 4s 3s 2s As"
    advice, text = said(table([spades, *BLOCKERS, "-- 9c", "-- 9d", "-- 7h"]))
    assert text.startswith("remove the spades from 1: completes the spades")
    assert advice.action == Remove(0)


def test_a_natural_move_that_turns_up_a_card() -> None:
    advice, text = said(table(["-- 5h", "Ks 6s", "Kh 6h", *BLOCKERS, "Qc"]))
    assert text == "5h from 1 to 3: a natural move; turns up a card"
    assert advice.action == Move(0, 2, 1)


def test_top_down_among_unnatural_moves() -> None:
    _advice, text = said(table(["-- 5h", "-- 9c", "Ks 6s", "Kh 10d", *BLOCKERS]))
    assert text == "9c from 2 to 4: top down; turns up a card"


def test_getting_a_space_and_turning_up_a_card() -> None:
    """The two do not touch each other: the player turns up the card first, and gets the
    space in the same line (the old hint got the space first)."""
    _advice, text = said(table(["-- 5h", "Ks 6s", "Ah", "Kh 2c", *BLOCKERS]))
    assert text == "5h from 1 to 2: top down; turns up a card"
    _spaced, text = said(table(["-- 5h", "Ks 6s", "Ah", "Kh 2c", *BLOCKERS], hand=False))
    assert "gets a space" in text or "turns up a card" in text


def test_turning_up_a_card_without_using_the_space() -> None:
    _advice, text = said(table(["-- 5h", "Ks 6s", "", *BLOCKERS, "Qc"]))
    assert text == "5h from 1 to 2: turns up a card and keeps the space"


def test_freeing_a_king_on_the_way_to_a_card() -> None:
    _advice, text = said(table(["-- Qs", "Kh 5h", "Ks 6c", *BLOCKERS, "9d"]))
    assert text.startswith("5h from 2 to 3: frees a King; turns up a card (2 moves")


def test_preparing_a_contingency() -> None:
    """The manual's first problem in small: swap the deuces through the space first, so
    that an 8 turned up under the 8-7s could take the 7-2d (and give the space back)."""
    kings = ["Kd Kc", "Kh Ks", "Kd Kc", "Kh Ks"]  # only a space could take these
    game = table(["-- 8s 7s", "7d 6d 5d 4d 3d 2c", "Qh 3c 2d", "", *kings, "Jc Jc", "5h 5h"])
    _advice, text = said(game)
    move, reasons = text.split(": ", 1)
    assert move in ("2c from 2 to 4", "2d from 3 to 4")  # one deuce into the space
    assert reasons.startswith("prepares a contingency; turns up a card")
    line = reasons.split("moves: ")[1].split(")")[0].split(", ")
    assert {"2c from 4 to 3", "2d from 4 to 2"} & set(line)  # ... and the other across
    assert line[-1].startswith("8-7s from 1 to")


def test_the_manuals_first_problem_swaps_the_deuces_before_digging_column_3() -> None:
    """Problem 1 as the manual plays it: the player spends the space to dig column 3, since
    the space comes back for enough of the cards it could turn up there, with the deuces
    swapped first, so that an 8 turned up could take column 10's 7-2d and another card
    would turn up (before the player weighed contingencies, it only built the runs here)."""
    game = load_position(examples.find("problem-1")).to_game()
    _advice, text = said(game)
    move, reasons = text.split(": ", 1)
    assert move.startswith("As from 10 to")
    assert reasons.startswith("prepares a contingency")
    line = reasons.split("moves: ")[1].split(")")[0].split(", ")
    assert line[-1] == "8-6s from 3 to 2"
    assert {"2c from 10 to 6", "2d from 6 to 10"} & set(line)
    then = "another card turns up for 81% of the cards it could be, against 72% turning it up"
    assert then + " at once" in reasons


def test_a_longer_search_before_settling_for_a_natural_move() -> None:
    """Problem 5: nothing comes of the short look-ahead, but a space can be got in a longer
    line (the manual's first order of business there), so the hint is not a mere natural
    move."""
    game = load_position(examples.find("problem-5")).to_game()
    _advice, text = said(game)
    assert text.startswith("9s from 5 to 3: a natural move; gets a space (")


def test_a_deal_is_due_when_nothing_helps() -> None:
    advice, text = said(table([*BLOCKERS, "-- 9c", "-- 9d", "-- 7h", "-- 5c"]))
    assert advice.deal_due and text == "nothing helps now: a deal is due ('deal')"
    _spaced, text = said(table([*BLOCKERS, "-- 9c 7d", "-- 9d 5h", "-- 7h 3s", ""]))
    assert "every space must be filled first" in text


def test_the_game_is_lost_when_nothing_helps_and_the_hand_is_empty() -> None:
    lost = table([*BLOCKERS, "-- 9c 7d", "-- 9d 5h", "-- 7h 3s", "Qc"], hand=False)
    assert said(lost)[1] == "nothing helps and the hand is empty: the game is lost"


def test_moves_that_lead_nowhere_with_an_empty_hand_look_lost() -> None:
    game = table(["Ks 5h", "Kh 6c", *BLOCKERS, "-- 9c 7d", "-- 9d 3s"], hand=False)
    _advice, text = said(game)
    assert "a weak move, the best there is: nothing turns up a card, gets a space or " in text
    assert "removes a suit in any line" in text
    assert "the game looks lost" in text


def test_a_natural_move_when_nothing_else_helps() -> None:
    _advice, text = said(table(["Ks 5h", "Kh 6h", *BLOCKERS, "-- 9c 7d", "-- 9d 3s"]))
    assert text.startswith("5h from 1 to 2: a natural move")


def test_the_manuals_opening_move_is_the_natural_jack() -> None:
    """The manual opens with the Jack onto the Queen: the highest card that can move, and
    the only natural move."""
    start = load_position(examples.folder() / "intro-deal.txt").to_game()
    _advice, text = said(start)
    assert text.startswith("Jh from 8 to 9: a natural move")


def test_hint_then_apply_plays_the_move() -> None:
    session = Session.new_game(seed=0)
    session.execute("load problem-1")
    text = session.execute("hint").text
    move = text.split(":")[0]
    line = session.analysis.found[:]
    assert session.execute("apply").text.startswith(move)
    assert session.game.moves_made == 1  # the move named, not the whole line
    if len(line) > 1:
        assert f"'apply all' all {len(line)}" in text
        session.execute("apply all")
        assert session.game.move_stack == line
    with pytest.raises(SpiderError):
        session.execute("apply")


def test_apply_after_solve_plays_the_whole_line() -> None:
    session = Session.new_game(seed=0)
    session.execute("load problem-1")
    session.execute("solve turn up a card in pile 10, no deal")
    line = session.analysis.found[:]
    assert len(line) > 1
    session.execute("apply")
    assert session.game.move_stack == line


def test_a_numbered_deal_gets_a_hint_from_what_its_player_sees() -> None:
    session = Session.new_game(seed=11)
    reply = session.execute("hint").text
    assert "turns up a card" in reply or "natural" in reply or "deal" in reply


def test_a_longer_search_when_the_look_ahead_finds_nothing() -> None:
    """Problem 3: nothing but a weak line comes of the player's searches, but the hearts
    can be removed in a longer line (the manual's way uses the space to swap runs): the
    hint says so, and how to see it."""
    game = load_position(examples.find("problem-3")).to_game()
    advice, text = said(game)
    assert "a weak line, the best the player has" in text
    assert "a longer search sees a way toward removing the hearts in" in text
    assert "'solve remove hearts, no deal' lists them" in text
    assert advice.action is not None and advice.action in game.legal_moves()


@pytest.mark.parametrize("name", ["problem-1", "problem-5", "problem-4-diamonds-removed"])
def test_the_same_position_always_gets_the_same_hint(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every search of a hint is bounded by positions, none by time: with every clock
    raising, a second hint is the same Advice as the first (problem 1 judges contingencies,
    problem 5 and problem 4 after the diamonds need the longer search, the second in its
    second round)."""
    game = load_position(examples.find(name)).to_game()
    first = hints.hint(game)
    stop_clocks(monkeypatch)
    assert hints.hint(game) == first


def test_nothing_found_is_not_called_nothing_helps(monkeypatch: pytest.MonkeyPatch) -> None:
    """When neither search examined everything, the hint does not claim that nothing helps."""
    game = load_position(examples.find("problem-3-after-hearts")).to_game()
    _advice, text = said(game, budget=Limit(500), longer=2_000)
    assert "a weak line" in text and "within 500 positions" in text
    assert "nothing helps" not in text and "in any line" not in text


def test_following_the_hints_never_repeats_a_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """1-suit deal 3 used to loop: "3s from 7 to 2", then "3s from 2 to 7", again and again.
    Hint and apply, dealing when a deal is due, for 150 moves: no position comes twice.
    The searches get fewer positions, to keep the test quick (loops do not need them):
    with these, hints that did not avoid the positions the game has been in would come back
    to one at move 33 on the compiled core."""
    monkeypatch.setattr(hints, "LONGER_BUDGET", 5_000)
    monkeypatch.setattr(hints, "TURN_LIMIT", Limit(2_000))
    session = Session.new_game(3, 1)
    seen = {session.game.key()}
    moves = 0
    while moves < 150 and not session.status().won:
        advice = session.analysis.hint()
        if advice.deal_due:
            played = [session.deal()]
        else:
            assert advice.actions, advice
            played = session.apply()
        for _ in played:
            moves += 1
        key = session.game.key()
        assert key not in seen, f"move {moves} goes back to an earlier position"
        seen.add(key)
    assert moves >= 150 or session.status().won


def test_apply_plays_the_line_in_parts() -> None:
    """A hint's whole line is kept: 'apply 1' plays its first move, 'apply all' the rest."""
    session = Session.new_game(3, 1)
    for _ in range(40):
        advice = session.analysis.hint()
        if len(advice.actions) > 1:
            break
        if advice.actions:
            session.apply()
        else:
            session.deal()
    line = list(session.analysis.hint().actions)
    assert len(line) > 1
    first = session.apply(1)
    assert [p.action for p in first] == line[:1]
    rest = session.apply(whole=True)
    assert [p.action for p in rest] == line[1:]
    with pytest.raises(SpiderError, match="no line to apply"):
        session.apply()


def test_the_same_position_gets_the_same_hint_and_next_gives_the_next_choice() -> None:
    session = Session.new_game(3, 1)
    first = session.analysis.hint()
    assert first.actions and session.analysis.hint() == first  # asked again: the same hint
    second = session.analysis.hint(following=True)
    assert second.choice == 2 and second.actions[0] != first.actions[0]
    assert hint_text(session.analysis.analysed(), second).startswith("choice 2: ")
    third = session.analysis.hint(following=True)
    assert third.choice == 3 or third.again
    deeper = session.analysis.hint(deeper=True)  # its own best line, not a choice after the others
    assert deeper.choice == 1 and not deeper.again
    chosen = session.analysis.hint(following=True)  # 'hint next': the deeper search's list
    assert chosen.choice == 2
    again = Session.new_game(3, 1)
    again.analysis.hint(deeper=True)
    assert again.analysis.hint(deeper=True, following=True) == chosen
    assert session.apply() and session.game.moves_made == 1  # the move named
    if len(chosen.actions) > 1:
        session.apply(whole=True)
    assert session.game.moves_made == len(chosen.actions)


def _benchs_moves(
    monkeypatch: pytest.MonkeyPatch, deal: int, suits: int, level: Level, moves: int
) -> list[Action]:
    """The first ``moves`` moves 'spider bench --blind' plays of our deal ``deal`` at
    ``level``, at the budget the hints get here."""
    monkeypatch.setattr(hints, "TURN_LIMIT", Limit(600))
    monkeypatch.setattr(hints, "LONGER_BUDGET", 5_000)  # (what lies further on: words only)
    monkeypatch.setattr(blind, "MAX_MOVES", moves)
    played: list[Action] = []
    play = blind.Dealer.play

    def record(table: blind.Dealer, action: Action) -> bool:
        played.append(action)
        return play(table, action)

    monkeypatch.setattr(blind.Dealer, "play", record)
    blind.play_blind(blind.Dealer(DealSource(Source.OURS, deal, suits)), Limit(600), level)
    return played


def _hints_followed(session: Session, moves: int) -> tuple[list[Action], list[str]]:
    """The moves 'hint' then 'apply all' (or 'deal' when a deal is due) play, until there
    are ``moves``, and the hints' words."""
    ours: list[Action] = []
    words: list[str] = []
    while len(ours) < moves:
        reply = session.execute("hint")
        advice = reply.result
        assert isinstance(advice, hints.Advice) and (advice.actions or advice.deal_due), advice
        words.append(reply.text)
        ours += [
            p.action for p in ([session.deal()] if advice.deal_due else session.apply(whole=True))
        ]
    return ours[:moves], words


def test_hint_and_apply_play_the_benchs_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """One player: 'hint' then 'apply all' (or 'deal' when a deal is due) play a numbered
    deal move for move as 'spider bench --blind' does at the hint's budget, the value of a
    space carried from one hint to the next as the bench carries it."""
    played = _benchs_moves(monkeypatch, 6, 2, hints.hint_level(), 80)
    assert _hints_followed(Session.new_game(6, 2), len(played))[0] == played


def test_at_the_judge_level_hint_and_apply_play_the_benchs_judge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """'set level judge': 'hint' then 'apply all' play a numbered deal move for move as
    'spider bench --blind --level judge' does, and the hint says what the judge found. (At
    small settings, so that the test is quick; on the Python path the judge level's hint is
    the quick level's, see test_chance_search.)"""
    if not native.backend().compiled:
        pytest.skip("on the Python path a hint at the judge level plays the quick level")
    small = replace(levels.JUDGING, samples=12, caps=(20_000,))
    monkeypatch.setattr(levels, "JUDGING", small)
    monkeypatch.setattr(hints, "JUDGING", small)
    played = _benchs_moves(monkeypatch, 6, 1, Level.JUDGE, 40)
    session = Session.new_game(6, 1)
    assert session.execute("set level judge").text == "level is judge"
    ours, words = _hints_followed(session, len(played))
    assert ours == played
    assert any("judged on" in text and "every card known" in text for text in words), words


def test_hint_deeper_searches_ten_times_longer() -> None:
    assert parse_command("hint deeper") == cmd.Hint(deeper=True)
    assert parse_command("hint") == cmd.Hint()
    game = load_position(examples.find("problem-1")).to_game()
    plain, deeper = Session(game.copy()), Session(game.copy())
    assert deeper.execute("hint deeper").result.positions > plain.execute("hint").result.positions


def test_auto_never_carries_cards_through_a_pile_when_one_move_takes_them_there() -> None:
    """Deal 2 of one suit, on the core (whose hints look ahead): one hint plays 5s from 9
    to 3, the next would carry it on from 3 to 7; auto plays 5s from 9 to 7 instead, to the
    same position. (The Python path's hints do not look ahead, and play another game.)"""
    session = Session.new_game(2, 1)
    shown: list[str] = []
    auto = session.auto(12, each=lambda played: shown.append(played.text))
    texts = [p.text for p in auto.moves]
    assert shown == texts  # each move shown once, as it stands: none shown, then straightened
    if native.backend().compiled:
        assert "5s from 9 to 7" in texts and "5s from 9 to 3" not in texts
    assert [entry.text for entry in session.history()] == texts
    for before, after in itertools.pairwise(auto.moves):
        first, then = before.action, after.action
        assert not (
            isinstance(first, Move)
            and isinstance(then, Move)
            and then.src == first.dst
            and then.count == first.count
        )
