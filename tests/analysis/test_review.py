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
from spider_cli.analysis.blind import Mode
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
from spider_cli.rules.engine import DEAL, Deal, Game, Move
from tests.helpers import play_randomly

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_review import random_moves  # (the calibration's own random player)

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
    for action in lost.line:  # actions, as the game plays them
        game.push(action)
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
    assert lost.move_text == actions[12]


def test_ctrl_c_keeps_what_was_found(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def play(game: Game, limit: Limit, **_: object) -> autoplay.PlayResult:
        calls.append(game.moves_made)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return autoplay.PlayResult(len(calls) == 1, [], 5, None, 0)

    monkeypatch.setattr(autoplay, "play", play)
    game = _game(2, 1, 30)
    done = review.review(game)
    assert done.stopped and done.lost.verdict is Outlook.STOPPED
    assert len(done.curve) == 31  # the curve was drawn before the searches
    assert "stopped by Ctrl-C" in review_text(done, game)


def test_the_marks_follow_lichess_drops() -> None:
    assert severity(0.049) is None
    assert severity(0.05) is Severity.INACCURACY
    assert severity(0.10) is Severity.MISTAKE
    assert severity(0.149) is Severity.MISTAKE
    assert severity(0.15) is Severity.BLUNDER
    # where the chance is small, by the share of it given up (1 point at least)
    assert severity(0.02, 0.10) is Severity.INACCURACY
    assert severity(0.03, 0.10) is Severity.MISTAKE
    assert severity(0.05, 0.10) is Severity.BLUNDER
    assert severity(0.009, 0.01) is None


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
        "unweighed",
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
    assert "cannot be said" in review_text(unknown, manual.game) and len(unknown.curve) == 2


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
    assert other.execute("review").text == review_text(kept, other.game) and searches == []
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
    game = _game(1, 3, 3)
    done = review.Review(1, 3, review.Lost(Outlook.WON), (0.5, 0.4, 0.3, 1.0), ())
    assert review_text(done, game).endswith(
        "No move marked: the blind player would have played every move as you did."
    )
    unconfirmed = review.Review(
        1, 3, review.Lost(Outlook.WON), (0.5, 0.4, 0.3, 1.0), (), (), False, 2, "", 1
    )
    said = review_text(unconfirmed, game)
    assert "No move marked: of your moves that differ from the blind player's, 2 were" in said
    assert "(1 more were not weighed within the review's budget)" in said


def test_the_reviews_progress_is_typed_and_the_app_says_it() -> None:
    from spider_cli.app.words.replies import review_step

    steps: list[review.Step] = []
    review.review(_game(1, 3, 8), progress=steps.append)
    assert steps and all(isinstance(step, review.Step) for step in steps)
    assert review_step(steps[0]) == "with every card known: search 1 (after move 0)"
    assert review_step(review.Step(2, None, 5, review.Stage.WEIGHING)).endswith(
        "sampled deals: 2 of 5"
    )
    assert review_step(review.Step(3, None, 8, review.Stage.CHOICES)).endswith("move 3 of 8")
    said: list[str] = []
    session = Session.new_game(seed=3, suits=1)
    for action in _game(1, 3, 8).move_stack:
        session.push(action)
    session.analysis.review(said.append, again=True)
    assert said and said[0].startswith("with every card known: search 1")


def _position_of(game: Game) -> Game:
    """The position ``game`` is in, as a game of its own that starts there."""
    return Game(
        [list(p) for p in game.piles], list(game.down), list(game.stock), game.removed, game.suits
    )


def _blind_moves(game: Game, moves: int) -> Game:
    """``game`` after ``moves`` moves of the blind player, as the review's marks expect it
    to play (its line up to the card it turns up, its mode carried)."""
    mode = Mode.KEEP
    while game.moves_made < moves:
        line, mode, _examined = review.players_turn(game, mode)
        if not line:
            break
        for action in line[: moves - game.moves_made]:
            down = sum(game.down)
            game.push(action)
            if isinstance(action, Deal) or sum(game.down) < down:
                mode = Mode.KEEP
    return game


def _marked(game: Game) -> review.Weighing:
    positions, actions = review.positions_of(game)
    curve = tuple(review.chance(g) for g in positions.walk())
    weighing = review.Weighing(review.BISECT_LIMIT * review.MARKS_SHARE)
    review.mark_moves(positions, actions, curve, weighing, lambda _step: None)
    return weighing


def test_random_moves_get_more_marks_than_the_blind_players_own() -> None:
    # Our 4-suit deal 40 sixty random moves in (its chance already low), then twenty more
    # random moves, or twenty of the blind player's: the random ones give up the chance
    # (three marks), the blind player's are its own and cost nothing to weigh.
    start = _position_of(random_moves(DealSource.parse("40", 4).game(), 60, 40))
    further = random_moves(DealSource.parse("40", 4).game(), 80, 40)
    randomly = _position_of(start)
    for action in further.move_stack[60:]:
        randomly.push(action)
    blindly = _blind_moves(_position_of(start), 20)
    by_random, by_blind = _marked(randomly), _marked(blindly)
    assert len(by_random.marks) > len(by_blind.marks)
    assert by_blind.marks == [] and by_blind.unconfirmed == 0 and by_blind.unweighed == 0
    for mark in by_random.marks:  # each surely worse than the blind player's move
        assert mark.gap.low > 0 and mark.before > mark.after and mark.played != mark.better


def test_a_review_with_marks_and_a_line_reads_back_from_its_json() -> None:
    from spider_cli.app.files.reviewdata import BadReview, review_of
    from spider_cli.rules.engine import DEAL, Remove

    gap = review.Gap(0.04, 0.01, 0.07, 48)
    mark = review.Mark(3, Move(2, 9, 3), Severity.MISTAKE, 0.12, 0.08, DEAL, gap)
    lost = review.Lost(Outlook.LOST_AT, 5, DEAL, (Move(0, 1, 1), Remove(4), DEAL), True, 9, 10, 2)
    done = review.Review(4, 6, lost, (0.1,) * 7, (5,), (mark,), False, 2, "digest", 1)
    data = json.loads(json.dumps(review_json(done)))
    assert data["marks"][0]["text"] == {"move": {"from": 3, "to": 10, "cards": 3}}
    assert data["lost"]["line"][1:] == [{"remove": 5}, {"deal": True}]
    assert review_of(data) == done
    data["marks"][0]["better"] = {"deal": "yes"}
    with pytest.raises(BadReview):
        review_of(data)


def test_the_marks_moves_are_written_in_notation_from_the_game() -> None:
    from spider_cli.rules.engine import DEAL
    from spider_cli.rules.text import move_text

    game = _game(1, 3, 8)
    before = game.copy()
    while before.moves_made > 1:
        before.pop()
    played = game.move_stack[1]
    gap = review.Gap(0.06, 0.02, 0.10, 48)
    mark = review.Mark(2, played, Severity.INACCURACY, 0.5, 0.44, DEAL, gap)
    done = review.Review(1, 8, review.Lost(Outlook.WON), (0.5,) * 9, (), (mark,))
    said = review_text(done, game)
    assert f"  2. {move_text(before, played)}: inaccuracy, gave up 6.0 points (2.0 to 10.0" in said
    assert "deal kept 50%, this move 44%" in said


def test_review_n_at_a_marked_move_names_the_marks_better_move() -> None:
    from spider_cli.rules.engine import DEAL
    from spider_cli.rules.text import move_text

    session = Session.new_game(seed=3, suits=1)
    for action in _game(1, 3, 8).move_stack:
        session.push(action)
    game = session.game
    before = game.copy()
    while before.moves_made > 1:
        before.pop()
    played = game.move_stack[1]
    other = next(a for a in [*before.legal_moves(), DEAL] if a != played)
    gap = review.Gap(0.2, 0.1, 0.3, 48)
    mark = review.Mark(2, played, Severity.BLUNDER, 0.6, 0.4, other, gap)
    done = review.Review(1, 8, review.Lost(Outlook.WON), (0.5,) * 9, (), (mark,))
    session.analysis.reviewed = ((game.key(), game.moves_made), done)  # (as if just made)
    said = session.execute("review 2").text
    assert f"the blind player's move: {move_text(before, other)}, the chance after it" in said
    assert "marked: blunder, gave up 20.0 points (10.0 to 30.0, 48 deals)" in said


@pytest.mark.parametrize(("suits", "number"), [(2, 41), (4, 40)])
def test_a_deal_while_a_card_could_be_turned_up_is_the_move_marked(suits: int, number: int) -> None:
    # The blind player's own moves, one deal where it would have moved on instead, then its
    # own again: the deal, and nothing else, is marked.
    game = _blind_moves(DealSource.parse(str(number), suits).game(), 6)
    line, _mode, _examined = review.players_turn(game, Mode.KEEP)
    assert line and not isinstance(line[0], Deal) and line[0] != DEAL
    game.push(DEAL)
    dealt = game.moves_made
    game = _blind_moves(game, dealt + 10)
    found = _marked(game)
    assert [m.move for m in found.marks] == [dealt]
    assert found.marks[0].played == DEAL and found.marks[0].gap.low > 0
