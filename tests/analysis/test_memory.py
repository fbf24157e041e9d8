"""The memory ceiling: however large the limit, a goal search stops at the positions the
ceiling allows and says so, on both paths."""

from __future__ import annotations

import io

import pytest

from spider_cli.analysis import memory, native
from spider_cli.analysis.solve import solver
from spider_cli.app.words.findings import answer_text
from spider_cli.app.words.notes import memory_note
from spider_cli.cli.main import main, run_scripts
from spider_cli.rules.deals import DealSource
from spider_cli.rules.goals import Constraints, Goal


@pytest.mark.parametrize(
    ("text", "size"),
    [("2G", 2 << 30), ("512M", 512 << 20), ("64k", 64 << 10), ("1GiB", 1 << 30), ("4096", 4096)],
)
def test_sizes_are_read(text: str, size: int) -> None:
    assert memory.parse(text) == size


@pytest.mark.parametrize("text", ["", "0", "-1G", "lots", "1.5G", "G", "2X"])
def test_a_size_that_is_none_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="SPIDER_MEMORY"):
        memory.parse(text)


def test_a_bad_setting_falls_back_and_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPIDER_MEMORY", "lots")
    assert memory.ceiling() > 0
    problem = memory.problem()
    assert problem is not None and problem == memory.Problem(memory.Wrong.NOT_A_SIZE, "lots")
    assert memory_note(problem) == (
        "note: SPIDER_MEMORY should be a size such as 2G or 512M, not 'lots';"
        " using a quarter of the machine's memory"
    )
    monkeypatch.setenv("SPIDER_MEMORY", "1G")
    assert memory.ceiling() == 1 << 30 and memory.problem() is None


@pytest.mark.parametrize("limit", [None, 2**63 - 1, 10**20])
def test_solve_stops_at_the_ceiling(
    search_path: str, monkeypatch: pytest.MonkeyPatch, limit: int | None
) -> None:
    monkeypatch.setenv("SPIDER_MEMORY", "4M")
    ceiling = memory.positions(native.backend().compiled)
    game = DealSource.parse("pysol:5", 4).game()
    answer = solver.answer(game, Goal("win"), Constraints(limit=limit))
    assert answer.status == "unknown"
    assert answer.positions <= ceiling + 10  # each search stops one past its share
    assert "memory ceiling" in answer_text(answer) and "SPIDER_MEMORY" in answer_text(answer)


def test_a_script_asking_for_an_endless_search_ends(
    search_path: str, monkeypatch: pytest.MonkeyPatch, capsys, home
) -> None:
    """The issue's probe: a numbered deal shown with every card, loaded, then "solve win"
    with a 20-digit limit."""
    monkeypatch.setenv("SPIDER_MEMORY", "4M")
    assert main(["show", "pysol:5"]) == 0
    position = home.parent / "k.txt"
    position.write_text(capsys.readouterr().out)
    script = home.parent / "endless.spider"
    script.write_text(f"load {position}\nsolve win, limit 99999999999999999999\n")
    out, err = io.StringIO(), io.StringIO()
    assert run_scripts([str(script)], out, err) == 0, err.getvalue()
    assert "memory ceiling" in out.getvalue()


def test_a_bad_setting_is_said_once(monkeypatch: pytest.MonkeyPatch, capsys, home) -> None:
    monkeypatch.setenv("SPIDER_MEMORY", "plenty")
    main(["solve", "--seed", "1", "--suits", "1"])
    assert capsys.readouterr().err.count("SPIDER_MEMORY") == 1


def test_bench_workers_share_the_machines_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each worker may hold what its limit (or the ceiling) allows; together three quarters
    of the machine: the number at once is cut, never the ceiling of each search."""
    monkeypatch.setattr(memory, "machine", lambda: 16 << 30)
    monkeypatch.delenv(memory.VARIABLE, raising=False)
    compiled = native.backend().compiled
    each = min(4 << 30, 20_000_000 * memory.cost(compiled))  # a quarter, or the limit's
    assert memory.workers(64, 20_000_000, compiled) == (12 << 30) // each
    assert memory.workers(64, 10_000, compiled) == 64  # small limits: every core
    assert memory.workers(2, 10_000, compiled) == 2
    monkeypatch.setattr(memory, "machine", lambda: 1 << 30)
    monkeypatch.setenv(memory.VARIABLE, "2G")  # a ceiling past the machine's memory
    assert memory.workers(8, 20_000_000, compiled) == 1  # always one


def test_a_bench_with_more_workers_than_memory_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    from spider_cli.analysis.bench import full

    played: list[int] = []

    def one_at_a_time(tasks, jobs, worker):  # the local mapper's contract, counted
        played.append(jobs)
        return map(worker, tasks)

    monkeypatch.setattr(full, "local_results", one_at_a_time)
    monkeypatch.setattr(memory, "machine", lambda: 64 << 20)  # 3 quarters: 48 MB
    monkeypatch.setenv(memory.VARIABLE, "64M")  # and each search may hold 64 MB
    argv = ["bench", "--seeds", "0-2", "--suits", "1", "--limit", "3000000", "--jobs", "3"]
    assert main([*argv, "--db", str(tmp_path / "b.sqlite")]) == 0
    err = capsys.readouterr().err
    assert played == [1]
    assert "note: 1 deal at a time, not 3" in err and "64 MB" in err, err
