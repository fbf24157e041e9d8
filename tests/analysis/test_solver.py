"""The solver: its moves are the engine's, its proofs agree with a brute force built on the
engine alone, its goals and constraints mean what they say, and it answers the manual."""

from __future__ import annotations

import functools
import io
import itertools
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis import compact, native
from spider_cli.analysis.bench import full as bench
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.search import goal as goalsearch
from spider_cli.analysis.solve import answers, autoplay, contingencies, proofs, solver
from spider_cli.app import examples
from spider_cli.app.session import Session
from spider_cli.app.words.findings import (
    answer_summary,
    answer_text,
    contingency_text,
    play_text,
    proof_text,
    report_text,
)
from spider_cli.cli.main import main
from spider_cli.language.commands import Solve
from spider_cli.language.files.positions import load_position
from spider_cli.language.notation import parse_command
from spider_cli.rules.cards import UNKNOWN, Card
from spider_cli.rules.engine import DEAL, Action, Game, Move, Remove
from spider_cli.rules.errors import QuestionError, SpiderError
from spider_cli.rules.goals import Constraints, Goal
from spider_cli.rules.text import move_text


def C(text: str) -> int:
    return Card.parse(text)


def table(piles: list[str], removed: tuple[int, ...] = (), suits: int = 4) -> Game:
    """A game from piles written top to bottom ("--" an unknown face-down card, "[Jh]" a
    known one); every other card of the deck is unknown and in the hand."""
    lists: list[list[int]] = []
    down: list[int] = []
    for text in piles:
        cards = []
        face_down = 0
        for word in text.split():
            if word == "--":
                cards.append(UNKNOWN)
                face_down += 1
            elif word.startswith("["):
                cards.append(C(word[1:-1]))
                face_down += 1
            else:
                cards.append(C(word))
        lists.append(cards)
        down.append(face_down)
    placed = sum(len(p) for p in lists) + 13 * len(removed)
    return Game(lists, down, [UNKNOWN] * (104 - placed), removed, suits)


def example(name: str) -> Game:
    path = examples.find(name)
    assert path is not None, name
    return load_position(path).to_game()


def ask(game: Game, text: str) -> solver.Answer:
    command = parse_command(f"solve {text}")
    assert isinstance(command, Solve)
    return solver.answer(game, command.goal, command.constraints)


# ---------------------------------------------------------------------------------------------
# The solver's moves are the engine's moves


def random_positions(count: int, seed: int) -> list[Game]:
    """Positions from random play on numbered deals, some with unknown cards."""
    rng = random.Random(seed)
    found = []
    for k in range(count):
        game = Game.new(rng.randrange(1000), rng.choice((1, 2, 4)))
        for _ in range(rng.randrange(0, 120)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        found.append(compact.player_view(game) if k % 2 else game)
    return found


@functools.cache
def winning_line(seed: int) -> tuple[Action, ...]:
    """Full-information play's win of one-suit deal ``seed``: eight removals on the way."""
    result = autoplay.play(Game.new(seed, suits=1))
    assert result.won
    return tuple(result.actions)


@st.composite
def reachable_positions(draw: st.DrawFn) -> Game:
    """A position reached from a numbered deal: by random play that favours natural moves
    (some positions as their player sees them), or along a won one-suit deal, half the
    time just before one of its removals (a complete suit at a pile's bottom)."""
    if draw(st.booleans()):
        seed = draw(st.integers(0, 2))
        line = winning_line(seed)
        removals = [k for k, action in enumerate(line) if type(action) is Remove]
        stop = draw(st.sampled_from(removals) if draw(st.booleans()) else st.integers(0, len(line)))
        game = Game.new(seed, suits=1)
        for action in line[:stop]:
            game.push(action)
        return game
    game = Game.new(draw(st.integers(0, 999)), draw(st.sampled_from((1, 2, 4))))
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 250))):
        moves = game.legal_moves()
        if not moves:
            break
        natural = [m for m in moves if type(m) is Move and game.is_natural(m)]
        game.push(rng.choice(natural if natural and rng.random() < 0.8 else moves))
    return compact.player_view(game) if draw(st.booleans()) else game


@settings(max_examples=150, deadline=None)
@given(reachable_positions())
def test_compact_runs_and_complete_suits_are_the_engines(game: Game) -> None:
    """compact.run_length and compact.completes_suit say what Game.run_length and the
    engine's removals say, pile by pile."""
    piles = compact.encode(game).piles
    legal = game.legal_moves()
    for i, pile in enumerate(piles):
        assert compact.run_length(pile) == game.run_length(i)
        assert compact.completes_suit(pile) == (Remove(i) in legal)


@settings(max_examples=150, deadline=None)
@given(reachable_positions())
def test_moves_and_their_results_are_the_engines(game: Game) -> None:
    """compact.actions makes the engine's moves and removals (all but the deal), and
    compact.apply the engine's positions, turning up an unknown card just when it does."""
    start = compact.encode(game)
    ours = list(compact.actions(start.piles, game.spaces()))
    engine = [a for a in game.legal_moves() if a is not DEAL]
    assert sorted(ours) == sorted(engine)
    for action in engine:
        new, _turned, outcome = compact.apply(start.piles, action)
        assert (outcome == compact.REVEAL) == bool(game.unknown_reveals(action))
        if outcome != compact.REVEAL:
            game.push(action)
            assert tuple(new) == compact.encode(game).piles
            game.pop()


def test_the_positions_reach_complete_suits() -> None:
    """The property tests above see complete suits: every win has eight removals."""
    line = winning_line(0)
    assert sum(type(action) is Remove for action in line) == 8


def test_pruned_moves_lose_nothing_but_pile_order() -> None:
    """Moves into a second space, or of a whole pile into a space, only permute the piles."""
    for game in random_positions(40, seed=9):
        start = compact.encode(game)
        spaces = [i for i, p in enumerate(game.piles) if not p]
        kept = {
            tuple(sorted(compact.apply(start.piles, a)[0]))
            for a in compact.actions(start.piles, spaces[:1], whole_into_space=False)
        }
        every = {
            tuple(sorted(compact.apply(start.piles, a)[0]))
            for a in compact.actions(start.piles, spaces)
        }
        assert kept | {tuple(sorted(start.piles))} >= every


