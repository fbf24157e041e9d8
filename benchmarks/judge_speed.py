"""What the judge costs on each path: the closure of commitments and the judged samples, in
processor time, on the compiled core (``csrc/judge.c``) against the Python reference
(``spider_cli.analysis.chance.judge``, its beam the core's as it runs in play, and all Python
under ``SPIDER_PURE``):
``nice python benchmarks/judge_speed.py --seeds 5000000-5000002 --caps 10000 --samples 12``.

Positions are the plain player's views at 15%, 50% and 85% of its games (tuning deals). At
each, the commitments are found on both paths (they must agree), then the candidates'
halving is run on both with the same budget (it must agree too). Prints the closure's time
and the samples judged a second on each path."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any, TypeVar

from judge_widths import plain_game

from spider_cli.analysis import native
from spider_cli.analysis.bench.full import parse_deals
from spider_cli.analysis.blind import decide, weights_for
from spider_cli.analysis.blind.player import Mode, Turn
from spider_cli.analysis.chance import judge
from spider_cli.analysis.limits import Limit

T = TypeVar("T")


def timed(call: Callable[..., T], *args: Any) -> tuple[T, float]:
    """``call(*args)`` and the processor seconds it took."""
    began = time.process_time()
    result = call(*args)
    return result, time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="5000000-5000002")
    parser.add_argument("--caps", default="10000")
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--pure", action="store_true", help="also the all-Python path")
    args = parser.parse_args()
    caps = tuple(int(c) for c in args.caps.split(","))
    totals = {"closure C": 0.0, "closure Py": 0.0, "core": 0.0, "reference": 0.0, "pure": 0.0}
    samples = {"core": 0, "reference": 0, "pure": 0}
    for deal in parse_deals(args.seeds, 4):
        turns = plain_game(deal)
        for share in (0.15, 0.5, 0.85):
            view, _line = turns[int(share * (len(turns) - 1))]
            piles, removed = view.piles(), len(view.removed)
            ours, t_c = timed(judge.closure, piles, removed, view.hand)
            theirs, t_py = timed(judge.commitments, piles, removed, view.hand)
            assert ours == theirs
            totals["closure C"] += t_c
            totals["closure Py"] += t_py
            weights = weights_for(4)
            search = native.backend().blind_search
            at = Turn(piles, removed, view.hand, Mode.KEEP)
            decision = decide(search, at, Limit(2_000), view.unseen())
            lines, _ = judge.candidates(view, decision, 4, weights)
            core, t1 = timed(judge.weigh, view, lines, args.samples, caps)
            ref, t2 = timed(judge.halving, view, lines, args.samples, caps)
            assert core == ref
            totals["core"] += t1
            totals["reference"] += t2
            samples["core"] += sum(core.counts)
            samples["reference"] += sum(ref.counts)
            if args.pure:
                with native.pure():
                    pure, t3 = timed(judge.halving, view, lines, args.samples, caps)
                assert pure == core
                totals["pure"] += t3
                samples["pure"] += sum(pure.counts)
            print(
                f"{deal.number} at {share:.0%}: {len(ours[0])} commitments, closure "
                f"{1000 * t_c:.1f} ms (C) / {1000 * t_py:.1f} ms (Python); "
                f"{sum(core.counts)} samples {t1:.2f} s (core) / {t2:.2f} s (reference)",
                flush=True,
            )
    for path, n in samples.items():
        if n:
            print(f"{path}: {n / totals[path]:.1f} samples/s (caps {args.caps})")
    print(f"closure: {totals['closure C']:.3f} s (C), {totals['closure Py']:.3f} s (Python)")


if __name__ == "__main__":
    main()
