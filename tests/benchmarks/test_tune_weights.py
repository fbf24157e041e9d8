"""benchmarks/tune_weights.py: a run logs each generation, confirms its best at a larger
budget when asked, and resumes from its log with or without that confirmation."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("cma")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import tune_weights


def _main(*argv: str) -> None:
    old, sys.argv = sys.argv, ["tune_weights.py", *argv]
    try:
        tune_weights.main()
    finally:
        sys.argv = old


def _run(log: Path, generations: int, *more: str) -> None:
    _main(
        "run",
        "--suits",
        "1",
        "--deals",
        "5-6",
        "--budget",
        "40",
        "--popsize",
        "2",
        "--generations",
        str(generations),
        "--jobs",
        "1",
        "--log",
        str(log),
        *more,
    )


def test_a_run_confirms_each_generation_and_resumes_either_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "tune.jsonl"
    _run(log, 1, "--confirm", "80")
    reference, first = (json.loads(line) for line in log.read_text("utf-8").splitlines())
    assert reference["reference"] == "standard" and first["generation"] == 0
    confirmed = first["confirmed"]
    assert confirmed["budget"] == 80 and set(confirmed) == {"budget", "standard", "best", "mean"}
    for name in ("standard", "best", "mean"):
        assert 0 <= confirmed[name]["won"] <= 2 and confirmed[name]["score"] >= 0
    assert "at 80 positions a search: standard" in capsys.readouterr().out
    _run(log, 2)  # resumed without --confirm: the search goes on from the same log
    lines = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert [g.get("generation") for g in lines[1:]] == [0, 1] and "confirmed" not in lines[2]
    _main("show", "--log", str(log))
    shown = capsys.readouterr().out
    assert "  0  best" in shown and "at 80 positions a search" in shown and "  1  best" in shown


def test_versus_plays_sets_paired_keeps_their_games_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "tune.jsonl"
    _run(log, 1)
    capsys.readouterr()
    games = tmp_path / "games.jsonl"
    sets = ("standard", "shipped:4", f"{log}:best", f"{log}:mean@0")
    versus = ("versus", "--suits", "1", "--deals", "5-8", "--budget", "60", "--jobs", "1")
    _main(*versus, "--games", str(games), *sets)
    first = capsys.readouterr().out.splitlines()
    assert [line.partition(":")[0] for line in first[:2]] == ["standard", "shipped"]
    assert "/4 won" in first[0] and "against standard" in first[1] and "McNemar p" in first[1]
    kept = [json.loads(line) for line in games.read_text("utf-8").splitlines()]
    distinct = {game["weights"] for game in kept}
    assert len(kept) == 4 * len(distinct) and {g["deal"] for g in kept} == {5, 6, 7, 8}
    games.write_text(games.read_text("utf-8") + '{"setup": ')  # a stop mid-line
    _main(*versus, "--games", str(games), *sets)
    assert capsys.readouterr().out.splitlines() == first  # read back, nothing played again
    assert games.read_text("utf-8").splitlines() == [json.dumps(g) for g in kept]  # cut
    for wrong in (f"{log}:worst", f"{log}:best@x", "shipped:3", "shipped:"):
        with pytest.raises(SystemExit, match="not a weight set"):
            _main("versus", "--deals", "5-8", "--games", str(games), wrong)


def test_a_resume_cuts_a_half_written_last_line_rather_than_appending_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "tune.jsonl"
    _run(log, 1)
    log.write_text(log.read_text("utf-8") + '{"generation": 1, "setup": {"su')  # a stop
    _run(log, 2)
    lines = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert [line.get("generation") for line in lines] == [None, 0, 1]
    capsys.readouterr()
    _main("show", "--log", str(log))
    assert "  1  best" in capsys.readouterr().out


def test_a_log_of_only_its_reference_refuses_a_resume_with_other_arguments(
    tmp_path: Path,
) -> None:
    log = tmp_path / "tune.jsonl"
    _run(log, 0)  # the standard weights' score alone
    assert len(log.read_text("utf-8").splitlines()) == 1
    with pytest.raises(SystemExit, match=r"was made with another setup \(suits 1, .*suits 2"):
        _main("run", "--suits", "2", "--deals", "5-6", "--budget", "40", "--popsize", "2",
              "--generations", "1", "--jobs", "1", "--log", str(log))  # fmt: skip
    with pytest.raises(SystemExit, match="another setup"):
        _run(log, 1, "--seed", "7")
    assert len(log.read_text("utf-8").splitlines()) == 1  # nothing appended


def test_a_log_whose_reference_was_cut_at_a_stop_scores_it_again(tmp_path: Path) -> None:
    log = tmp_path / "tune.jsonl"
    log.write_text('{"reference": "standard", "set')
    _run(log, 1)
    lines = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert lines[0]["reference"] == "standard" and lines[1]["generation"] == 0


GAME = {"setup": {"suits": 1, "budget": 60}, "weights": "0" * 16, "won": False, "done": 0}


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (b"garbage", r"line 2 is damaged \(not JSON"),
        (json.dumps({"deal": 6, **GAME}).encode(), r"line 2 is damaged \(it has no 'down'"),
        (b'{"deal": 6,\0 "won": 1}', r"line 2 is damaged \(it holds a NUL byte"),
        (b'{"deal": "\xff\xfe"}', r"line 2 is damaged \(it is not UTF-8 text"),
        (b"[1, 2]", r"line 2 is damaged \(not a JSON object"),
    ],
    ids=["garbage", "a key missing", "NUL", "not UTF-8", "a list"],
)
def test_versus_says_which_line_of_its_games_is_damaged(
    tmp_path: Path, line: bytes, said: str
) -> None:
    games = tmp_path / "games.jsonl"
    whole = [json.dumps({"deal": deal, **GAME, "down": 30}).encode() for deal in (5, 7)]
    games.write_bytes(b"\n".join([whole[0], line, whole[1]]) + b"\n")
    with pytest.raises(SystemExit, match=said):
        _main("versus", "--suits", "1", "--deals", "5-5", "--budget", "60", "--jobs", "1",
              "--games", str(games), "standard")  # fmt: skip
