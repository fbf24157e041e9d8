"""Statistics per variant (1, 2 or 4 suits): games played, games won, the best score.

Kept as a small JSON file in the player's data directory (see :mod:`spider_cli.app.userdirs`),
replaced atomically at every change. A damaged file is set aside as ``stats.json.damaged``
and counting starts afresh, with a warning: statistics are never worth a traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from spider_cli.app.atomic import write_atomically
from spider_cli.app.userdirs import data_dir

FILE_NAME = "stats.json"
MAX_BYTES = 64 * 1024
"""A statistics file is a few hundred bytes: anything over this is damaged."""
LOCK_SECONDS = 30
"""How long one update waits for another process's update to finish."""
FORMAT = "spider statistics"
VARIANTS = (4, 2, 1)


@dataclass
class Record:
    """One variant's figures; ``best`` is None until a game has been counted."""

    games: int = 0
    wins: int = 0
    best: int | None = None


@dataclass
class Stats:
    """Every variant's record, and a warning if the file could not be read."""

    records: dict[int, Record] = field(default_factory=dict)
    warning: str | None = None

    def record(self, suits: int) -> Record:
        return self.records.setdefault(suits, Record())


def stats_path() -> Path:
    return data_dir() / FILE_NAME


def _valid(entry: object) -> Record | None:
    """The record in a JSON entry, or None if the entry is not a sound record."""
    if not isinstance(entry, dict) or set(entry) - {"games", "wins", "best"}:
        return None
    games, wins, best = entry.get("games", 0), entry.get("wins", 0), entry.get("best")
    numbers = [games, wins] + ([] if best is None else [best])
    if not all(type(n) is int and n >= 0 for n in numbers) or wins > games:
        return None
    return Record(games, wins, best)


def load(path: Path | None = None) -> Stats:
    """The statistics on file; a missing file is no games yet, a damaged one is set aside."""
    path = path or stats_path()
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_BYTES + 1)
        text = raw.decode("utf-8")
    except FileNotFoundError:
        return Stats()
    except (OSError, UnicodeDecodeError) as error:
        return Stats(warning=f"cannot read the statistics ({_reason(error)}); counting afresh")
    records: dict[int, Record] = {}
    try:
        if len(raw) > MAX_BYTES:
            raise ValueError("far too big for a statistics file")
        data = json.loads(text)
        variants = data["variants"] if data.get("format") == FORMAT else None
        if not isinstance(variants, dict):
            raise ValueError("not a statistics file")
        for key, entry in variants.items():
            record = _valid(entry)
            if record is None or key not in {str(v) for v in VARIANTS}:
                raise ValueError(f"bad entry {key!r}")
            records[int(key)] = record
    except (ValueError, AttributeError, KeyError, TypeError, RecursionError):
        aside = path.with_name(path.name + ".damaged")
        with contextlib.suppress(OSError):
            os.replace(path, aside)
        return Stats(
            warning=f"the statistics file was damaged (kept as {aside.name}); "
            "counting starts afresh"
        )
    return Stats(records)


def save(stats: Stats, path: Path | None = None) -> None:
    """Write the statistics atomically; raises OSError."""
    path = path or stats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "format": FORMAT,
        "version": 1,
        "variants": {str(k): asdict(v) for k, v in sorted(stats.records.items(), reverse=True)},
    }
    write_atomically(path, json.dumps(data, indent=2) + "\n")


def record_game(suits: int, won: bool, score: int, path: Path | None = None) -> str | None:
    """Count one finished (won, lost or abandoned) game; returns a warning, or None.

    Reading and writing happen under a lock file beside the statistics, so two spiders
    counting at once never lose an update."""
    from filelock import FileLock, Timeout

    path = path or stats_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(path.with_name(path.name + ".lock"), timeout=LOCK_SECONDS):
            stats = load(path)
            record = stats.record(suits)
            record.games += 1
            record.wins += int(won)
            record.best = score if record.best is None else max(record.best, score)
            save(stats, path)
    except Timeout:
        return "cannot save the statistics: another spider kept them locked"
    except OSError as error:
        return f"cannot save the statistics: {_reason(error)}"
    return stats.warning


def report(path: Path | None = None) -> str:
    """The statistics as a small table, one line per variant played."""
    stats = load(path)
    lines = [stats.warning] if stats.warning else []
    played = [(v, stats.records[v]) for v in VARIANTS if v in stats.records]
    if not played:
        lines.append(
            "no games counted yet: a game counts when it is won, lost or given up for another"
        )
        return "\n".join(lines)
    lines.append("variant   games   wins   won %   best score")
    for suits, rec in played:
        rate = f"{100 * rec.wins / rec.games:.0f}%" if rec.games else "-"
        best = "-" if rec.best is None else str(rec.best)
        name = f"{suits} suit{'s' if suits != 1 else ''}"
        lines.append(f"{name:<9} {rec.games:>5}  {rec.wins:>5}  {rate:>6}   {best:>10}")
    return "\n".join(lines)


def _reason(error: BaseException) -> str:
    return getattr(error, "strerror", None) or str(error)
