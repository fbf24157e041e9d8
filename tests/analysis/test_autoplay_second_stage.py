"""Full-information play's second stage (``autoplay.play`` after the beam, within the same
limit): the portfolio of beams with ties broken the other way, then the complete search,
which proves a deal unwinnable when it examines every reachable position. On both paths
(tests/conftest.py BOTH_PATHS): the same answers, lines checked by the engine."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spider_cli.analysis import native
from spider_cli.analysis.compact import Start
from spider_cli.analysis.limits import Limit, Verdict
from spider_cli.analysis.search.beam import FOUND_LAST
from spider_cli.analysis.solve import answers, autoplay
from spider_cli.analysis.solve.autoplay import Stage
from spider_cli.app.words.findings import play_text, report_text
from spider_cli.language.files.positions import read_position
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import Action, Game
from spider_cli.rules.goals import Goal, GoalKind

DEAD_END = """suits: 2
removed: s s s h h h
1: Kh Qs Js As
2: 2s Ah
3: Ks 4h 3s
4: Jh 4s 3h
5: 6h 10s 5s
6: 8h 6s 5h
7: 2h 9h 7s
8: 8s 7h
9: Qh 9s
10: 10h
"""
"""Two suits left and every card face up, no hand: one move (9s onto the 10h), and after it
none; no pile can be emptied, so the game is lost however it is played."""

ONE_SUIT_LEFT = """suits: 1
removed: s s s s s s s
1: 5s Ks
2: Qs 4s
3: Js 3s 10s
4: 9s 2s
5: 8s As 7s
6: 6s
7: (sp)
8: (sp)
9: (sp)
10: (sp)
"""
"""The last suit spread over six piles, four spaces: won by sorting it through them."""


def _game(text: str) -> Game:
    return read_position(text).to_game()


Beam = Callable[[Start, int, Limit, int], tuple[list[Action] | None, int]]


def _with_beam(monkeypatch: pytest.MonkeyPatch, beam: Callable[[Beam], Beam]) -> None:
    """The path in use (``native.backend``) with its beam replaced by ``beam(the real one)``;
    the rest of the search (the complete search) as it is."""
    backend = native.backend()
    monkeypatch.setattr(backend, "beam", beam(backend.beam))


def test_a_dead_end_is_proved_unwinnable_with_the_positions_examined() -> None:
    result = autoplay.play(_game(DEAD_END), Limit(10_000))
    assert not result.won and result.proved and result.stage is Stage.COMPLETE
    assert 1 < result.positions < 20  # (the beams' few, and the complete search's)
    assert play_text(result) == (
        "proved unwinnable: the complete search examined every reachable position "
        f"({result.positions:,} positions)"
    )
    assert autoplay.play(_game(DEAD_END), Limit(10_000)) == result  # deterministic
    report = answers.solve(_game(DEAD_END), Goal(GoalKind.WIN))
    assert report.status is Verdict.IMPOSSIBLE and report_text(report).startswith(
        "proved unwinnable"
    )


def test_a_search_stopped_at_its_limit_proves_nothing() -> None:
    result = autoplay.play(DealSource(Source.PYSOL, 3, 4).game(), Limit(30_000), (4,))
    assert not result.won and not result.proved and result.stage is Stage.COMPLETE
    assert play_text(result).startswith("no win found within the limits (")
    assert play_text(result).endswith("the complete search; not a proof that none exists)")


def test_a_win_of_the_complete_search_is_checked_and_cleaned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the beams finding nothing (as on a deal they lose), the complete search wins;
    its line is played by the engine, its suits removed, its detours cut."""
    _with_beam(monkeypatch, lambda _real: lambda *args, **kwargs: (None, 1))
    game = _game(ONE_SUIT_LEFT)
    result = autoplay.play(game, Limit(50_000))
    assert result.won and result.stage is Stage.COMPLETE and not result.proved
    work = game.copy()
    for action in result.actions:
        assert not work.why_illegal(action)
        work.push(action)
    assert work.is_won() and len(work.removed) == 8
    assert len(result.texts) == len(result.actions)
    assert autoplay.play(game, Limit(50_000)) == result


def test_the_second_stage_can_be_left_out() -> None:
    result = autoplay.play(_game(DEAD_END), Limit(10_000), second=False)
    assert not result.won and not result.proved and result.stage is Stage.BEAM


def test_the_portfolio_begins_only_where_it_could_reach_a_win(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    widths: list[tuple[int, int]] = []

    def logging(real: Beam) -> Beam:
        def logged(
            start: Start, width: int, limit: Limit, ties: int = 0
        ) -> tuple[list[Action] | None, int]:
            widths.append((width, ties))
            return real(start, width, limit, ties)

        return logged

    _with_beam(monkeypatch, logging)
    monkeypatch.setattr(autoplay, "PORTFOLIO", ((8, FOUND_LAST),))
    result = autoplay.play(DealSource(Source.PYSOL, 3, 4).game(), Limit(30_000), (4,))
    assert widths == [(4, 0), (8, FOUND_LAST)] and result.stage is Stage.COMPLETE
    widths.clear()
    monkeypatch.setattr(autoplay, "PORTFOLIO", ((1024, FOUND_LAST),))  # 102,400: not left
    autoplay.play(DealSource(Source.PYSOL, 3, 4).game(), Limit(30_000), (4,))
    assert widths == [(4, False)]
