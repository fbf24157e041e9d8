"""Benchmarks of the core: ``python benchmarks/bench_core.py [engine|replay|startup]``.

With no argument it runs all three parts (figures in BENCHMARKS.md). Everything measured is
made by seeded random play, so every run measures the same work:

- engine: apply+undo pairs per second, full legal-move generations per second, and the time
  to resume a 1,000-move game file;
- replay: ``spider run`` of a 10,000-move script of plain moves (a subprocess, best of 5), in
  moves per second of wall time and of processor time, and the same lines read in-process,
  per line: ``parse_command`` alone, then ``parse_command`` + ``resolve`` + ``move_text``
  (+ the push that plays the move);
- startup: ``spider run`` of a one-line script as a ratio to a bare ``python -c pass``
  (medians of wall and of processor time; ratios, because this machine is shared and
  noisy), and whether that start imported lark (it should not: the lines of a script are
  read by spider_cli.language.lalr). Run it with an installed package's interpreter, as a
  player has it, from outside the checkout.
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from spider_cli.app.session import Session
from spider_cli.language.commands import NewCommand, TableauCommand
from spider_cli.language.notation import clear_line_cache, parse_command, resolve
from spider_cli.rules.engine import Game, Move
from spider_cli.rules.text import move_text

REPLAY_MOVES = 10_000


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


def best_of(runs: int, measure: Callable[[], float]) -> float:
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
    while session.game.moves_made < 1000:
        moves = session.game.legal_moves()
        if not moves:
            session = Session.new_game(seed=rng.randrange(10**6))
            continue
        session.play(rng.choice(moves))
    path = folder / "thousand.spider-game"
    session.save(path)
    return path


def resume_seconds(path: Path) -> float:
    def measure() -> float:
        session = Session.new_game(seed=0)
        start = time.perf_counter()
        session.execute(f"load {path}")
        elapsed = time.perf_counter() - start
        assert session.game.moves_made == 1000
        return -elapsed

    return -best_of(3, measure)


def replay_script(
    folder: Path, moves: int = REPLAY_MOVES, per_game: int | None = None, name: str = "replay"
) -> Path:
    """A script of ``moves`` random legal actions (moves, deals, removals), seeded.

    With ``per_game`` None, one long game from deal 0 (a line ``new 0`` first), so that any
    cost of a move that grows with the game's length shows; never taking back the move just
    made. Should no action be left, the next deal goes on (``new 1``...). With ``per_game``
    N, a new deal every N actions, so the script holds many different lines (random play in
    one game soon shuffles a few cards back and forth, and a script of few distinct lines is
    served by the parser's cache). Every action is written with ``move_text``.
    """
    rng = random.Random(2026)
    lines: list[str] = []
    seed = 0
    written = 0
    while written < moves:
        game = Game.new(seed)
        lines.append(f"new {seed}")
        back: Move | None = None
        for _ in range(min(moves - written, per_game or moves)):
            actions = [a for a in game.legal_moves() if a != back]
            if not actions:
                break
            action = rng.choice(actions)
            lines.append(move_text(game, action))
            game.push(action)
            written += 1
            back = Move(action.dst, action.src, action.count) if type(action) is Move else None
        seed += 1
    path = folder / f"{name}.spider"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def replay_rate(script: Path, runs: int = 3) -> tuple[float, float, float]:
    """Moves per second of ``spider run -q`` on the script, start-up included (best of runs):
    by wall time, and by processor time (user + system, the steadier figure when other jobs
    share the machine). Also returns the best wall time in seconds. One run first with
    bytecode writing allowed, as in :func:`startup_times`: an installed package's modules
    are compiled once.
    """
    moves = sum(1 for line in script.read_text().splitlines() if not line.startswith("new "))
    command = [sys.executable, "-m", "spider_cli", "run", "-q", str(script)]
    warm = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=warm)  # compiled once
    best = cpu = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        cpu = min(cpu, used)
    return moves / best, moves / cpu, best


def per_line_micros(script: Path, runs: int = 3) -> tuple[float, float, float]:
    """Microseconds per move line, in-process (best of runs): parsing alone, then parsing,
    resolving and writing the move as text, and playing it (``Game.push``); last, parsing
    with the parser's line cache cleared before every line (the cost of a line never seen)."""
    lines = script.read_text().splitlines()
    moves = [line for line in lines if not line.startswith("new ")]
    parse_command(moves[0])  # the parser is loaded outside the timing

    def parse_only() -> float:
        start = time.perf_counter()
        for line in moves:
            parse_command(line)
        return time.perf_counter() - start

    def whole() -> float:
        game = Game.new(0)
        start = time.perf_counter()
        for line in lines:
            command = parse_command(line)
            if isinstance(command, NewCommand):
                game = Game.new(command.seed or 0)
                continue
            assert isinstance(command, TableauCommand), line
            action = resolve(game, command)
            move_text(game, action)
            game.push(action)
        return time.perf_counter() - start

    def uncached() -> float:
        clear = clear_line_cache
        start = time.perf_counter()
        for line in moves:
            clear()
            parse_command(line)
        return time.perf_counter() - start

    fresh = min(uncached() for _ in range(runs))
    parse = min(parse_only() for _ in range(runs))
    total = min(whole() for _ in range(runs))
    return parse / len(moves) * 1e6, total / len(moves) * 1e6, fresh / len(moves) * 1e6


def lark_at_start(folder: Path) -> list[str]:
    """The lark modules ``spider run`` of a one-line script imports (``-X importtime``)."""
    script = folder / "one.spider"
    script.write_text("new 1\n")
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "spider_cli", "run", str(script)],
        check=True,
        capture_output=True,
        text=True,
    )
    names = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()]
    return [name for name in names if name.split(".")[0] == "lark"]


