"""The memory ceiling of every search, as a number of positions.

A goal search (solve's A* and breadth-first searches) holds every position it has seen, so
its memory grows with the positions it examines, and so does each of the blind player's
searches (:func:`blind_positions`). However large a limit the user asks for,
it stops, answering "unknown" as at its limit, once it would hold more than the ceiling:
by default a quarter of the machine's memory, or what ``SPIDER_MEMORY`` says ("2G", "512M",
a number of bytes). The ceiling is
turned into positions with what one position was measured to cost on each path (see
BENCHMARKS.md), so a search stays deterministic: the same ceiling stops it at the same
position on every run. (Full-information play needs no ceiling: its beam keeps a bounded
number of positions whatever its limit.)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum

from spider_cli.rules.errors import SpiderError

VARIABLE = "SPIDER_MEMORY"
FALLBACK = 4 << 30
"""The ceiling where the machine will not say how much memory it has."""

_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


POSITION_BYTES = 160
"""What one position costs a goal search on the compiled core (a key and its parent),
measured on pysol:5 at 2 and 8 million positions (152 bytes) and rounded up."""

POSITION_BYTES_PYTHON = 800
"""The same on the Python path (735 bytes at 200,000 and 1,000,000 positions)."""


def parse(text: str) -> int:
    """Bytes from "2G", "512M", "64k" or a plain number; ValueError when it is none of them."""
    size = _size(text)
    if size is None:
        raise ValueError(f"{VARIABLE} should be a size such as 2G or 512M, not {text.strip()!r}")
    return size


def _size(text: str) -> int | None:
    """Bytes from "2G", "512M", "64k" or a plain number; None when it is none of them."""
    text = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = _UNITS.get(text[-1:], 1) if text else 1
    number = text[:-1] if unit > 1 else text
    if not number.isdigit() or int(number) == 0:
        return None
    return int(number) * unit


def machine() -> int:
    """The machine's memory in bytes (four times :data:`FALLBACK` where it will not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 4 * FALLBACK


def ceiling() -> int:
    """The bytes a search may hold: ``SPIDER_MEMORY`` when set (a bad value is reported,
    :func:`problem`, and the default used), else a quarter of the machine's memory."""
    size = _size(os.environ.get(VARIABLE, ""))
    return machine() // 4 if size is None else size


SHARED = 3
"""Of the machine's memory, the quarters that searches running side by side may hold
together (``spider bench``'s workers): one is left to everything else."""


PARENT_BYTES = 48 << 20
"""What a command whose workers share the ceiling keeps back for the processes that are not
workers: the parent that hands out the deals and stores the results, and multiprocessing's
resource tracker (about 28 and 13 MB at 4 suits, measured with the workers at their peak)."""


