"""``spider bench``: full-information play over a range of numbered deals, on every core.

Each deal is solved by :func:`spider_cli.analysis.autoplay.play` in a worker process (the search is
CPU-bound Python, so processes, not threads); a plain-text progress bar goes to standard
error, the report to standard output. The report gives the share of deals won, the median
and 95th-percentile time per deal (lost deals count with the time they used), and the
positions examined per second of solving time. Each deal is bounded by the positions it may
examine; the time is measured, and caps a deal only when a time limit is asked for. This
module imports no parser: workers start fast and small.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO

from spider_cli.analysis.autoplay import PLAY_LIMIT, play
from spider_cli.rules.engine import Game
from spider_cli.rules.errors import QuestionError


@dataclass(frozen=True)
class DealResult:
    """How one deal went: won or not, seconds, positions examined, moves in the win."""

    seed: int
    won: bool
    seconds: float
    positions: int
    moves: int


@dataclass(frozen=True)
class Summary:
    """The figures of a bench run."""

    suits: int
    deals: int
    won: int
    median: float
    p95: float
    positions_per_second: float
    wall: float
    lost: tuple[int, ...]

    @property
    def rate(self) -> float:
        return 100.0 * self.won / self.deals if self.deals else 0.0

    def text(self, limit: int, time_limit: float | None = None) -> str:
        lost = ", ".join(map(str, self.lost[:20])) + (" ..." if len(self.lost) > 20 else "")
        most = f"at most {limit:,} positions" + (
            f" and {time_limit:g} s" if time_limit is not None else ""
        )
        lines = [
            f"{self.suits}-suit deals: {self.deals}, won {self.won} ({self.rate:.1f}%) "
            f"with every card known, {most} each",
            f"time per deal: median {self.median:.2f} s, 95th percentile {self.p95:.2f} s",
            f"positions per second: {self.positions_per_second:,.0f}",
            f"wall time: {self.wall:.1f} s",
        ]
        if self.lost:
            lines.append(f"not won: {lost}")
        return "\n".join(lines)


Task = tuple[int, int, int, float | None]
"""One deal to play: (seed, suits, positions limit, time limit or None)."""


def solve_deal(task: Task) -> DealResult:
    """Play one deal (run in a worker process), timed by ``time.perf_counter``."""
    seed, suits, limit, time_limit = task
    result = play(Game.new(seed, suits), limit, clock=time.perf_counter, seconds=time_limit)
    seconds = result.seconds or 0.0  # always measured: a clock was given
    return DealResult(seed, result.won, seconds, result.positions, len(result.actions))


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` 0.95 for the 95th)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def summarize(suits: int, results: list[DealResult], wall: float) -> Summary:
    times = [r.seconds for r in results]
    solving = sum(times)
    return Summary(
        suits,
        len(results),
        sum(r.won for r in results),
        statistics.median(times) if times else 0.0,
        percentile(times, 0.95),
        sum(r.positions for r in results) / solving if solving else 0.0,
        wall,
        tuple(sorted(r.seed for r in results if not r.won)),
    )


def progress_bar(done: int, total: int, won: int, elapsed: float, width: int = 30) -> str:
    """One line: ``[#######.......] 23/100 won 23 (100.0%) 41 s``."""
    filled = width * done // total if total else width
    rate = 100.0 * won / done if done else 0.0
    return (
        f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
        f"won {won} ({rate:.1f}%) {elapsed:.0f} s"
    )


def run(
    seeds: Iterable[int],
    suits: int,
    limit: int = PLAY_LIMIT,
    time_limit: float | None = None,
    jobs: int | None = None,
    err: TextIO | None = None,
) -> tuple[Summary, list[DealResult]]:
    """Solve every deal, at most ``limit`` positions (and ``time_limit`` seconds, if given)
    each, ``jobs`` at a time (default: every core), showing progress on ``err`` (standard
    error by default)."""
    err = err or sys.stderr
    tasks: list[Task] = [(seed, suits, limit, time_limit) for seed in seeds]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks) or 1))
    began = time.perf_counter()
    results: list[DealResult] = []
    live = err.isatty()
    for result in _results(tasks, jobs):
        results.append(result)
        won = sum(r.won for r in results)
        bar = progress_bar(len(results), len(tasks), won, time.perf_counter() - began)
        if live:  # one line redrawn in place
            err.write("\r" + bar)
        elif len(results) * 10 // len(tasks) != (len(results) - 1) * 10 // len(tasks):
            err.write(bar + "\n")  # a log: a line every tenth of the way
        err.flush()
    if tasks and live:
        err.write("\n")
    results.sort(key=lambda r: r.seed)
    return summarize(suits, results, time.perf_counter() - began), results


def _results(tasks: list[Task], jobs: int) -> Iterator[DealResult]:
    if jobs == 1:
        yield from map(solve_deal, tasks)
        return
    # Fresh workers now and then keep the solver's caches from growing without end.
    with multiprocessing.get_context("spawn").Pool(jobs, maxtasksperchild=50) as pool:
        yield from pool.imap_unordered(solve_deal, tasks)


def parse_seeds(text: str) -> range:
    """Seeds written ``0-99`` (both ends included) or a single ``17``."""
    first, dash, last = text.partition("-")
    try:
        start = int(first)
        end = int(last) if dash else start
    except ValueError:
        raise QuestionError(f"seeds are written as 0-99 or 17, not {text!r}") from None
    if end < start:
        raise QuestionError(f"the seed range {text!r} is empty")
    return range(start, end + 1)