class Startup(NamedTuple):
    """Medians of ``spider run`` on a one-line script and of ``python -c pass``: wall time
    and processor time (user + system; steadier than wall time when other jobs share the
    machine), in seconds."""

    ours_wall: float
    bare_wall: float
    ours_cpu: float
    bare_cpu: float


def startup_times(folder: Path, runs: int = 15) -> Startup:
    """Time a one-line script (``new 1``) through ``spider run`` against a bare interpreter.

    One run first with bytecode writing allowed, so that the package's modules are compiled
    once, as an installed package's are (this machine sets PYTHONDONTWRITEBYTECODE, which
    would otherwise compile every module at every start).
    """
    script = folder / "one.spider"
    script.write_text("new 1\n")
    ours = [sys.executable, "-m", "spider_cli", "run", str(script)]
    warm = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(ours, check=True, stdout=subprocess.DEVNULL, env=warm)

    def medians(cmd: list[str]) -> tuple[float, float]:
        walls, cpus = [], []
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        return statistics.median(walls), statistics.median(cpus)

    bare_wall, bare_cpu = medians([sys.executable, "-c", "pass"])
    ours_wall, ours_cpu = medians(ours)
    return Startup(ours_wall, bare_wall, ours_cpu, bare_cpu)


def main(parts: list[str]) -> None:
    parts = parts or ["engine", "replay", "startup"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if "engine" in parts:
            games = sample_positions()
            print(f"apply+undo pairs per second:     {apply_undo_rate(games):>12,.0f}  (300,000)")
            print(f"legal-move generations per s:    {generation_rate(games):>12,.0f}  (50,000)")
            path = thousand_move_game(folder)
            print(f"resume a 1,000-move game:        {resume_seconds(path):>12.3f} s")
        if "replay" in parts:
            for label, script in (
                ("one long game", replay_script(folder)),
                ("a deal every 200", replay_script(folder, per_game=200, name="deals")),
            ):
                lines = script.read_text().splitlines()
                distinct = len(set(lines))
                rate, cpu_rate, seconds = replay_rate(script, runs=5)
                print(
                    f"spider run, {REPLAY_MOVES:,}-move script, {label} ({distinct:,} distinct "
                    f"lines): {rate:>8,.0f} moves/s ({seconds:.2f} s, start-up included, best of "
                    f"5; target 40,000); by processor time {cpu_rate:,.0f} moves/s"
                )
            parse, whole, fresh = per_line_micros(script)
            print(
                f"per move line: parse_command       {parse:>8.1f} us (cache cleared: {fresh:.1f})"
            )
            print(f"  parse + resolve + move_text + push {whole:>7.1f} us")
        if "startup" in parts:
            t = startup_times(folder)
            print(
                f"spider run (one line) vs python -c pass: {t.ours_wall / t.bare_wall:.2f}x "
                f"({t.ours_wall * 1000:.0f} ms vs {t.bare_wall * 1000:.0f} ms), processor time "
                f"{t.ours_cpu / t.bare_cpu:.2f}x ({t.ours_cpu * 1000:.0f} ms vs "
                f"{t.bare_cpu * 1000:.0f} ms); medians of 15, target 3x"
            )
            lark = lark_at_start(folder)
            print(f"  lark imported at that start: {f'{len(lark)} modules' if lark else 'none'}")


if __name__ == "__main__":
    main(sys.argv[1:])
