"""How much the capped full-information search tells about a blind player's commitments:
``nice python benchmarks/judge_signal.py --seeds 5000000-5000009 --out FILE``.

Each deal is played to its end by today's player (the quick level, as ``spider bench
--blind`` plays it); at a few turns along the game (``--at``, fractions of its turns) the
view is taken, its candidates listed (:func:`spider_cli.analysis.chance.judge.candidates`: the
plain player's line, the deal, the best commitments by value, and the quick level's own
choice added where it is not among them), and each candidate is judged on the same
``--samples`` worlds at each cap (``--caps``): won within the cap or not, and the seconds.

One JSON line a position is appended to ``--out`` as it is measured; a rerun skips the
positions already there (resumable). ``--report`` prints the summary of a file: the share of
worlds won by cap along the game, how often the judge's ranking has a leader at all, and how
often its leader is the quick level's choice. Use tuning deals only (5,000,000 onwards)."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from judge_widths import PLAYER_LIMIT

from spider_cli.analysis.bench.blind import MAX_MOVES, Dealer
from spider_cli.analysis.bench.full import parse_deals
from spider_cli.analysis.blind.evaluation import weights_for
from spider_cli.analysis.blind.player import Kind, Mode, first_reveal
from spider_cli.analysis.blind.rollouts import seed_of
from spider_cli.analysis.blind.view import PlayerView
from spider_cli.analysis.chance import judge, levels
from spider_cli.analysis.chance import search as chancesearch
from spider_cli.analysis.chance.search import Level
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import DEAL, Action

Line = tuple[Action, ...]


def game_turns(deal: DealSource) -> tuple[list[tuple[PlayerView, chancesearch.Pick]], bool]:
    """The quick level's game of ``deal``: each turn's view and its pick; whether it won."""
    table = Dealer(deal)
    mode = Mode.KEEP
    turns = []
    while not table.won and table.moves < MAX_MOVES:
        view = table.view()
        pick = levels.choose(view, mode, PLAYER_LIMIT, Level.QUICK)
        turns.append((view, pick))
        turn = pick.played
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
    return turns, table.won


def cut(view: PlayerView, line: Line) -> Line:
    """The line up to the first card it turns up."""
    first = first_reveal(view.piles(), line)
    return line[:first] if first else line


def measure(
    view: PlayerView, pick: chancesearch.Pick, caps: list[int], samples: int, keep: int
) -> dict[str, Any]:
    """The candidates of a turn judged on the same worlds at each cap."""
    weights = weights_for(view.suits)
    lines, _closure = judge.candidates(view, pick.decision, keep, weights)
    played = pick.played
    quick: Line = (DEAL,) if played.kind is Kind.DEAL else cut(view, played.line)
    if quick and quick not in lines:
        lines.append(quick)
    quick_at = lines.index(quick) if quick in lines else -1
    seed = seed_of(view)
    worlds = [judge.world(view, seed, k) for k in range(samples)]
    removed = len(view.removed)
    wins: dict[int, list[list[int]]] = {cap: [] for cap in caps}
    used: dict[int, list[list[int]]] = {cap: [] for cap in caps}
    seconds = {cap: 0.0 for cap in caps}
    for cap in caps:
        for line in lines:
            won, spent = [], []
            for piles, rows in worlds:
                state, left, off = judge.played(piles, rows, removed, line)
                began = time.process_time()
                verdict = judge.judge(state, left, off, cap)
                seconds[cap] += time.process_time() - began
                won.append(int(verdict.won))
                spent.append(verdict.positions)
            wins[cap].append(won)
            used[cap].append(spent)
    found, _ = judge.commitments(view.piles(), removed, view.hand)
    return {
        "commitments": len(found),
        "candidates": len(lines),
        "quick": quick_at,
        "wins": {str(c): w for c, w in wins.items()},
        "used": {str(c): u for c, u in used.items()},
        "seconds_per_sample": {str(c): seconds[c] / (len(lines) * samples) for c in caps},
        "down": sum(view.down),
        "hand": view.hand,
        "removed": removed,
    }


def report(path: Path) -> None:
    """The summary of a results file."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    caps = sorted({int(c) for r in rows for c in r["wins"]})
    print(f"{len(rows)} positions, {len({r['deal'] for r in rows})} deals")
    found = [r["commitments"] for r in rows]
    print(
        f"commitments a position: median {statistics.median(found)}, most {max(found)}; "
        f"the quick level chose another line than the plain player's at "
        f"{sum(r['quick'] != 0 for r in rows)}"
    )
    print("share of worlds won by the capped search after the plain player's own line:")
    for games, which in ((None, "all games"), (True, "games won"), (False, "games lost")):
        print(f" {which} ({len({r['deal'] for r in rows if games in (None, r['won'])})}):")
        for at in sorted({r["at"] for r in rows}):
            part = [r for r in rows if r["at"] == at and games in (None, r["won"])]
            if not part:
                continue
            cells = []
            for cap in caps:
                own = [sum(r["wins"][str(cap)][0]) / len(r["wins"][str(cap)][0]) for r in part]
                cells.append(f"{cap}: {100 * statistics.mean(own):5.1f}%")
            down = statistics.mean(r["down"] for r in part)
            print(f"  at {at:.2f} of the game (face down {down:4.1f}): " + ", ".join(cells))
    for cap in caps:
        led = agree = any_win = 0
        for r in rows:
            totals = [sum(w) for w in r["wins"][str(cap)]]
            if max(totals) > 0:
                any_win += 1
            best = max(totals)
            leaders = [i for i, t in enumerate(totals) if t == best]
            if len(leaders) < len(totals):
                led += 1
                agree += r["quick"] in leaders
        switch = to_quick = 0
        for r in rows:
            won = r["wins"][str(cap)]
            better = [i for i in range(1, len(won)) if judge.beats(won[i], won[0])]
            if better:
                switch += 1
                best = max(better, key=lambda i: (sum(won[i]), -i))
                to_quick += best == r["quick"]
        print(
            f"cap {cap}: another line beats the plain player's own by the judge's margin at "
            f"{switch} positions; that line is the quick level's choice at {to_quick}"
        )
        secs = statistics.mean(r["seconds_per_sample"][str(cap)] for r in rows)
        print(
            f"cap {cap}: positions with a world won {any_win}/{len(rows)}; with a ranking "
            f"(not all tied) {led}; quick's choice among the leaders there {agree}; "
            f"{1000 * secs:.1f} ms a sample (processor)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="5000000-5000009")
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--at", default="0.15,0.5,0.85")
    parser.add_argument("--caps", default="1000,10000,100000")
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--keep", type=int, default=4)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/judge_signal.jsonl"))
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    if args.report:
        report(args.out)
        return
    caps = [int(c) for c in args.caps.split(",")]
    fractions = [float(f) for f in args.at.split(",")]
    done = set()
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                done.add((r["deal"], r["at"]))
    for deal in parse_deals(args.seeds, args.suits):
        if all((deal.number, f) in done for f in fractions):
            continue
        turns, won = game_turns(deal)
        for f in fractions:
            if (deal.number, f) in done:
                continue
            view, pick = turns[round(f * (len(turns) - 1))]
            if pick.decision.kind is Kind.LOST:
                continue
            row: dict[str, Any] = {"deal": deal.number, "at": f, "turns": len(turns), "won": won}
            row.update(measure(view, pick, caps, args.samples, args.keep))
            with open(args.out, "a") as out:
                out.write(json.dumps(row) + "\n")
                out.flush()
                os.fsync(out.fileno())
            totals = {c: sum(map(sum, w)) for c, w in row["wins"].items()}
            print(deal.number, f, row["candidates"], totals, flush=True)


if __name__ == "__main__":
    main()
