"""The results ``spider bench`` stored (every card known) as a small CSV table for the
repository: ``python benchmarks/known_table.py DB --seeds pysol:1-32000 --suits 4 \\
--out benchmarks/results/pysol-4suits.csv``.

One row per deal, in the order of the deals: ``deal,won,moves,positions,seconds,stage`` (``stage``:
the part of the search that won the deal or ended it, ``proved`` for a deal proved unwinnable). Only
rows of this spider's search at ``--limit`` are read (the key ``autoplay.search_key`` names), so a
table is never made of another version's results; a deal with no such row is reported and left out.
The file is written whole, then renamed into place. ``tests/benchmarks/test_known_table.py`` solves
a few rows again and checks their moves and positions: the search is deterministic, so the table is
reproducible. """

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
from pathlib import Path

from spider_cli.analysis.bench.full import DealResult, parse_deals
from spider_cli.analysis.limits import PLAY_LIMIT
from spider_cli.analysis.solve.autoplay import search_key
from spider_cli.app.files.benchdb import Store

COLUMNS = ("deal", "won", "moves", "positions", "seconds", "stage")


def row_of(result: DealResult) -> tuple[str, ...]:
    """A result as the table's row."""
    stage = "proved" if result.proved else (result.stage.value if result.stage else "")
    return (
        str(result.deal),
        "1" if result.won else "0",
        str(result.moves),
        str(result.positions),
        f"{result.seconds:.3f}",
        stage,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("--seeds", required=True)
    parser.add_argument("--suits", type=int, choices=(1, 2, 4), default=4)
    parser.add_argument("--limit", type=int, default=PLAY_LIMIT)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    deals = parse_deals(args.seeds, args.suits)
    with Store(args.db) as store:
        found = {r.deal: r for r in store.results(deals, args.limit, None, search_key(args.limit))}
    missing = [d for d in deals if d not in found]
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(row_of(found[d]) for d in deals if d in found)
    tmp = args.out.with_name(args.out.name + ".tmp")
    tmp.write_text(text.getvalue(), encoding="utf-8")
    os.replace(tmp, args.out)
    won = sum(r.won for r in found.values())
    print(f"{args.out}: {len(found)} deals, {won} won; {len(missing)} not in {args.db}")
    if missing:
        print("missing: " + ", ".join(map(str, missing[:20])), file=sys.stderr)


if __name__ == "__main__":
    main()
