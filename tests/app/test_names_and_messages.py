"""Names and messages across the commands: a name means the same file to every command, the
games left waiting are named right and never overwritten, and the smaller points (each
said in a player's words through the real command line or the real prompt)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from spider_cli.app import examples
from spider_cli.app.session import Session
from spider_cli.tui.repl import Repl
from tests.helpers import drive, said


def spider(
    *args: str, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``spider ARGS`` in a process of its own, standard input not a terminal."""
    return subprocess.run(
        [sys.executable, "-m", "spider_cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


# ---------------------------------------------------------------------------------------------
# Examples by name, everywhere


def test_an_example_script_runs_and_shows_by_its_name(tmp_path: Path) -> None:
    listed = spider("examples", cwd=tmp_path)
    assert listed.stdout.startswith("intro-deal") and "\nintro-1-moves " in listed.stdout
    run = spider("run", "intro-1-moves", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.rstrip().endswith("position matches intro-1.txt")
    shown = spider("show", "intro-1-moves", cwd=tmp_path)
    assert shown.returncode == 0
    assert shown.stdout == examples.find("intro-1-moves").read_text()  # type: ignore[union-attr]
    # the same names in every message: each says what the others do
    said = spider("examples", "intro-1-moves", cwd=tmp_path).stdout
    assert "'spider show intro-1-moves' prints it, 'spider run intro-1-moves' runs it" in said
    loaded = spider(stdin="load intro-1-moves\n", cwd=tmp_path)
    assert loaded.returncode == 1
    assert (
        "'run intro-1-moves' runs it in this game, 'spider run intro-1-moves' from the shell "
        "('spider show intro-1-moves' prints it)"
    ) in loaded.stderr


def test_run_at_the_prompt_plays_a_script_or_an_example_in_the_game(tmp_path: Path) -> None:
    """``run NAME`` at the prompt: the example script by its name, then a file of one's own,
    its replies said; a line refused ends it where it is, the game going on."""
    (tmp_path / "more.spider").write_text("score\nJh from 8 to 9\n")
    session = Session.new_game(seed=0, base_dir=tmp_path)
    _status, repl = drive("load intro-deal\nrun intro-1-moves\nrun more.spider\nq\n", session)
    text = said(repl)
    assert "position matches intro-1.txt" in text and "ran intro-1-moves: 15 lines" in text
    assert "more.spider:2: error:" in text  # (the Jh has gone from pile 8)
    assert repl.session.game.moves_made == 4  # the example's four moves kept


def test_a_script_does_not_run_another(tmp_path: Path) -> None:
    (tmp_path / "self.spider").write_text("score\nrun self.spider\n")
    run = spider("run", "self.spider", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "self.spider:2: error: a script cannot run another script" in run.stdout


def test_a_file_name_with_its_suffix_is_that_file_not_another_example(tmp_path: Path) -> None:
    """intro-1.spider is the script; intro-1.txt (the example intro-1) is a position."""
    assert examples.find("intro-1.spider") == examples.find("intro-1-moves")
    assert (
        examples.find("intro-1") == examples.find("intro-1.txt") != examples.find("intro-1-moves")
    )
    run = spider("run", "intro-1.spider", cwd=tmp_path)
    assert run.returncode == 0 and "position matches intro-1.txt" in run.stdout, run.stderr


def test_a_file_of_that_name_comes_before_the_example(tmp_path: Path) -> None:
    (tmp_path / "intro-1-moves").write_text("new 5\n4h from 1 to 8\n")
    run = spider("run", "intro-1-moves", cwd=tmp_path)
    assert run.returncode == 0 and "pile 1 turns up Kd" in run.stdout, run.stderr
    missing = spider("run", "no-such-example", cwd=tmp_path)
    assert missing.returncode == 1
    assert missing.stderr == (
        "no-such-example: error: cannot read no-such-example: no such file or example\n"
    )


# ---------------------------------------------------------------------------------------------
# The games left waiting, and the games kept aside


def _notes(repl: Repl) -> str:
    return "".join(line for line in repl.transcript if "wait" in line or "kept in" in line).strip()


def test_the_note_names_every_game_left_waiting_the_newest_first(home: Path) -> None:
    drive("6-4c from 1 to 3\rquit\r", name="problem-4")  # left at move 1
    _, intro = drive("6d from 1 to 10\rquit\r", name="intro-deal")
    assert "(problem-4.txt, 1 move) waits in current.spider" in _notes(intro)
    assert (home / "current-2.spider").exists()  # the intro game's own journal
    _, deal = drive("quit\r", session=Session.new_game(seed=17))
    assert _notes(deal) == (
        "2 games in progress wait, the newest first: intro-deal.txt, 1 move, in "
        "current-2.spider; problem-4.txt, 1 move, in current.spider. 'spider' with no deal "
        "or file offers them back."
    )
    # each is offered back by its file's name, and goes on under it in the history
    _, back = drive("n\ry\rquit\r", session=Session.new_game(seed=99), offer_journal=True)
    asked = [line for line in back.transcript if "Continue the game" in line]
    assert "(intro-deal.txt, 1 move)" in asked[0] and "(problem-4.txt, 1 move)" in asked[1]
    assert back.session.source_name == "problem-4.txt"


def test_a_game_kept_aside_is_never_overwritten_by_the_next(home: Path) -> None:
    drive("10c from 1 to 3\rquit\r", name="problem-2")
    _, first = drive("n\r4h from 1 to 8\rquit\r", offer_journal=True)
    _, second = drive("n\rquit\r", offer_journal=True)
    assert f"That game is kept in {home / 'previous.spider'}" in _notes(first)
    assert f"That game is kept in {home / 'previous.2.spider'}" in _notes(second)
    assert "begun from problem-2.txt" in (home / "previous.spider").read_text()
    assert "new 5 suits 4\n4h from 1 to 8\n" in (home / "previous.2.spider").read_text()
    _, third = drive("4h from 1 to 8\rnew 7\ry\rquit\r")  # a game given up at the prompt
    assert f"is kept in {home / 'previous.3.spider'}" in said(third)
    assert "begun from problem-2.txt" in (home / "previous.spider").read_text()


# ---------------------------------------------------------------------------------------------
# The smaller points


def test_a_first_word_that_is_no_command_file_or_example_is_a_usage_error(tmp_path: Path) -> None:
    slip = spider("sovle", "problem-4", "remove", "hearts", cwd=tmp_path)
    assert slip.returncode == 2  # the command line cannot be read (exits.USAGE)
    assert slip.stderr == "spider: no such command or file 'sovle': did you mean 'spider solve'?\n"
    unknown = spider("frobnicate", cwd=tmp_path)
    assert unknown.returncode == 2
    assert unknown.stderr == (
        "spider: no such command or file 'frobnicate' ('spider --help' lists them)\n"
    )
    # a file or an example of that name plays; a missing file (a dot in its name) is refused
    (tmp_path / "frobnicate").write_text("# spider game file, version 1\nnew 5 suits 1\n")
    assert spider("frobnicate", stdin="score\n", cwd=tmp_path).returncode == 0
    assert spider("problem-3", stdin="score\n", cwd=tmp_path).returncode == 0
    missing = spider("missing.spider", cwd=tmp_path)
    assert missing.returncode == 1 and "no such file or example" in missing.stderr


def test_expect_names_the_file_whose_line_does_not_read(tmp_path: Path) -> None:
    (tmp_path / "garbage.txt").write_text("hello\n")
    done = spider("run", "-", stdin="new 3\nexpect garbage.txt\n", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("<stdin>:2: error: garbage.txt:1:1: cannot read 'hello'")
    loaded = spider("run", "-", stdin="load garbage.txt\n", cwd=tmp_path)
    assert loaded.stderr.startswith("<stdin>:1: error: garbage.txt:1:1: cannot read 'hello'")


def test_the_help_suffix_of_an_unknown_command_is_the_prompts_only(
    home: Path, tmp_path: Path
) -> None:
    (tmp_path / "bad.spider").write_text("# spider game file, version 1\nnew 5\nfrobnicate\n")
    shell = spider("bad.spider", cwd=tmp_path)
    assert shell.returncode == 1
    assert shell.stderr.splitlines()[0] == (
        "bad.spider:3: error: character 1: in the game file: unknown command 'frobnicate'"
    )
    script = spider("run", "-", stdin="frobnicate\n", cwd=tmp_path)
    assert "type help" not in script.stderr and "unknown command 'frobnicate'" in script.stderr
    _, repl = drive("frobnicate\rload bad.spider\rquit\r")
    errors = [line for line in repl.transcript if line.startswith("error: ")]
    assert errors == [
        "error: unknown command 'frobnicate' (type help for the commands)\n",
        "error: bad.spider:3:1: in the game file: unknown command 'frobnicate'\n",
    ]


def test_bench_plays_four_suits_by_default_as_play_and_solve_do(tmp_path: Path) -> None:
    db = str(tmp_path / "r.sqlite")
    done = spider("bench", "--seeds", "0", "--limit", "50", "--jobs", "1", "--json", "--db", db)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["suits"] == 4
    assert "(default 4, as play and solve)" in " ".join(spider("bench", "--help").stdout.split())


def test_the_welcome_says_which_position_was_loaded(home: Path, tmp_path: Path) -> None:
    _, problem = drive("quit\r", name="problem-3")
    welcome = (
        "Spider: problem-3.txt, a position of the manual: Remove clubs and hearts (problem 3)."
    )
    assert welcome in said(problem)
    (tmp_path / "mine.txt").write_text(examples.find("problem-3").read_text())  # type: ignore[union-attr]
    _, mine = drive("quit\r", name="mine.txt")
    assert "Spider: mine.txt, a position.\n" in said(mine)


def test_a_hint_says_the_games_it_played_and_the_deals_they_were_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The games are every choice's on each sampled deal, the weaker choices on fewer, so
    their count is the effort's rounded down to whole rounds (60, 62, 63 of 64): the words
    say the games played and the deals, as the search counted them."""
    from spider_cli.analysis import native
    from spider_cli.analysis.chance import Pick, levels

    if not native.backend().compiled:
        pytest.skip("a hint looks ahead on the compiled core only")
    picks: list[Pick] = []
    over = levels.over
    monkeypatch.setattr(levels, "over", lambda *a: picks.append(over(*a)) or picks[-1])
    session = Session.new_game(3, 4)
    text = session.execute("hint").text
    weighed = picks[-1].weighed
    assert weighed is not None and 1 < weighed.deals < weighed.trajectories <= 64
    assert weighed.deals == max(weighed.counts) and weighed.trajectories == sum(weighed.counts)
    said = f"looked ahead over {weighed.trajectories} games on {weighed.deals} deals of the cards"
    assert said in text


def test_odds_stops_its_games_once_their_interval_is_narrow_and_says_how_far_it_is() -> None:
    """The blind player's games stop after a batch once the interval is as narrow as all 64
    give at worst: a rule on the results (the same view, the same games), never the clock."""
    from spider_cli.analysis import native
    from spider_cli.analysis.blind.view import view_of
    from spider_cli.analysis.chance import odds
    from spider_cli.analysis.chance import search as chancesearch
    from spider_cli.analysis.intervals import wilson
    from spider_cli.app.words.progress import odds_played

    if not native.backend().compiled:
        pytest.skip("the Python path plays 8 games, fewer than a batch")
    view = view_of(Session.new_game(3, 1).game)  # one suit: the player wins nearly all
    steps: list[odds.Played] = []
    chance = odds.odds(view, count=2, progress=steps.append)
    said = [odds_played(step) for step in steps]
    player = chance.player
    assert player is not None and player.games < chancesearch.ODDS_GAMES
    assert player.games % chancesearch.BATCH == 0
    low, high = wilson(player.won, player.games)
    assert high - low <= chancesearch.ODDS_WIDTH
    assert player == chancesearch.estimate(view, player.games)  # the first games, as ever
    assert said[0] == "1 of 64 games played blind"
    assert said[player.games - 1] == f"{player.games} of 64 games played blind"
    assert said[player.games :] == [
        "0 of 2 deals played seeing all",
        "1 of 2 deals played seeing all",
    ]


def test_the_ticking_line_says_how_far_the_search_is() -> None:
    import threading
    import time

    from spider_cli.app.words import progress
    from spider_cli.tui.player import ticking

    written: list[str] = []
    with ticking(written.append, threading.Lock()):
        progress.say("16 of 64 games played blind")
        time.sleep(0.7)
    assert any(", 16 of 64 games played blind (Ctrl-C stops)" in line for line in written)
    assert progress.said() == ""  # the next search starts with nothing said
