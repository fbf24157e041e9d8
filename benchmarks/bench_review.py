"""How long ``review`` takes: games played by the blind player on our numbered deals, each
reviewed as ``spider review`` would, timed by the wall clock (the bisection and the whole):

    python benchmarks/bench_review.py --suits 4 --deals 500000-500019

One line a game (moves, the verdict, marks, seconds), then the median and the slowest.
The games are the blind player's at 2,000 positions a search (a weaker player than the
hint's, so that more of its games are lost and have a move to find).
"""

from __future__ import annotations

import argparse
import statistics
import time

from spider_cli.analysis import review
from spider_cli.analysis.bench import blind
from spider_cli.analysis.chance.search import Level
from spider_cli.analysis.limits import Limit
from spider_cli.rules.deals import DealSource, Source


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    parser.add_argument("--deals", default="500000-500019", help="our deals, FIRST-LAST")
    args = parser.parse_args()
    first, _, last = args.deals.partition("-")
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
            f"{len(done.marks)} marked ({done.unconfirmed} unconfirmed), "
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
