"""What each feature of the blind player's value costs the search: positions a second of the
compiled core's blind search with the standard weights, and with each new feature given a
weight (the rest as standard), on the same positions, as ratios (the machine is shared):

    python benchmarks/bench_evaluation.py --positions 40 --budget 20000

Positions: our 4-suit deals 0.. some random moves in, as the player sees them. Processor
time, each setting run in turn over all the positions, best of ``--rounds``.
"""

from __future__ import annotations

import argparse
import random
import time

from spider_cli.analysis import native
from spider_cli.analysis.bench import blind
from spider_cli.analysis.blind.evaluation import FEATURES, STANDARD, Weights
from spider_cli.analysis.blind.player import Mode, Request, Turn
from spider_cli.analysis.compact import State
from spider_cli.analysis.limits import Limit
from spider_cli.rules.deals import DealSource, Source

NEW = [name for name in FEATURES if getattr(STANDARD, name) == 0]
"""The features the standard weights leave at 0."""


def views(count: int) -> list[tuple[State, int, int]]:
    found = []
    for number in range(count):
        table = blind.Dealer(DealSource(Source.OURS, number, 4))
        game = table._Dealer__game  # type: ignore[attr-defined]  # (random moves)
        rng = random.Random(number)
        for _ in range(rng.randrange(10, 60)):
            game.push(rng.choice(game.legal_moves()))
        view = table.view()
        found.append((view.piles(), len(view.removed), view.hand))
    return found


def rate(weights: Weights, positions: list[tuple[State, int, int]], budget: int) -> float:
    """Positions a second of processor time over every position's three searches."""
    backend = native.backend()
    examined = 0
    began = time.process_time()
    for piles, removed, hand in positions:
        for parts, width in ((False, 0), (True, 0), (True, 30)):
            turn = Turn(piles, removed, hand, Mode.KEEP, weights)
            examined += backend.blind_search(Request(turn, Limit(budget), parts, width))[2]
    return examined / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not native.backend().compiled:
        raise SystemExit("the compiled core is not built: nothing to measure")
    positions = views(args.positions)
    standard = STANDARD.as_dict()
    settings = {"standard": STANDARD}
    settings |= {name: Weights.from_dict({**standard, name: 7}) for name in NEW}
    settings["all"] = Weights.from_dict({**standard, **{name: 7 for name in NEW}})
    best = {name: 0.0 for name in settings}
    for _ in range(args.rounds):
        for name, weights in settings.items():
            best[name] = max(best[name], rate(weights, positions, args.budget))
    for name, value in best.items():
        print(f"{name:12} {value:12,.0f} positions a second  {value / best['standard']:.3f}")


if __name__ == "__main__":
    main()
