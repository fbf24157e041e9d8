"""The history of games in SQLite, the statistics read from it, and the time played.

The database is a real file in a temporary directory; the REPL is the real one, driven by
prompt_toolkit's pipe input (as in test_repl.py); clocks are counters moved by hand, so no
test depends on the time it takes.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from spider_cli.app.files import gamelog, stats
from spider_cli.app.files.gamelog import (
    FILE_NAME,
    SCHEMA_VERSION,
    Carried,
    Entry,
    Facts,
    GameLog,
    HistoryError,
    Result,
    Stored,
)
from spider_cli.app.handlers import current_reviews
from spider_cli.app.journal import Journal
from spider_cli.app.keeping import history_facts
from spider_cli.app.session import Session
from spider_cli.app.timer import Timer
from spider_cli.language import gamefiles
from spider_cli.rules.errors import SpiderError
from spider_cli.tui import render, wrapping
from spider_cli.tui.completion import SpiderCompleter
from spider_cli.tui.repl import Repl
from tests.helpers import drive as run_repl

SEED = 5
"""Deal 5 opens with 4h from 1 to 8, then 8d from 7 to 3."""


class Clock:
    """A clock that moves only when told."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def at_play(session: Session, clock: Clock, seconds: int) -> None:
    """Move ``clock`` on by ``seconds`` of play: a key at least every half minute (the watch
    stops a minute after the last one)."""
    assert session.timer is not None
    while seconds > 0:
        step = min(30, seconds)
        clock.now += step
        session.timer.touch()
        seconds -= step


def facts(moves: int = 3, score: int = 500, seconds: float = 60.0, suits: int = 4) -> Facts:
    return Facts("17", True, suits, moves, score, seconds, f"game file after {moves} moves")


def drive(keys: str, session: Session | None = None, offer_journal: bool = False) -> Repl:
    """The line-mode REPL on typed keys until it leaves (test_repl's driver)."""
    return run_repl(keys, session, offer_journal=offer_journal)[1]


def said(repl: Repl) -> str:
    return "\n".join(repl.transcript)


# ---------------------------------------------------------------------------------------------
# The database


def test_a_new_history_has_the_schema_version_and_waits_for_other_writers(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    GameLog(path).recent()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"games", "carried", "notes", "reviews"}


def test_a_history_of_version_1_gets_the_reviews_table_and_keeps_its_games(
    tmp_path: Path,
) -> None:
    path = tmp_path / FILE_NAME
    log = GameLog(path)
    number = log.record(None, facts(moves=3))
    log.close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE reviews")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    again = GameLog(path)
    assert [e.number for e in again.recent()] == [number]
    again.store_review(number, "v1", 3, "won with every card known until move 2", "{}")
    assert again.reviews([number]) == {
        (number, "v1"): Stored(3, "won with every card known until move 2")
    }
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2


def test_a_game_file_of_another_type_is_named_and_skipped_when_a_file_is_loaded(
    tmp_path: Path,
) -> None:
    # A blob in game_file once ended 'load FILE' in an internal error (the file's game is
    # looked for among the unfinished ones).
    path = tmp_path / FILE_NAME
    log = GameLog(path)
    good = log.record(None, facts(moves=3))
    bad = log.record(None, facts(moves=3))
    log.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET game_file = ? WHERE id = ?", (b"new 17\n4h 1 8", bad))
    db.commit()
    db.close()
    again = GameLog(path)
    assert again.continued(facts(moves=3)) == good
    assert [f"game {bad}" in n for n in again.take_notices()] == [True]


def test_a_review_row_of_another_type_is_named_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    log = GameLog(path)
    number = log.record(None, facts(moves=3))
    log.store_review(number, "v1", 3, "fine", "{}")
    log.close()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO reviews VALUES (?, 'v2', ?, 'x', '{}')", (number, b"blob"))
    db.execute("INSERT INTO reviews VALUES (?, 'v3', 3, ?, '{}')", (number, b"text?"))
    db.commit()
    db.close()
    again = GameLog(path)
    assert again.reviews([number]) == {(number, "v1"): Stored(3, "fine")}
    notices = again.take_notices()
    assert len(notices) == 2 and all(f"game {number}" in n for n in notices)


