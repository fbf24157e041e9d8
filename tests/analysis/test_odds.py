"""Full-information play put to a player's questions: deals chosen by it (``new
winnable``, ``spider --winnable``) and the chance of a win from a position (``odds``, and
the board's ``o``), through the real grammar, session, CLI, REPL and board."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from spider_cli.analysis import native
from spider_cli.analysis.blind import rollouts
from spider_cli.analysis.blind.evaluation import weights_for
from spider_cli.analysis.blind.rollouts import Playout
from spider_cli.analysis.blind.view import PlayerView, view_of
from spider_cli.analysis.chance import odds as chances
from spider_cli.analysis.chance import search as chancesearch
from spider_cli.analysis.compact import State
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.solve import autoplay
from spider_cli.app.journal import Journal
from spider_cli.app.results import Started
from spider_cli.app.session import Session
from spider_cli.cli.main import main
from spider_cli.language.commands import NewCommand
from spider_cli.language.files import positions
from spider_cli.language.gamefiles import DealOrigin
from spider_cli.language.notation import parse_command
from spider_cli.rules.deals import Source
from spider_cli.rules.engine import Game, Move, Remove
from spider_cli.rules.errors import SpiderError
from spider_cli.rules.goals import Wanted
from spider_cli.tui.highlight import highlight_line
from spider_cli.tui.repl import Repl


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("new winnable", NewCommand(wanted=Wanted.WINNABLE)),
        ("new --winnable", NewCommand(wanted=Wanted.WINNABLE)),
        ("new 17 suits 2 winnable", NewCommand(17, 2, wanted=Wanted.WINNABLE)),
        ("new winnable suits 1", NewCommand(suits=1, wanted=Wanted.WINNABLE)),
        ("new pysol:5 --winnable", NewCommand(5, source=Source.PYSOL, wanted=Wanted.WINNABLE)),
        ("new easy", NewCommand(wanted=Wanted.EASY)),
        ("new 3 --difficulty hard", NewCommand(3, wanted=Wanted.HARD)),
        ("new difficulty medium suits 2", NewCommand(suits=2, wanted=Wanted.MEDIUM)),
        ("new winnable hard", NewCommand(wanted=Wanted.HARD)),  # a rank implies winnable
        ("new --difficulty easy --winnable", NewCommand(wanted=Wanted.EASY)),
    ],
)
def test_new_winnable_reads_as_a_typed_command(line: str, command: NewCommand) -> None:
    assert parse_command(line) == command


def test_new_winnable_deals_the_first_deal_from_the_number_that_the_search_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(chances, "CHECK_LIMIT", 45_000)  # 2 suits: deals 8 and 9 need more
    assert not chances.check(Game.new(8, 2)).won and not chances.check(Game.new(9, 2)).won
    session = Session.new_game(0)
    reply = session.execute("new 8 suits 2 winnable")
    started = reply.result
    assert isinstance(started, Started) and started.origin.seed == 10
    assert started.skipped == 2 and started.chosen is not None and started.chosen.won
    assert reply.text.startswith("deal 10, 2 suits: winnable with every card known")
    assert "(the 2 deals before it were not winnable)" in reply.text
    assert session.game.key() == Game.new(10, 2).key()
    assert Session.new_game(0).execute("new 8 suits 2 winnable").result == started  # the same


def test_no_winnable_deal_found_is_said_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(chances, "CHECK_LIMIT", 100)
    monkeypatch.setattr(chances, "TRIES", 3)
    session = Session.new_game(5)
    session.execute("4h from 1 to 8")
    game = session.game
    with pytest.raises(SpiderError, match=r"none of deals 7 to 9 is winnable with every card"):
        session.execute("new 7 winnable")
    assert session.game is game and game.moves_made == 1
    with pytest.raises(SpiderError, match=r"deal pysol:99999999999999999999 is not winnable"):
        session.execute("new pysol:99999999999999999999 winnable")  # the last of PySolFC's


def test_on_the_python_path_a_note_says_the_check_is_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "_module", None)  # as where no compiler built the core
    monkeypatch.delenv("SPIDER_PURE", raising=False)
    text = Session.new_game(0).execute("new 3 suits 1 winnable").text
    assert text.startswith("note: the compiled search core is not built")
    assert "deal 3, 1 suit: winnable with every card known" in text


def test_spider_winnable_on_the_command_line_says_which_deal(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spider_cli", "--winnable", "--seed", "40", "--suits", "1"],
        input="score\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "score 0\n"
    assert done.stderr.startswith("spider: deal 40, 1 suit: winnable with every card known")
    assert main(["--winnable", str(tmp_path / "game.spider")]) == 2  # a file is no deal


def test_new_winnable_at_the_prompt(home: Path) -> None:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("new 3 suits 1 --winnable\rquit\rn\r")
        pipe.close()
        repl = Repl(Session.new_game(5), journal=Journal(), history=InMemoryHistory())
        assert repl.start() == 0
    assert "deal 3, 1 suit: winnable with every card known" in "\n".join(repl.transcript)
    assert repl.session.game.key() == Game.new(3, 1).key()


# ---------------------------------------------------------------------------------------------
# Difficulty


def test_a_deal_is_ranked_by_the_positions_its_win_needs() -> None:
    for suits, (easy, medium) in chances.THRESHOLDS.items():
        assert chances.rank(easy, suits) is Wanted.EASY
        assert chances.rank(easy + 1, suits) is Wanted.MEDIUM
        assert chances.rank(medium, suits) is Wanted.MEDIUM
        assert chances.rank(medium + 1, suits) is Wanted.HARD
    assert chances.check(Game.new(8, 2), 45_000).rank is None  # not won: no rank


@pytest.mark.parametrize(("wanted", "deal"), [(Wanted.EASY, 1), (Wanted.HARD, 5)])
def test_new_with_a_difficulty_deals_the_first_deal_of_that_rank(wanted: Wanted, deal: int) -> None:
    checks = [chances.check(Game.new(n, 2)) for n in range(deal + 1)]
    assert [c.rank is wanted for c in checks] == [False] * deal + [True]
    reply = Session.new_game(0).execute(f"new 0 suits 2 {wanted}")
    assert reply.result == Started(DealOrigin(deal, 2), checks[-1], deal, wanted)
    assert reply.text.startswith(
        f"deal {deal}, 2 suits: winnable with every card known, {wanted}: a search that sees "
        f"the face-down cards and the hand wins it in {checks[-1].positions:,} positions"
    )
    assert reply.text.endswith(f"before it {'was' if deal == 1 else 'were'} not {wanted})")


def test_spider_difficulty_on_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spider_cli", "--difficulty", "easy", "--suits", "2"],
        input="",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("spider: deal 1, 2 suits: winnable with every card known, easy")


def test_completion_and_highlighting_know_the_ranks_after_new() -> None:
    from tests.helpers import complete

    assert {"easy", "medium", "hard", "winnable"} <= set(complete(Session.new_game(0), "new "))
    assert complete(Session.new_game(0), "new difficulty ") == ["easy", "medium", "hard"]
    assert highlight_line("new 3 me")[-1] == ("class:input.pending", "me")  # not yet wrong
    assert highlight_line("new 3 medium")[-1] == ("class:input.keyword", "medium")


# ---------------------------------------------------------------------------------------------
# odds


def test_odds_is_the_same_for_the_same_position_and_sees_no_hidden_card() -> None:
    session = Session.new_game(5, suits=1)
    reply = session.execute("odds")
    chance = reply.result
    assert isinstance(chance, chances.Chance) and chance.samples == chances.SAMPLES
    assert session.execute("odds").result == chance
    code = positions.position_code(session.game, hide=True)  # the face-down cards unknown
    other = Session.of_position(positions.parse_position_code(code).to_game())
    assert other.analysis.odds() == chance
    low, high = chance.interval
    share = round(100 * chance.won / chance.samples)
    assert (
        f"\nthe chance of a win with every card known: {share}% "
        f"(95% interval {100 * low:.0f}-{100 * high:.0f}%), from 20 samples: the "
    ) in reply.text
    assert chance.unseen == 94 and "the 94 cards out of sight dealt at random" in reply.text
    player = chance.player
    share = 1 if native.backend().compiled else chancesearch.PYTHON_SHARE
    assert player is not None and player.games <= chancesearch.ODDS_GAMES // share
    again = chancesearch.estimate(view_of(session.game), player.games * share)
    assert player == again  # the same games (stopped after a batch, at a narrow interval)
    low, high = player.interval
    assert reply.text.startswith(
        "the chance that this program's blind player wins from here: "
        f"{round(100 * player.won / player.games)}% (95% interval {100 * low:.0f}-"
        f"{100 * high:.0f}%), from {player.games} deals dealt at random"
    )


def test_the_players_own_chance_is_played_out_on_samples_the_same_on_both_paths() -> None:
    """One suit, deal 5: the blind player wins most games from the start, and each sampled
    game played to the end counts; the Python path plays fewer, the same ones."""
    view = view_of(Session.new_game(5, suits=1).game)
    with native.pure():
        slow = chancesearch.estimate(view, 3 * chancesearch.PYTHON_SHARE)
    assert slow.games == 3 and 0 <= slow.won <= 3
    if native.backend().compiled:
        assert chancesearch.estimate(view, 3) == slow
    policy = replace(chancesearch.ODDS_POLICY, weights=weights_for(view.suits))
    won = sum(
        native.backend().rollout(Playout(*_sampled(view, k), 0, policy)).won for k in range(3)
    )
    assert won == slow.won


def _sampled(view: PlayerView, k: int) -> tuple[State, tuple[bytes, ...]]:
    known, hand = rollouts.sample(view.piles(), view.unseen(), rollouts.seed_of(view), k)
    return known, rollouts.rows_of(hand)


def test_odds_with_every_card_in_sight_plays_the_one_deal() -> None:
    spades = list(range(13, 0, -1))  # King to Ace
    piles = [spades[:6], spades[6:], spades, *[[]] * 7]  # 7-A onto 8 wins; pile 3 is whole
    game = Game(piles, [0] * 10, [], [0] * 6, 1)
    odds = Session.of_position(game).analysis.odds()
    assert odds == chances.Chance(1, 1, 0)  # nothing to estimate
    assert "every card is in sight: full-information play wins from here" in (
        Session.of_position(game).execute("odds").text
    )
    game.push(Remove(2))
    game.push(Move(1, 0, 7))
    assert game.is_won() and Session.of_position(game).analysis.odds() == chances.Chance(1, 1, 0)


def test_o_enter_on_the_board_tells_the_odds(home: Path) -> None:
    from tests.helpers import on_board

    status, board = on_board(["o\r", "q\r"], Session.new_game(7, suits=1))
    assert status == 0
    assert "the chance of a win with every card known:" in "\n".join(board.transcript)


def test_a_game_file_names_its_deal_by_number_not_by_a_kind() -> None:
    from spider_cli.language import gamefiles

    text = f"{gamefiles.MAGIC}\nnew 5 suits 4 winnable\n4h from 1 to 8\n"
    with pytest.raises(SpiderError, match=r"names its deal by number: 'new 5', not"):
        gamefiles.read(text)


def test_a_check_for_an_easy_or_medium_deal_stops_at_its_rank_with_the_same_answer() -> None:
    """The search is monotone in its limit: stopped at the rank's positions, a check says of
    every deal what the whole limit says, for less when the deal is not of that rank."""
    for n in range(8):
        game = Game.new(n, 2)
        full = chances.check(game)
        for wanted in (Wanted.EASY, Wanted.MEDIUM):
            capped = chances.check(game, wanted=wanted)
            assert chances.fits(capped, wanted) == chances.fits(full, wanted)
            if chances.fits(full, wanted):
                assert capped == full
            assert capped.positions <= full.positions


def test_a_winnable_check_gives_up_a_beam_that_could_not_run_its_course() -> None:
    assert not autoplay.hopeless(0, 10) and not autoplay.hopeless(5, 10)
    assert autoplay.hopeless(6, 10)
    game = Game.new(12, 4)  # not won within 200,000 positions
    full = autoplay.play(game, Limit(200_000))
    quick = autoplay.play(game, Limit(200_000), give_up=True)
    assert not full.won and not quick.won and quick.positions < full.positions
    won = Game.new(0, 4)
    assert autoplay.play(won, Limit(200_000), give_up=True) == autoplay.play(won, Limit(200_000))
