"""What ``spider bench`` says: its progress bar (:mod:`spider_cli.analysis.bench.full`'s
events), the report of a run with every card known and of a blind one, the note that fewer
deals are played at a time than asked, the warning that a worker died, and the JSON of
``--json`` (docs/json.md describes its fields)."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

from spider_cli.analysis.intervals import wilson
from spider_cli.analysis.memory import SHARED

if TYPE_CHECKING:
    from spider_cli.analysis.bench.full import (
        BenchMode,
        DealResult,
        Fewer,
        Limits,
        Summary,
    )
    from spider_cli.analysis.bench.workers import WorkerDied
    from spider_cli.analysis.chance import Level

SCHEMA = 3
"""The version of ``spider bench --json``'s shape (docs/json.md describes it): 3 since the
blind player's ``level`` replaced ``samples_per_choice``; 2 since both modes print one shape
(1 had ``results`` with every card known and ``deals`` blind)."""

LISTED = 20
"""Deals a report names in a list (not won, proved unwinnable...) before "..."."""


def progress_bar(done: int, total: int, won: int, elapsed: float, width: int = 30) -> str:
    """One line: ``[#######.......] 23/100 won 23 (100.0%) 41 s``."""
    filled = width * done // total if total else width
    rate = 100.0 * won / done if done else 0.0
    return (
        f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
        f"won {won} ({rate:.1f}%) {elapsed:.0f} s"
    )


def in_play(bar: str, deals: int) -> str:
    """The first progress bar, drawn as the deals begin, with how many are in play."""
    return f"{bar} ({deals} in play)"


def fewer_note(fewer: Fewer) -> str:
    """The note that fewer deals are played at a time than asked, and why."""
    jobs = fewer.jobs
    return (
        f"note: {jobs} deal{'s' if jobs > 1 else ''} at a time, not {fewer.wanted}: each may "
        f"hold about {fewer.each >> 20:,} MB (its limit of {fewer.limit:,} positions, or the "
        f"memory ceiling), and together they keep within {SHARED} quarters of this machine's "
        f"{fewer.machine >> 20:,} MB"
    )


def died_text(died: WorkerDied) -> str:
    """The warning that a worker died before it handed back its deal's result."""
    status = died.status
    how = f"killed by signal {-status}" if status is not None and status < 0 else f"status {status}"
    return f"a worker ended before it finished its deal ({how}); the deals finished are kept"


def listed(deals: tuple[str, ...], most: int = LISTED) -> str:
    """The first ``most`` deals, comma-separated, with "..." for the rest."""
    return ", ".join(deals[:most]) + (" ..." if len(deals) > most else "")


def origin(summary: Summary, searcher: str) -> str:
    """The line that says how many deals were played and how many read back."""
    played = summary.deals - summary.read
    if not summary.read:
        return f"deals played: {played} (none read from the results file)"
    return (
        f"deals played: {played}; read from the results file: {summary.read} (stored by an "
        f"earlier run of the same {searcher}, not played again)"
    )


def known_report(summary: Summary, limit: int, time_limit: float | None = None) -> str:
    """The report of a run with every card known, each deal at most ``limit`` positions
    (and ``time_limit`` seconds)."""
    most = f"at most {limit:,} positions" + (
        f" and {time_limit:g} s" if time_limit is not None else ""
    )
    lines = [
        f"{summary.suits}-suit deals: {summary.deals}, won {summary.won} ({summary.rate:.1f}%) "
        f"with every card known, {most} each",
        f"time per deal: median {summary.median:.2f} s, 95th percentile {summary.p95:.2f} s",
        f"positions per second: {summary.positions_per_second:,.0f}",
        f"wall time: {summary.wall:.1f} s",
        origin(summary, "search"),
    ]
    if summary.second_stage:
        lines.append(f"won by the second stage: {listed(summary.second_stage)}")
    if summary.lost:
        lines.append(f"not won: {listed(summary.lost)}")
    if summary.proved:
        lines.append(
            f"proved unwinnable: {listed(summary.proved)} ('spider solve --seed DEAL' says why)"
        )
    return "\n".join(lines)


def blind_report(summary: Summary, results: list[DealResult], level: Level, budget: int) -> str:
    """The report of a blind run by the player at ``level``, ``budget`` positions a search:
    the share won with its 95% interval, moves, time and positions per second."""
    low, high = wilson(summary.won, summary.deals)
    mean = sum(r.seconds for r in results) / len(results) if results else 0.0
    what = f"blind, {level.value} level, {budget:,} positions a search"
    lines = [
        f"{summary.suits}-suit deals: {summary.deals}, won {summary.won} ({summary.rate:.1f}%, "
        f"95% interval {100 * low:.1f}-{100 * high:.1f}%) {what}",
        f"moves per game: {summary.moves_mean:.0f} on average",
        f"time per game: mean {mean:.2f} s, median {summary.median:.2f} s, "
        f"95th percentile {summary.p95:.2f} s",
        f"positions per second: {summary.positions_per_second:,.0f}",
        f"wall time: {summary.wall:.1f} s",
        origin(summary, "player"),
    ]
    if summary.lost:
        lines.append(f"not won: {listed(summary.lost)}")
    return "\n".join(lines)


def summary_json(
    summary: Summary,
    results: list[DealResult],
    seeds: str,
    mode: BenchMode,
    limits: Limits,
    earlier: int = 0,
) -> dict[str, object]:
    """``spider bench --json``, in either mode: the variant, the mode, the deals asked for,
    the limits, the figures (``earlier`` results read from the results file) and a row per
    deal. docs/json.md describes every field."""
    low, high = wilson(summary.won, summary.deals)
    return {
        "schema": SCHEMA,
        "variant": f"{summary.suits}-suit",
        "suits": summary.suits,
        "mode": mode.value,
        "seeds": seeds,
        "limits": asdict(limits),
        "played": summary.deals,
        "won": summary.won,
        "share": summary.rate / 100,
        "interval95": [low, high],
        "moves_mean": summary.moves_mean,
        "seconds_median": summary.median,
        "seconds_p95": summary.p95,
        "positions_per_second": summary.positions_per_second,
        "wall": summary.wall,
        "from_earlier_runs": earlier,
        "deals": [r.as_json() for r in results],
    }
