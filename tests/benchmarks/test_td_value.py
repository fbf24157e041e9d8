"""The TD fit of benchmarks/td_value.py: lambda-returns, the features a position gives, and
the re-ranking judge that keeps play from looping."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import td_value  # noqa: E402

from spider_cli.analysis.blind.evaluation import TABLE_SIZE, pile_class  # noqa: E402
from spider_cli.analysis.blind.player import Candidate, Decision, Kind, Mode  # noqa: E402
from spider_cli.analysis.compact import FACE_DOWN, encode  # noqa: E402
from spider_cli.rules.deals import DealSource, Source  # noqa: E402
from spider_cli.rules.engine import Move  # noqa: E402


def test_lambda_returns_run_from_the_outcome_back_within_each_game() -> None:
    v = np.array([10.0, 20.0, 30.0, 5.0, 6.0])
    games = np.array([0, 0, 0, 1, 1])
    z = np.array([100.0, 0.0])
    assert list(td_value.lambda_returns(v, games, z, 1.0)) == [100, 100, 100, 0, 0]
    assert list(td_value.lambda_returns(v, games, z, 0.0)) == [20, 30, 100, 6, 0]
    half = td_value.lambda_returns(v, games, z, 0.5)
    assert half[1] == 0.5 * 30 + 0.5 * 100 and half[0] == 0.5 * 20 + 0.5 * half[1]


def test_a_position_is_kept_as_its_piles_classes_and_counts() -> None:
    start = encode(DealSource(Source.OURS, 7, 4).game())
    kept = td_value.observed(start.piles, 0, len(start.rows))
    masked = [bytes(FACE_DOWN if c >= FACE_DOWN else c for c in p) for p in start.piles]
    assert kept[:10] == [pile_class(p) for p in masked]
    assert kept[10:] == [0, 5, 0]
    x = td_value.design(np.array([kept]))
    assert x.shape == (1, TABLE_SIZE + 4) and x[0, :TABLE_SIZE].sum() == 10 and x[0, -1] == 1


def test_the_judge_plays_the_players_line_or_one_that_turns_a_card_up() -> None:
    piles = (bytes([FACE_DOWN, 9, 8]), bytes([10]), bytes([FACE_DOWN, 25]), *[b""] * 7)
    own = (Move(0, 1, 2),)  # 9-8 onto the 10: a card turned up in pile 0
    shuffle = (Move(2, 1, 1),)  # the 9 of another suit onto the 10: turns a card up too
    decision = Decision(Kind.LINE, Mode.KEEP, (Candidate(own, 100), Candidate(shuffle, 50)))
    table = [0] * TABLE_SIZE
    prefer = pile_class(bytes([FACE_DOWN, 15]))  # a pile whose card was just turned up
    table[prefer] = 1
    # both lines end with such a pile; a tie keeps the player's own line
    assert td_value.chooser(table, 1000, None)(piles, 0, 5, decision) == own
    # the other line when the table values where it leads more (a 9 on another suit's 10)
    table[pile_class(bytes([10, 25]))] = 500
    assert td_value.chooser(table, 1000, None)(piles, 0, 5, decision) == shuffle
    # but not when the player values it 50 below its own and may give up 20 at most
    assert td_value.chooser(table, 1000, 20)(piles, 0, 5, decision) == own
