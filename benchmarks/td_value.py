"""Learn a table of pile worths by temporal differences, the second method of issue 46.

The value is shaped as the one the searches maximize: a sum over the piles of a worth by
the pile's class (:func:`spider_cli.analysis.blind.evaluation.pile_class`: face-down cards, the top
run of one suit, what it lies on, a King at its head), weights shared by the ten piles, plus
a few counts of the whole position (suits removed, rows left, spaces). It is learned from
self-play: the compiled core plays many deals by the blind player at a small budget, and at
the start of each turn (a card turned up or a row dealt) the position the player sees is
kept. The target is the tuner's dense score at the game's end (suits complete, plus the share
of the 44 face-down cards turned up), in thousandths so a suit is worth 1,000 as in
:class:`~spider_cli.analysis.blind.evaluation.Weights`.

Fitted TD(lambda): the lambda-returns are computed with the current value, the value is
refitted to them by ridge least squares, and again, until it settles (lambda 1 is the Monte
Carlo fit to outcomes; lambda 0 is TD(0)).

    nice python benchmarks/td_value.py play --suits 4 --deals 4000000-4099999 \\
        --budget 500 --data benchmarks/results/td-4suits --jobs 2
    python benchmarks/td_value.py fit --data benchmarks/results/td-4suits --lam 0.7 \\
        --out benchmarks/results/td-4suits.json
    nice python benchmarks/td_value.py screen --suits 4 --table benchmarks/results/td-4suits.json \\
        --alpha 0.5 --deals 2000000-2000999 --budget 2000 --jobs 2

``play`` writes one file a chunk of deals (kept when done, so a stopped run resumes where it
stopped); ``fit`` reports its error on the last tenth of the games, which it does not fit
on; ``screen`` plays the tuning deals with the shipped weights and with the table added
(scaled by ``--alpha``), as ``tune_weights.py`` scores candidates.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tune_weights

from spider_cli.analysis import native
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind import rollouts
from spider_cli.analysis.blind.evaluation import (
    TABLE_SIZE,
    Weights,
    pile_class,
    weights_for,
)
from spider_cli.analysis.blind.player import UNSEEN, Decision
from spider_cli.analysis.blind.rollouts import Playout, masked
from spider_cli.analysis.compact import REVEAL, State, apply, encode
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import Action, Deal, Remove

CHUNK = 500
"""Deals a data file holds."""

GLOBALS = ("removed", "rows left", "spaces")
"""The counts of the whole position the value weighs beside the piles' classes."""


def observed(piles: tuple[bytes, ...], removed: int, rows: int) -> list[int]:
    """One position as the data keeps it: the ten piles' classes (-1: a space), then
    :data:`GLOBALS`."""
    view = [masked(pile) for pile in piles]
    classes = [pile_class(pile) if pile else -1 for pile in view]
    return [*classes, removed, rows, classes.count(-1)]


