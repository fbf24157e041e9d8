"""The benchmarks page's charts, drawn from the results files in benchmarks/results/.

    python docs/charts.py            # writes docs/charts/*.svg

- ``blind-win-rate.svg``: the blind player's share of deals won, by number of suits and
  level, with 95% Wilson intervals (``benchmarks/results/blind.csv``);
- ``solve-times.svg``: full-information play over PySolFC's 32,000 deals with 1, 2 and 4
  suits, the share of deals won within a time and within a number of positions
  (``benchmarks/results/pysol-*.csv``).

The SVG files are deterministic (no date, a fixed hash salt), so a rerun on the same results
changes nothing. Needs matplotlib (the ``docs`` extra).
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
OUT = Path(__file__).resolve().parent / "charts"
TABLES = {1: "pysol-1suit.csv", 2: "pysol-2suits.csv", 4: "pysol-4suits.csv"}
LEVELS = ("plain", "quick")
COLOURS = {"plain": "#7a8ca3", "quick": "#c2553a", 1: "#3a7dc2", 2: "#3aa35b", 4: "#c2553a"}


def wilson(won: int, played: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share won, as ``spider bench`` gives it."""
    share = won / played
    middle = (share + z * z / (2 * played)) / (1 + z * z / played)
    half = z * math.sqrt(share * (1 - share) / played + z * z / (4 * played * played))
    return middle - half / (1 + z * z / played), middle + half / (1 + z * z / played)


def _save(figure: plt.Figure, name: str) -> Path:
    OUT.mkdir(exist_ok=True)
    path = OUT / name
    figure.savefig(path, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(figure)
    return path


def blind_win_rate() -> Path:
    """Share won blind, by suits and level, with intervals."""
    with (RESULTS / "blind.csv").open(encoding="utf-8") as table:
        rows = list(csv.DictReader(table))
    figure, axes = plt.subplots(figsize=(7, 3.6))
    suits = sorted({int(row["suits"]) for row in rows})
    for offset, level in zip((-0.17, 0.17), LEVELS, strict=True):
        xs, shares, lows, highs, labels = [], [], [], [], []
        for index, count in enumerate(suits):
            for row in rows:
                if int(row["suits"]) == count and row["level"] == level:
                    won, played = int(row["won"]), int(row["played"])
                    low, high = wilson(won, played)
                    xs.append(index + offset)
                    shares.append(100 * won / played)
                    lows.append(100 * (won / played - low))
                    highs.append(100 * (high - won / played))
                    labels.append(f"{won}/{played}")
        axes.bar(xs, shares, width=0.32, color=COLOURS[level], label=level)
        axes.errorbar(xs, shares, yerr=[lows, highs], fmt="none", ecolor="black", capsize=3)
        for x, label in zip(xs, labels, strict=True):
            axes.annotate(label, (x, 2), ha="center", fontsize=7, color="white", rotation=90)
    axes.set_xticks(range(len(suits)), [f"{count} suit{'s' * (count > 1)}" for count in suits])
    axes.set_ylabel("deals won (%)")
    axes.set_ylim(0, 100)
    axes.set_title("Blind play, held-out deals, 10,000 positions a search (95% intervals)")
    axes.legend(title="level", loc="upper right")
    axes.grid(axis="y", alpha=0.3)
    return _save(figure, "blind-win-rate.svg")


def _won(count: int) -> tuple[list[float], list[int], int]:
    """The seconds and positions of the won deals of a table, and how many deals it has."""
    seconds: list[float] = []
    positions: list[int] = []
    deals = 0
    with (RESULTS / TABLES[count]).open(encoding="utf-8") as table:
        for row in csv.DictReader(table):
            deals += 1
            if row["won"] == "1":
                seconds.append(float(row["seconds"]))
                positions.append(int(row["positions"]))
    return sorted(seconds), sorted(positions), deals


def solve_times() -> Path:
    """The share of the 32,000 deals won within a time, and within a number of positions."""
    figure, (by_time, by_positions) = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
    for count in TABLES:
        seconds, positions, deals = _won(count)
        label = f"{count} suit{'s' * (count > 1)}: {len(seconds):,} of {deals:,} won"
        every = max(1, len(seconds) // 400)  # a point every 1/400 of the curve is enough
        kept = [*range(0, len(seconds), every), len(seconds) - 1]
        shares = [100 * (i + 1) / deals for i in kept]
        seconds = [seconds[i] for i in kept]
        positions = [positions[i] for i in kept]
        by_time.step(
            [max(s, 0.001) for s in seconds],
            shares,
            where="post",
            label=label,
            color=COLOURS[count],
        )
        by_positions.step(positions, shares, where="post", color=COLOURS[count])
    by_time.set_xscale("log")
    by_time.set_xlabel("seconds a deal (wall time, two workers, loaded machine)")
    by_time.set_ylabel("deals won within it (%)")
    by_time.legend(loc="lower right", fontsize=8)
    by_positions.set_xscale("log")
    by_positions.set_xlabel("positions examined (the same on any machine)")
    for axes in (by_time, by_positions):
        axes.grid(alpha=0.3)
        axes.set_ylim(0, 100.5)
    figure.suptitle("PySolFC's deals 1-32000, every card known, 20,000,000 positions a deal")
    return _save(figure, "solve-times.svg")


def main() -> None:
    matplotlib.rcParams["svg.hashsalt"] = "spider"
    for path in (blind_win_rate(), solve_times()):
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
