"""The seams between the analysis and the game: every line an analysis hands the game plays
on it, legal move by move, under the game's own rule for complete suits (autoremove on and
off), from the manual's problems and from positions of play at one, two and four suits;
and the one function that carries a line from one rule to the other."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spider_cli.analysis.solve.answers import solve
from spider_cli.app.session import Session
from spider_cli.cli.main import run_scripts
from spider_cli.language.settings import Settings
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import Game, Move, Remove
from spider_cli.rules.goals import Constraints, Goal, GoalKind
from spider_cli.rules.lines import fitted
from tests.helpers import play_randomly

RULES = pytest.mark.parametrize("autoremove", [True, False], ids=["autoremove", "explicit"])


def _replays(game: Game, line: list) -> None:
    """Play ``line`` on a copy of ``game``, every action checked by the engine."""
    work = game.copy()
    for k, action in enumerate(line):
        reason = work.why_illegal(action)
        assert reason is None, f"action {k + 1} of {line}: {reason}"
        work.push(action)


def _complete_suit_game() -> Game:
    """A 1-suit game with six suits removed, King to Two in pile 1 and the Ace on pile 2:
    one move completes a suit (spades are suit 0: a card is its rank)."""
    piles = [list(range(13, 1, -1)), [5, 1], [6], [13, 12], [11, 10], [9, 8], [7, 4], [3], [2], [1]]
    return Game(piles, [0] * 10, [], [0] * 6, 1)


@RULES
def test_fitted_drops_the_removal_autoremove_made(autoremove: bool) -> None:
    game = _complete_suit_game()
    game.autoremove = autoremove
    carried = fitted(game, [Move(1, 0, 1), Remove(0), Move(1, 2, 1)])
    assert carried.whole
    first = [Move(1, 0, 1)] if autoremove else [Move(1, 0, 1), Remove(0)]
    assert list(carried.actions) == [*first, Move(1, 2, 1)]
    _replays(game, list(carried.actions))


def test_fitted_adds_the_removals_a_line_made_under_autoremove_leaves_out() -> None:
    game = _complete_suit_game()
    carried = fitted(game, [Move(1, 0, 1), Move(1, 2, 1)], autoremoved=True)
    assert list(carried.actions) == [Move(1, 0, 1), Remove(0), Move(1, 2, 1)]
    assert carried.texts[1] == "remove the spades from 1"


def test_fitted_stops_where_the_rule_forbids_the_line() -> None:
    game = _complete_suit_game()
    game.autoremove = True
    carried = fitted(game, [Move(1, 0, 1), Move(0, 3, 1)])  # the Ace back off the suit
    assert not carried.whole and list(carried.actions) == [Move(1, 0, 1)]


PROBLEM_QUESTIONS = [
    ("problem-3", Goal(GoalKind.REMOVE, steps=((1,),))),  # the hearts
    ("problem-3", Goal(GoalKind.REMOVE, steps=((3,), (1,)))),  # clubs then hearts
    ("problem-4", Goal(GoalKind.REMOVE, steps=((3,), (2,)))),  # clubs then diamonds
    ("problem-5", Goal(GoalKind.REMOVE, steps=((1,),))),
    ("problem-1", Goal(GoalKind.TURN_UP)),
]


@RULES
@pytest.mark.parametrize(("name", "goal"), PROBLEM_QUESTIONS)
def test_the_manuals_questions_apply_under_either_rule(
    name: str, goal: Goal, autoremove: bool, search_path: str
) -> None:
    session = Session(settings=Settings(autoremove=autoremove))
    session.load(name)
    limit = 400_000 if search_path == "core" else 60_000
    report = session.analysis.solve(goal, Constraints(no_deal=True, limit=limit))
    played = session.apply() if report.actions else []
    assert len(played) == len(report.actions)
    if report.actions and goal.kind is GoalKind.REMOVE:
        assert len(session.game.removed) >= len(goal.steps)
        assert not any(session.game.complete_at_bottom(i) for i in range(10)) or not autoremove


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    suits=st.sampled_from([1, 1, 2, 4]),
    number=st.integers(0, 10_000),
    moves=st.integers(0, 40),
    autoremove=st.booleans(),
)
def test_every_line_of_the_analysis_replays_on_the_game(
    suits: int, number: int, moves: int, autoremove: bool, search_path: str
) -> None:
    """Hint, apply all and auto from a position of the player's own play (where suits come
    together, as random moves seldom make them), and solve's goals from there."""
    session = Session(settings=Settings(autoremove=autoremove))
    session.new(number, suits)
    moves = moves if search_path == "core" else moves // 4  # (hints take longer there)
    if moves:
        session.auto(moves)  # the player's own moves: each checked by the engine as played
    for _ in range(3):
        if session.game.is_won() or session.game.is_lost():
            break
        advice = session.analysis.hint()
        _replays(session.game, advice.actions)
        if advice.actions:
            session.apply(whole=True)
        elif session.game.stock and not session.game.spaces():
            session.deal()
    game = session.analysis.analysed()
    for goal in (
        Goal(GoalKind.SPACE),
        Goal(GoalKind.TURN_UP),
        Goal(GoalKind.REMOVE, steps=((0,),)),
    ):
        report = solve(game, goal, Constraints(no_deal=True, limit=20_000), False)
        _replays(session.game, report.actions)


