"""The judge of sampled worlds (spider_cli.analysis.chance.judge): commitments, worlds, the capped
full-information search, and the player that picks by it."""

from __future__ import annotations

from spider_cli.analysis import native
from spider_cli.analysis.blind.evaluation import weights_for
from spider_cli.analysis.blind.player import Kind, Mode
from spider_cli.analysis.blind.rollouts import seed_of
from spider_cli.analysis.blind.view import PlayerView, view_of
from spider_cli.analysis.chance import judge
from spider_cli.analysis.chance import search as chancesearch
from spider_cli.analysis.chance.search import Judging
from spider_cli.analysis.compact import FACE_DOWN
from spider_cli.analysis.limits import Limit
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import DEAL, Move

S, H, D, C = 0, 16, 32, 48
KING = 13


def small_view() -> PlayerView:
    """Ten piles of one face-down card each: 5S, 6S, 9C 3D, 4C, and six Kings (no move
    between them); a row in the hand (the piles only: the counts do not add up to a deck)."""
    kings = tuple((suit + KING,) for suit in (H, D, C, H, D, C))
    up = ((S + 5,), (S + 6,), (C + 9, D + 3), (C + 4,), *kings)
    return PlayerView(up, (1,) * 10, 10, (0, 1, 2, 3, 0, 1, 2), 4)


def test_commitments_of_a_small_position_are_each_irreversible_act_once() -> None:
    view = small_view()
    found, positions = judge.commitments(view.piles(), 7, view.hand)
    got = {(c.act, c.line) for c in found}
    assert got == {
        (judge.Act.DEAL, (DEAL,)),
        (judge.Act.REVEAL, (Move(0, 1, 1),)),
        (judge.Act.REVEAL, (Move(3, 0, 1),)),
        (judge.Act.DEAL, (Move(2, 3, 1), DEAL)),
        (judge.Act.REVEAL, (Move(2, 3, 1), Move(0, 1, 1))),
    }
    assert positions == 2  # the view, and the one after 3D onto 4C


def test_commitments_of_a_deal_replay_legally_and_end_at_their_act() -> None:
    game = DealSource(Source.OURS, 5_000_003, 4).game()
    for action in [Move(0, 1, 1)] if not game.why_illegal(Move(0, 1, 1)) else []:
        game.push(action)
    view = view_of(game)
    found, _ = judge.commitments(view.piles(), 0, view.hand)
    assert found and found == judge.commitments(view.piles(), 0, view.hand)[0]
    assert len({(c.act, c.after) for c in found}) == len(found)
    for c in found:
        work = game.copy()
        for k, action in enumerate(c.line):
            assert not work.why_illegal(action), (c, action)
            down, stock = sum(work.down), len(work.stock)
            work.push(action)
            changed = sum(work.down) < down or len(work.stock) < stock
            assert changed == (k == len(c.line) - 1 and c.act is not judge.Act.REMOVE)


def test_a_world_one_move_from_won_is_won_within_a_small_cap() -> None:
    run = bytes(S + r for r in range(KING, 1, -1))
    piles = (run, bytes((S + 1,))) + (b"",) * 8
    assert judge.judge(piles, (), 7, 100).won
    covered = (run[:-1], bytes((S + 1 + FACE_DOWN, S + 2))) + (b"",) * 8
    verdict = judge.judge(covered, (), 7, 100)
    assert verdict.won  # (the two onto the three turns the ace up)
    assert 0 < verdict.positions <= 100
    assert not judge.judge((run[:-1], bytes((S + 1 + FACE_DOWN, S + 2))) + (b"",) * 8, (), 7, 0).won
    assert judge.judge(covered, (), 7, 100, widths=(16,)) == verdict  # (one level: any width)


def test_worlds_keep_the_view_and_the_core_agrees_with_the_python_path() -> None:
    view = view_of(DealSource(Source.OURS, 5_000_001, 4).game())
    seed = seed_of(view)
    for k in range(3):
        piles, rows = judge.world(view, seed, k)
        assert [sum(c >= FACE_DOWN for c in p) for p in piles] == list(view.down)
        assert sum(map(len, rows)) == view.hand
        core = judge.judge(piles, rows, 0, 3_000)
        with native.pure():
            python = judge.judge(piles, rows, 0, 3_000)
        assert core == python


def test_halving_keeps_the_players_own_line_when_nothing_is_won() -> None:
    view = view_of(DealSource(Source.OURS, 5_000_001, 4).game())
    lines = [c.line for c in judge.commitments(view.piles(), 0, view.hand)[0]][:3]
    assert len(lines) == 3
    judged = judge.halving(view, lines, samples=6, caps=(10,))
    assert judged.chosen == 0 and max(judged.wins) == 0
    assert judged == judge.halving(view, lines, samples=6, caps=(10,))


def test_the_judges_player_plays_a_legal_line_the_same_each_time() -> None:
    game = DealSource(Source.OURS, 5_000_002, 4).game()
    view = view_of(game)
    first = judge.choose(view, Mode.KEEP, Limit(2_000), Judging(8, (2_000,), 3))
    assert first == judge.choose(view, Mode.KEEP, Limit(2_000), Judging(8, (2_000,), 3))
    assert first.played.kind in (Kind.LINE, Kind.DEAL)
    for action in first.played.line:
        assert not game.why_illegal(action)
        game.push(action)


def test_another_line_is_played_only_when_it_wins_clearly_more_of_the_same_worlds() -> None:
    assert not judge.beats([1, 0, 0, 0], [0, 0, 0, 0])  # one world: noise
    assert judge.beats([1, 1, 1, 0], [0, 0, 0, 0])
    assert not judge.beats([1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 1])  # as many the other way
    assert not judge.beats([1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 0, 0])


def test_with_quick_first_the_quick_levels_choice_stands_where_nothing_is_told_apart() -> None:
    """Caps too small to win a world and no dense score: the lines are not told apart, so
    the quick level's choice is played (and with quick_first it is also the own line)."""
    view = view_of(DealSource(Source.OURS, 5_000_002, 4).game())
    turn = judge.choose(view, Mode.KEEP, Limit(2_000), Judging(6, (10,), 3, quick_first=True))
    quick = chancesearch.weigh(
        view, turn.decision, chancesearch.Level.QUICK, weights=weights_for(4)
    ).played
    assert turn.judged is not None and max(turn.judged.wins) == 0
    assert turn.played.line == quick.line and turn.played.kind is quick.kind


def test_a_dense_score_tells_lines_apart_where_nothing_is_won() -> None:
    view = view_of(DealSource(Source.OURS, 5_000_001, 4).game())
    lines = [c.line for c in judge.commitments(view.piles(), 0, view.hand)[0]][:3]
    judged = judge.halving(view, lines, samples=6, caps=(200,), dense=1_000)
    assert max(judged.wins) == 0 and min(judged.scores) > 0
    assert judge.told(judged, 1_000) == (len(set(judged.scores)) > 1)
    assert judged == judge.weigh(view, lines, 6, (200,), dense=1_000)
