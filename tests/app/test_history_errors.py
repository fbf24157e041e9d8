"""The history's own errors never end the program (issue 62): a history file that another
program made hostile (a trigger that refuses a write, a version that lies), a listing too
long for one query, a review's summary holding escapes, a resign that cannot be recorded.
Each hostile file is a real SQLite file in the test's SPIDER_HOME; spider is driven through
the real REPL (prompt_toolkit's pipe input) and the real command line."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from spider_cli.app.files.gamelog import (
    FILE_NAME,
    SCHEMA_VERSION,
    GameLog,
    HistoryError,
    Result,
    Stored,
)
from spider_cli.app.journal import Journal
from spider_cli.cli.main import main
from tests.helpers import drive, said


def hostile(home: Path, *statements: str) -> Path:
    """A history of spider's in ``home`` (with the games already there), then changed by
    ``statements`` run as another program would; its path."""
    home.mkdir(parents=True, exist_ok=True)
    path = home / FILE_NAME
    GameLog(path).recent()  # the schema, as spider writes it
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()
    return path


def refusing(table: str, event: str) -> str:
    return (
        f"CREATE TRIGGER refuse_{table}_{event.lower()} BEFORE {event} ON {table} "
        "BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END"
    )


def journaled_moves() -> int:
    entry = Journal().read()
    assert entry is not None
    return entry.moves


def test_a_history_that_refuses_every_new_game_is_said_once_and_the_game_goes_on(
    home: Path,
) -> None:
    hostile(home, refusing("games", "INSERT"))
    status, repl = drive("4h from 1 to 8\r7 3\rquit\r")
    text = said(repl)
    assert status == 0 and "internal error" not in text
    assert text.count("refused by a trigger") == 1  # said once, not at every move
    assert "cannot use the game history" in text and "the game goes on" in text
    assert repl.session.game.moves_made == 2
    assert journaled_moves() == 2  # the journal keeps the moves


def test_a_history_that_refuses_updates_is_said_at_the_second_move_and_the_game_goes_on(
    home: Path,
) -> None:
    hostile(home, refusing("games", "UPDATE"))
    status, repl = drive("4h from 1 to 8\r7 3\rquit\r")
    text = said(repl)
    assert status == 0 and text.count("refused by a trigger") == 1
    assert repl.session.game.moves_made == 2 and journaled_moves() == 2
    assert [(e.result, e.moves) for e in GameLog().recent()] == [(Result.IN_PROGRESS, 1)]


def test_a_history_that_refuses_reviews_still_prints_the_review(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drive("4h from 1 to 8\r7 3\rquit\r")  # game 1 of the history
    hostile(home, refusing("reviews", "INSERT"))
    assert main(["review", "--game", "1"]) == 0
    out, err = capsys.readouterr()
    assert "the review is not kept in the history" in err and "refused by a trigger" in err
    assert "With every card known this deal was won from the start" in out  # printed
    assert "internal error" not in err


def test_a_version_2_history_marked_version_1_is_used(home: Path) -> None:
    drive("4h from 1 to 8\rquit\r")
    path = hostile(home, "PRAGMA user_version = 1")
    assert [e.moves for e in GameLog().recent()] == [1]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_any_error_sqlite_gives_is_a_history_error(tmp_path: Path) -> None:
    path = hostile(tmp_path, refusing("games", "INSERT"), refusing("notes", "INSERT"))
    log = GameLog(path)
    from tests.app.test_gamelog import facts

    with pytest.raises(HistoryError, match=r"SQLite refused it \(refused by a trigger"):
        log.record(None, facts())
    with pytest.raises(HistoryError, match="refused by a trigger"):
        log.carry("note", {})
    assert log.recent() == []  # and it is still read


def many_games(path: Path, count: int) -> None:
    """``count`` lost games of deal 7 added to the history at ``path`` in one statement,
    and a review of the next to last."""
    db = sqlite3.connect(path)
    db.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
        " INSERT INTO games (deal, numbered, suits, started, moves, score, seconds, result,"
        " game_file) SELECT '7', 1, 4, 1000.0, 1, 499, 1.0, 'lost', '' FROM n",
        (count,),
    )
    db.execute("INSERT INTO reviews VALUES (?, 'v', 1, 'a summary', '{}')", (count - 1,))
    db.commit()
    db.close()


def test_the_reviews_of_more_games_than_sqlite_takes_variables_are_read(tmp_path: Path) -> None:
    """SQLite refuses a query with more variables than its limit (250,000 in Debian's
    build, 32,766 in SQLite's own, 999 in older ones): with the limit at 999, the reviews
    of 2,000 games are read."""
    path = hostile(tmp_path)
    many_games(path, 2_000)
    log = GameLog(path)
    log._connect().setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)
    numbers = [e.number for e in log.recent(2_000)]
    assert len(numbers) == 2_000
    assert log.reviews(numbers) == {(1_999, "v"): Stored(1, "a summary")}


def test_games_lists_more_games_than_sqlite_takes_variables(tmp_path: Path) -> None:
    """The issue's case at this SQLite's own limit: ``games N`` with N past it."""
    most = sqlite3.connect(":memory:").getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    home = tmp_path / "home"
    many_games(hostile(home), most + 3)
    done = subprocess.run(
        [sys.executable, "-m", "spider_cli"],
        input=f"games {most + 1}\n",
        capture_output=True,
        text=True,
        env={**os.environ, "SPIDER_HOME": str(home)},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert "too many SQL variables" not in done.stdout + done.stderr
    assert done.stdout.count("  lost") == most + 1
    assert "reviewed: a summary" not in done.stdout  # (its version is not this spider's)


def test_a_reviews_summary_from_the_history_is_shown_escaped(home: Path) -> None:
    drive("4h from 1 to 8\rquit\r")
    from spider_cli.analysis.review import version

    hostile(
        home,
        "INSERT INTO reviews VALUES (1, '" + version(4) + "', 1, 'won\x1b[2J\nforged line', '{}')",
    )
    _, repl = drive("games\rquit\r")
    text = said(repl)
    assert "\x1b" not in text and "\nforged line" not in text
    assert "reviewed: won\\x1b[2J\\nforged line" in text


def test_a_resign_the_history_cannot_record_says_it_is_not_recorded(home: Path) -> None:
    hostile(home, refusing("games", "INSERT"))
    _, repl = drive("4h from 1 to 8\r7 3\rresign\rquit\r")
    text = said(repl)
    assert "resigned after 2 moves" in text
    assert "recorded as lost" not in text.replace("not recorded as lost", "")
    assert "the game is not recorded as lost: the game history cannot be used" in text
    assert GameLog().recent() == []
