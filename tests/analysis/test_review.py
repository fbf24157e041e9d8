"""The game review (spider_cli/analysis/review.py, ``review`` and ``spider review``): the
bisection against a brute-force scan of every move, the winning line it gives played out,
the chance curve against games sampled to the end, the marks' thresholds, Ctrl-C, and the
command at the prompt and from the shell."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from spider_cli.analysis import review
from spider_cli.analysis.blind.view import view_of
from spider_cli.analysis.chance import levels
from spider_cli.analysis.chance import search as chancesearch
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.review import Outlook, Severity, severity
from spider_cli.analysis.solve import autoplay
from spider_cli.app.files.reviewdata import review_json
from spider_cli.app.keeping import history_facts, keep_review
from spider_cli.app.results import Reviewed
from spider_cli.app.session import Session
from spider_cli.app.words.replies import curve_text, review_text
from spider_cli.language import notation
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import Game
from tests.helpers import play_randomly

LIMIT = 30_000


def _game(suits: int, seed: int, moves: int = 40) -> Game:
    return play_randomly(DealSource.parse(str(seed), suits).game(), moves, seed)


@pytest.mark.parametrize(("suits", "seed"), [(1, 0), (1, 3), (1, 5), (2, 0), (2, 2), (2, 4)])
def test_the_bisection_agrees_with_a_scan_of_every_move(suits: int, seed: int) -> None:
    positions, actions = review.positions_of(_game(suits, seed))
    found = [autoplay.play(p.copy(), Limit(LIMIT)).won for p in positions]
    lost = review.bisect(positions, actions, LIMIT, lambda _text: None)
    if not found[0]:
        assert lost.verdict is Outlook.NEVER
        return
    if found[-1]:
        assert lost.verdict is Outlook.THROUGHOUT
        return
    assert lost.verdict is Outlook.LOST_AT
    # a win is found before the move, none after it
    assert found[lost.move - 1] and not found[lost.move]
    if found == sorted(found, reverse=True):  # won, then never: the one place it changes
        assert lost.move == found.index(False)
    assert lost.searches <= 2 + len(positions).bit_length()


def test_the_line_given_wins_from_the_position_before_the_move() -> None:
    positions, actions = review.positions_of(_game(1, 3))
    lost = review.bisect(positions, actions, LIMIT, lambda _text: None)
    assert lost.verdict is Outlook.LOST_AT and lost.line
    game = positions[lost.move - 1].copy()
    for text in lost.line:  # in the manual's notation, as a player would type it
        game.push(notation.resolve(game, notation.parse_command(text)))
    assert game.is_won()


def test_the_bisection_finds_the_move_after_which_no_win_is_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An oracle that wins before move 13 and never after: the review names move 13.
    positions, actions = review.positions_of(_game(2, 1, 30))
    asked: list[int] = []

    def play(game: Game, limit: Limit, **_: object) -> autoplay.PlayResult:
        k = game.moves_made
        asked.append(k)
        return autoplay.PlayResult(k < 13, [], 7, None, 0, proved=k == 13)

    monkeypatch.setattr(autoplay, "play", play)
    lost = review.bisect(positions, actions, LIMIT, lambda _text: None)
    assert lost.verdict is Outlook.LOST_AT and lost.move == 13
    assert lost.proved  # the search proved the position after move 13 lost
    assert len(asked) <= 7  # log2(30) and the two ends
    assert lost.move_text == review_text_of_move(positions[12], actions[12])


def review_text_of_move(game: Game, action: object) -> str:
    from spider_cli.rules.text import move_text

    return move_text(game, action)  # type: ignore[arg-type]


def test_ctrl_c_keeps_what_was_found(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def play(game: Game, limit: Limit, **_: object) -> autoplay.PlayResult:
        calls.append(game.moves_made)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return autoplay.PlayResult(len(calls) == 1, [], 5, None, 0)

    monkeypatch.setattr(autoplay, "play", play)
    done = review.review(_game(2, 1, 30))
    assert done.stopped and done.lost.verdict is Outlook.STOPPED
    assert len(done.curve) == 31  # the curve was drawn before the searches
    assert "stopped by Ctrl-C" in review_text(done)


def test_the_marks_follow_lichess_drops() -> None:
    assert severity(0.049) is None
    assert severity(0.05) is Severity.INACCURACY
    assert severity(0.10) is Severity.MISTAKE
    assert severity(0.149) is Severity.MISTAKE
    assert severity(0.15) is Severity.BLUNDER


def test_the_curve_goes_the_way_the_sampled_games_do() -> None:
    # Along a 1-suit game the blind player wins, the learned value's chance and the share
    # of games sampled to the end both rise from the start to late in the game.
    from spider_cli.analysis.bench import blind
    from spider_cli.analysis.chance.search import Level

    table = blind.Dealer(DealSource.parse("2", 1))
    blind.play_blind(table, Limit(2_000), Level.PLAIN)
    game = table._Dealer__game  # type: ignore[attr-defined]
    assert game.is_won()
    positions, _actions = review.positions_of(game)
    early, late = positions[0], positions[len(positions) * 3 // 4]
    curve = [review._chance(p) for p in (early, late)]
    odds = [chancesearch.estimate(view_of(p), 32) for p in (early, late)]
    assert curve[1] > curve[0]
    assert odds[1].won >= odds[0].won


def test_a_numbered_deal_is_reviewed_and_a_position_of_the_manual_is_not_bisected() -> None:
    session = Session.new_game(seed=7, suits=2)
    for action in _game(2, 7, 12).move_stack:
        session.push(action)
    done = session.analysis.review()
    assert done.lost.verdict is not Outlook.UNKNOWN
    data = review_json(done)
    assert set(data) == {
        "suits",
        "moves",
        "lost",
        "curve",
        "deals",
        "marks",
        "unconfirmed",
        "stopped",
        "game",
    }
    assert len(data["curve"]) == 13 and data["moves"] == 12
    manual = Session.new_game(seed=0)
    manual.load("problem-1")
    legal = manual.game.legal_moves()
    manual.push(legal[0])
    unknown = manual.analysis.review()
    assert unknown.lost.verdict is Outlook.UNKNOWN
    assert "cannot be said" in review_text(unknown) and len(unknown.curve) == 2


def test_the_curve_is_drawn_in_rows_with_the_deals_marked() -> None:
    curve = tuple(k / 120 for k in range(120))
    text = curve_text(curve, (10, 60), ascii=True)
    rows = text.splitlines()
    assert rows[1].startswith("   0 ") and len(rows[1]) == 5 + 50
    assert rows[2] == "deal           |"
    assert rows[3].startswith("  50 ") and rows[4] == "deal           |"
    assert all(ch in " .:-=+*#@" for ch in rows[1][5:])


def test_a_game_played_with_autoremove_on_is_reviewed() -> None:
    # The winning lines remove their suits themselves: once an internal error on the board.
    session = Session.new_game(seed=5)
    for line in ("set autoremove on", "4h from 1 to 8", "7 3"):
        session.execute(line)
    assert session.game.autoremove
    done = session.analysis.review()
    assert done.lost.verdict is Outlook.THROUGHOUT


def test_review_at_the_prompt_and_review_n(tmp_path: Path) -> None:
    session = Session.new_game(seed=3, suits=1)
    for action in _game(1, 3, 8).move_stack:
        session.push(action)
    before = (session.game.key(), session.game.moves_made)
    reply = session.execute("review")
    assert "chance of a win" in reply.text
    shown = session.execute("review 4")
    assert shown.text.startswith("Before move 4") and "played: " in shown.text
    assert (session.game.key(), session.game.moves_made) == before  # the game is as it was
    with pytest.raises(Exception, match="no move 9: its moves are 1 to 8"):
        session.execute("review 9")


def _spider(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spider_cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "HOME": str(cwd), "XDG_DATA_HOME": str(cwd / "data")},
    )


def test_spider_review_reads_a_game_file_and_refuses_what_is_not_one(tmp_path: Path) -> None:
    script = tmp_path / "play.txt"
    script.write_text("new 5 suits 1\nauto 5\nd\nsave! game.spider\n")
    assert _spider("run", str(script), cwd=tmp_path).returncode == 0
    done = _spider("review", "game.spider", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (
        data["moves"] >= 1
        and data["deals"]
        and data["lost"]["verdict"]
        in {
            "throughout",
            "lost at",
            "never",
        }
    )
    text = _spider("review", "game.spider", "--ascii", cwd=tmp_path)
    assert "chance of a win" in text.stdout and not any(ord(c) > 127 for c in text.stdout)
    (tmp_path / "bad.spider").write_text("# spider game file, version 1\nnew 5 suits 1\nflap\n")
    bad = _spider("review", "bad.spider", cwd=tmp_path)
    assert bad.returncode == 1 and "bad.spider:3" in bad.stderr and "Traceback" not in bad.stderr
    (tmp_path / "empty.spider").write_text("# spider game file, version 1\nnew 5 suits 1\n")
    empty = _spider("review", "empty.spider", cwd=tmp_path)
    assert empty.returncode == 1 and "no moves" in empty.stderr
    position = _spider("review", "problem-1", cwd=tmp_path)
    assert position.returncode == 1 and "not a game file" in position.stderr
    newer = tmp_path / "newer.spider"
    newer.write_text("# spider game file, version 9\nnew 5\n")
    other = _spider("review", "newer.spider", cwd=tmp_path)
    assert other.returncode == 1 and "version 9" in other.stderr


def test_a_review_kept_in_the_history_is_shown_without_a_search(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = _game(1, 3, 8).move_stack
    session = Session.new_game(seed=3, suits=1)
    for action in moves:
        session.push(action)
    done = session.analysis.review()
    number = session.games_log().record(None, history_facts(session))
    keep_review(session, number, done)

    searches: list[str] = []

    def counted(name: str, real: object) -> object:
        def run(*args: object, **kwargs: object) -> object:
            searches.append(name)
            return real(*args, **kwargs)  # type: ignore[operator]

        return run

    monkeypatch.setattr(autoplay, "play", counted("play", autoplay.play))
    monkeypatch.setattr(chancesearch, "estimate", counted("estimate", chancesearch.estimate))
    monkeypatch.setattr(levels, "choose", counted("choose", levels.choose))
    other = Session.new_game(seed=3, suits=1)  # the same game, in a session of its own
    for action in moves:
        other.push(action)
    kept = other.analysis.review()
    assert searches == []  # read back, not made again
    assert review_json(kept) == review_json(done)
    assert other.execute("review").text == review_text(kept) and searches == []
    other.execute("review again")
    assert "play" in searches  # made anew
    # a game of other moves is not given the review kept
    searches.clear()
    third = Session.new_game(seed=3, suits=1)
    for action in moves[:-1]:
        third.push(action)
    third.analysis.review()
    assert "play" in searches


def test_review_again_is_read_at_the_prompt_and_from_the_shell() -> None:
    from spider_cli.cli.parser import build_parser
    from spider_cli.language.commands import Review

    assert notation.parse_command("review again") == Review(again=True)
    assert notation.parse_command("review --again") == Review(again=True)
    assert notation.parse_command("review 4") == Review(4)
    args = build_parser().parse_args(["review", "--game", "1", "--again"])
    assert args.again and args.game == 1


def test_review_n_agrees_with_the_review_at_the_move_where_the_deal_was_lost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Full-information play wins before move 5 and never after: the review and 'review 5'
    # both name move 5; 'review 4' does not say the deal was lost there.
    real = autoplay.play

    def play(game: Game, limit: Limit, **kwargs: object) -> autoplay.PlayResult:
        if game.moves_made < 5:
            return real(game, Limit(LIMIT))
        return autoplay.PlayResult(False, [], 3, None, 0, proved=True)

    monkeypatch.setattr(autoplay, "play", play)
    session = Session.new_game(seed=3, suits=1)
    for action in _game(1, 3, 8).move_stack:
        session.push(action)
    whole = session.execute("review").text
    assert "stayed won until move 5" in whole
    at = session.execute("review 5")
    assert isinstance(at.result, Reviewed) and at.result.lost is not None
    text = at.text
    assert "Here the deal was lost with every card known" in text and "proved lost" in text
    assert "played: " in text and "the blind player's move: " in text
    assert text.count("the chance after it") >= 1
    rows = text.splitlines()
    assert rows[1] == "suits: 1" and rows[4].startswith(" 1: ")  # one line a pile
    assert len(rows) < 22
    before = session.execute("review 4")
    assert isinstance(before.result, Reviewed) and before.result.lost is None
    assert "Here the deal was lost" not in before.text


@pytest.mark.parametrize("width", [30, 40, 55, 80, 200])
def test_the_curve_wraps_by_the_screens_width_never_mid_row(width: int) -> None:
    curve = tuple((k % 37) / 40 for k in range(301))
    deals = (10, 60, 120, 299)
    rows = curve_text(curve, deals, ascii=True, width=width).splitlines()[1:]
    assert all(len(row) <= width for row in rows)
    shown = [row for row in rows if not row.startswith("deal")]
    assert sum(len(row) - 5 for row in shown) == len(curve)  # every move, none cut
    per_row = len(shown[0]) - 5
    assert per_row % 10 == 0 and [int(row[:4]) for row in shown] == list(
        range(0, len(curve), per_row)
    )
    marked = [row for row in rows if row.startswith("deal")]
    assert sum(row.count("|") for row in marked) == len(deals)


def test_no_mark_is_said_in_plain_words() -> None:
    done = review.Review(1, 3, review.Lost(Outlook.WON), (0.5, 0.4, 0.3, 1.0), ())
    assert review_text(done).endswith(
        "No move marked: no move lowered the chance by 5 points or more."
    )
    unconfirmed = review.Review(
        1, 3, review.Lost(Outlook.WON), (0.5, 0.4, 0.3, 1.0), (), (), False, 2
    )
    assert "2 moves lowered the chance by 5 points or more, but games played" in review_text(
        unconfirmed
    )


def test_the_reviews_progress_is_typed_and_the_app_says_it() -> None:
    from spider_cli.app.words.replies import review_step

    steps: list[review.Step] = []
    review.review(_game(1, 3, 8), progress=steps.append)
    assert steps and all(isinstance(step, review.Step) for step in steps)
    assert review_step(steps[0]) == "with every card known: search 1 (after move 0)"
    assert review_step(review.Step(2, None, 5)).endswith("sampled games: 2 of 5")
    said: list[str] = []
    session = Session.new_game(seed=3, suits=1)
    for action in _game(1, 3, 8).move_stack:
        session.push(action)
    session.analysis.review(said.append, again=True)
    assert said and said[0].startswith("with every card known: search 1")