# ---------------------------------------------------------------------------------------------
# Proofs agree with a brute force that uses the engine alone


class TooBig(AssertionError):
    """The brute force would take too long for a test."""


def brute_force(
    game: Game,
    met: Callable[[Game, Game | None], bool],
    limit: int = 100_000,
    allowed: Callable[[Game, Action], bool] | None = None,
    revealing: Callable[[Game, Action], bool] | None = None,
    pinned: int | None = None,
) -> bool:
    """Every position reachable without dealing and without turning up an unknown card,
    through the engine's ``legal_moves``, ``push`` and ``pop`` (positions that differ only
    in the order of their piles counted once): is there one where ``met(start, game)``
    holds (or a move that turns up an unknown card, when ``met(start, None)``, or when
    ``revealing(game, move)`` if given)? ``allowed(game, move)``, if given, says whether
    the position a move has just made may be kept; the ``pinned`` pile (0-based), if given,
    keeps its place in that count. Raises :class:`TooBig` past ``limit``."""

    def key(g: Game) -> tuple:
        piles = sorted((tuple(p), d) for p, d in zip(g.piles, g.down, strict=True))
        own = None if pinned is None else (tuple(g.piles[pinned]), g.down[pinned])
        return tuple(piles), tuple(sorted(g.removed)), own

    work = game.copy()
    seen = {key(work)}
    stack = [iter(work.legal_moves())]
    while stack:
        action = next(stack[-1], None)
        if action is None:
            stack.pop()
            if stack:
                work.pop()
            continue
        if action is DEAL:
            continue
        if work.unknown_reveals(action):
            if revealing(work, action) if revealing else met(game, None):
                return True
            continue
        work.push(action)
        if allowed is not None and not allowed(work, action):
            work.pop()
            continue
        if met(game, work):
            return True
        position = key(work)
        if position in seen:
            work.pop()
            continue
        seen.add(position)
        if len(seen) > limit:
            raise TooBig("brute force too big for a test")
        stack.append(iter(work.legal_moves()))
    return False


def scatter(rng: random.Random, cards: list[int], unknown: float, top: bool = False) -> list[str]:
    """The cards shuffled into the ten piles (each gets one), written for :func:`table`,
    some face down: with chance ``unknown`` one of them is unknown (the deepest, or with
    ``top`` the one nearest the face-up cards)."""
    rng.shuffle(cards)
    piles: list[list[int]] = [[card] for card in cards[:10]]
    for card in cards[10:]:
        piles[rng.randrange(10)].append(card)
    texts = []
    for pile in piles:
        face_down = rng.randrange(len(pile)) if len(pile) > 1 else 0
        words = [f"[{Card(c)}]" if k < face_down else str(Card(c)) for k, c in enumerate(pile)]
        if face_down and rng.random() < unknown:
            words[face_down - 1 if top else 0] = "--"
        texts.append(" ".join(words))
    return texts


def small_position(rng: random.Random, unknown: float = 0.3) -> Game:
    """A set of spades and a King dealt at random into the ten piles (each gets one),
    some cards face down (the deepest unknown with chance ``unknown``): small enough to
    list every reachable position."""
    texts = scatter(rng, [Card.of(r, 0) for r in range(1, 14)] + [C("Kh")], unknown)
    return table(texts, removed=(1, 2, 3))


GOALS: dict[str, tuple[Goal, Constraints, Callable[[Game, Game | None], bool]]] = {
    "space": (
        Goal("space"),
        Constraints(no_deal=True),
        lambda start, now: now is not None and len(now.spaces()) > len(start.spaces()),
    ),
    "turn up": (
        Goal("turn up"),
        Constraints(no_deal=True),
        lambda start, now: now is None or sum(now.down) < sum(start.down),
    ),
    "remove spades": (
        Goal("remove", steps=((0,),)),
        Constraints(no_deal=True),
        lambda start, now: now is not None and now.removed.count(0) > start.removed.count(0),
    ),
    "free the 5s": (
        Goal("free", card=int(C("5s"))),
        Constraints(no_deal=True),
        lambda start, now: (
            now is not None
            and any(
                len(p) > d and p[-1] == C("5s") for p, d in zip(now.piles, now.down, strict=True)
            )
        ),
    ),
}


@pytest.mark.parametrize("seed", [0, 4, 7, 14, 28])
@pytest.mark.parametrize("goal", sorted(GOALS))
def test_answers_agree_with_brute_force(seed: int, goal: str) -> None:
    game = small_position(random.Random(seed))
    target, constraints, met = GOALS[goal]
    answer = solver.answer(game, target, constraints)
    assert answer.status == ("possible" if brute_force(game, met) else "impossible")
    if answer.found:  # the line really gets there (its moves were checked by the engine)
        work = game.copy()
        for action in answer.actions[:-1]:
            work.push(action)
        last = answer.actions[-1] if answer.actions else None
        if last is not None and work.unknown_reveals(last):
            assert met(game, None)
        else:
            if last is not None:
                work.push(last)
            assert met(game, work)


# ---------------------------------------------------------------------------------------------
# Goals and constraints


# Kings head piles 1-8 (they cannot move without a space); piles 9 and 10 vary.
KINGS = ["Kd 5h", "Kh 7s", "Ks 9d", "Kc 2c", "Kd 3h", "Kh 4s", "Ks 8d", "Kc 6c"]


def test_turn_up_ends_the_line_at_the_unknown_card() -> None:
    game = table([*KINGS, "-- 4c", "-- Jd"])
    answer = ask(game, "turn up a card")
    assert answer.texts == ["4c from 9 to 1"] and answer.reveal == 9
    assert ask(game, "turn up a card in pile 10").status == "impossible"
    assert ask(game, "turn up a card in pile 1").status == "impossible"  # nothing face down
    with pytest.raises(QuestionError, match="there is no pile 11"):
        ask(game, "turn up a card in pile 11")