def play_chunk(task: tuple[int, int, int, tuple[int, ...], str]) -> str:
    """Play one chunk of deals turn by turn and write its file (a worker's job)."""
    suits, budget, first, core, out = task
    path = Path(out) / f"chunk-{first}.npz"
    if path.exists():
        return path.name
    weights = Weights.from_core(core)
    policy = rollouts.Policy(budget, blindplayer.SEARCHES, weights=weights, turns=1)
    backend = native.backend()
    positions: list[list[int]] = []
    game_of: list[int] = []
    scores: list[float] = []
    won: list[bool] = []
    for k, number in enumerate(range(first, first + CHUNK)):
        start = encode(DealSource(Source.OURS, number, suits).game())
        piles, rows, removed = start.piles, list(start.rows), 0
        while True:
            positions.append(observed(piles, removed, len(rows)))
            game_of.append(k)
            end = backend.rollout(Playout(piles, rows, removed, policy))
            piles, removed = end.end, end.removed
            rows = rows[len(rows) - end.hand // 10 :] if end.hand else []
            if end.won or end.lost or end.moves == 0:
                break
        scores.append(end.done + (44 - end.down) / 44)
        won.append(end.won)
    part = path.with_suffix(".part.npz")
    np.savez_compressed(
        part,
        positions=np.array(positions, dtype=np.int16),
        game=np.array(game_of, dtype=np.int32),
        score=np.array(scores),
        won=np.array(won),
    )
    os.replace(part, path)
    return path.name


def play(args: argparse.Namespace) -> None:
    first, last = (int(v) for v in args.deals.split("-"))
    out = Path(args.data)
    out.mkdir(parents=True, exist_ok=True)
    setup = {"suits": args.suits, "budget": args.budget, "weights": "shipped"}
    setup_file = out / "setup.json"
    if setup_file.exists() and json.loads(setup_file.read_text()) != setup:
        sys.exit(f"{out} holds games of another setup: {setup_file.read_text()}")
    setup_file.write_text(json.dumps(setup))
    core = weights_for(args.suits).core()
    tasks = [
        (args.suits, args.budget, start, core, str(out))
        for start in range(first, last + 1, CHUNK)
        if not (out / f"chunk-{start}.npz").exists()
    ]
    began = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for k, name in enumerate(pool.imap_unordered(play_chunk, tasks), 1):
            print(f"{name}: {k}/{len(tasks)}, {time.perf_counter() - began:.0f} s", flush=True)


def load(data: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every chunk's positions, their games (numbered across chunks), and each game's score
    and outcome, in deal order."""
    positions, games, scores, won = [], [], [], []
    offset = 0
    for path in sorted(data.glob("chunk-*.npz"), key=lambda p: int(p.stem.split("-")[1])):
        if path.name.endswith(".part.npz"):
            continue
        with np.load(path) as f:
            positions.append(f["positions"])
            games.append(f["game"] + offset)
            scores.append(f["score"])
            won.append(f["won"])
            offset += len(f["score"])
    return (
        np.concatenate(positions),
        np.concatenate(games),
        np.concatenate(scores),
        np.concatenate(won),
    )


def design(positions: np.ndarray) -> np.ndarray:
    """Each position's features: how many piles of each class, then the global counts,
    then 1 (the bias)."""
    n = len(positions)
    x = np.zeros((n, TABLE_SIZE + len(GLOBALS) + 1))
    classes = positions[:, :10]
    rows = np.repeat(np.arange(n), 10)
    flat = classes.reshape(-1)
    keep = flat >= 0
    np.add.at(x, (rows[keep], flat[keep]), 1.0)
    x[:, TABLE_SIZE : TABLE_SIZE + len(GLOBALS)] = positions[:, 10:]
    x[:, -1] = 1.0
    return x


def lambda_returns(v: np.ndarray, games: np.ndarray, z: np.ndarray, lam: float) -> np.ndarray:
    """Each position's lambda-return: G_t = (1 - lam) V(t+1) + lam G(t+1) within a game,
    the game's outcome after its last position."""
    g = np.empty_like(v)
    nxt = None
    for i in range(len(v) - 1, -1, -1):
        game = games[i]
        if nxt is None or games[i + 1] != game:
            g[i] = z[game]
        else:
            g[i] = (1 - lam) * v[i + 1] + lam * g[i + 1]
        nxt = i
    return g


def fit(args: argparse.Namespace) -> None:
    positions, games, scores, won = load(Path(args.data))
    z = scores * 1000.0
    count = len(scores)
    held = games >= count - count // 10
    x = design(positions)
    xt, gt = x[~held], games[~held]
    ridge = args.ridge * np.eye(x.shape[1])
    ridge[-1, -1] = 0.0
    w = np.linalg.solve(xt.T @ xt + ridge, xt.T @ z[gt])  # lambda 1 to start from
    fits = 0
    while fits < args.iters:
        g = lambda_returns(xt @ w, gt, z, args.lam)
        new = np.linalg.solve(xt.T @ xt + ridge, xt.T @ g)
        moved = float(np.max(np.abs(new - w)))
        w, fits = new, fits + 1
        if moved < 0.5:
            break
    v = x[held] @ w
    error = float(np.sqrt(np.mean((v - z[games[held]]) ** 2)))
    base = float(np.sqrt(np.mean((z[games[held]] - z[games[held]].mean()) ** 2)))
    print(
        f"{count} games, {len(positions)} positions; lambda {args.lam}, {fits} fits;"
        f" held-out error {error:.0f} (outcome's spread {base:.0f}); won {int(won.sum())}"
    )
    # a class seen too seldom to fit takes the mean of those with as many cards face down
    seen = np.bincount(positions[:, :10][positions[:, :10] >= 0], minlength=TABLE_SIZE)
    fitted = w[:TABLE_SIZE].copy()
    per_down = TABLE_SIZE // 6
    for d in range(6):
        part = slice(d * per_down, (d + 1) * per_down)
        sure = seen[part] >= args.least
        fitted[part][~sure] = fitted[part][sure].mean() if sure.any() else 0.0
    # a search values a space by its mode alone, so each class is counted against a space:
    # the sum over the piles is the same, less a constant, as the fitted one
    space = float(w[TABLE_SIZE + GLOBALS.index("spaces")])
    table = [round(float(t) - space) for t in fitted]
    report = {
        "made_by": "benchmarks/td_value.py fit (fitted TD(lambda) on self-play)",
        "command": " ".join(["python benchmarks/td_value.py", *sys.argv[1:]]),
        "games": count,
        "lambda": args.lam,
        "error": round(error),
        "spread": round(base),
        "globals": dict(zip(GLOBALS, (round(float(v)) for v in w[TABLE_SIZE:-1]), strict=True)),
        "bias": round(float(w[-1])),
        "table": table,
        "seen": [int(s) for s in seen],
    }
    written = Path(args.out).with_suffix(".part")
    written.write_text(json.dumps(report) + "\n")
    os.replace(written, args.out)
    print(f"written to {args.out}")


def screen(args: argparse.Namespace) -> None:
    report = json.loads(Path(args.table).read_text())
    base = weights_for(args.suits)
    candidates = [base]
    for alpha in args.alpha:
        table = tuple(round(alpha * t) for t in report["table"])
        candidates.append(replace(base, table=table))
        if args.alone:  # the table alone beside the suits removed: the searches' whole value
            alone = Weights((0,) * 8, 0, 0, 0, 0, base.removed, table=table)
            candidates.append(alone)
    first, last = (int(v) for v in args.deals.split("-"))
    mapper = tune_weights.local_mapper(args.jobs)
    games = tune_weights.score_by_candidate(
        candidates, args.suits, args.budget, range(first, last + 1), mapper
    )
    reference = games[0]
    for k, (w, gs) in enumerate(zip(candidates, games, strict=True)):
        score = sum(p.score for p in gs) / len(gs)
        wins = sum(p.won for p in gs)
        only_a = sum(a.won and not b.won for a, b in zip(gs, reference, strict=True))
        only_b = sum(b.won and not a.won for a, b in zip(gs, reference, strict=True))
        name = "shipped" if k == 0 else ("table alone" if not w.hidden[1] else "shipped + table")
        print(f"{name:16s} score {score:.3f}  won {wins}/{len(gs)}  (+{only_a} -{only_b} paired)")


def td_value(table: list[int], removed_worth: int, piles: State, removed: int) -> int:
    """The learned value of a position as a search would count it (spaces 0)."""
    return removed_worth * removed + sum(table[pile_class(p)] for p in piles if p)


def end_of(piles: State, line: tuple[Action, ...], removed: int) -> tuple[State, int, bool]:
    """Where ``line`` leads, up to the first card it turns up (counted as ``UNSEEN``), the
    suits then removed, and whether it turned a card up."""
    state = piles
    for action in line:
        assert not isinstance(action, Deal)  # (the searches make no deals)
        new, pile, outcome = apply(state, action)
        removed += isinstance(action, Remove)
        if outcome == REVEAL:
            new[pile] = new[pile][:-1] + UNSEEN
            return tuple(new), removed, True
        state = tuple(new)
    return state, removed, False


def chooser(table: list[int], removed_worth: int, margin: int | None) -> rollouts.Chooser:
    """Re-rank a turn's lines by the learned value: the player's own line, or one of the
    others that turns a card up (so that every line played still turns a card up or raises
    the player's value, and play cannot loop) and that the player values within ``margin``
    of its own (None: any), the first on a tie."""

    def choose(view: State, removed: int, rows: int, turn: Decision) -> tuple[Action, ...]:
        best, best_value = turn.line, None
        least = turn.candidates[0].score - margin if margin is not None else None
        for k, candidate in enumerate(turn.candidates):
            if k and least is not None and candidate.score < least:
                continue
            end, off, turned = end_of(view, candidate.line, removed)
            if k and not turned:
                continue
            v = td_value(table, removed_worth, end, off)
            if best_value is None or v > best_value:
                best, best_value = candidate.line, v
        return best

    return choose


RerankTask = tuple[int, int, tuple[int, ...], list[int], int, int | None, tuple[int, ...]]


def rerank_chunk(task: RerankTask) -> list[tuple[int, bool, int, int]]:
    """Play deals by the Python rollout with the core's searches, the learned value choosing
    each turn's line (a worker's job): (number, won, suits complete, face down) each."""
    suits, budget, core, table, removed_worth, margin, numbers = task
    policy = rollouts.Policy(budget, blindplayer.SEARCHES, weights=Weights.from_core(core))
    search = native.backend().blind_search
    choose = chooser(table, removed_worth, margin) if table else None
    played = []
    for number in numbers:
        start = encode(DealSource(Source.OURS, number, suits).game())
        end = rollouts.rollout(search, Playout(start.piles, start.rows, 0, policy), choose=choose)
        played.append((number, end.won, end.done, end.down))
    return played


def rerank(args: argparse.Namespace) -> None:
    report = json.loads(Path(args.table).read_text())
    weights = weights_for(args.suits)
    first, last = (int(v) for v in args.deals.split("-"))
    numbers = list(range(first, last + 1))
    players: list[tuple[str, list[int], int | None]] = [("shipped", [], None)]
    players += [(f"margin {m}", report["table"], m) for m in args.margin]
    results = {}
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for name, table, margin in players:
            tasks: list[RerankTask] = [
                (args.suits, args.budget, weights.core(), table, weights.removed, margin, chunk)
                for chunk in (tuple(numbers[k : k + 25]) for k in range(0, len(numbers), 25))
            ]
            results[name] = [p for part in pool.map(rerank_chunk, tasks) for p in part]
    base = results["shipped"]
    for name, games in results.items():
        score = sum(done + (44 - down) / 44 for _, _, done, down in games) / len(games)
        gained = sum(y[1] and not x[1] for x, y in zip(base, games, strict=True))
        lost = sum(x[1] and not y[1] for x, y in zip(base, games, strict=True))
        print(
            f"{name:12s} score {score:.3f}  won {sum(g[1] for g in games)}/{len(games)}"
            f"  (paired with the shipped: +{gained} -{lost})",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="self-play, resuming where it stopped")
    p.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    p.add_argument("--deals", default="4000000-4099999", help="FIRST-LAST, whole chunks")
    p.add_argument("--budget", type=int, default=500, help="positions a search")
    p.add_argument("--data", required=True, help="the directory of chunk files")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    f = sub.add_parser("fit", help="fit the table by TD(lambda)")
    f.add_argument("--data", required=True)
    f.add_argument("--lam", type=float, default=0.7)
    f.add_argument("--iters", type=int, default=30)
    f.add_argument("--ridge", type=float, default=10.0)
    f.add_argument("--least", type=int, default=200, help="fewest piles seen to keep a class")
    f.add_argument("--out", required=True)
    s = sub.add_parser("screen", help="score the table on tuning deals")
    s.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    s.add_argument("--table", required=True)
    s.add_argument("--alpha", type=float, nargs="+", default=[0.5])
    s.add_argument("--alone", action="store_true", help="also the table without the weights")
    s.add_argument("--deals", default="2000000-2000999")
    s.add_argument("--budget", type=int, default=2_000)
    s.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    r = sub.add_parser("rerank", help="the learned value choosing among the player's lines")
    r.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    r.add_argument("--table", required=True)
    r.add_argument("--deals", default="2000000-2000999")
    r.add_argument("--budget", type=int, default=2_000)
    r.add_argument(
        "--margin", type=int, nargs="+", default=[20], help="the player's value a line may lack"
    )
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    {"play": play, "fit": fit, "screen": screen, "rerank": rerank}[args.command](args)


if __name__ == "__main__":
    main()
