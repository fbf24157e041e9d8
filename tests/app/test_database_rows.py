"""Values inside spider's own SQLite files: a row of the right shape may hold any value in
any column (text in an INTEGER column, a blob, a float past any date, JSON nested deep). Each
table has one typed reader; a row with a bad value is left out with a warning that names it,
never counted, and never ends in an internal error (exit 70): bench's results (``bench
--db``) and the history of games (``games``, ``stats``, ``open N``)."""

from __future__ import annotations

import re
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spider_cli.analysis.bench import full
from spider_cli.analysis.bench.full import DealResult
from spider_cli.analysis.solve import autoplay
from spider_cli.app.files import benchdb, stats
from spider_cli.app.files.gamelog import FILE_NAME, Carried, Facts, GameLog, Result
from spider_cli.cli.exits import BUG
from spider_cli.cli.main import main
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.errors import SpiderError

LIMIT = 2000

GARBAGE = st.one_of(
    st.text(max_size=12),
    st.binary(max_size=12),
    st.floats(allow_nan=False),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from(["abc", "maybe", "not json", "1e300", b"\x00blob", 1e300, -1, 2**63 - 1]),
)

RESULT_COLUMNS = ["source", "number", "suits", "won", "seconds", "positions", "moves", "line"]
GAME_COLUMNS = ["deal", "numbered", "suits", "started", "ended", "moves", "score", "seconds",
                "game_file"]  # fmt: skip


def _results_file(path: Path) -> DealResult:
    """A results file holding one sound row (deal 3 of one suit); the row's result."""
    good = DealResult(DealSource(Source.OURS, 3, 1), True, 1.5, 900, 2, ("deal", "As from 1 to 2"))
    with benchdb.Store(path) as store:
        store.add(good, LIMIT, None, autoplay.search_key(LIMIT))
    return good


def _set(path: Path, table: str, column: str, value: object) -> bool:
    """Put ``value`` in ``column`` of every row; False when SQLite itself refuses it."""
    with sqlite3.connect(path) as db:
        try:
            db.execute(f"UPDATE {table} SET {column} = ?", (value,))
        except sqlite3.IntegrityError:
            return False
    db.close()
    return True


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RESULT_COLUMNS), GARBAGE)
def test_a_stored_result_is_counted_only_when_every_value_is_sound(
    column: str, value: object
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "full.sqlite"
        _results_file(path)
        if not _set(path, "known_results", column, value):
            return
        with benchdb.Store(path) as store:
            found = store.results(
                full.parse_deals("0-9", 1), LIMIT, None, autoplay.search_key(LIMIT)
            )
            assert len(found) + len(store.notices) <= 1
            if store.notices:
                assert f"({column} = " in store.notices[0] and "not counted" in store.notices[0]
            for result in found:  # a value its column can hold: read as it is
                assert isinstance(result.won, bool) and isinstance(result.line, tuple)
                assert result.positions >= 0 and result.moves >= 0 and result.seconds >= 0


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("source", "bogus"),
        ("number", "abc"),
        ("number", str(2**64 + 3) + ".0"),
        ("number", float(2**64)),
        ("line", "not json"),
        ("line", b"\x00\x01"),
        ("line", "[" * 200_000 + "]" * 200_000),
        ("seconds", "abc"),
        ("positions", "xyz"),
        ("won", "maybe"),
    ],
)
def test_bench_db_with_a_bad_row_says_which_and_plays_its_deal_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], column: str, value: object
) -> None:
    """The probe's rows: each is named, not counted (``won = 'maybe'`` is no win), and the
    deal is played again, its row replaced."""
    path = tmp_path / "full.sqlite"
    _results_file(path)
    assert _set(path, "known_results", column, value)
    argv = ["bench", "--seeds", "3", "--suits", "1", "--limit", str(LIMIT), "--jobs", "1"]
    assert main([*argv, "--db", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "warning: the stored result of source = " in err and f"({column} = " in err
    assert "none read from the results file" in out
    with benchdb.Store(path) as store:  # a sound row stored (the bad one replaced, if its key
        found = store.results(full.parse_deals("3", 1), LIMIT, None, autoplay.search_key(LIMIT))
        assert len(found) == 1  # was sound)
        assert len(store.notices) == (column in ("source", "number", "suits"))


def _history(path: Path) -> GameLog:
    """A history of one finished game of a numbered deal and carried figures for 4 suits."""
    log = GameLog(path, now=lambda: 1_700_000_000.0)
    facts = Facts("17", True, 4, 3, 500, 60.0, "game file")
    log.record(log.record(None, facts), facts, Result.WON)
    log.carry("test", {4: Carried(5, 2, 800)})
    return log


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAME_COLUMNS), GARBAGE)
def test_a_game_of_the_history_is_listed_and_counted_only_when_sound(
    column: str, value: object
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / FILE_NAME
        _history(path).close()
        if not _set(path, "games", column, value):
            return
        log = GameLog(path)
        listed = log.recent()
        notices = log.take_notices()
        assert len(listed) + len(notices) == 1
        if notices:
            assert notices[0].startswith("game 1 of the history holds a bad value")
            assert f"({column} = " in notices[0]
            assert log.finished() == []
            assert re.search(r"^4 suits +5 +2 ", stats.report(log), re.MULTILINE)  # carried only
        try:  # (a listing leaves the game file out: only opening the game reads it)
            assert log.entry(1).number == 1 and not notices
        except SpiderError as error:
            assert f"game 1 of the history holds a bad value ({column} = " in str(error)


@pytest.mark.parametrize(
    ("table", "column", "value"),
    [
        ("games", "started", "abc"),
        ("games", "started", 1e300),
        ("games", "seconds", "x"),
        ("games", "game_file", b"blob"),
        ("carried", "games", "abc"),
        ("carried", "wins", 99),
    ],
)
def test_games_stats_and_open_with_a_bad_row_say_which(
    home: Path, table: str, column: str, value: object
) -> None:
    """The probe's rows, through the commands a player types: never an internal error."""
    path = home / FILE_NAME
    home.mkdir(parents=True)
    home.chmod(0o700)
    _history(path).close()
    assert _set(path, table, column, value)
    script = home.parent / "look.spider"
    script.write_text("games\nstats\nopen 1\n" if table == "games" else "games\nstats\n")
    status = main(["run", str(script)])
    assert status != BUG
    log = GameLog(path)
    if column == "game_file":  # listed; only opening it reads the file
        with pytest.raises(SpiderError, match=r"\(game_file = b'blob'\): it cannot be opened"):
            log.entry(1)
    elif table == "games":
        assert log.recent() == [] and log.take_notices()
    else:
        assert log.carried() == {} and "carried over for suits = 4" in log.take_notices()[0]


def test_the_commands_show_the_warning(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = home / FILE_NAME
    home.mkdir(parents=True)
    home.chmod(0o700)
    _history(path).close()
    _set(path, "games", "started", "abc")
    script = home.parent / "look.spider"
    script.write_text("games\nstats\nopen 1\n")
    main(["run", str(script)])
    out, err = capsys.readouterr()
    said = out + err
    assert "game 1 of the history holds a bad value (started = 'abc')" in said
    assert "it cannot be opened" in said
    assert "internal error" not in said
