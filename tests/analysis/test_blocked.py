"""The proof by a held rank (spider_cli.analysis.search.blocked): a deal whose every card of a rank
lies face down, beneath Kings and cards one rank lower that cannot move until one of them is
turned up, is unwinnable. Checked on PySolFC's two deals that no program wins, on deals
with a held rank that the beam wins (no proof may hold there), and, for the argument's
step, on random positions played through the engine: from a sealed position, every legal
action leads to a sealed position."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis.compact import encode
from spider_cli.analysis.limits import Limit, Verdict
from spider_cli.analysis.search import blocked
from spider_cli.analysis.search.blocked import HeldRank
from spider_cli.analysis.solve import answers, autoplay
from spider_cli.analysis.solve.autoplay import Stage
from spider_cli.app.words.findings import held_text, play_text, report_text
from spider_cli.rules.cards import KING
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import PILES, Game
from spider_cli.rules.goals import Goal, GoalKind


def _pysol(number: int, suits: int) -> Game:
    return DealSource(Source.PYSOL, number, suits).game()


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_pysol_1748_is_unwinnable_as_dealt(suits: int) -> None:
    """Its eight sixes lie face down, each beneath a King or a five, and every pile holds
    one: nothing that would free a six can ever move."""
    start = encode(_pysol(1748, suits))
    assert blocked.held_ranks(start) == [6]
    assert blocked.attempt(start) == (HeldRank(6, 1), 1)
    assert held_text(HeldRank(6, 1)) == (
        "every 6 lies face down beneath a King or a 5, and every pile holds one: these "
        "cannot move until a 6 is turned up or a pile emptied, so neither ever happens, and "
        "no suit can be removed"
    )


def test_pysol_14934_is_unwinnable_whatever_is_played() -> None:
    """Two of its threes could be freed as dealt, but every line buries them beneath a
    King or a two before it can (plspider's "apparently unwinnable" deal)."""
    start = encode(_pysol(14934, 2))
    proof, positions = blocked.attempt(start)
    assert proof is not None and proof.rank == 3 and positions == proof.positions > 1000
    assert f"whatever is played ({positions:,} positions)" in held_text(proof)
    assert blocked.attempt(start, 1000) == (None, 1000)  # not within a smaller limit


@pytest.mark.parametrize("number", [2039, 2192, 2253])
def test_a_deal_with_a_held_rank_that_is_won_has_no_proof(number: int) -> None:
    """Won by the beam with four suits (benchmarks/results/pysol-4suits.csv), though an
    Ace, a two or a ten lies all face down as dealt."""
    start = encode(_pysol(number, 4))
    assert blocked.held_ranks(start)
    assert blocked.attempt(start)[0] is None


def test_a_deal_with_no_held_rank_costs_nothing() -> None:
    start = encode(_pysol(1, 4))
    assert blocked.held_ranks(start) == [] and blocked.attempt(start) == (None, 0)


def test_full_information_play_says_why_a_deal_is_unwinnable() -> None:
    """After the beam (a narrow one here, to be quick), the proof ends the play."""
    game = _pysol(1748, 4)
    result = autoplay.play(game, Limit(200_000), widths=(4,))
    assert not result.won and result.proved and result.stage is Stage.PROOF
    assert play_text(result).startswith("proved unwinnable: every 6 lies face down beneath")
    assert autoplay.play(game, Limit(200_000), widths=(4,)) == result  # deterministic
    narrow = autoplay.play(game, Limit(1_000), widths=(4,))  # the beam used the limit
    assert not narrow.proved and narrow.stage is Stage.BEAM


def test_solve_answers_impossible_for_a_deal_proved_unwinnable() -> None:
    report = answers.solve(_pysol(1748, 1), Goal(GoalKind.WIN))
    assert report.status is Verdict.IMPOSSIBLE
    assert report_text(report).startswith("proved unwinnable: every 6 lies face down")


# ---------------------------------------------------------------------------------------------
# The argument's step, on the reference engine


def _sealed_position(rng: random.Random, suits: int) -> tuple[Game, int]:
    """A random position with a held rank (2 to Queen: a King or an Ace has too few
    blockers to seal ten piles) that is sealed: every card of the rank face down beneath a
    blocker, a blocker in every pile, none empty; a hand of zero to five rows."""
    rank = rng.randint(2, KING - 1)
    blockers = blocked._blockers(rank)  # (the proof's own: the test checks them too)
    suit_of = {1: [0] * 8, 2: [0, 1] * 4, 4: [0, 1, 2, 3] * 2}[suits]
    deck = [suit * 16 + r for suit in suit_of for r in range(1, KING + 1)]
    rng.shuffle(deck)
    held = [c for c in deck if c & 15 == rank]
    walls = [c for c in deck if c & 15 in blockers]
    rest = [c for c in deck if c & 15 not in blockers and c & 15 != rank]
    rows = rng.randint(0, 5)
    stock, rest = rest[: 10 * rows], rest[10 * rows :]
    piles: list[list[int]] = [[] for _ in range(PILES)]
    for card in held:  # first, deepest
        piles[rng.randrange(PILES)].append(card)
    for pile in piles:  # a blocker in every pile, above its held cards
        pile.append(walls.pop())
    for card in walls + rest:
        piles[rng.randrange(PILES)].append(card)
    down = []
    for pile in piles:
        top_held = max((i for i, c in enumerate(pile) if c & 15 == rank), default=-1)
        down.append(rng.randint(top_held + 1, len(pile) - 1))
    return Game(piles, down, stock[::-1], [], suits), rank


def _holds(game: Game, rank: int) -> bool:
    """No card of ``rank`` face up and no pile empty (what the proof claims), and the
    position still sealed as the proof sees it."""
    start = encode(game)
    face_up = [c for p, d in zip(game.piles, game.down, strict=True) for c in p[d:]]
    return (
        all(game.piles)
        and all(c & 15 != rank for c in face_up)
        and blocked._sealed(start.piles, rank, blocked._blockers(rank))
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1, 2, 4]))
def test_from_a_sealed_position_every_action_leads_to_a_sealed_one(seed: int, suits: int) -> None:
    rng = random.Random(seed)
    game, rank = _sealed_position(rng, suits)
    assert _holds(game, rank)
    for _ in range(40):  # along a random line, every action tried
        actions = game.legal_moves()
        for action in actions:
            game.push(action)
            assert _holds(game, rank), (action, game.piles, game.down)
            game.pop()
        if not actions:
            break
        game.push(rng.choice(actions))
