"""Deal numbers outside 0..2**64-1 are refused wherever they are given (they would wrap onto
another deal's), and a move value that names no pile or no card is refused in words by the
rules' check, which every caller taking a player's or a file's move goes through."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import spider_cli as sp
from spider_cli.app.session import Session
from spider_cli.rules.engine import PILES, Game, Move
from spider_cli.rules.errors import IllegalMoveError, SpiderError
from spider_cli.rules.shuffle import LAST_DEAL, shuffled_deck

LAST = 2**64 - 1


@pytest.mark.parametrize("seed", [-1, -(2**64), LAST + 1, 2**70])
def test_a_deal_number_outside_the_shuffles_range_is_refused_in_words(seed: int) -> None:
    said = f"deal numbers run from 0 to {LAST}, not {seed}"
    with pytest.raises(ValueError, match=said):
        sp.Game.new(seed)
    with pytest.raises(SpiderError, match=said):
        shuffled_deck(seed)
    with pytest.raises(SpiderError, match=said):
        Session.new_game(seed=seed)


def test_the_last_deal_is_a_deal_of_its_own() -> None:
    assert LAST_DEAL == LAST
    assert Game.new(LAST).piles != Game.new(0).piles  # (before: -1 dealt what LAST deals)


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--seed", "-1"], ""),
        (["--seed", str(LAST + 1)], ""),
        ([], "new -1"),
        ([], f"new {LAST + 1}"),
    ],
)
def test_the_command_line_and_the_prompt_refuse_them(
    tmp_path: Path, argv: list[str], line: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spider_cli", *argv],
        input=f"{line}\n",
        capture_output=True,
        text=True,
        env={"SPIDER_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode in (1, 2) and "Traceback" not in done.stderr
    words = ("deal numbers run from 0 to", "is not a deal", "new takes a deal number")
    assert any(said in done.stderr for said in words), done.stderr


@pytest.mark.parametrize(
    ("move", "said"),
    [
        (Move(-1, 2, 1), "there is no pile 0"),
        (Move(10, 2, 1), "there is no pile 11"),
        (Move(0, -1, 1), "there is no pile 0"),
        (Move(0, 1, 0), "a move needs at least one card"),
        (Move(0, 1, -2), "a move needs at least one card"),
    ],
)
def test_a_move_naming_no_pile_or_no_card_is_refused_in_words(move: Move, said: str) -> None:
    game = Game.new(5)
    assert game.why_illegal(move) == said
    session = Session.new_game(seed=5)
    with pytest.raises(IllegalMoveError, match=said):
        session.move(move)
    assert session.game.moves_made == 0


@given(st.integers(-(2**70), 2**70), st.integers(-(2**70), 2**70), st.integers(-(2**70), 2**70))
def test_the_check_never_raises_and_passes_only_moves_of_real_piles_and_cards(
    src: int, dst: int, count: int
) -> None:
    refused = Game.new(5).why_illegal(Move(src, dst, count))
    if not (0 <= src < PILES and 0 <= dst < PILES and count >= 1):
        assert isinstance(refused, str) and refused