def test_a_game_is_recorded_updated_and_finished_once(tmp_path: Path) -> None:
    clock = Clock(1_700_000_000)
    log = GameLog(tmp_path / FILE_NAME, now=clock)
    number = log.record(None, facts(moves=1))
    clock.now += 90
    assert log.record(number, facts(moves=5, score=540, seconds=80)) == number
    clock.now += 30
    assert log.record(number, facts(moves=9, score=990, seconds=100), Result.WON) == number
    log.record(number, facts(moves=2, score=10), Result.LOST)  # finished: left as it was
    entry = log.entry(number)
    assert (entry.moves, entry.score, entry.seconds, entry.result) == (9, 990, 100, Result.WON)
    assert (entry.started, entry.ended) == (1_700_000_000, 1_700_000_120)
    assert entry.game_file == "game file after 9 moves"
    assert [e.number for e in log.recent()] == [number]


def test_an_abandoned_game_is_taken_up_again_and_a_vanished_row_is_written_anew(
    tmp_path: Path,
) -> None:
    log = GameLog(tmp_path / FILE_NAME)
    number = log.record(None, facts(), Result.ABANDONED)
    assert log.record(number, facts(moves=4)) == number
    assert log.entry(number).result is Result.IN_PROGRESS
    assert log.entry(number).ended is None
    assert log.record(99, facts()) != 99  # a row no longer there: a new one
    with pytest.raises(SpiderError, match="there is no game 99 in the history"):
        log.entry(99)


def test_a_damaged_history_is_set_aside_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_bytes(b"this is not a database, it is a grocery list\n" * 100)
    log = GameLog(path)
    assert log.recent() == []
    assert log.take_notices() == [
        "the game history was damaged or not spider's (kept as games.sqlite.damaged); "
        "a new history begins"
    ]
    assert (tmp_path / "games.sqlite.damaged").read_bytes().startswith(b"this is not")
    assert log.record(None, facts()) == 1


def test_another_programs_database_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE recipes (name TEXT)")
    GameLog(path).record(None, facts())
    aside = sqlite3.connect(tmp_path / "games.sqlite.damaged")
    assert aside.execute("SELECT name FROM sqlite_master").fetchall() == [("recipes",)]


@pytest.mark.parametrize(
    "damage",
    ["DROP TABLE notes", "DROP TABLE games", "ALTER TABLE games DROP COLUMN score"],
)
def test_a_history_with_a_table_or_a_column_missing_is_set_aside(
    tmp_path: Path, damage: str
) -> None:
    path = tmp_path / FILE_NAME
    GameLog(path).record(None, facts())
    with sqlite3.connect(path) as db:
        db.execute(damage)
    db.close()
    log = GameLog(path)
    assert log.recent() == []
    assert log.take_notices() == [
        "the game history was damaged or not spider's (kept as games.sqlite.damaged); "
        "a new history begins"
    ]
    assert "no games counted yet" in stats.report(log, tmp_path / "stats.json")
    assert log.record(None, facts()) == 1 and (tmp_path / "games.sqlite.damaged").exists()


def test_a_newer_history_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    with sqlite3.connect(path) as newer:
        newer.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(HistoryError, match="written by a newer spider"):
        GameLog(path).record(None, facts())
    assert not (tmp_path / "games.sqlite.damaged").exists()


