"""The words of a hint at the judge level: what the judge found, from its typed result."""

from __future__ import annotations

from spider_cli.analysis import hints
from spider_cli.analysis.chance.judge import SCALE
from spider_cli.analysis.chance.search import Judged
from spider_cli.app.words.advice import looked_text
from spider_cli.rules.engine import DEAL, Move

OWN, OTHER = (Move(0, 1, 1),), (Move(2, 3, 1),)


def test_the_judges_pick_is_said_with_the_quick_levels_choice_beside_it() -> None:
    judged = Judged((OWN, OTHER, (DEAL,)), (5, 9, 1), (18, 18, 6), 1, 4_000, 100_000, (1, 2, 0))
    found = hints._judged(judged)
    assert found == hints.WorldsJudged(18, 3, 9, 18, 100_000, True, (5, 18))
    assert looked_text(found) == (
        "; judged on 18 deals of the cards not seen, each played on with every card known "
        "(at most 100,000 positions a deal), 3 choices: won 9 of its 18 after it "
        "(the quick level's choice: 5 of 18)"
    )


def test_the_quick_levels_choice_standing_is_said_alone() -> None:
    judged = Judged((OWN, OTHER), (7, 4), (18, 10), 0, 4_000, 100_000, (7 * SCALE, 4 * SCALE))
    assert looked_text(hints._judged(judged)).endswith("2 choices: won 7 of its 18 after it")


def test_where_the_judge_tells_nothing_apart_the_quick_level_is_said_to_choose() -> None:
    judged = Judged((OWN, OTHER), (0, 0), (12, 12), 1, 4_000, 100_000, (300, 300))
    found = hints._judged(judged)
    assert not found.told and found.first is None and found.won == 0
    assert looked_text(found).endswith(
        "2 choices: none told apart, so the quick level's look-ahead chose"
    )
