"""How long ``review`` takes: games played by the blind player on our numbered deals, each
reviewed as ``spider review`` would, timed by the wall clock (the bisection and the whole):

    python benchmarks/bench_review.py --suits 4 --deals 500000-500019

One line a game (moves, the verdict, marks, seconds), then the median and the slowest.
The games are the blind player's at 2,000 positions a search (a weaker player than the
hint's, so that more of its games are lost and have a move to find).

With ``--marks`` it calibrates the marks instead (docs/benchmarks.md, "Review marks"): games
of random legal moves, of the blind player at 200 positions a search, and of the blind player
itself (the review's: the hint's budget), on the same deals, each given the review's marks alone (no
bisection), and the share of moves marked for each kind of player:

    python benchmarks/bench_review.py --marks --suits 4 --deals 40-45
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from spider_cli.analysis import review
from spider_cli.analysis.bench import blind
from spider_cli.analysis.chance.search import Level
from spider_cli.analysis.intervals import wilson
from spider_cli.analysis.limits import TURN_LIMIT, Limit
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import Game, Move

RANDOM_MOVES = 200
"""Moves of a random game at most (random moves rarely end a game)."""

OTHER = 0.03
"""How often a random game deals or removes when it could move instead."""

PLAYERS = ("random", "blind 200", "blind")
"""The kinds of player the marks are calibrated on, the weakest first."""


def random_game(number: int, suits: int, seed: int) -> Game:
    """Our deal ``number`` after :func:`random_moves`, :data:`RANDOM_MOVES` at most."""
    return random_moves(DealSource(Source.OURS, number, suits).game(), RANDOM_MOVES, seed)


def random_moves(game: Game, moves: int, seed: int) -> Game:
    """``game`` after up to ``moves`` random legal moves drawn by ``random.Random(seed)``: a
    deal or a removal :data:`OTHER` of the time, or when no move is left."""
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        moves_ = [a for a in legal if isinstance(a, Move)]
        other = [a for a in legal if not isinstance(a, Move)]
        pick = other if other and (not moves_ or rng.random() < OTHER) else moves_
        game.push(rng.choice(pick))
    return game


def blind_game(number: int, suits: int, budget: Limit) -> Game:
    """Our deal ``number`` as the plain blind player plays it at ``budget`` positions a
    search."""
    table = blind.Dealer(DealSource(Source.OURS, number, suits))
    blind.play_blind(table, budget, Level.PLAIN)
    return table._Dealer__game  # type: ignore[attr-defined,no-any-return]  # (the cards)


def game_of(kind: str, number: int, suits: int) -> Game:
    """The game of the player ``kind`` (:data:`PLAYERS`) on deal ``number``."""
    if kind == "random":
        return random_game(number, suits, number)
    return blind_game(number, suits, Limit(200) if kind == "blind 200" else TURN_LIMIT)


def marks_of(game: Game) -> tuple[review.Weighing, int]:
    """The review's marks of ``game`` alone, at the review's default budget, and its live
    moves: those played where the chance was :data:`review.LEAST` or more (a move played
    from a position already all but lost has nothing left to give up)."""
    positions, actions = review.positions_of(game)
    curve = tuple(review.chance(g) for g in positions.walk())
    weighing = review.Weighing(review.BISECT_LIMIT * review.MARKS_SHARE)
    review.mark_moves(positions, actions, curve, weighing, lambda _step: None)
    return weighing, sum(1 for chance in curve[:-1] if chance >= review.LEAST)


def calibrate(suits: int, numbers: range) -> None:
    """One line a game, then the share of moves marked for each kind of player, of all its
    moves and of its live ones."""
    totals = {kind: [0, 0, 0] for kind in PLAYERS}
    for number in numbers:
        for kind in PLAYERS:
            game = game_of(kind, number, suits)
            began = time.perf_counter()
            found, live = marks_of(game)
            severities = [m.severity.value for m in found.marks]
            print(
                f"{number} {kind}: {game.moves_made} moves ({live} live), "
                f"{len(found.marks)} marked ({', '.join(severities) or 'none'}), "
                f"{found.unconfirmed} weighed unmarked, {found.unweighed} not reached, "
                f"{time.perf_counter() - began:.1f} s",
                flush=True,
            )
            totals[kind][0] += len(found.marks)
            totals[kind][1] += game.moves_made
            totals[kind][2] += live
    for kind, (marked, moves, live) in totals.items():
        shares = []
        for of in (moves, live):
            low, high = wilson(marked, of)
            shares.append(
                f"{100 * marked / max(of, 1):.1f}% (95% {100 * low:.1f}-{100 * high:.1f}%)"
            )
        print(
            f"{suits} suits, {kind}: {marked} marked of {moves} moves, {shares[0]}; "
            f"of {live} live moves, {shares[1]}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    parser.add_argument("--deals", default="500000-500019", help="our deals, FIRST-LAST")
    parser.add_argument("--marks", action="store_true", help="calibrate the marks instead")
    args = parser.parse_args()
    first, _, last = args.deals.partition("-")
    if args.marks:
        calibrate(args.suits, range(int(first), int(last or first) + 1))
        return
    bisections, wholes = [], []
    for number in range(int(first), int(last or first) + 1):
        table = blind.Dealer(DealSource(Source.OURS, number, args.suits))
        blind.play_blind(table, Limit(2_000), Level.PLAIN)
        game = table._Dealer__game  # type: ignore[attr-defined]  # (the bench holds the cards)
        began = time.perf_counter()
        positions, actions = review.positions_of(game)
        lost = review.bisect(positions, actions, review.BISECT_LIMIT, lambda _text: None)
        bisected = time.perf_counter() - began
        began = time.perf_counter()
        done = review.review(game)
        whole = time.perf_counter() - began
        bisections.append(bisected)
        wholes.append(whole)
        where = f" {lost.move}" if lost.verdict is review.Outlook.LOST_AT else ""
        print(
            f"{number}: {game.moves_made} moves, {lost.verdict.value}{where}, "
            f"{len(done.marks)} marked ({done.unconfirmed} weighed unmarked, "
            f"{done.unweighed} not reached), "
            f"bisection {bisected:.1f} s, review {whole:.1f} s",
            flush=True,
        )
    print(
        f"{args.suits} suits, {len(wholes)} games: review median {statistics.median(wholes):.1f} s,"
        f" slowest {max(wholes):.1f} s; bisection median {statistics.median(bisections):.1f} s,"
        f" slowest {max(bisections):.1f} s"
    )


if __name__ == "__main__":
    main()
