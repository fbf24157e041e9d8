"""Does the judge rank commitments as blind play's outcomes do?
``nice python benchmarks/judge_truth.py --seeds 5000015-5000019 --cap 100000 --samples 24``.

At a few turns along games of the plain player, the candidates of
:func:`spider_cli.analysis.chance.judge.candidates` are each played on the same sampled worlds.
Then, on each world, two things are measured: whether the capped full-information search
wins it (the judge), and whether the blind player wins it played to the end seeing only
its view (``odds``'s policy: the truth the judge stands in for, with this player). Prints,
for each position, both shares per candidate, and over all candidates the correlation of
the two shares and how often the judge's best candidate is blind play's best. Tuning deals
only."""

from __future__ import annotations

import argparse
import statistics
from dataclasses import replace

from judge_widths import plain_game  # (the plain player's games, beside this script)

from spider_cli.analysis import native
from spider_cli.analysis.bench.full import parse_deals
from spider_cli.analysis.blind.evaluation import weights_for
from spider_cli.analysis.blind.player import Candidate, Decision, Kind, Mode
from spider_cli.analysis.blind.rollouts import Playout, seed_of
from spider_cli.analysis.chance import judge
from spider_cli.analysis.chance.search import ODDS_POLICY
from spider_cli.rules.engine import DEAL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="5000015-5000019")
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--at", default="0.3,0.6")
    parser.add_argument("--cap", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--keep", type=int, default=3)
    args = parser.parse_args()
    fractions = [float(f) for f in args.at.split(",")]
    policy = replace(ODDS_POLICY, weights=weights_for(args.suits))
    backend = native.backend()
    pairs: list[tuple[float, float]] = []
    within: list[float] = []
    same_best = ranked = 0
    for deal in parse_deals(args.seeds, args.suits):
        turns = plain_game(deal)
        for f in fractions:
            view, own = turns[round(f * (len(turns) - 1))]
            kind = Kind.DEAL if own == (DEAL,) else Kind.LINE
            plain = Decision(kind, Mode.KEEP, (Candidate(own, 0),) if kind is Kind.LINE else ())
            lines, _ = judge.candidates(view, plain, args.keep, weights_for(args.suits))
            seed = seed_of(view)
            worlds = [judge.world(view, seed, k) for k in range(args.samples)]
            shares = []
            for line in lines:
                solved = blind = 0
                for piles, rows in worlds:
                    state, left, off = judge.played(piles, rows, len(view.removed), line)
                    solved += judge.judge(state, left, off, args.cap).won
                    blind += backend.rollout(Playout(state, left, off, policy)).won
                shares.append((solved / len(worlds), blind / len(worlds)))
            pairs.extend(shares)
            cells = " ".join(f"{100 * j:.0f}/{100 * b:.0f}" for j, b in shares)
            print(f"{deal.number} at {f}: judge/blind % per line: {cells}", flush=True)
            if len({b for _j, b in shares}) > 1 and len({j for j, _b in shares}) > 1:
                ranked += 1
                within.append(
                    statistics.correlation([j for j, _ in shares], [b for _, b in shares])
                )
                best_j = max(range(len(shares)), key=lambda i: (shares[i][0], -i))
                best_b = max(s[1] for s in shares)
                same_best += shares[best_j][1] == best_b
    js, bs = [p[0] for p in pairs], [p[1] for p in pairs]
    corr = statistics.correlation(js, bs) if len(set(js)) > 1 and len(set(bs)) > 1 else 0.0
    print(
        f"{len(pairs)} (position, line) pairs: mean judge {100 * statistics.mean(js):.1f}%, "
        f"mean blind {100 * statistics.mean(bs):.1f}%, correlation {corr:.2f}; at {ranked} "
        f"positions both rank the lines, the judge's best is blind play's best at {same_best}; "
        f"correlation within a position, mean {statistics.mean(within) if within else 0:.2f}"
    )


if __name__ == "__main__":
    main()
