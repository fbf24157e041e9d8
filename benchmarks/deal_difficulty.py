"""How many positions full-information play needs to win each deal, for the thresholds of
``new --difficulty`` (``spider_cli/analysis/chances.py``):
``python benchmarks/deal_difficulty.py [--seeds 0-199] [--suits 1 2 4] [--limit N]``.

Each deal of ours is played by ``autoplay.play`` with every card known, bounded by positions
(the check ``new --winnable`` makes); the script prints, for each variant, how many were won
within the limit, the positions a won deal needed (the 10th, 33rd, 50th, 67th and 90th
percentiles) and the time a check took.
"""

from __future__ import annotations

import argparse
import statistics
import time

from spider_cli.analysis import autoplay, native
from spider_cli.analysis.goals import Limit
from spider_cli.rules.engine import Game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="0-199")
    parser.add_argument("--suits", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--limit", type=int, default=1_500_000)
    args = parser.parse_args()
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    print(native.status())
    for suits in args.suits:
        needed: list[int] = []
        times: list[float] = []
        for seed in seeds:
            began = time.perf_counter()
            result = autoplay.play(Game.new(seed, suits), Limit(args.limit))
            times.append(time.perf_counter() - began)
            if result.won:
                needed.append(result.positions)
        cuts = statistics.quantiles(needed, n=100) if len(needed) > 1 else []
        marks = ", ".join(f"{p}%: {cuts[p - 1]:,.0f}" for p in (10, 33, 50, 67, 90) if cuts)
        print(
            f"{suits} suit{'s' if suits != 1 else ''}: {len(needed)} of {len(seeds)} won "
            f"within {args.limit:,} positions; positions of a win: {marks}; a check took "
            f"{statistics.mean(times):.2f} s on average, {max(times):.2f} s at most"
        )


if __name__ == "__main__":
    main()