def test_turn_up_in_a_named_pile_and_keeping_the_space() -> None:
    game = table([*KINGS[:7], "-- Kc", "-- 4c", ""])
    assert ask(game, "turn up a card in pile 9").texts[-1] == "4c from 9 to 1"
    assert ask(game, "turn up a card in pile 8").texts == ["Kc from 8 to 10"]
    assert ask(game, "turn up a card in pile 8, keep 1 space").status == "impossible"
    assert ask(game, "turn up a card, keep 1 space").texts == ["4c from 9 to 1"]


def test_get_a_space_means_one_more_than_now() -> None:
    game = table([*KINGS, "-- Jd", "Ah"])
    assert ask(game, "get a space").texts == ["Ah from 10 to 4"]
    assert ask(table([*KINGS, "-- Jd", "-- Ah"]), "get a space").status == "impossible"
    spaced = table([*KINGS, "", "Ah"])
    assert ask(spaced, "get a space").texts == ["Ah from 10 to 4"]  # a second space


def suit_pile(suit: str, top: int = 13, bottom: int = 1) -> str:
    names = {1: "A", 11: "J", 12: "Q", 13: "K"}
    return " ".join(f"{names.get(r, r)}{suit}" for r in range(top, bottom - 1, -1))


BLOCKERS = ["-- Ad", "-- Ac", "-- Ad", "-- Ac", "-- Ah", "-- Kd", "-- Kc", "-- Kd"]
"""Eight piles that hardly help: Aces (nothing goes on them) and Kings over unknown cards."""


def test_removals_in_either_order() -> None:
    # the spades lack only their Ace, which lies on the complete hearts
    game = table([suit_pile("s", 13, 2), suit_pile("h") + " As", *BLOCKERS])
    for goal in (
        "remove spades then hearts",
        "remove hearts then spades",
        "remove spades and hearts",
        "remove hearts, no remove spades",
    ):
        assert ask(game, goal).found, goal
    answer = ask(game, "remove hearts then spades")
    assert [t.split(" from ")[0] for t in answer.texts] == [
        "As",
        "remove the hearts",
        "remove the spades",
    ]


def test_removal_order_and_no_remove_are_kept() -> None:
    # the spades' Ace lies under the complete hearts: the hearts must go first
    game = table([suit_pile("s", 13, 2), "As " + suit_pile("h"), *BLOCKERS])
    assert ask(game, "remove hearts then spades").found
    assert ask(game, "remove spades").found  # removing the hearts on the way is allowed
    assert ask(game, "remove spades then hearts").status == "impossible"
    assert ask(game, "remove spades, no remove hearts").status == "impossible"
    assert ask(game, "remove spades, no remove").status == "impossible"
    assert ask(game, "remove hearts, no remove").found  # the goal's own removal is allowed


def test_no_new_space_and_no_turn_up() -> None:
    game = table([*KINGS, "-- 3c", "Ah"])
    assert ask(game, "turn up a card").found
    assert ask(game, "turn up a card, no turn up").status == "impossible"
    assert ask(game, "get a space").found
    assert ask(game, "get a space, no new space").status == "impossible"
    # "no new space" still lets a line use a space it gives back
    spaced = table([*KINGS[:7], "Kc 6c 4h", "-- 5s", ""])
    answer = ask(spaced, "turn up a card, no new space")
    assert answer.found and answer.reveal == 9


def test_deals_from_a_known_hand_are_used_unless_forbidden() -> None:
    game = Game.new(3, suits=1)
    answer = solver.answer(game, Goal("turn up"), Constraints())
    assert answer.found
    for_dealing = Game.new(3, suits=1)
    assert solver.answer(
        for_dealing, Goal("win"), Constraints(no_deal=True, limit=2_000)
    ).status in ("unknown", "impossible")


def test_a_limit_gives_unknown_with_the_reason() -> None:
    answer = ask(example("problem-3"), "remove clubs then hearts, no deal, limit 2000")
    assert answer.status == "unknown"
    assert "limit of 2,000 positions" in answer_summary(answer)


def test_the_answer_text_numbers_the_line() -> None:
    game = table(["-- 5h", "6s", "Ks", "", "", "", "", "", "", ""], removed=(0, 1, 2, 3))
    text = answer_text(ask(game, "turn up a card"))
    assert text.splitlines()[0].startswith("possible in 1 move (")
    assert "   1. 5h from 1 to 2" in text and "turns up an unknown card in pile 1" in text


# ---------------------------------------------------------------------------------------------
# The manual's questions


FAST = {
    ("problem-1", "turn up a card", "no deal"),
    ("problem-1", "turn up a card in pile 3", "no deal"),
    ("problem-1", "turn up a card in pile 10", "no deal"),
    ("problem-5-jacks-swapped", "remove spades", "no deal, no new space"),
    ("problem-5", "remove hearts", "no deal"),
    ("problem-1-after", "get a space", "no deal"),
    ("problem-1-after", "turn up a card in pile 10", "no deal"),
    ("problem-1-if-jack", "get a space", "no deal"),
    ("problem-1-if-4", "get a space", "no deal"),
    ("problem-1-if-king", "get a space", "no deal"),
    ("problem-1-if-9", "get a space", "no deal"),
    ("problem-1-column-10-if-8", "get a space", "no deal"),
    ("problem-1-column-10-if-9", "get a space", "no deal"),
    ("problem-1-no-hedge-8d", "turn up a card in pile 10", "no deal"),
    ("problem-2-turned-up", "get a space", "no deal"),
    *(
        ("problem-5", f"get a space in pile {pile}", "no deal, no remove")
        for pile in (1, 4, 5, 6, 7, 8, 9, 10)
    ),
}
"""Questions answered within the test limit (the others, and the time each takes, are in
BENCHMARKS.md: ``python benchmarks/bench_solver.py questions``)."""


def recorded_questions() -> list[tuple[str, examples.Asked]]:
    return [(e.name, q) for e in examples.catalogue() for q in e.questions]


@pytest.mark.parametrize(
    ("name", "question"),
    recorded_questions(),
    ids=lambda item: item if isinstance(item, str) else item.solve,
)
def test_the_solver_never_contradicts_the_manual(name: str, question: examples.Asked) -> None:
    """Every recorded question: the manual's answer, or "unknown" at a small limit; the
    fast ones must be answered outright."""
    text = ", ".join(part for part in (question.solve, question.constraints) if part)
    answer = ask(example(name), f"{text}, limit 5000")
    if (name, question.solve, question.constraints) in FAST:
        assert answer.status == question.answer
    else:
        assert answer.status in (question.answer, "unknown")


