"""How long ``hint`` takes, asked at every turn of real games:
``python benchmarks/bench_hint.py [--deals 400000-400009] [--suits 4] [--turns 40] [--deeper]
[--level quick]``.

Each deal is played by following the hints (``hint`` then ``apply``, or ``deal`` when the
hint says a deal is due), as a player who trusts them would, for at most ``--turns`` hints;
every ``Session.analysis.hint()`` is timed alone. Prints the median, the 95th percentile and the
slowest, and how many hints looked ahead (weighed choices on sampled games, or judged them
at the judge level). ``--deeper`` times ``hint deeper`` instead; ``--level`` is the player's
level (``set level``). The deals default to a range no tuning used.
"""

from __future__ import annotations

import argparse
import statistics
import time

from spider_cli.analysis.bench.full import parse_deals
from spider_cli.app.session import Session
from spider_cli.language.settings import SETTING_VALUES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="400000-400009")
    parser.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--deeper", action="store_true")
    parser.add_argument("--level", default="quick", choices=SETTING_VALUES["level"])
    args = parser.parse_args()
    times: list[float] = []
    looked = 0
    for deal in parse_deals(args.deals, args.suits):
        session = Session.new_game(deal.number, args.suits)
        session.settings = session.settings.changed("level", args.level)
        for _ in range(args.turns):
            if session.game.is_won() or session.game.is_lost():
                break
            began = time.perf_counter()
            advice = session.analysis.hint(deeper=args.deeper)
            times.append(time.perf_counter() - began)
            looked += advice.looked is not None
            if advice.deal_due:
                session.deal()
            elif advice.actions and not advice.lost:
                session.apply()
            else:
                break
        print(f"deal {deal}: {len(times)} hints so far", flush=True)
    times.sort()
    print(
        f"{len(times)} hints{' deeper' if args.deeper else ''} at the {args.level} level "
        f"({looked} looked ahead): "
        f"median {statistics.median(times):.2f} s, 95th percentile "
        f"{times[int(0.95 * (len(times) - 1))]:.2f} s, slowest {times[-1]:.2f} s"
    )


if __name__ == "__main__":
    main()
