"""Every distinct move phrase in the SPIDER manual (tests/data/manual_moves.txt) reads as a move."""

from __future__ import annotations

from pathlib import Path

import pytest

from spider_cli.language.commands import MoveCommand
from spider_cli.language.notation import parse_command

PHRASES = (Path(__file__).parents[1] / "data" / "manual_moves.txt").read_text().splitlines()


def test_the_list_is_the_whole_manual() -> None:
    assert len(PHRASES) == 235


@pytest.mark.parametrize("phrase", PHRASES)
def test_each_phrase_reads_as_a_move(phrase: str) -> None:
    assert isinstance(parse_command(phrase), MoveCommand)
