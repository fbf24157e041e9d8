"""``spider bench``: full-information play over a range of numbered deals, on every core.

Deals are ours or another program's (:class:`~spider_cli.rules.deals.DealSource`:
``pysol:1-1000``, ``kpat:1-100``, ``0-99``). The caller may be told of each result as it
comes (to store it), and may play the deals elsewhere (a cluster) by passing its own mapper
from tasks to results.

Each deal is solved by :func:`spider_cli.analysis.solve.autoplay.play` in a worker process (the
search is CPU-bound Python, so processes, not threads); the caller is told how far the run is
(:data:`Event`), and gets the figures of the run (:class:`Summary`): the share of deals won, the
median and 95th-percentile time per deal (lost deals count with the time they used), and the
positions examined per second of solving time (the command line writes the progress bar and
the report: :mod:`spider_cli.app.words.bench`). Each deal is bounded by the positions it may
examine; the time is measured, and caps a deal only when a time limit is asked for. This
module imports no parser: workers start fast and small."""

from __future__ import annotations

import contextlib
import functools
import math
import os
import signal
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from spider_cli.analysis import memory, native
from spider_cli.analysis.bench import workers
from spider_cli.analysis.limits import PLAY_LIMIT, Limit
from spider_cli.analysis.solve import Stage, play, search_key
from spider_cli.rules.deals import DealSource, Source, deal_name
from spider_cli.rules.errors import QuestionError, quoted


@dataclass(frozen=True)
class DealResult:
    """How one deal went: won or not, seconds, positions examined, moves in the win, and
    the winning line in notation (empty when not won)."""

    deal: DealSource
    won: bool
    seconds: float
    positions: int
    moves: int
    line: tuple[str, ...] = ()
    search: str = ""
    """With every card known, the key of the search that played it
    (:func:`spider_cli.analysis.solve.autoplay.search_key`'s whole key, read where it was
    played)."""
    stage: Stage | None = None
    """With every card known, the part of the search that won the deal, or that ended it
    (None: blind, or a result stored before stages were kept)."""
    proved: bool = False
    """Not won, and the complete search examined every reachable position: unwinnable."""

    def as_json(self) -> dict[str, object]:
        """The result as JSON values (for ``spider bench --json``, blind or not)."""
        return {
            "deal": str(self.deal),
            "seed": self.deal.number,
            "won": self.won,
            "moves": self.moves,
            "positions": self.positions,
            "seconds": round(self.seconds, 3),
            "line": list(self.line),
            "stage": self.stage.value if self.stage else None,
            "proved_unwinnable": self.proved,
        }

    @property
    def seed(self) -> int:
        return self.deal.number


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
    lost: tuple[str, ...]
    moves_mean: float
    read: int = 0
    """Deals whose result was read from the results file (an earlier run of the same
    search, or the same blind player) rather than played."""
    second_stage: tuple[str, ...] = ()
    """Deals won by the second stage (the beam alone did not win them)."""
    proved: tuple[str, ...] = ()
    """Deals proved unwinnable (by a held rank, or every reachable position examined)."""

    @property
    def rate(self) -> float:
        return 100.0 * self.won / self.deals if self.deals else 0.0


class BenchMode(Enum):
    """How the deals of a run are played."""

    KNOWN = "known"
    """Knowing every card, the face-down ones and the hand too (:mod:`autoplay`)."""
    BLIND = "blind"
    """Seeing only what a player sees (:mod:`spider_cli.analysis.bench.blind`)."""


@dataclass(frozen=True)
class Limits:
    """What bounds each deal of a run; None where the mode has no such bound."""

    positions_per_deal: int | None = None
    seconds_per_deal: float | None = None
    positions_per_search: int | None = None
    moves_per_deal: int | None = None
    level: str | None = None


Task = tuple[DealSource, int, float | None]
"""One deal to play: (the deal, positions limit, time limit or None)."""

Mapper = Callable[[list[Any], int, Callable[[Any], DealResult]], Iterable[DealResult]]
"""Plays tasks with a worker (``jobs`` at a time, if it can choose) and yields each result
as it is done, in any order: :func:`local_results` here, or a cluster's."""


