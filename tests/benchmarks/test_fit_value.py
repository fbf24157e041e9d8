"""benchmarks/fit_value.py: self-play by the player's own weights, and a fit that replaces
only the models of the suit counts it was given games of."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from spider_cli.analysis.blind import rollouts

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import fit_value


def _main(*argv: str) -> None:
    old, sys.argv = sys.argv, ["fit_value.py", *argv]
    try:
        fit_value.main()
    finally:
        sys.argv = old


def test_a_fit_on_one_suit_count_keeps_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fit_value, "POLICY", rollouts.Policy(60, fit_value.POLICY.searches))
    games = [fit_value.play_one((n, 4)) for n in range(fit_value.FIRST, fit_value.FIRST + 10)]
    assert all(game["turns"] for game in games)
    data = tmp_path / "selfplay-4.jsonl"
    data.write_text("".join(json.dumps(game) + "\n" for game in games))
    shipped = Path(rollouts.__file__).with_name(rollouts.VALUE_FILE)
    out = tmp_path / "value.json"
    shutil.copy(shipped, out)
    before = json.loads(out.read_text())

    _main("fit", "--data", str(data), "--out", str(out))

    after = json.loads(out.read_text())
    assert sorted(after["models"]) == ["1", "2", "4"]
    for suits in ("1", "2"):  # kept, and still saying who made them
        kept = after["models"][suits]
        assert kept["weights"] == before["models"][suits]["weights"]
        assert kept["made_by"] == before["models"][suits].get("made_by", before["made_by"])
    assert after["models"]["4"]["games"] == 10
    assert after["models"]["4"]["weights"] != before["models"]["4"]["weights"]


def _selfplay(monkeypatch: pytest.MonkeyPatch, count: int) -> list[dict[str, object]]:
    """``count`` self-play games of four suits, played here at a small budget."""
    monkeypatch.setattr(fit_value, "POLICY", rollouts.Policy(60, fit_value.POLICY.searches))
    return [fit_value.play_one((n, 4)) for n in range(fit_value.FIRST, fit_value.FIRST + count)]


def test_play_resumed_with_another_suit_count_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "selfplay.jsonl"
    game = {"deal": fit_value.FIRST, "suits": 1, "won": True, "turns": [[0] * 3]}
    data.write_text(json.dumps(game) + "\n")
    with pytest.raises(SystemExit, match="holds games of 1 suits, not 4: resume it with --suits 1"):
        _main("play", "--suits", "4", "--games", "2", "--data", str(data), "--jobs", "1")
    assert data.read_text() == json.dumps(game) + "\n"


def test_play_and_fit_leave_out_a_half_written_last_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    games = _selfplay(monkeypatch, 6)
    data = tmp_path / "selfplay-4.jsonl"
    whole = "".join(json.dumps(game) + "\n" for game in games)
    data.write_text(whole + '{"deal": 1000006, "suits": 4, "won": fal')  # a stop mid-line
    out = tmp_path / "value.json"
    _main("fit", "--data", str(data), "--out", str(out))  # read only: the file left alone
    assert json.loads(out.read_text())["models"]["4"]["games"] == 6
    assert "its last line was half written" in capsys.readouterr().err
    assert data.read_text().startswith(whole) and data.read_text() != whole
    _main("play", "--suits", "4", "--games", "6", "--data", str(data), "--jobs", "1")
    assert data.read_text() == whole  # cut, nothing left to play


def test_fit_on_one_game_is_refused_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "selfplay-4.jsonl"
    data.write_text(json.dumps(_selfplay(monkeypatch, 1)[0]) + "\n")
    with pytest.raises(SystemExit, match="1 game of 4 suits: a fit needs 2 at least"):
        _main("fit", "--data", str(data), "--out", str(tmp_path / "value.json"))
    with pytest.raises(SystemExit, match="no games in"):
        _main("fit", "--data", str(tmp_path / "none.jsonl"), "--out", str(tmp_path / "v.json"))
