"""Deals with a held rank (every card of a rank face down in the tableau) and what the proof
of :mod:`spider_cli.analysis.search.blocked` makes of them: ``python benchmarks/held_ranks.py
--seeds pysol:1-32000 --suits 4 [--limit N]``.

For every deal: its held ranks; for those that have one, whether the proof holds, the
positions it played and its time (the Python path: the proof has no compiled form). A line
a deal, then the totals; the figures are in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import time

from spider_cli.analysis.bench.full import parse_deals
from spider_cli.analysis.compact import encode
from spider_cli.analysis.search import blocked
from spider_cli.app.words.findings import held_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="pysol:1-32000")
    parser.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    parser.add_argument("--limit", type=int, default=blocked.PROOF_LIMIT)
    args = parser.parse_args()
    held = proved = 0
    spent: list[int] = []
    seconds: list[float] = []
    deals = parse_deals(args.seeds, args.suits)
    for deal in deals:
        start = encode(deal.game())
        ranks = blocked.held_ranks(start)
        if not ranks:
            continue
        held += 1
        began = time.perf_counter()
        proof, positions = blocked.attempt(start, args.limit)
        took = time.perf_counter() - began
        spent.append(positions)
        seconds.append(took)
        proved += proof is not None
        verdict = f"proved ({held_text(proof)})" if proof else "no proof"
        print(f"{deal}: held {ranks}: {verdict}; {positions:,} positions, {took:.2f} s")
    print(
        f"{len(deals)} deals, {args.suits} suits: {held} with a held rank, {proved} proved "
        f"unwinnable; positions a deal with a held rank: mean "
        f"{sum(spent) / max(1, len(spent)):,.0f}, most {max(spent, default=0):,}; "
        f"seconds: mean {sum(seconds) / max(1, len(seconds)):.2f}, most "
        f"{max(seconds, default=0):.2f}"
    )


if __name__ == "__main__":
    main()