def worker_share(jobs: int) -> int:
    """The bytes each of ``jobs`` worker processes may hold when they share the ceiling
    (``spider bench --blind``): an equal part of what the parent and the tracker leave
    (:data:`PARENT_BYTES`), so that the command as a whole keeps to the ceiling. A fixed
    amount, not one measured at the time, so that the same command searches the same."""
    return max(1, (ceiling() - PARENT_BYTES) // max(1, jobs))


def workers(wanted: int, limit: int, compiled: bool) -> int:
    """How many of ``wanted`` searches of at most ``limit`` positions each may run at once:
    each may hold what its limit or the ceiling allows, whichever is less, and together no
    more than :data:`SHARED` quarters of the machine's memory. At least one. (The ceiling of
    each search stays the same, so its results do not depend on how many run.)"""
    return max(1, min(wanted, machine() * SHARED // 4 // held(limit, compiled)))


def held(limit: int, compiled: bool) -> int:
    """The most bytes a goal search of ``limit`` positions may hold: what its positions
    cost, or the ceiling, whichever is less."""
    return max(1, min(ceiling(), limit * cost(compiled)))


class Wrong(Enum):
    """What is wrong with ``SPIDER_MEMORY`` (:class:`Problem`)."""

    NOT_A_SIZE = "not a size"
    """Neither a number of bytes nor one with a unit (K, M, G, T), or no bytes at all."""


@dataclass(frozen=True)
class Problem:
    """What is wrong with ``SPIDER_MEMORY`` (the app says it): what, and the ``setting`` as
    written (without the spaces around it). The search then takes the default ceiling."""

    wrong: Wrong
    setting: str


def problem() -> Problem | None:
    """What is wrong with ``SPIDER_MEMORY`` (None: nothing, or it is not set)."""
    setting = os.environ.get(VARIABLE, "")
    if setting and _size(setting) is None:
        return Problem(Wrong.NOT_A_SIZE, setting.strip())
    return None


def cost(compiled: bool) -> int:
    """What one position costs a goal search on the compiled core (``compiled``) or on the
    Python path, in bytes."""
    return POSITION_BYTES if compiled else POSITION_BYTES_PYTHON


def positions(compiled: bool) -> int:
    """The most positions a goal search may examine on the compiled core (``compiled``) or
    on the Python path."""
    return max(1, ceiling() // cost(compiled))


BLIND_POSITION_BYTES = 200
"""What one position costs a blind player's search on the compiled core (its key in the
store, its node, its entry in a level), measured at 3 and 6 million positions on our deal 34
of two suits (about 165 bytes) and rounded up."""

BLIND_POSITION_BYTES_PYTHON = 560
"""The same on the Python path (about 490 bytes at 600,000 and 1,200,000 positions)."""


BLIND_TABLES = 2 / 3
"""The share of the ceiling a blind search's table of positions may take: the rest is for
the lines it hands back (:func:`blind_reveal_moves`) and the program itself."""

MOVE_BYTES = 200
"""What one move of a line a blind search hands back costs in Python while the core's list of
them is read (the core's tuple of four ints, then the ``Move``): a beam's lines run to
thousands of moves, so the lines are counted by their moves (at 150 MB, 2,048 lines of a
192,419-position search took 200 MB with tracemalloc)."""

REVEALS_SHARE = 1 / 4
"""The share of the ceiling the lines a turn's three searches hand back may take together."""


def blind_positions(compiled: bool) -> int:
    """The most positions one search of the blind player may examine: on the compiled core
    (``compiled``) or on the Python path. A turn runs its searches one after another, each
    freed before the next; the lines they hand back are bounded apart
    (:func:`blind_reveal_moves`)."""
    cost = BLIND_POSITION_BYTES if compiled else BLIND_POSITION_BYTES_PYTHON
    return max(1, int(ceiling() * BLIND_TABLES) // cost)


def blind_reveal_moves(compiled: bool) -> int:
    """The moves the lines ending at a card turned up that one blind search hands back may
    hold in all (the first found kept): more than a search within the budgets a player asks
    for finds (at most 12,133 at 10,000 positions, 223,625 at 100,000, on 108 positions of
    our deals 0-11), but bounded, since the player keeps a turn's lines as Python objects
    (``compiled``: the path, which makes no difference here)."""
    del compiled  # (the objects are the same on both paths)
    return max(1, int(ceiling() * REVEALS_SHARE) // 3 // MOVE_BYTES)


BACKSTOP = 2
"""The compiled core's own ceiling, in ceilings: each call holds at most this many times
:func:`ceiling` bytes, whatever it was asked (a direct call too). Its searches stop first at
the positions the ceiling allows; the core's tables grow by doubling, so the backstop leaves
room for that, and catches what the positions' measured cost does not."""


def core_ceiling() -> int:
    """The bytes one call into the compiled core may hold (:data:`BACKSTOP`)."""
    return BACKSTOP * ceiling()


class CeilingError(SpiderError):
    """A search that stopped because it would have held more memory than it may."""


def reached_core(error: MemoryError) -> CeilingError:
    """The core's MemoryError in a player's words."""
    return CeilingError(
        f"the search stopped: it would have held more than {core_ceiling() >> 20:,} MB"
        f" ({VARIABLE} sets the ceiling; {error})"
    )
