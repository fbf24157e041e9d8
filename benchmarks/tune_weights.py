"""Tune the blind player's weights (``spider_cli/analysis/blind/evaluation.py``) against games won.

The cross-entropy family's lesson from Tetris (Szita and Lőrincz 2006): search the weights
of a hand-made evaluation directly, scored by games played, rather than fitting them to
outcomes. Here the search is CMA-ES (the ``cma`` package, ``pip install cma``: a benchmark
tool, not a dependency of the program). Each candidate plays the same tuning deals with
the compiled core's whole game (the player's three searches at ``--budget`` positions, no
card weighing or look-ahead), and scores the mean of a dense count: suits complete (8 for a
win) plus the share of the 44 face-down cards turned up.

    nice python benchmarks/tune_weights.py run --suits 4 --deals 2000000-2000999 \\
        --log benchmarks/results/tune-4suits.jsonl --generations 40
    python benchmarks/tune_weights.py show --log benchmarks/results/tune-4suits.jsonl
    python benchmarks/tune_weights.py pick --suits 4 --deals 2000000-2000499 \\
        --log benchmarks/results/tune-4suits.jsonl --budget 10000 --write

``run`` first scores the standard weights (the log's first line), then appends one line a
generation (every candidate, its weights and its score). It resumes from the log after a
stop: CMA-ES is started again from the same seed and told the logged generations, which it
asks again exactly (checked), so a resumed run goes on as if it had never stopped. ``show``
prints the curve. ``pick`` confirms the best candidates and the last mean at a larger budget
on tuning deals, and with ``--write`` ships the winner in ``weights.json``. ``run --confirm
N`` also plays each generation's best candidate and its mean, and once the standard weights,
at ``N`` positions a search on the tuning deals, and logs them beside the generation: a set
tuned at a small budget can lose at the player's (the 2-suit run did: BENCHMARKS.md), and
this says so as the run goes. It is a measurement, not part of the search, so a run resumes
with or without it.

    python benchmarks/tune_weights.py versus --suits 1 --deals 3200000-3201999 \
        --budget 10000 --games /tmp/versus-1.jsonl standard shipped:4 \
        benchmarks/results/tune-2suits.jsonl:best

``versus`` plays weight sets paired on the same deals and prints each one's games won and
score, and against the first set the deals only one of them won and McNemar's exact test.
A set is ``standard``, ``shipped:S`` (the weights the package ships for S suits), or a log's
``LOG:best`` (its best candidate), ``LOG:best@G`` or ``LOG:mean@G`` (generation G's best or
mean; ``LOG:mean``, the last generation's). Its games are kept in ``--games`` (JSON lines, a
game each), so a stopped comparison resumes and a set played once is not played again.
Figures worth reporting come from deals never tuned on.

Only the weights in :data:`TUNED` move; ``removed`` stays 1,000 as the unit the spaces'
worths (``blindplayer.Mode``) are set in, and the hidden costs move as one curve scaled.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import jsonl

from spider_cli.analysis import native
from spider_cli.analysis.blind import evaluation, rollouts
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind.evaluation import STANDARD, Weights
from spider_cli.analysis.blind.rollouts import Playout
from spider_cli.analysis.compact import encode
from spider_cli.analysis.intervals import wilson
from spider_cli.rules.deals import DealSource, Source

TUNED: tuple[tuple[str, float], ...] = (
    ("hidden_scale", 0.3),
    ("clear", 40.0),
    ("suited", 20.0),
    ("ranked", 20.0),
    ("broken", 20.0),
    ("ace_top", 30.0),
    ("king_base", 30.0),
    ("run_square", 3.0),
    ("refill", 5.0),
    ("unlock", 5.0),
    ("dup_tops", 20.0),
    ("homes", 2.0),
)
"""The coordinates CMA-ES moves, each with its step: a coordinate of 1 moves the weight by
that much from the standard weights (``hidden_scale`` multiplies the hidden costs)."""

CHUNK = 25
"""Deals a task plays (so that a worker's results come back in few messages)."""


def weights_of(x: Sequence[float]) -> Weights:
    """The weights at CMA-ES's point ``x`` (0 everywhere: :data:`STANDARD`)."""
    values = {name: step * v for (name, step), v in zip(TUNED, x, strict=True)}
    scale = 1.0 + values.pop("hidden_scale")
    others = {name: round(getattr(STANDARD, name) + v) for name, v in values.items()}
    return replace(
        STANDARD,
        hidden=tuple(round(scale * h) for h in STANDARD.hidden),
        hidden_step=round(scale * STANDARD.hidden_step),
        **others,
    )


@dataclass(frozen=True)
class Played:
    """One tuning game: won, suits complete, cards still face down."""

    number: int
    won: bool
    done: int
    down: int

    @property
    def score(self) -> float:
        return self.done + (44 - self.down) / 44


Task = tuple[int, tuple[int, ...], int, int, tuple[int, ...]]
"""A worker's job: (its index, the weights as the core takes them, suits, budget, deals)."""


def play_chunk(task: Task) -> tuple[int, list[Played]]:
    """Play deals by the core's whole game with the given weights (a worker's job)."""
    index, core, suits, budget, numbers = task
    weights = Weights.from_core(core)
    policy = rollouts.Policy(budget, blindplayer.SEARCHES, weights=weights)
    played = []
    for number in numbers:
        start = encode(DealSource(Source.OURS, number, suits).game())
        end = native.backend().rollout(Playout(start.piles, start.rows, 0, policy))
        played.append(Played(number, end.won, end.done, end.down))
    return index, played


Mapper = Callable[[list[Task]], Iterator[tuple[int, list[Played]]]]


def local_mapper(jobs: int) -> Mapper:
    def run(tasks: list[Task]) -> Iterator[tuple[int, list[Played]]]:
        if jobs == 1:
            yield from map(play_chunk, tasks)
            return
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            yield from pool.imap_unordered(play_chunk, tasks)

    return run


def cluster_mapper(address: str) -> Mapper:
    """Tasks played on a Dask scheduler's workers (spider installed on each)."""
    import distributed

    def run(tasks: list[Task]) -> Iterator[tuple[int, list[Played]]]:
        with distributed.Client(address, timeout=30) as client:
            futures = client.map(play_chunk, tasks, pure=False)
            for future in distributed.as_completed(futures):
                yield future.result()

    return run


def parse_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


GENERATION_KEYS = ("generation", "setup", "seconds", "candidates", "mean")
REFERENCE_KEYS = ("reference", "setup", "score", "won")


def read_log(path: Path, cut: bool = False) -> list[dict[str, Any]]:
    """The generations logged so far (a half-written last line, from a stop, cut from the
    file if ``cut``, else left out; a damaged line ends the script, said in words)."""
    return _generations(path, jsonl.read(path, cut=cut))


def _generations(path: Path, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The generation lines of a log read whole, each checked for its keys (the first line
    is the standard weights' score)."""
    generations = []
    for number, entry in enumerate(lines[1:], 2):
        missing = [key for key in GENERATION_KEYS if key not in entry]
        if missing:
            sys.exit(f"{path}: line {number} is not a generation (it has no {missing[0]!r})")
        generations.append(entry)
    return generations


def reference_of(path: Path, lines: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The standard weights' score, the log's first line (None for an empty log; a first
    line that is not one ends the script, said in words)."""
    lines = jsonl.read(path) if lines is None else lines
    if not lines:
        return None
    missing = [key for key in REFERENCE_KEYS if key not in lines[0]]
    if missing:
        sys.exit(f"{path}: line 1 is not the standard weights' score (it has no {missing[0]!r})")
    return lines[0]


def run(args: argparse.Namespace) -> None:
    import cma

    deals = parse_range(args.deals)
    log = Path(args.log)
    lines = jsonl.read(log, cut=True)  # a line half written at a stop: cut, not appended to
    reference = reference_of(log, lines)
    done = _generations(log, lines)
    for earlier in [*([reference] if reference else []), *done]:
        if earlier["setup"] != setup_of(args):
            sys.exit(
                f"{log} was made with another setup ({_setup_words(earlier['setup'])}), not "
                f"this run's ({_setup_words(setup_of(args))}): resume it with its own "
                "arguments, or log to another file"
            )
    es = cma.CMAEvolutionStrategy(
        [0.0] * len(TUNED),
        args.sigma,
        {"seed": args.seed, "popsize": args.popsize, "verbose": -9},
    )
    for generation in done:  # tell CMA-ES what it was told before the stop
        asked = es.ask()
        logged = [c["x"] for c in generation["candidates"]]
        if any(
            not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
            for xa, xb in zip(asked, logged, strict=True)
            for a, b in zip(xa, xb, strict=True)
        ):
            sys.exit(f"{log}: generation {generation['generation']} is not what CMA-ES asks")
        es.tell(asked, [-c["score"] for c in generation["candidates"]])
    mapper = cluster_mapper(args.cluster) if args.cluster else local_mapper(args.jobs)
    standard: dict[str, Any] | None = None  # at --confirm's budget, scored once a run
    if reference is None:  # the standard weights' score first: what a candidate must beat
        (plays,) = score_by_candidate([STANDARD], args.suits, args.budget, deals, mapper)
        reference = {
            "reference": "standard",
            "setup": setup_of(args),
            "score": round(sum(p.score for p in plays) / len(plays), 5),
            "won": sum(p.won for p in plays),
        }
        jsonl.append(log, reference)
        print(f"standard weights: {reference['score']:.3f} ({reference['won']} won)", flush=True)
    for g in range(len(done), args.generations):
        began = time.perf_counter()
        asked = es.ask()
        candidates = [weights_of(x) for x in asked]
        games = score_by_candidate(candidates, args.suits, args.budget, deals, mapper)
        scores = [sum(p.score for p in gs) / len(gs) for gs in games]
        es.tell(asked, [-s for s in scores])
        entry: dict[str, Any] = {
            "generation": g,
            "setup": setup_of(args),
            "seconds": round(time.perf_counter() - began, 1),
            "candidates": [
                {
                    "x": [float(v) for v in x],
                    "weights": w.as_dict(),
                    "score": round(s, 5),
                    "won": sum(p.won for p in gs),
                }
                for x, w, s, gs in zip(asked, candidates, scores, games, strict=True)
            ],
            "mean": [float(v) for v in es.mean],
        }
        best = max(range(len(scores)), key=scores.__getitem__)
        if args.confirm:
            if standard is None:
                standard = scored([STANDARD], args.suits, args.confirm, deals, mapper)[0]
            chosen = [candidates[best], weights_of(es.mean)]
            found = scored(chosen, args.suits, args.confirm, deals, mapper)
            entry["confirmed"] = {
                "budget": args.confirm,
                "standard": standard,
                "best": found[0],
                "mean": found[1],
            }
        jsonl.append(log, entry)
        print(
            f"generation {g}: best {scores[best]:.3f} ({entry['candidates'][best]['won']} won"
            f" of {len(deals)}), mean {sum(scores) / len(scores):.3f},"
            f" {entry['seconds']:.0f} s",
            flush=True,
        )
        if "confirmed" in entry:
            said = ", ".join(
                f"{name} {entry['confirmed'][name]['score']:.3f} "
                f"({entry['confirmed'][name]['won']} won)"
                for name in ("standard", "best", "mean")
            )
            print(f"  at {args.confirm} positions a search: {said}", flush=True)


def _setup_words(setup: object) -> str:
    """A setup as the refusal names it: its values, key by key (the tuned names left out)."""
    if not isinstance(setup, dict):
        return repr(setup)
    return ", ".join(f"{key} {value}" for key, value in setup.items() if key != "tuned")


def scored(
    candidates: list[Weights], suits: int, budget: int, deals: range, mapper: Mapper
) -> list[dict[str, Any]]:
    """Each candidate's score and games won on ``deals`` at ``budget``, as the log keeps
    them."""
    games = score_by_candidate(candidates, suits, budget, deals, mapper)
    return [
        {"score": round(sum(p.score for p in gs) / len(gs), 5), "won": sum(p.won for p in gs)}
        for gs in games
    ]


def score_by_candidate(
    candidates: list[Weights], suits: int, budget: int, deals: Sequence[int], mapper: Mapper
) -> list[list[Played]]:
    """Each candidate's games on every deal, in deal order (two candidates alike share)."""
    numbers = list(deals)
    cores = list(dict.fromkeys(c.core() for c in candidates))
    tasks: list[Task] = []
    for core in cores:
        for k in range(0, len(numbers), CHUNK):
            tasks.append((len(tasks), core, suits, budget, tuple(numbers[k : k + CHUNK])))
    results = dict(mapper(tasks))
    games: dict[tuple[int, ...], list[Played]] = {core: [] for core in cores}
    for task in tasks:
        games[task[1]].extend(results[task[0]])
    return [games[c.core()] for c in candidates]


def show(args: argparse.Namespace) -> None:
    """The log's curve: each generation's best and mean score, and the best's wins."""
    reference = reference_of(Path(args.log))
    if reference is not None:
        print(f"standard weights: {reference['score']:.3f} ({reference['won']} won)")
    for generation in read_log(Path(args.log)):
        candidates = generation["candidates"]
        best = max(candidates, key=lambda c: c["score"])
        mean = sum(c["score"] for c in candidates) / len(candidates)
        print(
            f"{generation['generation']:3d}  best {best['score']:.3f} ({best['won']} won)"
            f"  mean {mean:.3f}  {generation['seconds']:.0f} s"
        )
        confirmed = generation.get("confirmed")
        if confirmed is not None:
            said = ", ".join(
                f"{name} {confirmed[name]['score']:.3f} ({confirmed[name]['won']} won)"
                for name in ("standard", "best", "mean")
            )
            print(f"     at {confirmed['budget']} positions a search: {said}")


def pick(args: argparse.Namespace) -> None:
    """Confirm the log's best candidates (and the last mean) on the tuning deals at
    ``--budget``, print each, and write the winner into the weights file if asked."""
    generations = read_log(Path(args.log))
    if not generations:
        sys.exit(f"{args.log}: no generation logged")
    ranked = sorted((c for g in generations for c in g["candidates"]), key=lambda c: -c["score"])
    chosen = [Weights.from_dict(c["weights"]) for c in ranked[: args.top]]
    chosen.append(weights_of(generations[-1]["mean"]))
    chosen = list(dict.fromkeys([STANDARD, *chosen]))
    mapper = cluster_mapper(args.cluster) if args.cluster else local_mapper(args.jobs)
    deals = parse_range(args.deals)
    games = score_by_candidate(chosen, args.suits, args.budget, deals, mapper)
    scores = [sum(p.score for p in gs) / len(gs) for gs in games]
    for w, s, gs in zip(chosen, scores, games, strict=True):
        name = "standard" if w == STANDARD else json.dumps(w.as_dict())
        print(f"{s:.3f} {sum(p.won for p in gs)} won  {name}")
    best = max(range(len(chosen)), key=scores.__getitem__)
    if args.write and chosen[best] != STANDARD:
        path = Path(evaluation.__file__).with_name("weights.json")
        data = json.loads(path.read_text("utf-8"))
        data["players"][str(args.suits)] = {
            "weights": chosen[best].as_dict(),
            "made_by": f"CMA-ES, {len(generations)} generations (benchmarks/tune_weights.py)",
            "command": " ".join(["python benchmarks/tune_weights.py", *sys.argv[1:]]),
            "deals": f"our {args.suits}-suit deals {args.deals}, {args.budget} positions a search",
        }
        path.write_text(json.dumps(data, indent=1) + "\n", "utf-8")
        print(f"written to {path}")


def named(name: str) -> Weights:
    """The weight set ``versus`` is given by name (the module's docstring lists them)."""
    if name == "standard":
        return STANDARD
    suits = name.removeprefix("shipped:")
    if suits in ("1", "2", "4"):
        return evaluation.weights_for(int(suits))
    log, _, which = name.rpartition(":")
    kind, _, at = which.partition("@")
    generations = read_log(Path(log))
    if not log or kind not in ("best", "mean") or not generations or (at and not at.isdigit()):
        sys.exit(f"{name}: not a weight set (standard, shipped:S, LOG:best[@G], LOG:mean[@G])")
    if at:
        generations = [g for g in generations if g["generation"] == int(at)]
        if not generations:
            sys.exit(f"{name}: {log} has no generation {at}")
    if kind == "mean":
        return weights_of(generations[-1]["mean"])
    best = max((c for g in generations for c in g["candidates"]), key=lambda c: c["score"])
    return Weights.from_dict(best["weights"])


def key_of(weights: Weights) -> str:
    """A weight set's name in ``versus``'s file of games: a hash of what the core takes."""
    return hashlib.blake2b(repr(weights.core()).encode(), digest_size=8).hexdigest()


GAME_KEYS = ("setup", "weights", "deal", "won", "done", "down")
"""What each line of ``versus``'s file of games holds."""


def versus(args: argparse.Namespace) -> None:
    """Weight sets played paired on the same deals; each against the first."""
    from compare_blind import mcnemar

    sets = [(name, named(name)) for name in args.sets]
    deals = list(parse_range(args.deals))
    path = Path(args.games)
    kept: dict[tuple[str, int], Played] = {}
    setup = {"suits": args.suits, "budget": args.budget}
    for game in jsonl.read(path, GAME_KEYS, cut=True):  # a half-written last line: cut
        if game["setup"] == setup:
            played = Played(game["deal"], game["won"], game["done"], game["down"])
            kept[game["weights"], game["deal"]] = played
    mapper = cluster_mapper(args.cluster) if args.cluster else local_mapper(args.jobs)
    with path.open("a", encoding="utf-8") as out:
        for _, weights in sets:
            key = key_of(weights)
            missing = [n for n in deals if (key, n) not in kept]
            for k in range(0, len(missing), 10 * CHUNK):  # written as it goes
                part = missing[k : k + 10 * CHUNK]
                (games,) = score_by_candidate([weights], args.suits, args.budget, part, mapper)
                for played in games:
                    kept[key, played.number] = played
                    row = {"setup": setup, "weights": key, "deal": played.number}
                    out.write(
                        json.dumps(
                            {**row, "won": played.won, "done": played.done, "down": played.down}
                        )
                        + "\n"
                    )
                out.flush()
    first = [kept[key_of(sets[0][1]), n] for n in deals]
    for name, weights in sets:
        games = [kept[key_of(weights), n] for n in deals]
        won = sum(p.won for p in games)
        low, high = wilson(won, len(games))
        line = (
            f"{name}: {won}/{len(games)} won ({won / len(games):.1%}, {low:.1%}-{high:.1%}),"
            f" score {sum(p.score for p in games) / len(games):.3f}"
        )
        if weights != sets[0][1]:
            only = sum(p.won and not q.won for p, q in zip(games, first, strict=True))
            only_first = sum(q.won and not p.won for p, q in zip(games, first, strict=True))
            line += (
                f"; against {sets[0][0]}: {won - sum(q.won for q in first):+d} won,"
                f" {only} won only by it, {only_first} only by {sets[0][0]},"
                f" McNemar p = {mcnemar(only, only_first):.3f}"
            )
        print(line, flush=True)


def setup_of(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "suits": args.suits,
        "deals": args.deals,
        "budget": args.budget,
        "popsize": args.popsize,
        "seed": args.seed,
        "sigma": args.sigma,
        "tuned": [name for name, _ in TUNED],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    tune = sub.add_parser("run", help="tune, resuming from the log")
    tune.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    tune.add_argument("--deals", default="2000000-2000999", help="tuning deals, FIRST-LAST")
    tune.add_argument("--budget", type=int, default=2_000, help="positions a search")
    tune.add_argument("--popsize", type=int, default=8)
    tune.add_argument("--seed", type=int, default=46)
    tune.add_argument("--sigma", type=float, default=0.4, help="CMA-ES's first step size")
    tune.add_argument("--generations", type=int, default=40, help="stop after this many")
    tune.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    tune.add_argument("--cluster", help="a Dask scheduler's address (tcp://host:8786)")
    tune.add_argument(
        "--confirm",
        type=int,
        default=0,
        help="also play each generation's best and mean (and the standard weights) at this "
        "many positions a search, and log them",
    )
    tune.add_argument("--log", required=True)
    curve = sub.add_parser("show", help="the log's curve")
    curve.add_argument("--log", required=True)
    confirm = sub.add_parser("pick", help="confirm the best candidates at a larger budget")
    confirm.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    confirm.add_argument("--deals", default="2000000-2000499", help="tuning deals, FIRST-LAST")
    confirm.add_argument("--budget", type=int, default=10_000, help="positions a search")
    confirm.add_argument("--top", type=int, default=4, help="the best candidates confirmed")
    confirm.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    confirm.add_argument("--cluster", help="a Dask scheduler's address (tcp://host:8786)")
    confirm.add_argument("--write", action="store_true", help="ship the winner")
    confirm.add_argument("--log", required=True)
    paired = sub.add_parser("versus", help="weight sets played paired on the same deals")
    paired.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    paired.add_argument("--deals", required=True, help="deals, FIRST-LAST")
    paired.add_argument("--budget", type=int, default=10_000, help="positions a search")
    paired.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    paired.add_argument("--cluster", help="a Dask scheduler's address (tcp://host:8786)")
    paired.add_argument("--games", required=True, help="the games kept, JSON lines")
    paired.add_argument("sets", nargs="+", help="standard, shipped:S, LOG:best[@G], LOG:mean[@G]")
    args = parser.parse_args()
    {"run": run, "show": show, "pick": pick, "versus": versus}[args.command](args)


if __name__ == "__main__":
    main()
