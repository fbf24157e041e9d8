"""``spider bench``'s results file (spider_cli.app.files.benchdb): stored as each deal finishes,
resumed after a stop, summarised as JSON, and the same when played on a Dask cluster."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from spider_cli.analysis.bench import blind
from spider_cli.analysis.bench import full as bench
from spider_cli.analysis.bench.full import DealResult
from spider_cli.analysis.chance import search as chancesearch
from spider_cli.analysis.chance.search import Level
from spider_cli.analysis.solve import autoplay
from spider_cli.app.files import benchdb
from spider_cli.app.words.bench import known_report
from spider_cli.cli.main import main
from spider_cli.cli.parser import DEFAULT_LEVEL
from spider_cli.rules.deals import PYSOL_MAX, DealSource, Source
from spider_cli.rules.errors import SpiderError

LIMIT = 3000
"""Positions per deal in these tests: small, and deterministic whatever the machine."""


def rows(path: Path) -> list[tuple[object, ...]]:
    """Every stored row but its seconds (the one figure that depends on the machine)."""
    with sqlite3.connect(path) as db:
        found = db.execute(
            "SELECT source, number, suits, position_limit, time_limit, won, moves, positions,"
            " line FROM known_results ORDER BY source, CAST(number AS INTEGER)"
        ).fetchall()
    db.close()
    return found


OTHER = autoplay.SearchKey("beam version 0, second stage version 0", "beam version 0")


def test_store_keeps_each_result_by_deal_limits_and_search(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "results.sqlite"
    big = DealSource(Source.PYSOL, PYSOL_MAX)  # past SQLite's 64-bit integers
    won = DealResult(DealSource(Source.KPAT, 7, 2), True, 1.5, 900, 2, ("deal", "As from 1 to 2"))
    lost = DealResult(big, False, 3.0, 5000, 0)
    key = autoplay.search_key(LIMIT)
    with benchdb.Store(path) as store:
        store.add(won, 1000, None, key)
        store.add(lost, 1000, None, key)
        store.add(won, 1000, 10.0, key)  # other limits: another row
        store.add(lost, 1000, None, OTHER)  # another search: another row
    with benchdb.Store(path) as store:
        assert sorted(store.results([won.deal, big], 1000, None, key), key=str) == sorted(
            [won, lost], key=str
        )
        assert store.results([won.deal, big], 1000, 10.0, key) == [won]
        assert store.results([won.deal], 2000, None, key) == []
        assert store.results([DealSource(Source.KPAT, 7, 4)], 1000, None, key) == []
        assert store.results([won.deal, big], 1000, None, OTHER) == [lost]
        store.add(DealResult(won.deal, False, 2.0, 1000, 0), 1000, None, key)  # replaces
        assert [r.won for r in store.results([won.deal], 1000, None, key)] == [False]
        played_elsewhere = DealResult(won.deal, True, 1.0, 5, 1, ("x",), "beam version 0")
        with pytest.raises(SpiderError, match="played by another search"):
            store.add(played_elsewhere, 1000, None, key)  # a cluster's worker of another spider


def test_the_stage_that_won_and_a_proof_are_kept(tmp_path: Path) -> None:
    """Each row keeps the part of the search that won the deal, or the proof that none can;
    the summary names the deals the second stage won and those proved unwinnable."""
    path = tmp_path / "results.sqlite"
    key = autoplay.search_key(LIMIT)
    second = DealResult(
        DealSource(Source.OURS, 1, 4), True, 1.0, 900, 1, ("x",), "", autoplay.Stage.PORTFOLIO
    )
    proved = DealResult(
        DealSource(Source.OURS, 2, 4),
        False,
        1.0,
        70,
        0,
        (),
        "",
        autoplay.Stage.COMPLETE,
        proved=True,
    )
    with benchdb.Store(path) as store:
        store.add(second, LIMIT, None, key)
        store.add(proved, LIMIT, None, key)
    with benchdb.Store(path) as store:
        read = store.results([second.deal, proved.deal], LIMIT, None, key)
    assert sorted(read, key=str) == sorted([second, proved], key=str)
    summary = bench.summarize(4, read, 1.0)
    assert "won by the second stage: 1\n" in known_report(summary, LIMIT) + "\n"
    assert "proved unwinnable: 2 ('spider solve --seed DEAL' says why)" in known_report(
        summary, LIMIT
    )
    assert [d["stage"] for d in (r.as_json() for r in read)] == ["portfolio", "complete"]


def test_a_results_file_from_before_stages_gains_them(tmp_path: Path) -> None:
    """A file whose table ends at the winning line (an older spider's) is opened, gains the
    two columns, and its rows are read with no stage: nothing is lost or refused."""
    path = tmp_path / "old.sqlite"
    old_schema = benchdb._SCHEMA.split("    stage TEXT")[0] + (
        "    PRIMARY KEY (source, number, suits, position_limit, time_limit, search)\n)"
    )
    key = autoplay.search_key(LIMIT)
    with sqlite3.connect(path) as db:
        db.execute(old_schema)
        db.execute(
            "INSERT INTO known_results VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            ("ours", "5", 4, LIMIT, 0.0, key.full, 1, 1, 800, 0.5, '["x"]'),
        )
    db.close()
    with benchdb.Store(path) as store:
        [row] = store.results([DealSource(Source.OURS, 5, 4)], LIMIT, None, key)
    assert row == DealResult(DealSource(Source.OURS, 5, 4), True, 0.5, 800, 1, ("x",))
    assert row.stage is None and not row.proved


def _counting_plays(monkeypatch: pytest.MonkeyPatch) -> list[DealSource]:
    """The deals ``spider bench`` plays from now on (rather than reads back), in order."""
    played: list[DealSource] = []
    solve = bench.solve_deal

    def counted(task: bench.Task) -> DealResult:
        played.append(task[0])
        return solve(task)

    monkeypatch.setattr(bench, "solve_deal", counted)
    return played


def test_a_result_of_another_search_is_never_reported_as_this_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """After an upgrade that changes the search (its version raised), the deals are played
    again and the summary says none was read; the older rows stay, under their own key."""
    db = tmp_path / "bench.sqlite"
    argv = ["bench", "--seeds", "0-1", "--suits", "1", "--limit", "500", "--jobs", "1"]
    argv += ["--db", str(db)]
    assert main(argv) == 0
    assert "deals played: 2 (none read from the results file)" in capsys.readouterr().out
    assert main(argv) == 0
    assert "deals played: 0; read from the results file: 2" in capsys.readouterr().out
    played = _counting_plays(monkeypatch)
    monkeypatch.setattr(autoplay, "BEAM_VERSION", autoplay.BEAM_VERSION + 1)
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["from_earlier_runs"] == 0
    assert played == [DealSource(Source.OURS, 0, 1), DealSource(Source.OURS, 1, 1)]
    assert len(rows(db)) == 4  # each version's rows, under its own key


def test_a_deal_the_beam_won_is_read_back_by_another_second_stage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deal the beam won never reached the second stage: a search whose second stage is
    another (its version raised) reads it back, and plays again only the deal the beam
    did not win."""
    db = tmp_path / "bench.sqlite"
    argv = ["bench", "--seeds", "pysol:3-7", "--suits", "4", "--limit", "40000"]
    argv += ["--jobs", "1", "--db", str(db), "--json"]
    assert main(argv) == 0
    first = {d["deal"]: d for d in json.loads(capsys.readouterr().out)["deals"]}
    by_beam = {k for k, d in first.items() if d["won"] and d["stage"] == "beam"}
    assert by_beam and len(by_beam) < len(first)  # (pysol:7 is won by the beam, 3 is not)
    played = _counting_plays(monkeypatch)
    monkeypatch.setattr(autoplay, "SECOND_VERSION", autoplay.SECOND_VERSION + 1)
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["from_earlier_runs"] == len(by_beam)
    assert {str(d) for d in played} == set(first) - by_beam
    deals = {d["deal"]: d for d in again["deals"]}
    assert all(deals[k] == first[k] for k in by_beam)
    assert all(deals[k]["positions"] == first[k]["positions"] for k in first)


def test_an_older_spiders_rows_are_never_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A results file of a spider whose rows named no search: its table is left as it was,
    and its rows (here a won deal that this search does not win) are never read."""
    db = tmp_path / "bench.sqlite"
    with sqlite3.connect(db) as old:
        old.execute(
            "CREATE TABLE results (source TEXT NOT NULL, number TEXT NOT NULL, suits INTEGER"
            " NOT NULL, position_limit INTEGER NOT NULL, time_limit REAL NOT NULL, won INTEGER"
            " NOT NULL, moves INTEGER NOT NULL, positions INTEGER NOT NULL, seconds REAL NOT"
            " NULL, line TEXT NOT NULL, PRIMARY KEY (source, number, suits, position_limit,"
            " time_limit))"
        )
        old.execute("INSERT INTO results VALUES ('ours','0',4,50,0.0,1,1,7,0.1,'[\"deal\"]')")
    old.close()
    argv = ["bench", "--seeds", "0", "--suits", "4", "--limit", "50", "--jobs", "1", "--json"]
    assert main([*argv, "--db", str(db)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["won"], summary["from_earlier_runs"]) == (0, 0)
    with sqlite3.connect(db) as kept:
        assert kept.execute("SELECT count(*) FROM results").fetchone() == (1,)
    kept.close()


def test_store_refuses_a_file_it_cannot_use(tmp_path: Path) -> None:
    (tmp_path / "not.sqlite").write_text("not a database, " * 100)
    with pytest.raises(SpiderError, match="cannot use"):
        benchdb.Store(tmp_path / "not.sqlite")
    assert main(["bench", "--seeds", "1", "--db", str(tmp_path)]) == 1  # a file refused


def test_a_link_is_refused_and_its_target_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("")  # empty: SQLite would take it for a new database
    (tmp_path / "results.sqlite").symlink_to(target)
    argv = ["bench", "--seeds", "1", "--limit", "50", "--db", str(tmp_path / "results.sqlite")]
    assert main(argv) == 1
    assert "results.sqlite is a symbolic link to " in capsys.readouterr().err
    assert target.read_text() == ""
    (tmp_path / "results.sqlite").unlink()
    (tmp_path / "results.sqlite-journal").symlink_to(target)
    with pytest.raises(SpiderError, match=r"results\.sqlite-journal is a symbolic link"):
        benchdb.Store(tmp_path / "results.sqlite")
    assert target.read_text() == ""


def test_a_results_table_with_other_columns_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "theirs.sqlite"
    with sqlite3.connect(path) as theirs:
        theirs.execute("CREATE TABLE known_results (name TEXT, score REAL)")
    theirs.close()
    assert main(["bench", "--seeds", "1", "--limit", "50", "--db", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"spider bench: cannot use {path} for results: it holds a results table that is not "
        "spider bench's\n"
    )


def test_default_file_is_in_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPIDER_HOME", str(tmp_path))
    assert benchdb.default_path() == tmp_path / benchdb.FILE_NAME
    assert main(["bench", "--seeds", "0", "--suits", "1", "--limit", "200", "--jobs", "1"]) == 0
    assert len(rows(tmp_path / benchdb.FILE_NAME)) == 1
    assert (tmp_path / benchdb.FILE_NAME).stat().st_mode & 0o077 == 0  # the owner's alone


def test_a_stopped_run_resumes_where_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C after the second deal: those two are stored, and the next run plays only the
    third, then reports all three."""
    db = tmp_path / "bench.sqlite"
    played: list[DealSource] = []
    solve = bench.solve_deal

    def counted(task: bench.Task) -> DealResult:
        played.append(task[0])
        if len(played) == 3 and stop:
            raise KeyboardInterrupt
        return solve(task)

    monkeypatch.setattr(bench, "solve_deal", counted)
    argv = ["bench", "--seeds", "pysol:1-3", "--suits", "1", "--limit", str(LIMIT)]
    argv += ["--jobs", "1", "--db", str(db), "--json"]
    stop = True
    assert main(argv) == 130
    assert [(r[0], r[1]) for r in rows(db)] == [("pysol", "1"), ("pysol", "2")]
    capsys.readouterr()
    stop, played = False, []
    assert main(argv) == 0
    assert played == [DealSource(Source.PYSOL, 3, 1)]
    summary = json.loads(capsys.readouterr().out)
    assert summary["variant"] == "1-suit" and summary["seeds"] == "pysol:1-3"
    assert summary["played"] == 3 and summary["from_earlier_runs"] == 2
    deals = [r["deal"] for r in summary["deals"]]
    assert deals == ["pysol:1", "pysol:2", "pysol:3"]
    assert summary["won"] == sum(r["won"] for r in summary["deals"])
    for result, row in zip(summary["deals"], rows(db), strict=True):
        assert (result["won"], result["moves"], result["positions"]) == row[5:8]
        assert result["line"] == json.loads(str(row[8]))
        assert len(result["line"]) == result["moves"]


def _bench_json_words() -> set[str]:
    """The words in backquotes in the documentation's section on ``spider bench --json``
    (docs/json.md)."""
    page = (Path(__file__).parents[2] / "docs" / "json.md").read_text(encoding="utf-8")
    section = page.split("## `spider bench --json`", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`(\w+)`", section))


def test_bench_json_has_one_shape_with_every_card_known_or_blind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both modes print schema 3: the variant, the mode, the limits and a row per deal,
    with the same fields, each described in docs/json.md."""
    monkeypatch.setattr(blind, "MAX_MOVES", 4)
    argv = ["bench", "--seeds", "pysol:3-4", "--suits", "2", "--jobs", "1", "--json"]
    assert main([*argv, "--limit", str(LIMIT), "--db", str(tmp_path / "bench.sqlite")]) == 0
    known = json.loads(capsys.readouterr().out)
    assert main([*argv, "--blind", "--budget", "50"]) == 0
    seen = json.loads(capsys.readouterr().out)
    assert known.keys() == seen.keys() and known["deals"][0].keys() == seen["deals"][0].keys()
    assert (known["schema"], known["variant"], known["suits"]) == (3, "2-suit", 2)
    assert (known["mode"], seen["mode"]) == ("known", "blind")
    assert known["limits"] == {
        "positions_per_deal": LIMIT,
        "seconds_per_deal": None,
        "positions_per_search": None,
        "moves_per_deal": None,
        "level": None,
    }
    assert seen["limits"] == {
        "positions_per_deal": None,
        "seconds_per_deal": None,
        "positions_per_search": 50,
        "moves_per_deal": 4,
        "level": DEFAULT_LEVEL,
    }
    assert main([*argv, "--blind", "--budget", "50", "--level", "plain"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["limits"] == {**seen["limits"], "level": "plain"}
    assert main([*argv, "--blind", "--level", "wizard"]) == 2
    assert "invalid choice: 'wizard'" in capsys.readouterr().err
    assert plain["deals"][0].keys() == seen["deals"][0].keys()
    for data in (known, seen):
        assert [d["deal"] for d in data["deals"]] == ["pysol:3", "pysol:4"]
        assert data["played"] == 2 and data["won"] == sum(d["won"] for d in data["deals"])
    assert {*known, *known["limits"], *known["deals"][0]} <= _bench_json_words()


def test_a_finished_run_plays_nothing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bench.sqlite"
    argv = ["bench", "--seeds", "0-1", "--suits", "1", "--limit", "500", "--jobs", "1"]
    assert main([*argv, "--db", str(db)]) == 0
    first = capsys.readouterr().out

    def never(task: bench.Task) -> DealResult:
        raise AssertionError(f"{task} played again")

    monkeypatch.setattr(bench, "solve_deal", never)
    assert main([*argv, "--db", str(db)]) == 0
    again = capsys.readouterr().out
    assert first.splitlines()[0] == again.splitlines()[0]  # the same deals, won the same
    assert "deals played: 0; read from the results file: 2 (stored by an earlier run" in again


def test_a_cluster_run_stores_what_a_local_run_stores(tmp_path: Path) -> None:
    """Three one-suit deals on a Dask LocalCluster (in this process, on loopback) give the
    same rows as the same deals played here."""
    distributed = pytest.importorskip("distributed")
    argv = ["bench", "--seeds", "2-4", "--suits", "1", "--limit", "12000", "--jobs", "1"]
    assert main([*argv, "--db", str(tmp_path / "local.sqlite")]) == 0
    cluster = distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tcp://",
        host="127.0.0.1",
        dashboard_address=None,
    )
    try:
        remote = [
            *argv,
            "--db",
            str(tmp_path / "cluster.sqlite"),
            "--cluster",
            cluster.scheduler_address,
        ]
        assert main(remote) == 0
    finally:
        cluster.close()
    local = rows(tmp_path / "local.sqlite")
    assert len(local) == 3 and any(row[5] for row in local)  # deal 3 is won
    assert local == rows(tmp_path / "cluster.sqlite")


def test_cluster_errors_are_told_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import builtins

    real_import = builtins.__import__

    def without_distributed(name: str, *args: object, **kwargs: object) -> object:
        if name == "distributed":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", without_distributed)
    argv = ["bench", "--seeds", "1", "--db", str(tmp_path / "r.sqlite")]
    assert main([*argv, "--cluster", "tcp://127.0.0.1:1"]) == 1
    assert "pip install 'spider-cli[cluster]'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("tcp://127.0.0.1:notaport", "tcp://HOST:PORT"),
        ("bogus://127.0.0.1:1", "tcp://HOST:PORT"),
        ("", "tcp://HOST:PORT"),
        ("inproc://x", "tcp://HOST:PORT"),
        ("ucx://127.0.0.1:1", "tcp://HOST:PORT"),
        ("tls://127.0.0.1:1", "tcp://HOST:PORT"),
        ("tcp://127.0.0.1:99999", "a port is 1 to 65535, not 99999"),
        ("tcp://127.0.0.1:1", "nothing listens there (connection refused)"),
    ],
)
def test_a_bad_or_refused_cluster_address_is_said_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], address: str, said: str
) -> None:
    pytest.importorskip("distributed")
    argv = ["bench", "--seeds", "1", "--db", str(tmp_path / "r.sqlite"), "--cluster", address]
    assert main(argv) == 1
    assert said in capsys.readouterr().err  # (refused: said by the socket, not Dask's timeout)


def test_blind_games_are_kept_and_read_back_only_for_the_same_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(blind, "MAX_MOVES", 6)
    db = tmp_path / "bench.sqlite"
    argv = ["bench", "--blind", "--seeds", "3-4", "--suits", "2", "--jobs", "1", "--db", str(db)]
    assert main([*argv, "--budget", "60", "--level", "plain", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["from_earlier_runs"] == 0
    assert main([*argv, "--budget", "60", "--level", "plain", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["from_earlier_runs"] == 2 and again["deals"] == first["deals"]
    assert main([*argv, "--budget", "60", "--level", "plain"]) == 0
    assert "deals played: 0; read from the results file: 2" in capsys.readouterr().out
    assert main([*argv, "--budget", "60", "--level", "quick"]) == 0  # another player: played
    assert "deals played: 2 (none read" in capsys.readouterr().out
    assert main([*argv, "--budget", "70", "--level", "plain"]) == 0  # another budget: played
    assert "deals played: 2 (none read" in capsys.readouterr().out
    with benchdb.Store(db) as store:
        deals = bench.parse_deals("3-4", 2)
        key = chancesearch.player_key(Level.PLAIN, 60, 2)
        assert len(store.blind_results(deals, f"{key}, 6 moves at most")) == 2


def test_a_full_disk_is_said_in_a_players_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file that cannot grow (SQLite's page limit, as a full disk) ends the run with the
    reason and what is kept, never an internal error; what was stored stays."""
    opened = benchdb.Store.__init__

    def cannot_grow(self: benchdb.Store, path: Path) -> None:
        opened(self, path)
        pages = self._db.execute("PRAGMA page_count").fetchone()[0]
        self._db.execute(f"PRAGMA max_page_count = {pages + 1}")
        for n in range(1000):  # fill what is left with rows of other limits
            filler = ("ours", str(n), 9, -1, 0.0, "", 0, 0, 0, 0.0, "x" * 200, "", 0)
            try:
                self._db.execute(
                    "INSERT INTO known_results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", filler
                )
            except sqlite3.IntegrityError:  # filled before
                break
            except sqlite3.OperationalError:
                break

    monkeypatch.setattr(benchdb.Store, "__init__", cannot_grow)
    path = tmp_path / "full.sqlite"
    argv = ["bench", "--seeds", "1-6", "--suits", "1", "--limit", str(LIMIT), "--jobs", "1"]
    assert main([*argv, "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert "disk is full" in err and "results stored before it are kept" in err, err
    assert "internal error" not in err
    monkeypatch.undo()
    kept = [row for row in rows(path) if row[3] == LIMIT]
    with benchdb.Store(path) as store:
        assert len(
            store.results(bench.parse_deals("1-6", 1), LIMIT, None, autoplay.search_key(LIMIT))
        ) == len(kept)


def test_the_progress_line_shows_at_once_with_the_deals_in_play() -> None:
    import io

    from spider_cli.analysis.bench.full import DealResult, play_all
    from spider_cli.cli.progressbar import ProgressBar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    seen: list[str] = []

    def mapper(tasks: list, jobs: int, worker: object):  # type: ignore[no-untyped-def]
        seen.append(err.getvalue())  # what the terminal shows before any deal ends
        for deal in tasks:
            yield DealResult(deal, True, 0.1, 10, 5)

    deals = bench.parse_deals("1-3", 1)
    play_all(1, deals, [], lambda task: task, 2, ProgressBar(err), mapper=mapper)
    assert seen[0].startswith("\r[") and "0/3" in seen[0] and "(2 in play)" in seen[0]
    assert "3/3 won 3" in err.getvalue()
