"""The blind player's searches alone, without its card weighing or any look-ahead: each
numbered deal played from the start by ``rollouts.rollout`` (the compiled core's whole game
when it is built), the player shown only its view. It measures what a budget of positions
buys, and what a rollout policy is worth beside the player it stands for:

    python benchmarks/blind_policies.py --seeds 0-199 --suits 4 10000:S 20000:S 20000:60

Each policy is ``BUDGET:SEARCHES``: ``S`` the player's three searches
(``blindplayer.SEARCHES``), a number the beam of that width alone. One line a policy: the
games won, processor time a game, and a string of 0 and 1 a deal (for pairing by hand).
"""

from __future__ import annotations

import argparse
import time

from spider_cli.analysis import native
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind import rollouts
from spider_cli.analysis.blind.rollouts import Playout
from spider_cli.analysis.compact import encode
from spider_cli.rules.deals import DealSource, Source


def policy_of(text: str) -> rollouts.Policy:
    """``BUDGET:S`` or ``BUDGET:WIDTH`` as the rollout policy it names."""
    budget, _, searches = text.partition(":")
    if searches in ("", "S"):
        return rollouts.Policy(int(budget), blindplayer.SEARCHES)
    return rollouts.Policy(int(budget), ((True, int(searches)),))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="0-199", help="our deals, FIRST-LAST")
    parser.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    parser.add_argument("policies", nargs="+", metavar="BUDGET:SEARCHES")
    args = parser.parse_args()
    first, _, last = args.seeds.partition("-")
    deals = range(int(first), int(last or first) + 1)
    for text in args.policies:
        policy = policy_of(text)
        started = time.process_time()
        won = []
        for number in deals:
            start = encode(DealSource(Source.OURS, number, args.suits).game())
            won.append(native.backend().rollout(Playout(start.piles, start.rows, 0, policy)).won)
        each = (time.process_time() - started) / len(deals)
        bits = "".join("1" if w else "0" for w in won)
        print(f"{text}: {sum(won)}/{len(deals)} won, {each * 1000:.0f} ms a game {bits}")


if __name__ == "__main__":
    main()
