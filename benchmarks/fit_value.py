"""Fit the learned value of the blind player's search (``rollouts.WinModel``) on self-play.

    python benchmarks/fit_value.py play --suits 4 --games 4000 --data /tmp/selfplay-4.jsonl
    python benchmarks/fit_value.py fit --data /tmp/selfplay-1.jsonl /tmp/selfplay-2.jsonl \
        /tmp/selfplay-4.jsonl --out spider_cli/analysis/blind/value.json

``play`` plays our deals from :data:`FIRST` on (deals no other work tunes or measures on),
each by the blind player without lookahead (the search's own rollout policy,
:data:`POLICY`), every card known to the table and none to the player, and appends one JSON
line a game: the deal, whether it was won, and the :data:`rollouts.FEATURES` at the start
of each turn. It resumes: deals already in the file are skipped. Both cores by default.

``fit`` fits one logistic model of "this game is won" per suit count, by Newton's method on
every turn of the first 80% of the games (by deal number), and reports the log-loss and the
calibration on the last 20%, which it never fitted. The models are written as the package's
value file, with the command and the data that made them.

Everything is seeded by the deal numbers: a rerun makes the same games and the same weights.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import multiprocessing
import os
import statistics
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonl

from spider_cli.analysis import native
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind import rollouts
from spider_cli.analysis.blind.evaluation import weights_for
from spider_cli.analysis.blind.rollouts import FEATURES, Playout
from spider_cli.analysis.compact import encode
from spider_cli.rules.deals import DealSource, Source

FIRST = 1_000_000
"""The first deal played for the fit (our numbering): far from deals 0-999 that are tuned
and measured on."""

POLICY = rollouts.Policy(2_000, blindplayer.SEARCHES)
"""The self-play policy: the blind player's three searches at 2,000 positions, no weighing
of cards (what the expert level's rollouts play), with the weights the package ships for
the game's number of suits."""


def play_one(task: tuple[int, int]) -> dict[str, object]:
    number, suits = task
    start = encode(DealSource(Source.OURS, number, suits).game())
    policy = replace(POLICY, weights=weights_for(suits))  # the player's own weights
    outcome = native.backend().rollout(Playout(start.piles, start.rows, 0, policy, True))
    return {"deal": number, "suits": suits, "won": outcome.won, "turns": outcome.log}


GAME_KEYS = ("deal", "suits", "won", "turns")
"""What each line of a file of self-play games holds."""


def play(args: argparse.Namespace) -> None:
    """Self-play games appended to ``--data``, resuming: the deals there are not played
    again. A file of games of another suit count is refused (its deal numbers are not
    this run's games), and a half-written last line is cut first."""
    path = Path(args.data)
    done = set()
    for game in jsonl.read(path, GAME_KEYS, cut=True):
        if game["suits"] != args.suits:
            sys.exit(
                f"{path} holds games of {game['suits']} suits, not {args.suits}: resume it "
                f"with --suits {game['suits']}, or play into another --data file"
            )
        done.add(game["deal"])
    tasks = [(n, args.suits) for n in range(FIRST, FIRST + args.games) if n not in done]
    won = 0
    with path.open("a") as out, multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for k, game in enumerate(pool.imap(play_one, tasks, chunksize=4), 1):
            out.write(json.dumps(game) + "\n")
            out.flush()
            won += bool(game["won"])
            if k % 100 == 0:
                print(f"{k}/{len(tasks)} played, {won} won", file=sys.stderr)


def rows_of(games: list[dict[str, Any]]) -> tuple[list[tuple[int, ...]], list[int]]:
    xs, ys = [], []
    for game in games:
        for f in game["turns"]:
            xs.append((1, *f))
            ys.append(int(game["won"]))
    return xs, ys


def newton(xs: list[tuple[int, ...]], ys: list[int], ridge: float = 1.0) -> list[float]:
    """Logistic regression by Newton's method (a small ridge keeps it well posed)."""
    d = len(xs[0])
    w = [0.0] * d
    for _ in range(25):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for x, y in zip(xs, ys, strict=True):
            z = sum(wi * xi for wi, xi in zip(w, x, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g = p - y
            h = p * (1 - p)
            for i in range(d):
                grad[i] += g * x[i]
                hx = h * x[i]
                row = hess[i]
                for j in range(i, d):
                    row[j] += hx * x[j]
        for i in range(d):
            for j in range(i):
                hess[i][j] = hess[j][i]
            if i:
                hess[i][i] += ridge
                grad[i] += ridge * w[i]
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def auc(scored: list[tuple[float, int]]) -> float:
    """The area under the ROC curve: the chance that a turn of a won game is scored above a
    turn of a lost one (ties count half)."""
    scored = sorted(scored)
    wins = sum(y for _, y in scored)
    losses = len(scored) - wins
    if not wins or not losses:
        return 0.5
    rank_sum, k = 0.0, 0
    while k < len(scored):
        j = k
        while j < len(scored) and scored[j][0] == scored[k][0]:
            j += 1
        rank_sum += (k + j + 1) / 2 * sum(y for _, y in scored[k:j])  # mean rank, 1-based
        k = j
    return (rank_sum - wins * (wins + 1) / 2) / (wins * losses)


def report(model: rollouts.WinModel, games: list[dict[str, Any]], label: str) -> str:
    """Log-loss of the integer model on every turn of ``games``, beside that of the share
    won alone, its AUC, and its calibration in five bands of predicted chance."""
    loss, n = 0.0, 0
    bands = [[0, 0, 0.0] for _ in range(5)]
    scored = []
    for game in games:
        for f in game["turns"]:
            p = min(max(model.worth(f) / rollouts.WON, 1e-4), 1 - 1e-4)
            y = int(game["won"])
            loss -= math.log(p if y else 1 - p)
            n += 1
            scored.append((p, y))
            band = bands[min(4, int(p * 5))]
            band[0] += 1
            band[1] += y
            band[2] += p
    share = min(max(sum(y for _, y in scored) / max(1, n), 1e-4), 1 - 1e-4)
    constant = -(share * math.log(share) + (1 - share) * math.log(1 - share))
    base = sum(g["won"] for g in games) / max(1, len(games))
    lines = [
        f"{label}: {len(games)} games, {n} turns, won {base:.1%}, "
        f"log-loss {loss / max(1, n):.4f} "
        f"(the share of turns won alone: {constant:.4f}), AUC {auc(scored):.3f}"
    ]
    for k, (count, won, p) in enumerate(bands):
        if count:
            lines.append(
                f"  predicted {20 * k}-{20 * k + 20}%: {count} turns, "
                f"mean predicted {p / count:.1%}, won {won / count:.1%}"
            )
    return "\n".join(lines)


def fit(args: argparse.Namespace) -> None:
    by_suits: dict[int, list[dict[str, Any]]] = {}
    for name in args.data:
        for game in jsonl.read(Path(name), GAME_KEYS):  # (a half-written last line: left out)
            by_suits.setdefault(game["suits"], []).append(game)
    if not by_suits:
        sys.exit(f"no games in {', '.join(args.data)}: nothing to fit")
    for suits, games in sorted(by_suits.items()):
        if len(games) < 2:
            sys.exit(
                f"{len(games)} game of {suits} suits: a fit needs 2 at least (4 in 5 fitted, "
                "the rest held out to measure it); play more with fit_value.py play"
            )
    models = {}
    for suits, games in sorted(by_suits.items()):
        games.sort(key=lambda g: g["deal"])
        cut = max(1, len(games) * 4 // 5)
        xs, ys = rows_of(games[: min(cut, args.most or cut)])
        if not xs:
            sys.exit(f"the games of {suits} suits to fit have no turns: nothing to fit")
        w = newton(xs, ys)
        weights = tuple(round(1000 * v) for v in w[1:])
        model = rollouts.WinModel(round(1000 * w[0]), weights)
        print(
            report(
                model,
                games[:cut],
                f"{suits} suits, the fitted part ({min(cut, args.most or cut)} games fitted)",
            )
        )
        print(report(model, games[cut:], f"{suits} suits, held out"))
        models[str(suits)] = {
            "games": len(games),
            "fitted on deals": f"{games[0]['deal']}-{games[cut - 1]['deal']}",
            "bias": model.bias,
            "weights": dict(zip(rollouts.FEATURES, weights, strict=True)),
        }
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    made_by = (
        f"benchmarks/fit_value.py at commit {commit}: self-play of our deals from {FIRST} on "
        f"with the weights shipped for the suit count (fit_value.py play --suits S --games N),"
        f" then fit_value.py fit"
    )
    out = Path(args.out)
    kept = json.loads(out.read_text()) if out.exists() else {"models": {}}
    for suits, model in kept["models"].items():  # suits with no data here keep their model
        if suits not in models:
            models[suits] = {"made_by": kept.get("made_by", ""), **model}
    data = {"made_by": made_by, "models": dict(sorted(models.items()))}
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, out)
    print(f"written {out}")


def first_at(games: list[dict[str, Any]], rows_left: int, feature: int) -> list[int]:
    """Each game's ``feature`` at its first turn with ``rows_left`` rows in the hand."""
    rows = FEATURES.index("rows left in the hand")
    found = ([f[feature] for f in g["turns"] if f[rows] == rows_left] for g in games)
    return [values[0] for values in found if values]


def ends(args: argparse.Namespace) -> None:
    """Where self-play games are decided: for the won and the lost, the median cards face
    down at the first deal, with two rows left, when the last row is dealt and at the end;
    the suits complete when the last row is dealt; the rows left at the end."""
    games = [game for name in args.data for game in jsonl.read(Path(name), GAME_KEYS)]
    rows, down, done = FEATURES.index("rows left in the hand"), 1, 0
    for label, won in (("won", True), ("lost", False)):
        group = [g for g in games if bool(g["won"]) is won]
        if not group:
            continue
        medians = [statistics.median(first_at(group, left, down)) for left in (4, 2, 0)]
        last = [g["turns"][-1] for g in group]
        complete = collections.Counter(first_at(group, 0, done))
        print(
            f"{label}: {len(group)} games; cards face down at the first deal {medians[0]}, "
            f"with two rows left {medians[1]}, when the last row is dealt {medians[2]}, at "
            f"the end {statistics.median(f[down] for f in last)}; suits complete when the "
            f"last row is dealt: {dict(sorted(complete.items()))}; rows left at the end: "
            f"{dict(sorted(collections.Counter(f[rows] for f in last).items()))}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("play", help="self-play games, appended to a JSON-lines file")
    p.add_argument("--suits", type=int, choices=(1, 2, 4), default=4)
    p.add_argument("--games", type=int, default=4000)
    p.add_argument("--data", required=True)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    f = sub.add_parser("fit", help="fit the models and write the value file")
    f.add_argument("--data", nargs="+", required=True)
    f.add_argument("--out", default="spider_cli/analysis/blind/value.json")
    f.add_argument(
        "--most",
        type=int,
        help="fit on only the first N games of the fitted part (a learning curve: the "
        "held-out part stays the same)",
    )
    e = sub.add_parser("ends", help="where the games were decided (medians, won and lost)")
    e.add_argument("--data", nargs="+", required=True)
    args = parser.parse_args()
    {"play": play, "fit": fit, "ends": ends}[args.what](args)


if __name__ == "__main__":
    main()
