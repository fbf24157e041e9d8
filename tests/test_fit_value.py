"""benchmarks/fit_value.py: self-play by the player's own weights, and a fit that replaces
only the models of the suit counts it was given games of."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from spider_cli.analysis import rollouts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

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
