"""The review's memory grows with the moves, not with their square (issue 62): a game of
one card moved back and forth thousands of times is reviewed holding a few megabytes (a
copy of every position, each with the moves that led to it, held hundreds), with the same
review as a replay of every position; and a game whose autoremove rule changed is replayed
under the rule each move was played under."""

from __future__ import annotations

import tracemalloc

from spider_cli.analysis import review
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.review import Outlook
from spider_cli.analysis.solve import autoplay
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import Game, Move, Remove
from tests.helpers import play_randomly

BACK_AND_FORTH = 3_000


def _back_and_forth(moves: int) -> Game:
    """Deal 0 of four suits, ``4s from 5 to 7``, ``3h from 8 to 5``, then the 3h moved
    between piles 5 and 7 until the game has ``moves`` moves."""
    game = Game.new(0, 4)
    game.push(Move(4, 6, 1))
    game.push(Move(7, 4, 1))
    while game.moves_made < moves:
        game.push(Move(4, 6, 1) if game.moves_made % 2 == 0 else Move(6, 4, 1))
    return game


def test_a_long_games_review_holds_memory_linear_in_its_moves() -> None:
    game = _back_and_forth(BACK_AND_FORTH)
    tracemalloc.start()
    try:
        done = review.review(game, limit=2_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert done.moves == BACK_AND_FORTH and len(done.curve) == BACK_AND_FORTH + 1
    assert done.lost.verdict in {Outlook.THROUGHOUT, Outlook.NEVER}
    # A copy of each position with its move stack: over 36 MB at 3,000 moves (8 bytes a move
    # of each stack); one game walked back and forth: well under one.
    assert peak < 4 << 20, f"the review held {peak / (1 << 20):.1f} MB at its peak"


def test_the_positions_are_the_games_own_walked_back_and_forth() -> None:
    game = play_randomly(DealSource.parse("3", 2).game(), 60, 3)
    positions, actions = review.positions_of(game)
    assert len(positions) == game.moves_made + 1 and actions == game.move_stack
    replay = game.copy()
    replay.restart()
    expected = [replay.key()]
    for action in actions:
        replay.push(action)
        expected.append(replay.key())
    order = [40, 3, 60, 0, 59, 17, -1, 17]  # back and forth, and from the end
    assert [positions[k].key() for k in order] == [expected[k] for k in order]
    assert [positions[k].moves_made for k in order] == [40, 3, 60, 0, 59, 17, 60, 17]
    assert [g.key() for g in positions.walk()] == expected
    changed = positions[30]
    changed.push(changed.legal_moves()[0])  # a copy of its own: the walk is not changed
    assert positions[30].key() == expected[30]


def test_a_game_whose_autoremove_rule_changed_is_replayed_under_each_moves_rule() -> None:
    # A suit completed with autoremove off and taken off by hand, a move more, then
    # autoremove turned on. Replayed under the rule at the end, the move completing the suit
    # took it off, and the removal by hand then took 13 cards that are not a suit.
    game = Game.new(0, 1)
    line = autoplay.play(game.copy(), Limit(200_000)).actions
    first = next(k for k, action in enumerate(line) if isinstance(action, Remove))
    for action in line[: first + 2]:
        game.push(action)
    game.autoremove = True
    positions, _actions = review.positions_of(game)
    assert positions[len(positions) - 1].key() == game.key()
    assert [g.key() for g in positions.walk()][-1] == game.key()
    assert all(g.autoremove for g in positions.walk())  # the rule in force, as the game has
