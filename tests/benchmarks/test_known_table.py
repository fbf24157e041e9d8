"""The tables of full-information play kept in the repository (``benchmarks/results/*.csv``,
made by ``benchmarks/known_table.py`` from a ``spider bench --db`` run) are reproducible:
the search is deterministic, so a row solved again gives the same moves, positions and
stage. A few rows are taken at random (seeded, among the deals small enough for the Python
path) and solved again on the path in use; every row must be well formed.

A change to the search raises ``autoplay.BEAM_VERSION`` or ``autoplay.SECOND_VERSION``
(tests/analysis/test_search_version.py);
the tables are then remade by a new run, and this test says so when a row no longer holds."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from spider_cli.analysis.bench.full import parse_deals
from spider_cli.analysis.limits import PLAY_LIMIT, Limit
from spider_cli.analysis.solve import autoplay

RESULTS = Path(__file__).parents[2] / "benchmarks" / "results"

TABLES = sorted([*RESULTS.glob("pysol-*.csv"), *RESULTS.glob("ours-*.csv")])
"""The tables of full-information play (the results folder also keeps blind play's and the
judge's tables, of other columns)."""

SMALL = 150_000
"""Rows re-solved are drawn among deals won within this many positions (a few seconds on
the Python path)."""

DRAWN = 3
"""Rows re-solved from each table."""

STAGES = {"beam", "portfolio", "complete", "proved", ""}


def _suits(table: Path) -> int:
    """The suits a table's name gives: ``pysol-4suits.csv``, ``pysol-1suit.csv``."""
    return int(table.stem.rpartition("-")[2].removesuffix("suits").removesuffix("suit"))


def rows(table: Path) -> list[dict[str, str]]:
    with table.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_the_tables_are_there() -> None:
    assert any(t.name == "pysol-4suits.csv" for t in TABLES)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_every_row_is_well_formed(table: Path) -> None:
    """One row per deal, in order, each a deal spider can name, with its figures."""
    suits = _suits(table)
    found = rows(table)
    assert found, table
    deals = [parse_deals(row["deal"], suits)[0] for row in found]
    assert len(set(deals)) == len(deals)
    assert deals == sorted(deals, key=lambda d: (d.source.value, d.number))
    for row in found:
        assert row["won"] in ("0", "1") and row["stage"] in STAGES, row
        assert int(row["moves"]) >= 0 and int(row["positions"]) > 0, row
        assert (int(row["moves"]) > 0) == (row["won"] == "1"), row
        assert float(row["seconds"]) >= 0.0, row


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_rows_solved_again_give_the_same_figures(table: Path) -> None:
    suits = _suits(table)
    small = [r for r in rows(table) if r["won"] == "1" and int(r["positions"]) <= SMALL]
    for row in random.Random(table.name).sample(small, DRAWN):
        deal = parse_deals(row["deal"], suits)[0]
        result = autoplay.play(deal.game(), Limit(PLAY_LIMIT))
        again = (result.won, len(result.actions), result.positions, result.stage.value)
        assert again == (True, int(row["moves"]), int(row["positions"]), row["stage"]), (
            f"{row['deal']} no longer solves as {table.name} says: remake the table "
            "(benchmarks/results/README.md) after the search's version is raised"
        )
