"""Which path the searches run on: the compiled core (``spider_cli.analysis._core``, built
from ``csrc/`` by ``pip install``) or the Python reference. One place decides.

The core is loaded only when a search first asks for it, so start-up does not pay for it.
``SPIDER_PURE=1`` in the environment forces the Python path; so does :func:`pure` (the tests
run the analysis on both paths with it). Where the core was not built (no C compiler at
install time) everything runs on the Python path, and :func:`status` says so in a
player's words. Both paths give the same answers: the core's functions mirror the Python
ones step for step, and ``tests/test_core.py`` compares them.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from spider_cli.rules.engine import DEAL, Action, Move, Remove

_UNLOADED = object()
_module: object = _UNLOADED
_forced_pure = 0

ABSENT = (
    "the compiled search core is not built (no C compiler at install time?): "
    "searches run in pure Python, about 30 times slower, and a hint does not look ahead "
    "over what could turn up ('hint deeper' does)"
)


def _load() -> ModuleType | None:
    global _module
    if _module is _UNLOADED:
        try:
            from spider_cli.analysis import _core  # type: ignore[attr-defined]
        except ImportError:
            _module = None
        else:
            _module = _core
    return _module  # type: ignore[return-value]


def built() -> bool:
    """Was the compiled core built for this installation?"""
    return _load() is not None


def wanted() -> bool:
    """Does the user (``SPIDER_PURE``) or a test (:func:`pure`) keep the Python path?"""
    return not _forced_pure and os.environ.get("SPIDER_PURE", "") in ("", "0")


def core() -> ModuleType | None:
    """The compiled core, or None: the searches then take the Python path."""
    return _load() if wanted() else None


def status() -> str:
    """Which path the searches take, in a player's words."""
    if not built():
        return ABSENT
    if not wanted():
        return (
            "the compiled search core is turned off (SPIDER_PURE): searches run in pure "
            "Python, about 30 times slower"
        )
    return "compiled search core: in use"


def missing() -> bool:
    """Was the compiled core left out at install time? Found without loading it, so that a
    start can say so and stay quick."""
    return importlib.util.find_spec("spider_cli.analysis._core") is None


def warning() -> str | None:
    """What to say once at the start of a long search when it will run slowly (or None)."""
    return None if built() or not wanted() else f"note: {ABSENT}"


@contextmanager
def pure() -> Iterator[None]:
    """Run the searches on the Python path within the block (for tests and comparisons)."""
    global _forced_pure
    _forced_pure += 1
    try:
        yield
    finally:
        _forced_pure -= 1


def action(kind: int, src: int, dst: int, count: int) -> Action:
    """An action from the core's (kind, src, dst, count): 0 a move, 1 a removal, 2 the deal."""
    if kind == 0:
        return Move(src, dst, count)
    if kind == 1:
        return Remove(src)
    return DEAL


def code(act: Action) -> tuple[int, int, int, int]:
    """The core's (kind, src, dst, count) of an action."""
    if isinstance(act, Move):
        return (0, act.src, act.dst, act.count)
    if isinstance(act, Remove):
        return (1, act.pile, act.pile, 13)
    return (2, 0, 0, 0)