def test_a_proof_by_the_complete_search_says_how_many_positions_it_closed() -> None:
    # Problem 1 without the hedge: 1,440 positions, none turns up a card in pile 10 (the
    # same count on both paths, and from the complete search alone: the count at several
    # moments, which proves it sooner, is left out).
    command = parse_command("solve turn up a card in pile 10, no deal")
    assert isinstance(command, Solve)
    answer = solver.answer(
        example("problem-1-no-hedge-8d"),
        command.goal,
        command.constraints,
        prove_by_counting=False,
    )
    assert answer.status == "impossible" and answer.reachable == 1_440
    assert answer.positions > answer.reachable  # the quick searches came first
    assert answer_summary(answer).startswith(
        "impossible: the 1,440 positions reachable over the known cards were all examined "
        "and none meets the goal ("
    )


def test_problem_5_with_the_jacks_swapped_the_spades_come_out() -> None:
    answer = ask(example("problem-5-jacks-swapped"), "remove spades, no deal, no new space")
    assert answer.found and answer.texts[-1] == "remove the spades from 8"
    assert answer.positions < 5_000


def test_problem_3_the_hearts_can_be_removed_using_the_one_space() -> None:
    answer = ask(example("problem-3"), "remove hearts, no deal, no turn up")
    assert answer.found and answer.texts[-1].startswith("remove the hearts")


def _on_the_core() -> None:
    """Skip on the Python path: the core's default limit is millions of positions."""
    if not native.backend().compiled:
        pytest.skip("millions of positions: the compiled core's default limit")


def _replayed(game: Game, answer: solver.Answer) -> Game:
    """The game after the answer's line, each action checked by the engine."""
    after = game.copy()
    for action in answer.actions:
        assert not after.why_illegal(action)
        after.push(action)
    return after


def test_problem_4_clubs_then_diamonds_at_the_default_limit() -> None:
    """The clubs of column 7 are a trap (after them the diamonds are impossible): the first
    suit's search must see the diamonds to come, and try column 8 when column 7 fails."""
    _on_the_core()
    game = example("problem-4")
    answer = ask(game, "remove clubs then diamonds, no deal")
    assert answer.found
    removals = [text for text in answer.texts if text.startswith("remove")]
    assert removals == ["remove the clubs from 8", "remove the diamonds from 9"]
    assert _replayed(game, answer).removed_suits() == [3, 2]


def test_problem_3_hearts_then_clubs_at_the_default_limit() -> None:
    """The clubs after the hearts get their share of the whole limit, as the hearts did."""
    _on_the_core()
    answer = ask(example("problem-3"), "remove hearts then clubs, no deal, no turn up")
    assert answer.found and answer.texts[-1].startswith("remove the clubs")


def test_a_small_world_is_closed_before_the_longer_quick_searches() -> None:
    """Problem 4's trap: after the first quick search, the complete search closes all
    156,168 positions within a tenth of the limit (the beam used to take a third first)."""
    _on_the_core()
    answer = ask(example("problem-4-clubs-from-7"), "remove diamonds, no deal")
    assert answer.status == "impossible" and answer.reachable == 156_168
    assert answer.positions == 100_001 + 156_168  # (the first search's share, and one more)


def test_problem_5_hearts_come_out_after_the_spades() -> None:
    """The manual's "possible" for the hearts (column 9 written in), shown in two asks:
    one ask does not find it at the default limit (BENCHMARKS.md says why)."""
    _on_the_core()
    game = example("problem-5-hearts-known")
    spades = ask(game, "remove spades, no deal")
    assert spades.found and spades.texts[-1].startswith("remove the spades")
    after = _replayed(game, spades)
    hearts = ask(after, "remove hearts, no deal")
    assert hearts.found and hearts.texts[-1].startswith("remove the hearts")
    assert 1 in _replayed(after, hearts).removed_suits()


def test_a_detour_of_real_moves_is_cut_out() -> None:
    """A move and its way back, then a move: the line is the last move alone, said again in
    the notation of where it is now played."""
    game = example("problem-1")
    start = game.key()
    there_and_back = None
    for first in game.legal_moves():
        game.push(first)
        back = next((m for m in game.legal_moves() if _returns(game, m, start)), None)
        game.pop()
        if back is not None:
            there_and_back = (first, back)
            break
    assert there_and_back is not None
    last = game.legal_moves()[-1]
    actions = [*there_and_back, last]
    found = solver._without_detours(game, (actions, ["x"] * 3, None))
    assert found == ([last], [move_text(game, last)], None)


def _returns(game: Game, action: Action, start: object) -> bool:
    game.push(action)
    back = game.key() == start
    game.pop()
    return back


def test_a_beam_finds_a_long_removal() -> None:
    """Problem 5's diamonds take a space and over 20 moves: a beam of 300 finds them within
    60,000 positions, on both paths; a beam that runs dry proves nothing."""
    game = example("problem-5-hearts-known")
    search = goalsearch.make_search(game, Goal("remove", steps=((2,),)), Constraints(no_deal=True))
    outcome = solver.astar(search, False, True, Limit(60_000), width=300)
    assert outcome.line is not None and not outcome.exhaustive
    real, texts, _reveal = solver.replay_steps(game, search, [step for _k, step in outcome.line])
    assert texts[-1].startswith("remove the diamonds")
    after = game.copy()
    for action in real:
        after.push(action)
    assert after.removed_suits() == [2]


def test_problem_1_contingencies_are_the_manuals() -> None:
    """The manual's Jack, 4 and King give the space back; a 9 also does when the 8-6s went
    into the space (the 8-6s goes back onto it), an 8 does not."""
    game = example("problem-1")
    prefix, found = contingencies.contingencies(
        game, Goal("space"), Constraints(no_deal=True, limit=3_000)
    )
    assert prefix is None
    column_3 = next(c for c in found if c.text == "8-6s from 3 to 2")
    ranks = {card & 15 for card in column_3.cards("possible")}
    assert {4, 9, 11, 13} == ranks
    assert not {8, 12, 1} & ranks
    report = contingency_text(Goal("space"), prefix, found)
    assert "get a space: possible if it is a 4, 9, Jack or King" in report
    assert contingencies.contingency_status(prefix, found) == "possible"
    hopeless = [
        replace(c, outcomes=[o for o in c.outcomes if o[2].status == "impossible"]) for c in found
    ]
    assert contingencies.contingency_status(prefix, hopeless) == "impossible"


