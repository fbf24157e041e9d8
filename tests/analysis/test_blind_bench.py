"""Blind play: the blind player sees only what a player sees, and a rerun plays the same game."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from spider_cli.analysis.bench import blind, full
from spider_cli.analysis.bench.full import summarize
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind.turns import Turn
from spider_cli.analysis.chance.search import Level
from spider_cli.analysis.compact import FACE_DOWN, State
from spider_cli.analysis.intervals import wilson
from spider_cli.analysis.limits import Limit
from spider_cli.app.words.bench import summary_json
from spider_cli.rules.cards import UNKNOWN
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import Game


def _ours(number: int, suits: int) -> DealSource:
    return DealSource(Source.OURS, number, suits)


def _plain(value: object) -> bool:
    """Only ints and tuples of them: nothing that could lead back to the deal."""
    if isinstance(value, tuple):
        return all(_plain(v) for v in value)
    return type(value) is int


def _hidden_unknown(game: Game) -> bool:
    piles = all(
        all(c == UNKNOWN for c in pile[:down])
        for pile, down in zip(game.piles, game.down, strict=True)
    )
    return piles and all(c == UNKNOWN for c in game.stock)


def test_the_view_holds_plain_values_and_no_game() -> None:
    view = blind.Dealer(_ours(5, 4)).view()
    fields = [getattr(view, f.name) for f in dataclasses.fields(view)]
    assert all(_plain(v) for v in fields)
    assert not hasattr(view, "__dict__")  # slots: nothing but its own fields
    assert _hidden_unknown(view.game())
    assert view.hand == 50 and sum(view.down) == 44


def test_the_dealer_has_no_undo_and_no_public_game() -> None:
    table = blind.Dealer(_ours(5, 4))
    assert not [name for name in vars(table) if not name.startswith("_Dealer__")]
    assert not hasattr(table, "undo") and not hasattr(table, "game")


def test_the_policy_is_given_only_positions_with_the_hidden_cards_unknown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[State] = []
    real = blindplayer.plan

    def spy(search: object, turn: Turn, *args: object, **kwargs: object) -> blindplayer.Plan:
        seen.append(turn.piles)
        assert all(byte <= FACE_DOWN for pile in turn.piles for byte in pile)  # no known card down
        return real(search, turn, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(blindplayer, "plan", spy)
    monkeypatch.setattr(blind, "MAX_MOVES", 30)
    blind.play_blind(blind.Dealer(_ours(3, 1)), budget=Limit(300))
    assert seen and sum(pile.count(FACE_DOWN) for pile in seen[0]) == 44


@pytest.mark.parametrize("suits", [1, 4])
def test_the_policy_is_given_the_unseen_cards_where_it_weighs_them(
    monkeypatch: pytest.MonkeyPatch, suits: int
) -> None:
    given: list[tuple[State, int, tuple[int, ...]]] = []
    real = blindplayer.plan

    def spy(
        search: blindplayer.BlindSearch,
        turn: Turn,
        budget: Limit,
        unseen: object = (),
        searches: blindplayer.Searches = blindplayer.SEARCHES,
    ) -> blindplayer.Plan:
        given.append((turn.piles, turn.hand, tuple(unseen)))  # type: ignore[arg-type]
        return real(search, turn, budget, unseen, searches)  # type: ignore[arg-type]

    monkeypatch.setattr(blindplayer, "plan", spy)
    monkeypatch.setattr(blind, "MAX_MOVES", 12)
    blind.play_blind(blind.Dealer(_ours(7, suits)), budget=Limit(200))
    assert given
    for piles, hand, unseen in given:
        if blindplayer.WEIGHED[suits]:
            face_down = sum(pile.count(FACE_DOWN) for pile in piles)
            assert len(unseen) == face_down + hand  # every card not seen, and no other
        else:
            assert unseen == ()


def test_a_rerun_plays_the_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(blind, "MAX_MOVES", 15)
    first = blind.play_deal((_ours(2, 2), Limit(300), Level.PLAIN))
    again = blind.play_deal((_ours(2, 2), Limit(300), Level.PLAIN))
    assert (first.positions, first.moves, first.won) == (again.positions, again.moves, again.won)
    assert first.moves >= 15


def test_wilson_interval() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(48, 100)
    assert low == pytest.approx(0.3846, abs=1e-4) and high == pytest.approx(0.5768, abs=1e-4)


def test_the_json_summary_names_variant_seeds_played_won_and_each_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(blind, "MAX_MOVES", 5)
    results = [blind.play_deal((_ours(seed, 1), Limit(200), Level.PLAIN)) for seed in (0, 1)]
    limits = full.Limits(positions_per_search=200, moves_per_deal=5)
    data = summary_json(summarize(1, results, 1.0), results, "0-1", full.BenchMode.BLIND, limits)
    assert (data["variant"], data["seeds"], data["played"], data["won"]) == ("1-suit", "0-1", 2, 0)
    assert [d["seed"] for d in data["deals"]] == [0, 1]


def test_spider_bench_blind_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from spider_cli.cli.main import main

    monkeypatch.setattr(blind, "MAX_MOVES", 4)
    argv = ["bench", "--blind", "--seeds", "7", "--suits", "4", "--budget", "100", "--jobs", "1"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["variant"], data["mode"], data["played"], data["deals"][0]["moves"]) == (
        "4-suit",
        "blind",
        1,
        4,
    )
    assert main(argv) == 0
    assert "95% interval" in capsys.readouterr().out


def test_blind_play_of_pysol_and_kpat_deals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from spider_cli.cli.main import main

    for name in ("pysol:3", "kpat:3"):
        view = blind.Dealer(DealSource.parse(name, 2)).view()
        assert (sum(view.down), view.hand, len(view.face_up)) == (44, 50, 10)
    monkeypatch.setattr(blind, "MAX_MOVES", 3)
    argv = ["bench", "--blind", "--seeds", "pysol:3-4", "--suits", "2", "--budget", "50"]
    assert main([*argv, "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["deal"] for d in data["deals"]] == ["pysol:3", "pysol:4"]
    assert [d["moves"] for d in data["deals"]] == [3, 3]


def test_the_bench_the_hint_and_the_library_share_one_budget(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``spider bench --blind`` with no ``--budget`` plays at the same :class:`Limit` as a
    hint and as the library's defaults (``decide``, ``plan``, the blind bench)."""
    import inspect

    from spider_cli.analysis import TURN_LIMIT, hints
    from spider_cli.cli.main import main

    for function in (blindplayer.decide, blindplayer.plan, blind.play_blind, blind.run, hints.hint):
        assert inspect.signature(function).parameters["budget"].default == TURN_LIMIT, function
    assert hints.hint_limit() == TURN_LIMIT
    assert hints.hint_limit(deeper=True) == Limit(hints.DEEPER * TURN_LIMIT.positions)
    given: list[Limit] = []

    def run(deals: object, suits: int, budget: Limit, *args: object, **kwargs: object) -> None:
        given.append(budget)
        raise SystemExit(0)

    monkeypatch.setattr(blind, "run", run)
    db = str(tmp_path / "bench.sqlite")
    with pytest.raises(SystemExit):
        main(["bench", "--blind", "--seeds", "7", "--suits", "1", "--db", db])
    assert given == [TURN_LIMIT]
