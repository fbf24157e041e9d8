"""Does the judge rank commitments as blind play's outcomes do?
``nice python benchmarks/judge_truth.py --seeds 5000015-5000019 --caps 100000 --samples 24``.

At a few turns along games of the plain player, the candidates of
:func:`spider_cli.analysis.chance.judge.candidates` are each played on the same sampled worlds.
Then, on each world, two things are measured: the judge (the capped full-information search:
won, and the most progress it reached, at each of ``--caps`` and ``--widths``), and whether
the blind player wins it played to the end seeing only its view (``odds``'s policy: the truth
the judge stands in for, with this player). Each position is one JSON line in ``--out``
(resumable: positions already there are not measured again), so every score can be read
from one run: ``--report`` prints, for each cap, widths and dense weight (``--dense``), the
mean correlation within a position between the judge's mean score and blind play's share,
how often the judge's best line is blind play's best, and what picking the judge's best
line gains in blind play's share over the player's own line (paired over positions, with a
bootstrap interval). Tuning deals only."""

from __future__ import annotations

import argparse
import json
import random
import statistics
from dataclasses import replace
from pathlib import Path

from judge_widths import plain_game  # (the plain player's games, beside this script)

from spider_cli.analysis import native
from spider_cli.analysis.bench.full import parse_deals
from spider_cli.analysis.blind.evaluation import weights_for
from spider_cli.analysis.blind.player import Candidate, Decision, Kind, Mode
from spider_cli.analysis.blind.rollouts import Playout, seed_of
from spider_cli.analysis.chance import judge
from spider_cli.analysis.chance.search import ODDS_POLICY
from spider_cli.analysis.solve import WIDTHS
from spider_cli.rules.engine import DEAL

OUT = Path(__file__).parent / "results" / "judge_truth.jsonl"


def setting(cap: int, widths: tuple[int, ...]) -> str:
    return f"{cap}:{','.join(map(str, widths))}"


def measure(args: argparse.Namespace) -> None:
    """Every position of ``--seeds`` at ``--at`` not yet in ``--out``, appended to it."""
    fractions = [float(f) for f in args.at.split(",")]
    caps = [int(c) for c in args.caps.split(",")]
    widthses = [tuple(int(w) for w in ws.split("+")) for ws in args.widths.split(",")]
    policy = replace(ODDS_POLICY, weights=weights_for(args.suits))
    backend = native.backend()
    done = set()
    if args.out.exists():
        done = {(r["deal"], r["at"]) for r in map(json.loads, args.out.read_text().splitlines())}
    for deal in parse_deals(args.seeds, args.suits):
        if all((deal.number, f) in done for f in fractions):
            continue
        turns = plain_game(deal)
        for f in fractions:
            if (deal.number, f) in done:
                continue
            view, own = turns[round(f * (len(turns) - 1))]
            kind = Kind.DEAL if own == (DEAL,) else Kind.LINE
            plain = Decision(kind, Mode.KEEP, (Candidate(own, 0),) if kind is Kind.LINE else ())
            lines, _ = judge.candidates(view, plain, args.keep, weights_for(args.suits))
            seed = seed_of(view)
            worlds = [judge.world(view, seed, k) for k in range(args.samples)]
            blind: list[list[int]] = []
            verdicts: dict[str, list[list[tuple[int, int]]]] = {}
            for line in lines:
                played = [judge.played(p, r, len(view.removed), line) for p, r in worlds]
                blind.append(
                    [int(backend.rollout(Playout(s, r, o, policy)).won) for s, r, o in played]
                )
                for cap in caps:
                    for widths in widthses:
                        got = [judge.judge(s, r, o, cap, widths) for s, r, o in played]
                        verdicts.setdefault(setting(cap, widths), []).append(
                            [(int(v.won), v.best) for v in got]
                        )
            record = {"deal": deal.number, "at": f, "blind": blind, "judge": verdicts}
            with args.out.open("a") as out:
                out.write(json.dumps(record) + "\n")
            share = " ".join(f"{100 * sum(b) / len(b):.0f}" for b in blind)
            print(f"{deal.number} at {f}: {len(lines)} lines, blind % {share}", flush=True)


def interval(values: list[float]) -> tuple[float, float]:
    """A 95% bootstrap interval of the mean of paired differences (seeded: repeatable)."""
    rng = random.Random(0)
    boots = sorted(statistics.mean(rng.choices(values, k=len(values))) for _ in range(2_000))
    return boots[50], boots[1_949]


def report(args: argparse.Namespace) -> None:
    """The summary of ``--out`` for each setting in it and each ``--dense``: the correlation
    within a position; how often the best by the judge is blind play's best; blind play's
    gain over the own line (in points) when the judge's best is always played ("argmax"),
    and when it is played only if it :func:`~spider_cli.analysis.chance.judge.beats` the
    own by the margin (the player's rule, "margin", with how many positions switch); and
    the gain of the truly best line (the ceiling)."""
    records = [json.loads(r) for r in args.out.read_text().splitlines()]
    denses = [int(d) for d in args.dense.split(",")]
    print(f"{len(records)} positions, {sum(len(r['blind']) for r in records)} lines")
    keys = {k for r in records for k in r["judge"]}
    for key in sorted(keys, key=lambda k: (int(k.split(":")[0]), len(k), k)):
        for dense in denses:
            within: list[float] = []
            gains: list[float] = []
            plays: list[float] = []
            oracle: list[float] = []
            same = ranked = switched = 0
            for r in records:
                truth = [sum(b) / len(b) for b in r["blind"]]
                scores = [
                    [judge.score(judge.Verdict(bool(w), 0, best), dense) for w, best in line]
                    for line in r["judge"][key]
                ]
                means = [statistics.mean(line) for line in scores]
                pick = max(range(len(means)), key=lambda i: (means[i], -i))
                gains.append(truth[pick] - truth[0])
                oracle.append(max(truth) - truth[0])
                if pick and judge.beats(scores[pick], scores[0], judge.MARGIN, judge.SCALE):
                    switched += 1
                    plays.append(truth[pick] - truth[0])
                else:
                    plays.append(0.0)
                if len(set(truth)) > 1 and len(set(means)) > 1:
                    ranked += 1
                    within.append(statistics.correlation(means, truth))
                    same += truth[pick] == max(truth)
            mean_within = statistics.mean(within) if within else 0.0
            low, high = interval(gains)
            play_low, play_high = interval(plays)
            print(
                f"{key} dense {dense}: within {mean_within:+.2f} at {ranked}, best {same}; "
                f"argmax {100 * statistics.mean(gains):+.1f} ({100 * low:+.1f} to "
                f"{100 * high:+.1f}); margin {100 * statistics.mean(plays):+.1f} "
                f"({100 * play_low:+.1f} to {100 * play_high:+.1f}) at {switched}; "
                f"ceiling {100 * statistics.mean(oracle):+.1f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="5000015-5000019")
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--at", default="0.3,0.6")
    parser.add_argument("--caps", default="100000", help="the judge's caps, comma-separated")
    parser.add_argument(
        "--widths",
        default="+".join(map(str, WIDTHS)),
        help="beam widths in turn, '+' between widths, ',' between settings (e.g. 16,4+16)",
    )
    parser.add_argument("--dense", default="0,250,1000", help="dense weights for --report")
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--keep", type=int, default=3)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    if args.report:
        report(args)
    else:
        measure(args)


if __name__ == "__main__":
    main()
