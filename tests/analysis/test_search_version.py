"""The versions of full-information play (``autoplay.BEAM_VERSION`` and
``autoplay.SECOND_VERSION``) are raised whenever what it finds changes: ``spider bench`` keeps
results under the search's key, and a result of an older search must not be read back as
this one's.

A few deals are played at small limits (won and not won) on each path, and what the search
found (won, positions, moves, the line's digest) is compared with what the versions in
tests/golden/search_version.json found. A change to the search that leaves the versions as
they were fails here: the beam's when a deal the beam won changes (such results are kept
under the beam's key alone), else the second stage's. After raising one, remake the file:
``python tests/analysis/test_search_version.py``."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from spider_cli.analysis import memory, native
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.solve import autoplay
from spider_cli.rules.deals import DealSource, Source

GOLDEN = Path(__file__).parents[1] / "golden" / "search_version.json"

CASES = [
    (DealSource(Source.OURS, 1, 1), 30_000, autoplay.WIDTHS),
    (DealSource(Source.OURS, 1, 2), 30_000, autoplay.WIDTHS),
    (DealSource(Source.PYSOL, 7, 4), 40_000, autoplay.WIDTHS),
    (DealSource(Source.PYSOL, 3, 4), 30_000, autoplay.WIDTHS),
    (DealSource(Source.OURS, 1, 2), 30_000, (4,)),
    (DealSource(Source.PYSOL, 3, 4), 30_000, (4,)),
    (DealSource(Source.PYSOL, 3, 4), 250_000, (4,)),
]
"""Deals and limits: won with 1, 2 and 4 suits, and one not won within its limit; then
with a beam of width 4 alone, so that the second stage plays what it leaves: the complete
search alone, then a beam of the portfolio first."""


def found() -> list[dict[str, object]]:
    """What the search finds in each case, in JSON values."""
    rows: list[dict[str, object]] = []
    for deal, limit, widths in CASES:
        result = autoplay.play(deal.game(), Limit(limit), widths)
        line = "\n".join(result.texts).encode()
        rows.append(
            {
                "deal": str(deal),
                "suits": deal.suits,
                "limit": limit,
                "widths": list(widths),
                "won": result.won,
                "stage": result.stage.value,
                "positions": result.positions,
                "moves": len(result.texts),
                "line": hashlib.blake2b(line, digest_size=8).hexdigest(),
            }
        )
    return rows


def test_the_search_version_names_what_the_search_finds() -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    remake = (
        "then remake tests/golden/search_version.json: python tests/analysis/test_search_version.py"
    )
    versions = [autoplay.BEAM_VERSION, autoplay.SECOND_VERSION]
    assert golden["versions"] == versions, (
        f"the golden file is of versions {golden['versions']}, the search of {versions}: {remake}"
    )
    now = found()
    beam = [k for k, r in enumerate(golden["results"]) if r["won"] and r["stage"] == "beam"]
    assert [now[k] for k in beam] == [golden["results"][k] for k in beam], (
        "the beam finds otherwise than its version did: raise autoplay.BEAM_VERSION (stored "
        f"bench results of the deals it won are keyed by it), {remake}"
    )
    assert now == golden["results"], (
        "the second stage finds otherwise than its version did: raise "
        f"autoplay.SECOND_VERSION (stored bench results are keyed by it), {remake}"
    )


def test_the_keys_name_the_versions() -> None:
    key = autoplay.search_key(1000)
    assert key.beam.startswith(f"beam version {autoplay.BEAM_VERSION},")
    assert key.full.startswith(f"{key.beam}, second stage version {autoplay.SECOND_VERSION}")


def test_the_key_names_the_memory_ceiling_and_the_path_where_they_decide(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each path turns the memory ceiling into positions at its own cost: where that stops
    the complete search short of the limit, the paths (and machines) can differ."""
    monkeypatch.setattr(memory, "positions", lambda compiled: 5_000)
    assert "held" not in autoplay.search_key(5_000).full
    key = autoplay.search_key(20_000)
    path = "compiled core" if native.backend().compiled else "Python"
    assert key.full.endswith(f", at most 5000 positions held ({path})")
    assert "held" not in key.beam  # (the beam holds its width, whatever the ceiling)


if __name__ == "__main__":
    data = {"versions": [autoplay.BEAM_VERSION, autoplay.SECOND_VERSION], "results": found()}
    GOLDEN.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
