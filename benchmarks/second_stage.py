"""How the second stage's beams do on the deals the beam loses (issue 34): measure each
(width, ties) beam alone, then replay portfolios of them against the limit.

    python benchmarks/second_stage.py measure OUT.jsonl --deals pysol:2457 pysol:335 \\
        --beams 2048:1 2048:2 4096:1
    python benchmarks/second_stage.py portfolio OUT.jsonl --beams 4096:1
    python benchmarks/second_stage.py portfolio OUT.jsonl --beams 2048:1 2048:2 4096:1

``measure`` plays each deal's beam stage (``autoplay.WIDTHS``, as ``spider bench`` does) and
then each listed beam alone from the start with the whole limit, and appends one JSON line a
deal: the positions the beam stage used and whether it won, and each beam's (won,
positions). A beam within a smaller budget finds what the whole run found up to there (it is
deterministic), so ``portfolio`` can replay any order of the measured beams exactly as
``autoplay.play`` would run them in what the beam stage left (a beam begun only with
``autoplay.SHORTEST_WIN`` times its width left), without playing again; it prints the deals
won, and those won only by one of two portfolios with ``--against``. Ties: 1 the children
found last first, 2 and up a shuffle (``spider_cli.analysis.search.beam.tie``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from spider_cli.analysis import native
from spider_cli.analysis.compact import encode
from spider_cli.analysis.limits import PLAY_LIMIT, Limit
from spider_cli.analysis.solve import autoplay
from spider_cli.rules.deals import DealSource

Beam = tuple[int, int]


def beam_of(text: str) -> Beam:
    """A beam written WIDTH:TIES."""
    width, ties = text.split(":")
    return int(width), int(ties)


def measure(out: Path, deals: list[str], beams: list[Beam], suits: int, limit: int) -> None:
    with out.open("a", encoding="utf-8") as file:
        for name in deals:
            start = encode(DealSource.parse(name, suits).game())
            backend = native.backend(start.cards)
            used, won = 0, False
            for width in autoplay.WIDTHS:
                found, count = backend.beam(start, width, Limit(limit - used))
                used += count
                if found is not None or used >= limit:
                    won = found is not None
                    break
            record: dict[str, object] = {"deal": name, "limit": limit, "beam": used, "won": won}
            results = {}
            for width, ties in beams:
                found, count = backend.beam(start, width, Limit(limit), ties)
                results[f"{width}:{ties}"] = [found is not None, count]
                print(name, f"{width}:{ties}", "won" if found else "not won", count, flush=True)
            record["beams"] = results
            file.write(json.dumps(record) + "\n")
            file.flush()


def replay(record: dict[str, Any], beams: list[Beam]) -> bool:
    """Whether ``autoplay.play`` with these beams as its portfolio wins the measured deal."""
    if record["won"]:
        return True
    limit, used = int(record["limit"]), int(record["beam"])
    for width, ties in beams:
        left = limit - used
        if used >= limit:
            break
        if left < autoplay.SHORTEST_WIN * width:
            continue
        won, count = record["beams"][f"{width}:{ties}"]
        if won and count <= left:
            return True
        used += min(count, left)
    return False


def portfolio(path: Path, beams: list[Beam], against: list[Beam]) -> None:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    won = [r["deal"] for r in records if replay(r, beams)]
    beam = sum(r["won"] for r in records)
    print(f"{len(records)} deals (the beam stage won {beam}): won {len(won)}")
    if against:
        other = [r["deal"] for r in records if replay(r, against)]
        print(f"  against {len(other)}; won only by these beams: {sorted(set(won) - set(other))}")
        print(f"  won only by --against: {sorted(set(other) - set(won))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("measure")
    run.add_argument("out", type=Path)
    run.add_argument("--deals", nargs="+", required=True)
    run.add_argument("--beams", nargs="+", type=beam_of, required=True)
    run.add_argument("--suits", type=int, choices=(1, 2, 4), default=4)
    run.add_argument("--limit", type=int, default=PLAY_LIMIT)
    replayed = commands.add_parser("portfolio")
    replayed.add_argument("out", type=Path)
    replayed.add_argument("--beams", nargs="+", type=beam_of, required=True)
    replayed.add_argument("--against", nargs="+", type=beam_of, default=[])
    args = parser.parse_args()
    if args.command == "measure":
        measure(args.out, args.deals, args.beams, args.suits, args.limit)
    else:
        portfolio(args.out, args.beams, args.against)


if __name__ == "__main__":
    main()