def solve_deal(task: Task) -> DealResult:
    """Play one deal (run in a worker process), timed by ``time.perf_counter``."""
    deal, limit, time_limit = task
    result = play(deal.game(), Limit.of(limit, time_limit, time.perf_counter))
    seconds = result.seconds or 0.0  # always measured: a clock was given
    return DealResult(
        deal,
        result.won,
        seconds,
        result.positions,
        len(result.actions),
        tuple(result.texts),
        search_key(limit).full,
        result.stage,
        result.proved,
    )


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` 0.95 for the 95th)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def summarize(suits: int, results: list[DealResult], wall: float, read: int = 0) -> Summary:
    """The figures of ``results`` (``read`` of them from the results file, not played)."""
    times = [r.seconds for r in results]
    solving = sum(times)
    ordered = sorted(results, key=_order)
    return Summary(
        suits,
        len(results),
        sum(r.won for r in results),
        statistics.median(times) if times else 0.0,
        percentile(times, 0.95),
        sum(r.positions for r in results) / solving if solving else 0.0,
        wall,
        tuple(str(r.deal) for r in ordered if not r.won),
        float(statistics.mean(r.moves for r in results)) if results else 0.0,
        read,
        tuple(str(r.deal) for r in ordered if r.won and r.stage not in (None, Stage.BEAM)),
        tuple(str(r.deal) for r in ordered if r.proved),
    )


@dataclass(frozen=True)
class Fewer:
    """Fewer deals at a time than asked (``jobs``, not ``wanted``), so that the workers keep
    together within :data:`~spider_cli.analysis.memory.SHARED` quarters of the machine's
    ``machine`` bytes: each may hold about ``each`` bytes (its ``limit`` of positions, or the
    memory ceiling)."""

    jobs: int
    wanted: int
    each: int
    limit: int
    machine: int


@dataclass(frozen=True)
class Began:
    """The deals begin to be played, ``in_play`` at once: ``done`` of ``total`` already (read
    from the results file), ``won`` of them won."""

    done: int
    total: int
    won: int
    in_play: int


@dataclass(frozen=True)
class Finished:
    """A deal is done: ``done`` of ``total``, ``won`` of them won, ``elapsed`` seconds since
    the deals began."""

    done: int
    total: int
    won: int
    elapsed: float


@dataclass(frozen=True)
class Ended:
    """Every deal asked for was played (none is told when none was to play)."""


Event = Fewer | Began | Finished | Ended
"""How far a run is, as it goes (the command line draws its progress bar from them)."""

Listener = Callable[[Event], None]
"""What is told each :data:`Event` of a run."""


def _order(result: DealResult) -> tuple[str, int]:
    return result.deal.source.value, result.deal.number


def run(
    seeds: Iterable[int | DealSource],
    suits: int,
    limit: int = PLAY_LIMIT,
    time_limit: float | None = None,
    jobs: int | None = None,
    progress: Listener | None = None,
    *,
    done: Iterable[DealResult] = (),
    record: Callable[[DealResult], None] | None = None,
    mapper: Mapper | None = None,
) -> tuple[Summary, list[DealResult]]:
    """Solve every deal (a plain number is one of ours of the ``suits``-suit game), at most
    ``limit`` positions (and ``time_limit`` seconds, if given) each, ``jobs`` at a time
    (default: every core), telling ``progress`` how far the run is (:data:`Event`).

    Deals with a result in ``done`` (an earlier run's) are not played again but count in
    the summary; ``record`` is given each new result as it comes; ``mapper`` plays the
    tasks (default: :func:`local_results`)."""
    deals = [s if isinstance(s, DealSource) else DealSource(Source.OURS, s, suits) for s in seeds]
    unique = list(dict.fromkeys(deals))
    known = {r.deal: r for r in done}
    results = [known[d] for d in unique if d in known]
    tasks: list[Task] = [(d, limit, time_limit) for d in unique if d not in known]
    if mapper is None and tasks:  # this machine's memory is shared by its workers
        wanted = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
        compiled = native.backend().compiled
        jobs = memory.workers(wanted, limit, compiled)
        if jobs < wanted and progress is not None:
            each = memory.held(limit, compiled)
            progress(Fewer(jobs, wanted, each, limit, memory.machine()))
    return play_all(suits, tasks, results, solve_deal, jobs, progress, record, mapper)


def play_all(
    suits: int,
    tasks: list[Any],
    results: list[DealResult],
    worker: Callable[[Any], DealResult],
    jobs: int | None,
    progress: Listener | None = None,
    record: Callable[[DealResult], None] | None = None,
    mapper: Mapper | None = None,
    shared: bool = False,
) -> tuple[Summary, list[DealResult]]:
    """Play ``tasks`` with ``worker``, ``jobs`` at a time (default: every core), beside the
    ``results`` an earlier run stored, telling ``progress`` how far it is (:data:`Event`);
    ``record`` is given each new result as it comes; ``shared``: the workers share the memory
    ceiling (see :func:`local_results`). The summary of them all."""
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks) or 1))
    began = time.perf_counter()
    read = len(results)
    total = len(results) + len(tasks)
    tell = progress or _unheard
    if tasks:  # at once, with the deals in play, not only when the first ends
        tell(Began(read, total, sum(r.won for r in results), min(jobs, len(tasks))))
    run = mapper or (functools.partial(local_results, shared=True) if shared else local_results)
    for result in run(tasks, jobs, worker):
        if record is not None:
            record(result)
        results.append(result)
        won = sum(r.won for r in results)
        tell(Finished(len(results), total, won, time.perf_counter() - began))
    if tasks:
        tell(Ended())
    results.sort(key=_order)
    return summarize(suits, results, time.perf_counter() - began, read), results


def _unheard(event: Event) -> None:
    """No one is told how far a run is."""


def local_results(
    tasks: list[Any],
    jobs: int,
    worker: Callable[[Any], DealResult] | None = None,
    shared: bool = False,
) -> Iterator[DealResult]:
    """Play the tasks with ``worker`` (default :func:`solve_deal`) in ``jobs`` worker
    processes (in this one for a single job), results as they come. ``shared``: each worker
    keeps to an equal share of the memory ceiling, so that the command as a whole keeps to
    it (the blind bench: its results depend on the ceiling only at budgets past it); else
    each keeps the whole ceiling, as a deal's complete search must for its result not to
    depend on the workers beside it (the solver bench runs fewer instead)."""
    worker = worker or solve_deal
    if jobs == 1:
        yield from map(worker, tasks)
        return
    # Each worker holds its share of the memory ceiling and ends with its parent however the
    # parent ends (:func:`_bound_to`); the parent ends every worker on every way out.
    share = memory.worker_share(jobs) if shared else None

    _start_tracker()
    yield from workers.results(tasks, jobs, worker, _bound_to, (os.getpid(), share))


def _start_tracker() -> None:
    """Start multiprocessing's resource tracker deaf to a hangup (it already ignores Ctrl-C
    and SIGTERM): a terminal closed under ``spider bench`` signals the whole process group,
    and a tracker killed that way prints tracebacks as the workers end."""
    from multiprocessing import resource_tracker

    hangup = getattr(signal, "SIGHUP", None)
    if hangup is None or threading.current_thread() is not threading.main_thread():
        resource_tracker.ensure_running()
        return
    before = signal.signal(hangup, signal.SIG_IGN)
    try:
        resource_tracker.ensure_running()
    finally:
        signal.signal(hangup, before)


def _bound_to(parent: int, share: int | None = None) -> None:
    """A worker's start: it keeps within ``share`` bytes, its part of the command's memory
    ceiling (the workers share it, so the command as a whole keeps to it), it hears only
    its parent, and it ends when its parent does, even by kill -9: a thread looks for the
    parent every tenth of a second. (Not Linux's parent-death signal: it follows the
    *thread* that started the worker, and multiprocessing's Pool, used once, started its
    replacement workers from a thread that ended with it.)"""
    if share is not None:
        os.environ[memory.VARIABLE] = str(max(1, share))
    with contextlib.suppress(OSError, AttributeError):
        # A process group of its own: a terminal's Ctrl-C or hangup, or a kill of the
        # parent's group, reaches the parent alone, which ends its workers itself
        # (:mod:`spider_cli.analysis.bench.workers`).
        os.setpgid(0, 0)
    if os.getppid() != parent:  # (the parent ended before the signal was asked for)
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.1)
        os._exit(1)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


def parse_seeds(text: str) -> range:
    """Seeds written ``0-99`` (both ends included) or a single ``17``."""
    first, dash, last = text.partition("-")
    try:
        start = int(first)
        end = int(last) if dash else start
    except ValueError:
        raise QuestionError(f"seeds are written as 0-99 or 17, not {quoted(text)}") from None
    if end < start:
        raise QuestionError(f"the seed range {quoted(text)} is empty")
    return range(start, end + 1)


def parse_deals(text: str, suits: int) -> list[DealSource]:
    """Deals written ``pysol:1-1000``, ``kpat:7``, ``0-99`` or ``17`` (both ends included)
    of the ``suits``-suit game."""
    named = deal_name(text)
    if named is None or any(len(number) > 21 for number in named[1].split("-")):
        raise QuestionError(
            f"deals are written as 0-99, 17, pysol:1-1000 or kpat:7, not {quoted(text)}"
        )
    source, numbers = named
    seeds = parse_seeds(numbers)
    count = seeds.stop - seeds.start  # (len() of a range fails past 2**63)
    if count > MAX_DEALS:
        raise QuestionError(f"a run plays at most {MAX_DEALS:,} deals, not {count:,}")
    return [DealSource(source, n, suits) for n in seeds]


MAX_DEALS = 1_000_000
"""The most deals one run plays (32,000 is plspider's whole set)."""
