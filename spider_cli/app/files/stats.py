"""Statistics per variant (1, 2 or 4 suits), read from the history of games.

Games played, won, the share won, the current and the longest win streak, the best score and
the average time of a win, counted from the finished games of numbered deals in the history
(:mod:`spider_cli.app.files.gamelog`); a loaded position is not counted.

Earlier versions kept games, wins and the best score in a small JSON file, ``stats.json``, in
the data directory. Its figures are carried into the history once (a note in the history
says so), the first time the statistics are asked for; the file itself is left in place. A
damaged file is set aside as ``stats.json.damaged`` with a warning.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from spider_cli.app.files.atomic import move_aside
from spider_cli.app.files.gamelog import LARGEST, Carried, Entry, GameLog, Result
from spider_cli.app.files.userdirs import UntrustedError, check_private, data_dir
from spider_cli.language.files import textfiles as files
from spider_cli.rules.text import clock_text

FILE_NAME = "stats.json"
MAX_BYTES = 64 * 1024
"""A statistics file is a few hundred bytes: anything over this is damaged."""
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
    """Every variant's record in the old file, and a warning if it could not be read."""

    records: dict[int, Record] = field(default_factory=dict)
    warning: str | None = None


def stats_path() -> Path:
    return data_dir() / FILE_NAME


def _valid(entry: object) -> Record | None:
    """The record in a JSON entry, or None if the entry is not a sound record."""
    if not isinstance(entry, dict) or set(entry) - {"games", "wins", "best"}:
        return None
    games, wins, best = entry.get("games", 0), entry.get("wins", 0), entry.get("best")
    numbers = [games, wins] + ([] if best is None else [best])
    if not all(type(n) is int and 0 <= n <= LARGEST for n in numbers) or wins > games:
        return None
    return Record(games, wins, best)


def load(path: Path | None = None) -> Stats:
    """The old statistics file's figures; a missing file is none, a damaged one is set aside
    (what is not a regular file is left as it is)."""
    path = path or stats_path()
    if files.missing(path) is not None:
        return Stats()
    try:
        check_private(path.parent)
    except (UntrustedError, OSError) as error:
        return Stats(warning=f"{error}; the old statistics are not counted")
    records: dict[int, Record] = {}
    try:
        data = json.loads(files.read_text(path, FILE_NAME, MAX_BYTES, follow_links=False))
        variants = data["variants"] if data.get("format") == FORMAT else None
        if not isinstance(variants, dict):
            raise ValueError("not a statistics file")
        for key, entry in variants.items():
            record = _valid(entry)
            if record is None or key not in {str(v) for v in VARIANTS}:
                raise ValueError(f"bad entry {key!r}")
            records[int(key)] = record
    except (ValueError, AttributeError, KeyError, TypeError, RecursionError) as error:
        aside = path.with_name(path.name + ".damaged")
        if not move_aside(path, aside):
            return Stats(warning=f"{error}; its figures are not counted")
        return Stats(
            warning=f"the old statistics file was damaged (kept as {aside.name}); "
            "its figures are not counted"
        )
    return Stats(records)


LEGACY_NOTE = "stats.json carried over"
"""The history's note that the old statistics file's figures were added (once)."""


def migrate(log: GameLog, path: Path | None = None) -> str | None:
    """Carry the figures of the old statistics file into the history, once (the file stays
    where it is, for older spiders); a warning if the file was damaged."""
    old = load(path)
    if old.records:
        figures = {s: Carried(r.games, r.wins, r.best) for s, r in old.records.items()}
        log.carry(LEGACY_NOTE, figures)
    return old.warning


@dataclass(frozen=True)
class Figures:
    """One variant's figures: games finished and won, the win streak running now and the
    longest, the best score, and the average time played in a win (None: none timed)."""

    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0
    best: int | None = None
    win_seconds: float | None = None


def figures(games: Iterable[Entry], carried: dict[int, Carried]) -> dict[int, Figures]:
    """Each variant's figures from its finished games (in the order they ended) and the
    figures carried over from the old statistics file."""
    played: dict[int, int] = {}
    won: dict[int, int] = {}
    streak: dict[int, int] = {}
    longest: dict[int, int] = {}
    best: dict[int, int | None] = {}
    times: dict[int, list[float]] = {}
    for suits, old in carried.items():
        played[suits], won[suits], best[suits] = old.games, old.wins, old.best
    for game in games:
        suits = game.suits
        played[suits] = played.get(suits, 0) + 1
        previous = best.get(suits)
        best[suits] = game.score if previous is None else max(previous, game.score)
        if game.result is Result.WON:
            won[suits] = won.get(suits, 0) + 1
            streak[suits] = streak.get(suits, 0) + 1
            longest[suits] = max(longest.get(suits, 0), streak[suits])
            if game.seconds > 0:
                times.setdefault(suits, []).append(game.seconds)
        else:
            streak[suits] = 0
    return {
        suits: Figures(
            played[suits],
            won.get(suits, 0),
            streak.get(suits, 0),
            longest.get(suits, 0),
            best.get(suits),
            sum(times[suits]) / len(times[suits]) if suits in times else None,
        )
        for suits in played
    }


def report(log: GameLog | None = None, path: Path | None = None) -> str:
    """The statistics as a small table, one line per variant played (numbered deals only)."""
    log = log or GameLog()
    warning = migrate(log, path)
    lines = [*log.take_notices(), *([warning] if warning else [])]
    table = figures(log.finished(), log.carried())
    lines += log.take_notices()
    played = [(v, table[v]) for v in VARIANTS if v in table]
    if not played:
        lines.append(
            "no games counted yet: a numbered deal counts when it is won, lost or given up"
        )
        return "\n".join(lines)
    lines.append("variant   played  won  won %  streak  best streak  best score  average win")
    for suits, f in played:
        rate = f"{100 * f.won / f.played:.0f}%" if f.played else "-"
        best = "-" if f.best is None else str(f.best)
        average = "-" if f.win_seconds is None else clock_text(f.win_seconds)
        name = f"{suits} suit{'s' if suits != 1 else ''}"
        lines.append(
            f"{name:<9} {f.played:>6} {f.won:>4} {rate:>6} {f.streak:>7} {f.best_streak:>12}"
            f" {best:>11} {average:>12}"
        )
    return "\n".join(lines)