@RULES
def test_one_suit_auto_removes_its_suits_under_either_rule(
    autoremove: bool, search_path: str
) -> None:
    """A 1-suit game played by ``auto`` and deals to its end: suits come together often, and
    each one comes off by the game's rule or by the line's own removal. (On the core only:
    a whole game of hints on the Python path takes minutes; the property above runs there.)"""
    if search_path != "core":
        pytest.skip("a whole game of hints: the core's run covers it")
    session = Session(settings=Settings(autoremove=autoremove))
    session.new(3, 1)
    for _ in range(6):
        session.auto(150)
        if session.game.is_won() or not session.game.stock or session.game.spaces():
            break
        session.deal()
    assert session.game.removed


def test_a_script_mixing_the_rules_never_fails_inside(tmp_path: Path) -> None:
    """Scripts that switch autoremove between analyses: no internal error (exit 70), and the
    README's example of problem 3 answered and applied under autoremove."""
    lines = ["new 4 suits 1"]
    for k in range(6):
        lines += [f"set autoremove {'on' if k % 2 else 'off'}", "hint", "apply all", "auto 6"]
        lines += ["deal"] if k % 3 == 2 else []
    problem = ["load problem-3", "set autoremove on", "solve remove hearts, no deal", "apply"]
    for name, script, whole in (("mixed", lines, False), ("problem", problem, True)):
        path = tmp_path / f"{name}.spider"
        path.write_text("\n".join(script) + "\n")
        out, err = io.StringIO(), io.StringIO()
        status = run_scripts([str(path)], out, err)
        assert status in ((0,) if whole else (0, 1)), err.getvalue()
        assert "internal error" not in err.getvalue()
    assert "hearts removed" in out.getvalue()


def test_deals_of_play_under_autoremove_replay(search_path: str) -> None:
    """Random play deep into a 1-suit deal, then full information's line (the review's and
    ``spider solve --seed``'s) under autoremove: it plays and wins."""
    from spider_cli.analysis.limits import Limit
    from spider_cli.analysis.solve import autoplay

    game = play_randomly(DealSource.parse("11", 1).game(), 30, 5)
    game.autoremove = True
    result = autoplay.play(game, Limit(200_000))
    assert result.won
    _replays(game, result.actions)
    assert not any(isinstance(a, Remove) for a in result.actions)


SCRIPT_LINES = [
    "set autoremove on",
    "set autoremove off",
    "hint",
    "apply",
    "apply all",
    "auto 8",
    "deal",
    "undo 3",
    "redo",
    "remove",
    "solve remove spades, no deal, limit 4000",
    "solve get a space, no deal, limit 4000",
    "solve turn up a card, limit 4000",
]


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    start=st.sampled_from(["new 2 suits 1", "new 9 suits 1", "load problem-3", "new 5 suits 2"]),
    lines=st.lists(st.sampled_from(SCRIPT_LINES), min_size=3, max_size=10),
)
def test_scripts_with_the_rule_switched_never_fail_inside(
    start: str, lines: list[str], search_path: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Scripts of analyses and moves with ``set autoremove on|off`` mixed in end in a result
    or a clear error (status 0 or 1), never an internal error."""
    script = tmp_path_factory.mktemp("fuzz") / "mixed.spider"
    script.write_text("\n".join([start, "auto 8", *lines]) + "\n")
    out, err = io.StringIO(), io.StringIO()
    status = run_scripts([str(script)], out, err)
    assert status in (0, 1), err.getvalue()
    assert "internal error" not in err.getvalue()


def _out_and_back_game() -> Game:
    """A 1-suit game with six suits removed: 6-5 can go from pile 1's 7 to pile 2's 7 and
    back (spades are suit 0: a card is its rank)."""
    piles = [list(range(13, 4, -1)), [7], list(range(13, 7, -1)), [6], [5], [4, 3, 2, 1]]
    piles += [[4, 3, 2, 1], [], [], []]
    return Game(piles, [0] * 10, [], [0] * 6, 1)


def test_a_hint_never_puts_back_a_run_an_earlier_turn_moved_off_the_card() -> None:
    from spider_cli.analysis import hints

    game = _out_and_back_game()
    out, back = Move(0, 1, 2), Move(1, 0, 2)
    assert not hints._walk(game, [out, back]).revisits  # (within a line: the cutter's)
    game.push(out)
    past = hints.past_of(game)
    assert hints._walk(game, [back], past).revisits  # across turns: a loop
    game.push(Move(5, 7, 4))  # 4-A into a space: the run's way back is still open
    assert hints._walk(game, [Move(7, 5, 4), back], hints.past_of(game)).revisits


def test_a_run_that_steps_aside_while_the_card_under_it_moves_is_no_loop() -> None:
    """The manual's way of moving 7 and the 6-5 on it as one: 6-5 aside, the 7 over, 6-5
    back onto it; the card it left has moved, so the last move is not a return."""
    from spider_cli.analysis import hints

    game = _out_and_back_game()
    game.piles[1] = [8]
    game.piles[2] = [13, 12, 11, 10, 9, 7]  # (the deck's count is kept: an 8 for a 7)
    game.push(Move(0, 7, 2))
    game.push(Move(0, 1, 1))
    assert not hints._walk(game, [Move(7, 1, 2)], hints.past_of(game)).revisits


def test_a_card_turned_up_ends_the_turn_a_return_is_counted_in() -> None:
    from spider_cli.analysis import hints

    game = _out_and_back_game()
    game.piles[3], game.down[3], game.piles[5] = [3, 6], 1, [4, 2, 1]  # a 3 face down
    game.push(Move(0, 1, 2))
    assert hints.past_of(game).left == {(6, 0, 7)}  # the 6-5 left pile 1 at seven cards
    game.push(Move(3, 7, 1))  # the 6 into a space turns the 3 up
    assert hints.past_of(game).left == frozenset()
    assert not hints._walk(game, [Move(1, 0, 2)], hints.past_of(game)).revisits
