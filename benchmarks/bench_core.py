"""Benchmarks of the core: run ``python benchmarks/bench_core.py`` (figures in BENCHMARKS.md).

Measures, on positions reached by seeded random play (so every run measures the same work):
apply+undo pairs per second, full legal-move generations per second, the time to resume a
1,000-move game file, and the start-up cost of ``spider run`` on a one-line script as a ratio
to a bare ``python -c pass`` (a ratio, because this machine is shared and noisy).
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from spider_cli.app.session import Session
from spider_cli.rules.engine import Game


def sample_positions(count: int = 200) -> list[Game]:
    """Positions from random play on deals 0, 1, 2, ... (seeded: the same every run)."""
    rng = random.Random(2026)
    found: list[Game] = []
    seed = 0
    while len(found) < count:
        game = Game.new(seed)
        for _ in range(rng.randrange(0, 60)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        found.append(game)
        seed += 1
    return found


def best_of(runs: int, measure) -> float:
    return max(measure() for _ in range(runs))


def apply_undo_rate(games: list[Game]) -> float:
    work = [(g, g.legal_moves()) for g in games]

    def measure() -> float:
        pairs = 0
        start = time.perf_counter()
        for game, moves in work:
            push, pop = game.push, game.pop
            for move in moves:
                push(move)
                pop()
            pairs += len(moves)
        return pairs / (time.perf_counter() - start)

    return best_of(5, measure)


def generation_rate(games: list[Game]) -> float:
    def measure() -> float:
        start = time.perf_counter()
        for _ in range(20):
            for game in games:
                game.legal_moves()
        return 20 * len(games) / (time.perf_counter() - start)

    return best_of(5, measure)


def thousand_move_game(folder: Path) -> Path:
    """Save a game of exactly 1,000 moves (seeded random play) and return its file."""
    rng = random.Random(7)
    session = Session.new_game(seed=7)
    while len(session.history) < 1000:
        moves = session.game.legal_moves()
        if not moves:
            session = Session.new_game(seed=rng.randrange(10**6))
            continue
        session.play(rng.choice(moves))
    path = folder / "thousand.spider-game"
    session.execute(f"save {path}")
    return path


def resume_seconds(path: Path) -> float:
    def measure() -> float:
        session = Session.new_game(seed=0)
        start = time.perf_counter()
        session.execute(f"load {path}")
        elapsed = time.perf_counter() - start
        assert len(session.history) == 1000
        return -elapsed

    return -best_of(3, measure)


def startup_ratio(folder: Path, runs: int = 15) -> tuple[float, float, float]:
    script = folder / "one.spider"
    script.write_text("new 1\n")

    def median(cmd: list[str]) -> float:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    bare = median([sys.executable, "-c", "pass"])
    ours = median([sys.executable, "-m", "spider_cli", "run", str(script)])
    return ours / bare, ours, bare


def main() -> None:
    games = sample_positions()
    print(f"apply+undo pairs per second:     {apply_undo_rate(games):>12,.0f}  (target 300,000)")
    print(f"legal-move generations per s:    {generation_rate(games):>12,.0f}  (target 50,000)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = thousand_move_game(folder)
        print(f"resume a 1,000-move game:        {resume_seconds(path):>12.3f} s")
        ratio, ours, bare = startup_ratio(folder)
        print(
            f"spider run (one line) vs python -c pass: {ratio:.1f}x "
            f"({ours * 1000:.0f} ms vs {bare * 1000:.0f} ms, medians of 15)"
        )


if __name__ == "__main__":
    main()
