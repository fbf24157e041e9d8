"""Which beam wins most sampled worlds within a cap: the widths in turn (the judge's,
``spider solve --seed``'s) against one fixed width, on the same worlds:
``nice python benchmarks/judge_widths.py --seeds 5000010-5000014 --cap 100000``.

Positions are taken along games of the plain player (the blind player's own turn, fast) at
a few fractions of their turns; at each, ``--samples`` worlds of the view are judged after
the player's own line by each way of searching. Prints the share won and the positions a
sample spent, for each way. Tuning deals only (5,000,000 onwards)."""

from __future__ import annotations

import argparse
import statistics
import time

from spider_cli.analysis import native
from spider_cli.analysis.bench.blind import MAX_MOVES, Dealer
from spider_cli.analysis.bench.full import parse_deals
from spider_cli.analysis.blind.player import Kind, Mode, first_reveal
from spider_cli.analysis.blind.rollouts import seed_of
from spider_cli.analysis.blind.view import PlayerView
from spider_cli.analysis.chance import judge, levels, search
from spider_cli.analysis.compact import Start
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.solve.autoplay import WIDTHS
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import DEAL, Action

PLAYER_LIMIT = Limit(2_000)
"""Positions each of the plain player's searches examines in these games (the blind
player's default when the research was run, kept so that its figures stand)."""


def plain_game(deal: DealSource) -> list[tuple[PlayerView, tuple[Action, ...]]]:
    """The plain player's game: each turn's view and the line it plays from there (cut at
    the first card turned up; the deal as a line of one)."""
    table = Dealer(deal)
    mode = Mode.KEEP
    turns: list[tuple[PlayerView, tuple[Action, ...]]] = []
    while not table.won and table.moves < MAX_MOVES:
        view = table.view()
        turn = levels.choose(view, mode, PLAYER_LIMIT, search.Level.PLAIN).played
        mode = turn.mode
        if turn.kind is Kind.LINE:
            first = first_reveal(view.piles(), turn.line)
            turns.append((view, turn.line[:first] if first else turn.line))
            for action in turn.line[: MAX_MOVES - table.moves]:
                if table.play(action):
                    mode = Mode.KEEP
                    break
        elif turn.kind is Kind.DEAL:
            turns.append((view, (DEAL,)))
            table.play(DEAL)
            mode = Mode.KEEP
        else:
            break
    return turns


def fixed(start: Start, width: int, cap: int) -> tuple[bool, int]:
    """One beam of ``width`` within ``cap`` positions: won, positions."""
    line, count = native.backend(start.cards).beam(start, width, Limit(cap))
    return line is not None, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="5000010-5000014")
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--at", default="0.15,0.5,0.85")
    parser.add_argument("--cap", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--widths", default="4,16,64,256")
    args = parser.parse_args()
    fractions = [float(f) for f in args.at.split(",")]
    ways = ["in turn", *args.widths.split(",")]
    won = {w: 0 for w in ways}
    spent: dict[str, list[int]] = {w: [] for w in ways}
    seconds = {w: 0.0 for w in ways}
    n = 0
    for deal in parse_deals(args.seeds, args.suits):
        turns = plain_game(deal)
        for f in fractions:
            view, line = turns[round(f * (len(turns) - 1))]
            seed = seed_of(view)
            for k in range(args.samples):
                piles, rows = judge.world(view, seed, k)
                state, left, off = judge.played(piles, rows, len(view.removed), line)
                start = Start(state, tuple(tuple(r) for r in left), tuple(range(off)))
                n += 1
                for way in ways:
                    began = time.process_time()
                    if way == "in turn":
                        verdict = judge.judge(state, left, off, args.cap)
                        result = (verdict.won, verdict.positions)
                    else:
                        result = fixed(start, int(way), args.cap)
                    seconds[way] += time.process_time() - began
                    won[way] += result[0]
                    spent[way].append(result[1])
    print(f"{n} worlds (cap {args.cap:,} positions; widths in turn: {WIDTHS})")
    for way in ways:
        print(
            f"  {way:>8}: won {won[way]} ({100 * won[way] / n:.1f}%), positions a sample "
            f"median {statistics.median(spent[way]):,.0f}, {1000 * seconds[way] / n:.1f} ms"
        )


if __name__ == "__main__":
    main()
