"""Two blind players compared on the same deals, from the games ``spider bench --blind --db``
stored: ``python benchmarks/compare_blind.py DB --seeds 300000-300499 --suits 4 \\
--a "plain level, 10000 positions a search, version 1" --b "strong level, ..."``
(``--list`` prints the players the file holds). With ``--db-b FILE``, B's games are read
from that file (each player run into its own file, as the judge's long runs are).

Prints each player's share won with its 95% Wilson interval, the paired table (deals both
won, only one, neither), McNemar's exact test of "neither is stronger", and the difference
in share with a 95% paired-bootstrap interval (10,000 resamples of the deals, seeded), and
each player's time a game. Only deals both players played are counted.
"""

from __future__ import annotations

import argparse
import math
import random
import sqlite3
import statistics

from spider_cli.analysis.bench.full import parse_deals
from spider_cli.analysis.intervals import wilson


def mcnemar(only_a: int, only_b: int) -> float:
    """The exact two-sided p-value of McNemar's test (a binomial test on the discordant
    deals)."""
    n = only_a + only_b
    if not n:
        return 1.0
    k = min(only_a, only_b)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def bootstrap(pairs: list[tuple[int, int]], rounds: int = 10_000) -> tuple[float, float]:
    """The 95% interval of mean(b - a) over resamples of the deals."""
    rng = random.Random(0)
    n = len(pairs)
    diffs = [b - a for a, b in pairs]
    means = sorted(sum(rng.choice(diffs) for _ in range(n)) / n for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("--seeds", default="0-99")
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--a")
    parser.add_argument("--b")
    parser.add_argument("--db-b", help="B's games from this file (default: the same one)")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    db_b = sqlite3.connect(f"file:{args.db_b}?mode=ro", uri=True) if args.db_b else db
    if args.list:
        for player, count in db.execute(
            "SELECT player, COUNT(*) FROM blind_results GROUP BY player ORDER BY player"
        ):
            print(f"{count:6} {player}")
        return
    wanted = {(d.source.value, str(d.number)) for d in parse_deals(args.seeds, args.suits)}
    games: dict[str, dict[tuple[str, str], tuple[int, float]]] = {}
    for name, source in ((args.a, db), (args.b, db_b)):
        rows = source.execute(
            "SELECT source, number, won, seconds FROM blind_results WHERE player = ? AND suits = ?",
            (name, args.suits),
        )
        games[name] = {(s, n): (int(w), t) for s, n, w, t in rows if (s, n) in wanted}
    common = sorted(set(games[args.a]) & set(games[args.b]))
    if not common:
        raise SystemExit("no deal was played by both players")
    pairs = [(games[args.a][d][0], games[args.b][d][0]) for d in common]
    n = len(pairs)
    for label, name, k in (("A", args.a, 0), ("B", args.b, 1)):
        won = sum(p[k] for p in pairs)
        low, high = wilson(won, n)
        seconds = [games[name][d][1] for d in common]
        print(
            f"{label}: {name}\n   won {won}/{n} ({100 * won / n:.1f}%, 95% interval "
            f"{100 * low:.1f}-{100 * high:.1f}%), {statistics.mean(seconds):.1f} s a game "
            f"(median {statistics.median(seconds):.1f} s)"
        )
    both = sum(a and b for a, b in pairs)
    only_a = sum(a and not b for a, b in pairs)
    only_b = sum(b and not a for a, b in pairs)
    neither = n - both - only_a - only_b
    print(f"both won {both}, only A {only_a}, only B {only_b}, neither {neither}")
    low, high = bootstrap(pairs)
    diff = sum(b - a for a, b in pairs) / n
    print(
        f"B - A: {100 * diff:+.1f} points (95% paired-bootstrap interval {100 * low:+.1f} to "
        f"{100 * high:+.1f}); McNemar's exact p = {mcnemar(only_a, only_b):.3f}"
    )


if __name__ == "__main__":
    main()