def test_problem_1_after_the_hedge_a_9_or_an_8_depends_on_the_column() -> None:
    """After the hedge both columns dig in one move. A Jack, 4 or King gives the space back
    either way; a 9 only when the 8-6s went into the space, an 8 only when the 7-2d did."""
    game = example("problem-1-hedged")
    prefix, found = contingencies.contingencies(
        game, Goal("space"), Constraints(no_deal=True, limit=3_000)
    )
    assert prefix is None
    ranks = {item.text: {card & 15 for card in item.cards("possible")} for item in found}
    assert ranks == {"8-6s from 3 to 2": {4, 9, 11, 13}, "7-2d from 10 to 2": {4, 8, 11, 13}}
    shares = [item.share("possible") for item in found]
    assert shares == [(17, 32), (15, 32)]  # five 9s unseen, three 8s: column 3 is better


def test_contingencies_without_a_revealing_move_find_one_first() -> None:
    game = table(["-- 5h", "6c 3d", "Kc 4s", *BLOCKERS[:7]])
    prefix, found = contingencies.contingencies(game, Goal("space"), Constraints(no_deal=True))
    assert prefix is not None and prefix.texts == ["3d from 2 to 3", "5h from 1 to 2"]
    assert [c.text for c in found] == ["5h from 1 to 2"]
    assert sum(n for _card, n, _answer in found[0].outcomes) == game.unknown_count()
    with pytest.raises(QuestionError, match="drop 'no turn up'"):
        contingencies.contingencies(game, Goal("space"), Constraints(no_turn_up=True))


# ---------------------------------------------------------------------------------------------
# Full-information play and the bench


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_suit_deals_are_won_with_every_card_known(seed: int) -> None:
    result = autoplay.play(Game.new(seed, suits=1))
    assert result.won and result.texts
    work = Game.new(seed, suits=1)
    for text in result.texts:
        command = parse_command(text)
        from spider_cli.language.notation import resolve

        work.push(resolve(work, command))  # type: ignore[arg-type]
    assert work.is_won()


def test_play_needs_every_card_known() -> None:
    with pytest.raises(ValueError):
        autoplay.play(compact.player_view(Game.new(1)))


def test_bench_figures() -> None:
    assert bench.parse_seeds("3-5") == range(3, 6) and bench.parse_seeds("7") == range(7, 8)
    with pytest.raises(QuestionError, match="empty"):
        bench.parse_seeds("5-3")
    assert bench.percentile([3.0, 1.0, 2.0, 4.0], 0.95) == 4.0
    assert bench.percentile([1.0] * 19 + [9.0], 0.95) == 1.0
    from spider_cli.app.words.bench import known_report, progress_bar
    from spider_cli.cli.progressbar import ProgressBar

    assert progress_bar(1, 4, 1, 2.0, width=8) == "[##......] 1/4 won 1 (100.0%) 2 s"
    err = io.StringIO()
    events: list[bench.Event] = []
    bar = ProgressBar(err)

    def heard(event: bench.Event) -> None:
        events.append(event)
        bar(event)

    summary, results = bench.run(range(2), suits=1, jobs=1, progress=heard)
    assert summary.won == 2 and summary.rate == 100.0 and len(results) == 2
    assert events[0] == bench.Began(0, 2, 0, 1) and events[-1] == bench.Ended()
    assert [(e.done, e.won) for e in events if isinstance(e, bench.Finished)] == [(1, 1), (2, 2)]
    assert "2/2 won 2" in err.getvalue()
    assert "won 2 (100.0%) with every card known, at most 20,000,000 positions each" in (
        known_report(summary, autoplay.PLAY_LIMIT)
    )
    assert "at most 5 positions and 2 s each" in known_report(summary, 5, 2.0)


# ---------------------------------------------------------------------------------------------
# Commands: solve, apply, the CLI


def test_solve_commands_parse() -> None:
    command = parse_command("solve remove h then c, no deal keep 2 spaces, no remove s")
    assert command == Solve(
        Goal("remove", steps=((1,), (3,))), Constraints(no_deal=True, keep_spaces=2, no_remove=(0,))
    )
    assert parse_command("solve remove clubs and hearts").goal.steps == ((3, 1),)
    assert parse_command("solve turn up a card in column 3").goal == Goal("turn up", 2)
    assert parse_command("solve get a space in pile 5, no deal").goal == Goal("space", 4)
    each = parse_command("solve get a space, keep the space for each reveal")
    assert each.each_reveal and each.constraints.keep_spaces == 1
    assert parse_command("solve win, no remove, limit 5").constraints == Constraints(
        no_remove=(0, 1, 2, 3), limit=5
    )


def test_solve_then_apply_all_or_one_move_at_a_time() -> None:
    session = Session.new_game(seed=0)
    session.execute("load problem-5-jacks-swapped")
    reply = session.execute("solve remove spades, no deal, no new space")
    assert "possible in" in reply.text and "'apply'" in reply.text
    first = move_text(session.game, session.analysis.found[0])
    assert session.execute("apply 1").text.startswith(first)
    session.execute("apply")
    assert session.game.removed == [0]
    with pytest.raises(SpiderError, match="no line to apply"):
        session.execute("apply")


def test_apply_refuses_a_changed_position() -> None:
    session = Session.new_game(seed=0)
    session.execute("load problem-1")
    session.execute("solve turn up a card in pile 10")
    session.execute("8-6s from 3 to 2")
    with pytest.raises(SpiderError, match="changed"):
        session.execute("apply")


def test_a_numbered_deal_is_analysed_as_its_player_sees_it() -> None:
    session = Session.new_game(seed=4)
    view = session.analysis.analysed()
    assert view.unknown_count() == 44 + 50
    assert compact.player_view(session.game).pool == view.pool
    reply = session.execute("solve turn up a card")
    assert "turns up an unknown card" in reply.text


