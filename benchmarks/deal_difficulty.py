"""How many positions full-information play needs to win each deal, for the thresholds of
``new --difficulty`` (``spider_cli/analysis/chance/odds.py``):
``python benchmarks/deal_difficulty.py [--seeds 0-199] [--suits 1 2 4] [--limit N] [--give-up]``.

Each deal of ours is played by ``autoplay.play`` with every card known, bounded by positions
(the check ``new --winnable`` makes; with ``--give-up`` as it makes it now, a wider beam not
begun when it could not run its course); the script prints, for each variant, how many were
won within the limit, the positions a won deal needed (the 10th, 33rd, 50th, 67th and 90th
percentiles), the time a check took, and what a check cost when the deal was won and when
it was not.
"""

from __future__ import annotations

import argparse
import statistics
import time

from spider_cli.analysis import native
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.solve import autoplay
from spider_cli.app.words.notes import path_text
from spider_cli.rules.engine import Game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="0-199")
    parser.add_argument("--suits", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--limit", type=int, default=1_500_000)
    parser.add_argument("--give-up", action="store_true")
    args = parser.parse_args()
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    print(path_text(native.unused()))
    for suits in args.suits:
        needed: list[int] = []
        times: list[float] = []
        cost: dict[bool, list[tuple[int, float]]] = {True: [], False: []}
        for seed in seeds:
            began = time.perf_counter()
            result = autoplay.play(Game.new(seed, suits), Limit(args.limit), give_up=args.give_up)
            times.append(time.perf_counter() - began)
            cost[result.won].append((result.positions, times[-1]))
            if result.won:
                needed.append(result.positions)
        cuts = statistics.quantiles(needed, n=100) if len(needed) > 1 else []
        marks = ", ".join(f"{p}%: {cuts[p - 1]:,.0f}" for p in (10, 33, 50, 67, 90) if cuts)
        print(
            f"{suits} suit{'s' if suits != 1 else ''}: {len(needed)} of {len(seeds)} won "
            f"within {args.limit:,} positions; positions of a win: {marks}; a check took "
            f"{statistics.mean(times):.2f} s on average, {max(times):.2f} s at most"
        )
        for won, checks in cost.items():
            if checks:
                print(
                    f"  a check of a deal {'won' if won else 'not won'}: "
                    f"{statistics.mean(p for p, _ in checks):,.0f} positions, "
                    f"{statistics.mean(t for _, t in checks):.2f} s on average ({len(checks)})"
                )


if __name__ == "__main__":
    main()
