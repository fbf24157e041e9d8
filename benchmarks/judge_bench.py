"""The judge's player (:func:`~spider_cli.analysis.chance.judge.choose`) played blind on
numbered deals, stored beside ``spider bench --blind --db``'s games so that
``benchmarks/compare_blind.py`` pairs it with another player on the same deals:

    nice python benchmarks/judge_bench.py --seeds 5000000-5000049 --db FILE \\
        --samples 64 --cap 10000 --keep 8

Each game is stored as it ends under a player key naming every setting (``--list`` in
compare_blind.py shows it); deals already stored for the same key are skipped, so a rerun
resumes. One process, deals in order (run it under ``nice``). Settings are chosen on tuning
deals only (5,000,000 onwards); a held-out run (7,000,000 onwards) measures a setting chosen,
as docs/benchmarks.md reports strength against the worlds a turn."""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from spider_cli.analysis.bench.blind import MAX_MOVES, Dealer
from spider_cli.analysis.bench.full import DealResult, parse_deals
from spider_cli.analysis.blind.player import Kind, Mode
from spider_cli.analysis.chance import judge
from spider_cli.analysis.chance.search import Judging
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.solve import WIDTHS
from spider_cli.app.files.benchdb import Store
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import DEAL

JUDGE_VERSION = 2
"""Raised when the judge's player moves otherwise: its stored games are then played again."""


def player_key(budget: int, settings: Judging, widths: tuple[int, ...]) -> str:
    """The key of the games of these settings (the widths named when not the level's)."""
    ladder = "/".join(map(str, settings.caps))
    beam = "" if widths == WIDTHS else f", widths {'/'.join(map(str, widths))}"
    beam += f", dense score {settings.dense}/1000" if settings.dense else ""
    beam += ", the quick level's choice the own line" if settings.quick_first else ""
    beam += f", margin {settings.margin}" if settings.margin != judge.MARGIN else ""
    return (
        f"judge version {JUDGE_VERSION}: sequential halving, {settings.samples} worlds a turn, "
        f"beam capped at {ladder} positions{beam}, {settings.keep} commitments kept, closure "
        f"{settings.closure}, {'quick' if settings.fallback else 'plain'} where no world is "
        f"won; blind player at {budget} positions a search"
    )


def play(
    deal: DealSource, budget: int, settings: Judging, widths: tuple[int, ...]
) -> tuple[DealResult, Counter[str]]:
    """One game by the judge's player, and how its turns went (judged at each cap, another
    line than the player's own chosen, nothing won: the fallback's)."""
    began = time.perf_counter()
    table = Dealer(deal)
    mode = Mode.KEEP
    positions = 0
    turns: Counter[str] = Counter()
    while not table.won and table.moves < MAX_MOVES:
        chosen = judge.choose(table.view(), mode, Limit(budget), settings, widths)
        turn = chosen.played
        judged = chosen.judged
        if judged is None:
            turns["plain"] += 1
        elif not max(judged.wins):
            turns["nothing won"] += 1
        else:
            turns[f"judged at {judged.cap}"] += 1
            turns["switched"] += judged.chosen != 0
        positions += turn.positions
        mode = turn.mode
        if turn.kind is Kind.LINE:
            for action in turn.line[: MAX_MOVES - table.moves]:
                if table.play(action):
                    mode = Mode.KEEP
                    break
        elif turn.kind is Kind.DEAL:
            table.play(DEAL)
            mode = Mode.KEEP
        else:
            break
    seconds = time.perf_counter() - began
    return DealResult(deal, table.won, seconds, positions, table.moves), turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="5000000-5000049")
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--budget", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=judge.SAMPLES)
    parser.add_argument("--caps", default=",".join(map(str, judge.CAPS)))
    parser.add_argument("--plain", action="store_true", help="no quick level where nothing is won")
    parser.add_argument("--keep", type=int, default=judge.KEEP)
    parser.add_argument(
        "--quick-first", action="store_true", help="the quick level's choice is the own line"
    )
    parser.add_argument(
        "--dense", type=int, default=0, help="thousandths of its progress a world not won scores"
    )
    parser.add_argument("--widths", default=",".join(map(str, WIDTHS)), help="the beam's, in turn")
    parser.add_argument(
        "--margin", type=float, default=judge.MARGIN, help="standard errors another must win by"
    )
    args = parser.parse_args()
    caps = [int(c) for c in args.caps.split(",")]
    settings = Judging(
        args.samples,
        tuple(caps),
        args.keep,
        margin=args.margin,
        fallback=not args.plain,
        dense=args.dense,
        quick_first=args.quick_first,
    )
    widths = tuple(int(w) for w in args.widths.split(","))
    key = player_key(args.budget, settings, widths)
    deals = parse_deals(args.seeds, args.suits)
    with Store(args.db) as store:
        done = {r.deal for r in store.blind_results(deals, key)}
        won = sum(r.won for r in store.blind_results(deals, key))
        for deal in deals:
            if deal in done:
                continue
            result, turns = play(deal, args.budget, settings, widths)
            store.add_blind(result, key)
            won += result.won
            print(
                f"{deal.number}: {'won' if result.won else 'lost'} in {result.seconds:.0f} s "
                f"({won} won so far); turns: {dict(sorted(turns.items()))}",
                flush=True,
            )
    print(key)


if __name__ == "__main__":
    main()