def test_the_history_is_never_written_through_a_link(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.sqlite"
    (tmp_path / FILE_NAME).symlink_to(target)
    with pytest.raises(HistoryError, match="is a symbolic link"):
        GameLog(tmp_path / FILE_NAME).record(None, facts())
    assert not target.exists()
    (tmp_path / FILE_NAME).unlink()
    (tmp_path / f"{FILE_NAME}-wal").symlink_to(target)
    with pytest.raises(HistoryError, match="is a symbolic link"):
        GameLog(tmp_path / FILE_NAME).record(None, facts())


def test_a_directory_anybody_can_write_keeps_no_history(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(HistoryError, match="can be written by other users"):
        GameLog(shared / FILE_NAME).recent()
    assert not (shared / FILE_NAME).exists()


def test_a_directory_spider_cannot_write_is_not_said_to_be_writable_by_others(
    tmp_path: Path,
) -> None:
    """Read-only to this user: another user's (root can make one), or its own made
    read-only (as anyone else)."""
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    theirs.chmod(0o555)
    if os.geteuid() == 0:
        os.chown(theirs, 65534, 65534)
    with pytest.raises(HistoryError, match=r"belongs to another user|is read-only") as caught:
        GameLog(theirs / FILE_NAME).recent()
    assert "can be written by other users" not in str(caught.value)
    assert not (theirs / FILE_NAME).exists()


def test_a_new_data_directory_is_private(tmp_path: Path) -> None:
    GameLog(tmp_path / "new" / FILE_NAME).recent()
    assert (tmp_path / "new").stat().st_mode & 0o077 == 0
    for name in os.listdir(tmp_path / "new"):  # the history and SQLite's files beside it
        assert (tmp_path / "new" / name).stat().st_mode & 0o077 == 0, name


def test_two_processes_recording_at_once_lose_no_game(tmp_path: Path) -> None:
    """Two spiders, each recording 100 games (begun, updated, finished) into one file."""
    path = tmp_path / FILE_NAME
    # no file yet: the two race to create it as well
    program = (
        "import sys\n"
        "from pathlib import Path\n"
        "from spider_cli.app.files.gamelog import Facts, GameLog, Result\n"
        "log = GameLog(Path(sys.argv[1]))\n"
        "for n in range(100):\n"
        "    facts = Facts(sys.argv[2], True, 4, n, n, 1.0, 'text')\n"
        "    number = log.record(None, facts)\n"
        "    log.record(number, facts, Result.WON if n % 2 else Result.LOST)\n"
    )
    workers = [subprocess.Popen([sys.executable, "-c", program, str(path), name]) for name in "ab"]
    assert [worker.wait(timeout=300) for worker in workers] == [0, 0]
    games = GameLog(path).finished()
    assert len(games) == 200
    assert sorted(e.deal for e in games).count("a") == 100
    assert sum(e.result is Result.WON for e in games) == 100


# ---------------------------------------------------------------------------------------------
# The statistics


def entry(number: int, result: Result, suits: int = 4, score: int = 0, seconds: float = 0) -> Entry:
    return Entry(number, "1", True, suits, 0.0, 1.0, 10, score, seconds, result)


W, L, A = Result.WON, Result.LOST, Result.ABANDONED


def test_figures_per_variant_with_streaks_and_the_time_of_a_win() -> None:
    games = [
        entry(1, W, score=1000, seconds=600),
        entry(2, W, score=990, seconds=300),
        entry(3, L, score=100),
        entry(4, W, suits=1, seconds=100),
        entry(5, W, score=980, seconds=900),
        entry(6, A, score=1200),
        entry(7, W, score=700, seconds=0),  # not timed: not in the average
        entry(8, W, score=10, seconds=240),
    ]
    table = stats.figures(games, {})
    assert table[4] == stats.Figures(
        played=7, won=5, streak=2, best_streak=2, best=1200, win_seconds=(600 + 300 + 900 + 240) / 4
    )
    assert table[1] == stats.Figures(1, 1, 1, 1, 0, 100)


@given(st.lists(st.sampled_from([W, L, A]), max_size=30))
def test_the_streaks_are_runs_of_wins(results: list[Result]) -> None:
    table = stats.figures([entry(n, r) for n, r in enumerate(results)], {})
    if not results:
        assert table == {}
        return
    runs = "".join("w" if r is W else "." for r in results).split(".")
    assert table[4].streak == len(runs[-1])
    assert table[4].best_streak == max(len(run) for run in runs)
    assert table[4].won == results.count(W) and table[4].played == len(results)


def test_carried_figures_add_to_the_games(tmp_path: Path) -> None:
    carried = {4: Carried(10, 3, 990), 2: Carried(2, 0, None)}
    table = stats.figures([entry(1, W, score=600)], carried)
    assert (table[4].played, table[4].won, table[4].best) == (11, 4, 990)
    assert (table[2].played, table[2].won, table[2].best, table[2].streak) == (2, 0, None, 0)


def test_the_old_statistics_file_is_carried_over_once(tmp_path: Path) -> None:
    old = tmp_path / "stats.json"
    variants = {"4": {"games": 5, "wins": 2, "best": 1000}, "1": {"games": 3, "wins": 3}}
    old.write_text(json.dumps({"format": "spider statistics", "version": 1, "variants": variants}))
    log = GameLog(tmp_path / FILE_NAME)
    log.record(None, facts(score=400), Result.LOST)
    first = stats.report(log, old)
    second = stats.report(GameLog(tmp_path / FILE_NAME), old)  # another run: the same figures
    assert first == second
    assert first.splitlines()[1:] == [
        "4 suits        6    2    33%       0            0        1000            -",
        "1 suit         3    3   100%       0            0           -            -",
    ]
    assert old.exists()  # left in place, for an older spider
    assert log.carried() == {4: Carried(5, 2, 1000), 1: Carried(3, 3, None)}


@pytest.mark.parametrize("games", [2**63, 10**21, 1e21, -1])
def test_old_statistics_past_what_a_history_holds_are_set_aside(
    tmp_path: Path, games: float
) -> None:
    old = tmp_path / "stats.json"
    variants = {"4": {"games": games, "wins": 0}}
    old.write_text(json.dumps({"format": "spider statistics", "variants": variants}))
    report = stats.report(GameLog(tmp_path / FILE_NAME), old)
    assert report.splitlines() == [
        "the old statistics file was damaged (kept as stats.json.damaged); its figures are not "
        "counted",
        "no games counted yet: a numbered deal counts when it is won, lost or given up",
    ]


@pytest.mark.parametrize("number", [2**63 - 1, 2**63, 2**64, 10**19])
def test_numbers_past_sqlites_integers_are_no_games(tmp_path: Path, number: int) -> None:
    session = Session.new_game(seed=SEED, log=GameLog(tmp_path / FILE_NAME))
    session.execute("4h from 1 to 8")
    session.log.record(None, history_facts(session))  # type: ignore[union-attr]
    with pytest.raises(SpiderError, match=f"there is no game {number} in the history"):
        session.execute(f"open {number}")
    assert "   1  " in session.execute(f"games {number}").text
    assert session.game.moves_made == 1


def test_only_numbered_deals_count(tmp_path: Path) -> None:
    log = GameLog(tmp_path / FILE_NAME)
    log.record(None, Facts("problem-3", False, 4, 5, 50, 1, "text"), Result.WON)
    assert "no games counted yet" in stats.report(log, tmp_path / "none.json")
    assert len(log.recent()) == 1


# ---------------------------------------------------------------------------------------------
# The time played


def test_the_timer_counts_pauses_and_starts_where_a_game_left_off() -> None:
    clock = Clock()
    timer = Timer.started(clock, 30)
    clock.now += 15
    assert timer.seconds() == 45
    timer.pause()
    clock.now += 1000
    assert timer.seconds() == 45 and not timer.running
    timer.resume()
    clock.now += 5
    assert timer.seconds() == 50
    assert timer.fresh().seconds() == 0


def test_the_timer_counts_play_not_time_away_from_the_keys() -> None:
    clock = Clock()
    timer = Timer.started(clock)
    clock.now += 40
    timer.touch()
    clock.now += 50  # within a minute of the last key: all of it counts
    assert timer.seconds() == 90
    clock.now += 3600  # away: a minute after the last key counts, the rest not
    assert timer.seconds() == 100
    timer.touch()  # back: the watch goes on from now
    clock.now += 5
    assert timer.seconds() == 105
    timer.pause()
    clock.now += 10
    timer.resume()  # (a resumed watch counts from the resume, as from a key)
    clock.now += 30
    assert timer.seconds() == 135


def test_the_time_played_goes_with_the_game_file_and_back(tmp_path: Path) -> None:
    clock = Clock()
    session = Session.new_game(seed=SEED, base_dir=tmp_path, timer=Timer(clock))
    session.execute("4h from 1 to 8")
    at_play(session, clock, 754)
    assert session.status().played == 754
    session.execute("save game.spider")
    text = (tmp_path / "game.spider").read_text()
    assert text.endswith("# time played 12:34\n")
    assert gamefiles.read(text).seconds == 754
    clock.now += 100
    other = Session.new_game(seed=1, base_dir=tmp_path, timer=Timer(clock))
    other.load("game.spider")
    clock.now += 6
    assert other.status().played == 760
    assert other.history()[0].text == "4h from 1 to 8"
    other.new(3)
    assert other.status().played == 0


def test_a_game_file_without_a_time_loads_and_scripts_write_none(tmp_path: Path) -> None:
    session = Session.new_game(seed=SEED, base_dir=tmp_path)
    session.execute("4h from 1 to 8")
    assert "time played" not in session.files.game_file()
    clock = Clock()
    timed = Session.new_game(seed=1, base_dir=tmp_path, timer=Timer(clock))
    (tmp_path / "old.spider").write_text(session.files.game_file())
    timed.load("old.spider")
    assert timed.status().played == 0 and timed.game.moves_made == 1


def test_the_status_line_shows_the_time_and_leaves_it_out_before_cutting_words() -> None:
    session = Session.new_game(seed=SEED)
    session.timer = Timer(Clock(), banked=3723)

    def line(width: int) -> str:
        return wrapping.plain(render.toolbar(session.status(), width=width))

    assert line(120).endswith("|  score 0  |  time 1:02:03 ")
    assert line(60).endswith("| score 0 | 1:02:03 ")
    assert line(40) == " deals 5 | off 0/8 | moves 0 | score 0 "
    assert "time" not in wrapping.plain(render.toolbar(Session.new_game(seed=SEED).status()))


def test_the_timer_stops_while_the_program_waits_in_the_background(home: Path) -> None:
    clock = Clock()
    repl = Repl(Session.new_game(seed=SEED, timer=Timer(clock)), journal=Journal())

    def stopped() -> None:
        clock.now += 3600  # an hour in the background

    clock.now += 10
    repl.player.paused_while(stopped)
    clock.now += 5
    assert repl.session.status().played == 15


# ---------------------------------------------------------------------------------------------
# Through the REPL


def test_games_are_recorded_listed_and_opened_again(home: Path) -> None:
    repl = drive("4h from 1 to 8\r7 3\rnew 7\ry\rgames\ropen 1\rhistory\rquit\rn\r")
    text = said(repl)
    listing = text[text.index("game  began") :].splitlines()
    assert listing[0].split() == "game began deal suits moves score time result".split()
    assert listing[1].split()[:1] == ["1"] and listing[1].endswith("abandoned")
    assert listing[1].split()[3:7] == ["5", "4", "2", str(repl.session.game.score())]
    assert "game 1 (5, abandoned): 2 moves replayed" in text
    assert [e.text for e in repl.session.history()] == ["4h from 1 to 8", "8d from 7 to 3"]
    assert [(e.number, e.result) for e in GameLog().recent()] == [(1, Result.IN_PROGRESS)]
    assert repl.player.keeper.number == 1  # the game goes on in its own row
    assert GameLog().entry(1).game_file == repl.session.files.game_file()


def test_a_review_is_kept_with_the_game_and_games_shows_it(home: Path) -> None:
    repl = drive("4h from 1 to 8\r7 3\rreview\rgames\rquit\rn\r")
    text = said(repl)
    listing = text[text.index("game  began") :].splitlines()
    assert listing[1].split()[0] == "1"
    assert listing[2].strip().startswith("reviewed: won with every card known")
    from spider_cli.analysis.review import version

    assert set(GameLog().reviews([1])) == {(1, version(4))}
    assert set(current_reviews(repl.session, GameLog().recent())) == {1}
    # a review of another version is not shown as current
    db = sqlite3.connect(GameLog().path)
    db.execute("UPDATE reviews SET version = 'review version 0'")
    db.commit()
    db.close()
    assert current_reviews(repl.session, GameLog().recent()) == {}


def test_nothing_replaces_a_game_in_progress_without_asking(home: Path) -> None:
    repl = drive(
        "4h from 1 to 8\rnew 5\ry\r4h from 1 to 8\ropen 1\rn\rload problem-1\rn\rquit\rn\r"
    )
    text = said(repl)
    assert "Abandon this game (1 move) for game 1 of the history? [y/N]" in text
    assert "Abandon this game (1 move) for problem-1? [y/N]" in text
    assert repl.session.game.moves_made == 1  # both refused: the game is as it was
    assert [e.number for e in GameLog().recent()] == [2, 1]
    checked = drive("4h from 1 to 8\rnew 99999999999999999999\ropen 77\ropen 3\rquit\rn\r")
    text = said(checked)
    assert checked.player.keeper.number == 3
    assert "Abandon" not in text  # the command cannot run: said before any question
    assert "deal numbers run from 0 to" in text and "there is no game 77" in text
    assert "game 3 is the game in play" in text


def test_a_game_left_at_the_prompt_stays_in_progress_and_comes_back(home: Path) -> None:
    drive("4h from 1 to 8\rquit\rn\r")
    assert [(e.result, e.moves) for e in GameLog().recent()] == [(Result.IN_PROGRESS, 1)]
    repl = drive("y\r7 3\rquit\rn\r", Session.new_game(seed=99), offer_journal=True)
    assert repl.player.keeper.number == 1
    assert [(e.result, e.moves) for e in GameLog().recent()] == [(Result.IN_PROGRESS, 2)]


def test_a_game_in_progress_waits_while_another_deal_is_played(home: Path) -> None:
    drive("4h from 1 to 8\rquit\rn\r")
    other = drive("deal\rquit\rn\r")  # 'spider --seed 5' with that game in progress
    assert (
        "The game that was in progress (deal 5, 4 suits, 1 move) waits in current.spider: "
        "'spider' with no deal or file offers it back." in said(other)
    )
    assert [(e.result, e.moves) for e in GameLog().recent()] == [
        (Result.IN_PROGRESS, 1),
        (Result.IN_PROGRESS, 1),
    ]
    assert (home / "current.spider").is_file() and (home / "current-2.spider").is_file()
    # the next 'spider' offers both back, the newest first, each named by its deal
    back = drive("n\ry\rquit\rn\r", offer_journal=True)
    assert "Continue the game in progress (deal 5, 4 suits, 1 move)? [Y/n]" in said(back)
    assert [str(m) for m in back.session.game.move_stack] == ["Move(src=0, dst=7, count=1)"]


def played(*lines: str, seed: int = SEED) -> Facts:
    """What the history records of deal ``seed`` after the moves ``lines``."""
    session = Session.new_game(seed=seed)
    for line in lines:
        session.execute(line)
    return history_facts(session)


def test_a_loaded_game_file_continues_the_unfinished_game_it_was_saved_from(
    tmp_path: Path,
) -> None:
    log = GameLog(tmp_path / FILE_NAME)
    one, two, three = "4h from 1 to 8", "8d from 7 to 3", "9-8d from 3 to 4"
    log.record(None, played(one, two, three), Result.WON)  # finished: never continued
    went_on = log.record(None, played(one, two, three), Result.ABANDONED)
    log.record(None, played(one, "deal"), Result.ABANDONED)  # another line of play
    log.record(None, played("deal", seed=9), Result.IN_PROGRESS)  # another deal
    assert log.continued(played(one, two)) == went_on  # it went on after the file was saved
    stopped = log.record(None, played(one, two), Result.IN_PROGRESS)
    assert log.continued(played(one, two)) == stopped  # the one that stopped where the file does
    assert log.continued(played(one, two, three)) == went_on
    assert log.continued(played(two)) is None  # no game began that way
    assert log.continued(played()) is None  # the deal's start: no game yet


def test_loading_a_saved_game_goes_on_with_its_row_of_the_history(home: Path) -> None:
    repl = drive(
        "4h from 1 to 8\r7 3\rsave mine.spider\r9-8d from 3 to 4\rnew 9\ry\r"
        "load mine.spider\r9-8d from 3 to 4\rquit\rn\r"
    )
    assert "(this goes on with game 1 of the history: 'games' lists it)" in said(repl)
    assert [(e.number, e.result, e.moves) for e in GameLog().recent()] == [
        (1, Result.IN_PROGRESS, 3)
    ]
    _status, again = run_repl("9-8d from 3 to 4\rquit\rn\r", name="mine.spider")  # start-up
    assert "game 1 of the history" in said(again)
    assert [(e.number, e.result, e.moves) for e in GameLog().recent()] == [
        (1, Result.IN_PROGRESS, 3)
    ]


def test_a_won_game_that_is_opened_is_not_recorded_again(home: Path) -> None:
    log = GameLog()
    won = Session.new_game(seed=SEED)
    won.execute("4h from 1 to 8")
    log.record(None, history_facts(won), Result.WON)
    repl = drive("open 1\rundo\r7 3\rquit\rn\r")
    assert "game 1 (5, won): 1 move replayed" in said(repl)
    assert [(e.result, e.moves) for e in log.recent()] == [(Result.WON, 1)]


def test_open_without_such_a_game_is_an_error_and_the_game_goes_on(home: Path) -> None:
    repl = drive("open 42\r4h from 1 to 8\rquit\rn\r")
    assert "error: there is no game 42 in the history ('games' lists them)" in said(repl)
    assert repl.session.game.moves_made == 1


def test_a_damaged_history_is_said_once_and_the_game_goes_on(home: Path) -> None:
    home.mkdir(parents=True)
    (home / FILE_NAME).write_text("garbage " * 1000)
    repl = drive("4h from 1 to 8\r7 3\rgames\rquit\rn\r")
    assert said(repl).count("the game history was damaged or not spider's") == 1
    assert (home / "games.sqlite.damaged").exists()
    assert [e.moves for e in GameLog().recent()] == [2]
    assert "Traceback" not in said(repl)


def test_a_history_that_cannot_be_used_is_said_once_and_the_game_goes_on(home: Path) -> None:
    home.mkdir(parents=True)
    os.symlink(home / "elsewhere", home / FILE_NAME)
    repl = drive("4h from 1 to 8\r7 3\rstats\rquit\rn\r")
    assert said(repl).count("is a symbolic link to ") == 2
    assert "the game goes on" in said(repl)  # recording: said once; 'stats': an error
    assert repl.session.game.moves_made == 2


def test_a_history_held_by_another_process_is_said_once_and_never_waited_for_again(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds the history's write lock all along: the first command waits
    for it (BUSY_SECONDS, made short here) and says so; the others do not wait again."""
    monkeypatch.setattr(gamelog, "BUSY_SECONDS", 2.0)
    GameLog().recent()  # the file, made
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys\n"
            "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "db.execute('BEGIN IMMEDIATE'); print('held', flush=True); sys.stdin.readline()\n",
            str(home / FILE_NAME),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        began = time.monotonic()
        repl = drive("4h from 1 to 8\r7 3\rundo\rredo\rundo\rredo\rquit\rn\r")
        took = time.monotonic() - began
    finally:
        holder.communicate("\n", timeout=60)
    assert said(repl).count("another spider kept it busy; the game goes on") == 1
    assert repl.session.game.moves_made == 2
    assert took < 5 * gamelog.BUSY_SECONDS  # one wait, not one a command (seven here)
    assert [e.moves for e in GameLog().recent()] == []  # recorded once the lock is let go
    assert (
        repl.player.keeper.record(
            repl.session, repl.player.keeper.number, Result.IN_PROGRESS, again=True
        )
        == 1
    )
    assert [e.moves for e in GameLog().recent()] == [2]


def test_open_completes_the_numbers_of_recent_games(home: Path) -> None:
    log = GameLog()
    for _ in range(3):
        log.record(None, facts())
    completer = SpiderCompleter(Session.new_game(seed=SEED))
    found = completer.get_completions(Document("open "), CompleteEvent(completion_requested=True))
    assert [c.text for c in found] == ["3", "2", "1"]


def test_ctrl_z_stops_the_program_and_the_time_played_with_it(tmp_path: Path) -> None:
    """A real SIGTSTP: the program stops (its state 'T') until continued; the time that
    passes meanwhile (the clock moved on by the SIGCONT handler) is not counted."""
    if not Path("/proc/self/stat").exists() or not hasattr(signal, "SIGTSTP"):
        pytest.skip("needs Linux job control")
    program = (
        "import os, signal\n"
        "from spider_cli.app.journal import Journal\n"
        "from spider_cli.app.session import Session\n"
        "from spider_cli.app.timer import Timer\n"
        "from spider_cli.tui.repl import Repl\n"
        "now = [0.0]\n"
        "repl = Repl(Session.new_game(seed=5, timer=Timer(lambda: now[0])), journal=Journal())\n"
        "signal.signal(signal.SIGCONT, lambda *_: now.__setitem__(0, now[0] + 1000))\n"
        "now[0] = 10\n"
        "with repl.player.background_pauses():\n"
        "    os.kill(os.getpid(), signal.SIGTSTP)\n"
        "now[0] += 5\n"
        "print(repl.session.timer.seconds(), repl.session.timer.running)\n"
    )
    env = {**os.environ, "SPIDER_HOME": str(tmp_path)}
    child = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, env=env)
    stat = Path(f"/proc/{child.pid}/stat")
    deadline = time.monotonic() + 120  # only a cap for a hung child
    while stat.read_text().rsplit(")", 1)[1].split()[0] != "T":
        assert child.poll() is None and time.monotonic() < deadline, "the child never stopped"
        time.sleep(0.01)
    child.send_signal(signal.SIGCONT)
    out, _ = child.communicate(timeout=120)
    assert child.returncode == 0
    assert out.decode().split() == ["15.0", "True"]


def test_the_journal_keeps_the_time_but_is_not_rewritten_for_it_alone(tmp_path: Path) -> None:
    clock = Clock()
    session = Session.new_game(seed=SEED, timer=Timer(clock))
    session.execute("4h from 1 to 8")
    journal = Journal(tmp_path)
    at_play(session, clock, 754)
    assert journal.update(session, number=7) is None
    written = journal.path.read_text()
    assert "# time played 12:34\n# journal: game 7 of the history\n" in written
    at_play(session, clock, 60)
    journal.update(session, number=7)
    assert journal.path.read_text() == written  # only the time changed
    journal.update(session, number=7, timed=True)  # leaving: the time is kept
    assert "# time played 13:34\n" in journal.path.read_text()
    entry = journal.read()
    assert entry is not None and (entry.number, entry.moves) == (7, 1)
    resumed = Session.new_game(seed=1, timer=Timer(clock))
    resumed.load(entry.path)
    assert resumed.status().played == 814


def test_a_game_file_counts_one_move_and_older_files_are_read_too(home: Path) -> None:
    """The comment over the tableau says "after 1 move"; the journal reads the count from
    it, as from the "after 1 moves" of files written before."""
    session = Session.new_game(seed=SEED)
    session.execute("4h from 1 to 8")
    journal = Journal()
    journal.update(session)
    text = journal.path.read_text()
    assert "\n# position after 1 move (" in text
    assert journal.read().moves == 1  # type: ignore[union-attr]
    journal.path.write_text(text.replace("after 1 move (", "after 1 moves ("))  # as before
    assert journal.read().moves == 1  # type: ignore[union-attr]
    repl = drive("\rquit\r", offer_journal=True)
    assert "Continue the game in progress (deal 5, 4 suits, 1 move)? [Y/n] " in said(repl)
    session.execute("8d from 7 to 3")
    assert "\n# position after 2 moves (" in session.files.game_file()


def test_a_write_interrupted_between_begin_and_commit_never_blocks_the_next(
    tmp_path: Path,
) -> None:
    """Ctrl-C can land between BEGIN and the code that would roll it back (seen on the board
    under load: every write after it failed with "cannot start a transaction within a
    transaction"); the next write rolls the stale transaction back and goes on."""
    log = GameLog(tmp_path / FILE_NAME)
    number = log.record(None, facts(moves=1))
    log._connect().execute("BEGIN IMMEDIATE")  # as an interrupt leaves it
    log._connect().execute("UPDATE games SET moves = 99")  # never committed
    assert log.record(number, facts(moves=3)) == number
    assert [entry.moves for entry in log.recent()] == [3]