def test_spider_solve_and_bench_commands(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    """(``home``: a results file of its own, so that no deal is already stored.)"""
    assert main(["solve", "problem-1", "turn", "up", "a", "card", "in", "pile", "3"]) == 0
    out = capsys.readouterr().out
    assert "8-6s from 3 to 2" in out and "'apply'" not in out  # no prompt after this
    assert main(["solve", "--seed", "2", "--suits", "1"]) == 0
    assert "deal 2, 1 suit: won in" in capsys.readouterr().out
    assert main(["bench", "--seeds", "0-1", "--suits", "1", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    assert "won 2 (100.0%)" in captured.out and "2/2" in captured.err
    assert main(["solve"]) == 2
    assert main(["bench", "--seeds", "x"]) == 2


@pytest.mark.parametrize(
    ("args", "status", "says"),
    [
        (["problem-5", "remove", "hearts,", "no", "deal"], 1, "impossible: the Kh and 5h"),
        (
            ["problem-4", "remove diamonds, no deal, no remove clubs, limit 2000"],
            3,
            "unknown: stopped",
        ),
        (["problem-1", "turn up a card in pile 5, no deal"], 1, "impossible: however the cards"),
        (["problem-1", "get", "a", "spcae"], 2, "character 7"),
        (["no-such-example", "win"], 2, "no such file or example"),
        (["problem-2", "turn up a card in pile 12"], 2, "there is no pile 12"),
    ],
)
def test_spider_solve_exit_status_tells_the_verdict(
    args: list[str], status: int, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """0 a line found, 1 impossible, 3 unknown at a limit, 2 bad input (as grep does)."""
    assert main(["solve", *args]) == status
    captured = capsys.readouterr()
    assert says in (captured.out if status != 2 else captured.err)


def test_spider_solve_says_a_bad_file_at_its_line_and_a_bad_question_as_solve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file's errors as ``spider run`` says them (NAME:LINE, once); the question's as
    ``spider solve``'s, at its character."""
    bad = tmp_path / "bad.txt"
    bad.write_text("stock: 50\nKs   Ks   Kh   Qx   Kh   Ks   Kh   Kh   Kh   Kh\n")
    assert main(["solve", str(bad), "get", "a", "space"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:2: error: character 16: 'Qx' is not a card")
    assert err.count("bad.txt") == 1
    assert main(["solve", "problem-3", "remove", "hearts,", "no", "dael"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spider solve: error: character 19: solve takes a goal")


def test_removals_are_engine_actions() -> None:
    game = table(
        [suit_pile("s"), "Kd", "Kc", "Qd", "Qc", "Jd", "Jc", "10d", "10c", "9d"],
        removed=(0, 1, 2, 3, 1),
    )
    answer = ask(game, "remove spades")
    assert answer.actions == [Remove(0)] and answer.positions <= 2
    assert Move(0, 1, 1) not in answer.actions


def test_a_search_cut_short_proves_no_shorter_line() -> None:
    """Breadth-first, a search stopped at a limit still proves that no line of its depth or
    fewer moves exists: the shortest line, found without the limit, is longer."""
    search = goalsearch.make_search(
        example("problem-1"), Goal("turn up", pile=9), Constraints(no_deal=True)
    )
    whole = solver.astar(search, False, True, Limit(100_000), ordered=False)
    assert whole.line is not None
    depths = []
    for limit in (40, 300, 3000):
        cut = solver.astar(search, False, True, Limit(limit), ordered=False)
        if cut.line is None:
            assert cut.depth < len(whole.line)
            depths.append(cut.depth)
    assert depths == sorted(depths) and depths[-1] > depths[0]


def test_unknown_says_how_long_a_line_would_have_to_be() -> None:
    answer = ask(example("problem-4"), "remove diamonds, no deal, no remove clubs, limit 90000")
    assert answer.status == "unknown" and answer.depth >= 3
    assert f"no line of {answer.depth} moves or fewer exists" in answer_summary(answer)


@pytest.mark.parametrize(
    ("name", "question", "reason"),
    [
        ("problem-5", "remove hearts", "the Kh and 5h are not among the known cards on the table"),
        ("problem-5", "remove spades then spades", "2 sets of spades need 2 of each card"),
        ("problem-5", "turn up a card in pile 1", "pile 1 has no face-down card"),
        ("problem-5", "get a space, keep 10 spaces", "at most 9 piles can ever be empty"),
        ("problem-4", "turn up a card", "no pile has a face-down card"),
        ("problem-5", "get a space in pile 9", "pile 9 has an unknown face-down card"),
    ],
)
def test_impossible_at_once_with_the_reason(name: str, question: str, reason: str) -> None:
    answer = ask(example(name), question)
    assert (answer.status, answer.positions) == ("impossible", 1)
    assert answer_summary(answer).startswith(f"impossible: {reason}")


def test_every_pile_hiding_an_unknown_card_means_no_space() -> None:
    game = table(
        ["-- 5h", "-- 6s", "-- Ks", "-- 2c", "-- 9d", "-- Jh", "-- 4s", "-- 8c", "-- Qd", "-- 3h"]
    )
    answer = ask(game, "get a space, no deal")
    assert answer_summary(answer) == (
        "impossible: every pile that is not a space has an unknown face-down card"
    )


def first_space_in(game: Game, pile: int) -> bool:
    """Is there a line, found by the brute force, whose first new space is ``pile``
    (0-based)? Positions with a new space elsewhere end their line."""
    start = len(game.spaces())

    def met(_start: Game, now: Game | None) -> bool:
        return now is not None and len(now.spaces()) > start and not now.piles[pile]

    def allowed(now: Game, _action: Action) -> bool:
        return len(now.spaces()) <= start or not now.piles[pile]

    return brute_force(game, met, allowed=allowed, pinned=pile)


@pytest.mark.parametrize("seed", [0, 4, 7, 14, 28, 31])
@pytest.mark.parametrize("space", [False, True])
def test_a_space_in_a_named_pile_agrees_with_brute_force(seed: int, space: bool) -> None:
    """A space in a named pile: the first new space is that pile. Every pile of small random
    positions (with a space to start with, or none), against the brute force; a line found
    makes no other new space on the way."""
    rng = random.Random(seed)
    texts = scatter(rng, [Card.of(r, 0) for r in range(1, 14)] + [C("Kh")], 0.3)
    if space:
        texts[rng.randrange(10)] = ""
    game = table(texts, removed=(1, 2, 3))
    start = len(game.spaces())
    answers = []
    for pile in range(10):
        answer = solver.answer(game, Goal("space", pile), Constraints(no_deal=True))
        assert answer.status == ("possible" if first_space_in(game, pile) else "impossible")
        if answer.found:
            work = game.copy()
            for action in answer.actions:
                assert len(work.spaces()) <= start
                work.push(action)
            assert not work.piles[pile] and len(work.spaces()) > start
        answers.append(answer.status)
    assert "possible" in answers and ("impossible" in answers or space)


def test_problem_5_gets_its_first_space_only_in_column_5() -> None:
    """The manual's argument, over the table with no suit removed (the manual shows none
    can be before a space): every column it rules out but 2 and 3 is out without a search,
    and column 5 has a line (the manual's, eleven moves)."""
    game = example("problem-5")
    for pile in (1, 4, 6, 7, 8, 9, 10):
        answer = ask(game, f"get a space in pile {pile}, no deal, no remove")
        assert (answer.status, answer.positions) == ("impossible", 1), pile
    king = answer_summary(ask(game, "get a space in pile 8, no deal, no remove"))
    assert king.endswith("(a counting argument over 1 choice of the cards that never move)")
    answer = ask(game, "get a space in pile 5, no deal, no remove")
    assert answer.found and len(answer.texts) == 11 and answer.only_pile is None


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from([0.3, 1.0]),
    st.sampled_from(sorted(GOALS)),
    st.integers(0, 10),
)
def test_impossible_at_once_is_never_wrong(seed: int, unknown: float, goal: str, keep: int) -> None:
    """Whenever the solver answers without a search, a brute force over the engine finds
    no line either (small random positions, with spaces to keep at the end; the brute
    force cannot see the spaces at a reveal, so "turn up" goes without)."""
    if goal == "turn up":
        keep = 0
    game = small_position(random.Random(seed), unknown)
    target, _constraints, met = GOALS[goal]
    constraints = Constraints(no_deal=True, keep_spaces=keep)
    reason = proofs.out_of_reach(goalsearch.make_search(game, target, constraints))
    if reason is not None:

        def kept(start: Game, now: Game | None) -> bool:
            return met(start, now) and (now is None or len(now.spaces()) >= keep)

        assert not brute_force(game, kept), reason


def test_a_card_in_a_known_hand_counts_when_a_deal_may_come() -> None:
    """The Kh is in the hand's next row, all of it known: "remove hearts" is not out of
    reach unless the constraints forbid the deal."""
    game = table(
        [
            "Qh Jh 10h 9h 8h 7h 6h 5h 4h 3h 2h Ah",
            "Ks",
            "Qd",
            "Jc",
            "9s",
            "8d",
            "7c",
            "6s",
            "5d",
            "4c",
        ]
    )
    row = [C(w) for w in "Kh 2s 3s 4s 5s 6s 7s 8s 10s Js".split()]
    game.stock[-10:] = row[::-1]  # the stock is kept in reverse: its end is dealt first
    assert compact.encode(game).rows[0] == tuple(row)
    assert (
        proofs.out_of_reach(
            goalsearch.make_search(game, Goal("remove", steps=((1,),)), Constraints())
        )
        is None
    )
    proof = proofs.out_of_reach(
        goalsearch.make_search(game, Goal("remove", steps=((1,),)), Constraints(no_deal=True))
    )
    assert proof == proofs.Proof(
        proofs.Ground.SUIT_SHORT, count=1, suit=1, cards=(C("Kh"),), on_table=True
    )
    assert "the Kh is not among the known cards on the table" in proof_text(proof)


def test_a_time_instead_of_a_limit() -> None:
    answer = ask(example("problem-4"), "remove diamonds, no deal, no remove clubs, within 1 second")
    assert answer.status == "unknown"
    assert answer_summary(answer).startswith("unknown: stopped within the 1 s asked for")
    # the positions follow the time asked for, at the pace of the path in use
    assert answer.positions <= solver.search_limit(Constraints(seconds=1)) + 100
    with pytest.raises(QuestionError, match="'for each reveal' runs one search a card"):
        report_for(example("problem-1"), "solve get a space for each reveal, within 5 seconds")
    report = report_for(Game.new(3, suits=1), "solve win within 10 sec")
    # every card known: full play
    assert report_text(report).startswith("won in") and report.actions
    assert report.status == "possible"


def test_free_a_card() -> None:
    game = table(["9h 8c", "9c 5d", *KINGS[:6], "-- 7h", "-- 3s"])
    (move,) = ask(game, "free the 9h").texts  # onto the 9c or the 9d
    assert move.startswith("8c from 1 to ")
    assert ask(game, "free the 9h, keep 1 space").status == "impossible"
    assert ask(game, "free the 5d").texts == []  # already free: nothing on it
    assert answer_summary(ask(example("problem-5"), "free the Kh")) == (
        "impossible: the Kh is not among the known cards on the table"
    )


def test_turn_up_by_freeing_a_card_first() -> None:
    """The manual's way: the 5h has no 6 to go to, so free the 6s (the 4c goes onto the
    5d), then the 5h goes onto it and the card under it turns up."""
    game = table(["-- 5h", "Qs 6s 4c", "Qh 5d", *KINGS[:7]])
    goal = Goal("turn up", pile=0)
    assert solver._cards_to_free(game, goal) == [int(C("6s"))]
    found, examined = solver._via_free(game, goal, Constraints(no_deal=True), Limit(10_000))
    assert found is not None and examined > 0
    _actions, texts, reveal = found
    assert texts == ["4c from 2 to 3", "5h from 1 to 2"] and reveal == 1
    assert solver._cards_to_free(example("problem-2"), Goal("turn up", pile=5))[0] == C("6s")


def report_for(game: Game, line: str) -> answers.Report:
    """Answer a typed ``solve`` line through the solver's typed API."""
    command = parse_command(line)
    assert isinstance(command, Solve)
    return answers.solve(game, command.goal, command.constraints, command.each_reveal)


# ---------------------------------------------------------------------------------------------
# No search reads a clock of its own: the same question always gets the same answer


CLOCKS = (
    "perf_counter",
    "perf_counter_ns",
    "monotonic",
    "monotonic_ns",
    "time",
    "time_ns",
    "process_time",
    "process_time_ns",
)


def stop_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every clock of the ``time`` module raise: a search that reads one fails."""

    def no_clock() -> float:
        raise AssertionError("a search read the clock")

    for name in CLOCKS:
        monkeypatch.setattr(time, name, no_clock)


def hour_a_call() -> Callable[[], float]:
    """A clock an hour later at every reading, as on a machine too busy to get anywhere."""
    readings = itertools.count()
    return lambda: 3600.0 * next(readings)


QUESTIONS = [
    ("problem-1", "turn up a card in pile 10, no deal"),  # possible
    ("problem-1", "turn up a card in pile 5, no deal"),  # impossible by counting
    ("problem-4", "remove diamonds, no deal, no remove clubs, limit 2000"),  # unknown
    ("problem-4", "remove diamonds, no deal, no remove clubs, within 1 second"),  # unknown
    ("problem-5-jacks-swapped", "remove spades, no deal, no new space"),  # possible
]


def test_solve_and_play_read_no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every clock raising, the answers are the ones given before: "within N
    seconds" with no clock given is a number of positions, and full-information play is
    bounded by positions."""
    games = {name: example(name) for name, _question in QUESTIONS}
    before = [ask(games[name], question) for name, question in QUESTIONS]
    contingency = contingencies.contingencies(
        games["problem-1"], Goal("space"), Constraints(no_deal=True, limit=300)
    )
    win = report_for(Game.new(3, suits=1), "solve win within 10 sec")
    played = autoplay.play(Game.new(1, suits=1))
    stop_clocks(monkeypatch)
    assert [ask(games[name], question) for name, question in QUESTIONS] == before
    assert [answer.seconds for answer in before] == [None] * len(before)
    assert (
        contingencies.contingencies(
            games["problem-1"], Goal("space"), Constraints(no_deal=True, limit=300)
        )
        == contingency
    )
    assert report_for(Game.new(3, suits=1), "solve win within 10 sec") == win
    assert autoplay.play(Game.new(1, suits=1)) == played


def test_a_clock_times_a_search_and_caps_only_the_time_asked_for() -> None:
    """Given a clock that jumps an hour at every reading, a search with no time asked for
    answers as without a clock (it only reports the hours); "within 1 second" stops at
    once, saying so."""
    game = example("problem-1")
    goal = Goal("turn up", pile=9)
    plain = solver.answer(game, goal, Constraints(no_deal=True))
    untimed = Constraints(no_deal=True)
    timed = solver.answer(game, goal, untimed, solver.limit_of(untimed, hour_a_call()))
    assert (timed.status, timed.texts, timed.positions) == (
        plain.status,
        plain.texts,
        plain.positions,
    )
    assert timed.seconds is not None and timed.seconds >= 3600
    assert "positions examined in" in answer_summary(timed)
    assert "positions examined in" not in answer_summary(plain)
    one = solver.Answer(solver.Verdict.POSSIBLE, texts=["4d from 10 to 6"], positions=1)
    assert answer_summary(one) == "possible in 1 move (1 position examined)"
    question = "remove diamonds, no deal, no remove clubs, within 1 second"
    command = parse_command(f"solve {question}")
    assert isinstance(command, Solve)
    limit = solver.limit_of(command.constraints, hour_a_call())
    capped = solver.answer(example("problem-4"), command.goal, command.constraints, limit)
    assert (
        capped.status == "unknown"
        and capped.positions < ask(example("problem-4"), question).positions
    )
    assert answer_summary(capped).startswith("unknown: stopped within the 1 s asked for")


def test_play_is_bounded_by_positions_and_capped_by_a_clock_only_when_asked() -> None:
    game = Game.new(1, suits=1)
    plain = autoplay.play(game)
    clocked = autoplay.play(game, Limit(autoplay.PLAY_LIMIT, hour_a_call()))
    assert clocked.actions == plain.actions and clocked.positions == plain.positions
    assert plain.seconds is None and clocked.seconds is not None
    capped = autoplay.play(game, Limit.of(autoplay.PLAY_LIMIT, 5, hour_a_call()))
    assert not capped.won and capped.positions < plain.positions
    short = autoplay.play(game, Limit(50))
    assert not short.won and short.positions <= 50 + 200
    assert play_text(short).startswith("no win found within the limits (")
    assert autoplay.play_limit(None) == autoplay.PLAY_LIMIT
    with native.pure():
        assert autoplay.play_limit(2) == 2 * autoplay.PER_SECOND
    if native.backend().compiled:
        assert autoplay.play_limit(2) == 2 * autoplay.PER_SECOND_CORE


def test_spider_solve_seed_and_bench_take_a_limit_in_positions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", "--seed", "2", "--suits", "1", "--limit", "50"]) == 3
    assert "no win found within the limits" in capsys.readouterr().out
    assert main(["solve", "--seed", "2", "--suits", "1", "--time-limit", "60"]) == 0
    assert " s, beam width" in capsys.readouterr().out  # the time is measured and shown
    assert main(["bench", "--seeds", "0", "--suits", "1", "--jobs", "1", "--limit", "50"]) == 0
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines())  # broken between words
    assert "won 0 (0.0%) with every card known, at most 50 positions each" in " ".join(out.split())
    assert main(["bench", "--limit", "0"]) == 2
    assert "a positive number is needed" in capsys.readouterr().err


def test_bench_workers_never_load_a_parser() -> None:
    """Importing the bench (what each worker process does) loads neither lark nor
    prompt_toolkit."""
    check = (
        "import sys, spider_cli.analysis.bench.full; "
        "assert 'lark' not in sys.modules and 'prompt_toolkit' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", check], check=True)
