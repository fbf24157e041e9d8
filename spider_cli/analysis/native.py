"""Which path the searches run on: the compiled core (``spider_cli.analysis._core``, built
from ``csrc/`` by ``pip install``) or the Python reference. One place decides
(:func:`backend`), and both paths do what :class:`Backend` says.

The core is loaded only when a search first asks for it, so start-up does not pay for it.
``SPIDER_PURE=1`` in the environment forces the Python path; so does :func:`pure` (the tests
run the analysis on both paths with it). Where the core was not built (no C compiler at
install time) everything runs on the Python path (:func:`unused` says why, as data the
application words), and so does a position beyond the core's bounds (more cards than it
holds: none a game can reach). Both paths give the same answers: the core's functions
mirror the Python ones step for step, and ``tests/analysis/test_core*.py`` compare them.
What the core is given is checked there (a bad argument is a ValueError, never a crash): an
error is a bug to see, never a reason to take the other path.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import Enum
from types import ModuleType
from typing import TYPE_CHECKING, ParamSpec, Protocol, TypeVar

from spider_cli.analysis import compact, memory
from spider_cli.analysis.compact import Start, State
from spider_cli.analysis.limits import Expired, Limit
from spider_cli.rules.engine import DEAL, Action, Move, Remove
from spider_cli.rules.shuffle import SplitMix64

if TYPE_CHECKING:  # (each search's modules load with its first search, so a start stays quick)
    from spider_cli.analysis.blind import (
        Draw,
        Effort,
        Found,
        Line,
        Playout,
        Request,
        Reveal,
        Weighed,
        rollouts,
    )
    from spider_cli.analysis.search import Orders, Searched, Sought

_UNLOADED = object()
_module: object = _UNLOADED
_forced_pure = 0


class Backend(Protocol):
    """What a search path does: the rules on compact positions, and each search. The Python
    path is the reference; the compiled core does the same step for step."""

    compiled: bool
    """The compiled core (its memory ceilings and speed), rather than the Python path."""

    def moves(self, piles: State, spaces: Sequence[int], whole: bool = True) -> list[Move | Remove]:
        """:func:`spider_cli.analysis.compact.actions`: the moves and removals, in order."""
        ...

    def apply(self, piles: State, action: Move | Remove) -> tuple[list[bytes], int, int]:
        """:func:`spider_cli.analysis.compact.apply`: (piles, pile turned up, outcome)."""
        ...

    def beam(
        self, start: Start, width: int, limit: Limit, ties: int = 0
    ) -> tuple[list[Action] | None, int]:
        """:func:`spider_cli.analysis.search.beam.beam`: full-information play's beam search (ties
        in its ranking broken by ``ties``: the second stage's portfolio tries others)."""
        ...

    def beam_best(
        self, start: Start, width: int, limit: Limit
    ) -> tuple[list[Action] | None, int, int]:
        """:func:`spider_cli.analysis.search.beam.beam_best`: :meth:`beam`, and the most
        progress of a position it examined (the judge's dense score)."""
        ...

    def goal_search(self, sought: Sought) -> Searched:
        """:func:`spider_cli.analysis.search.goal.astar` (a beam of the request's width, if
        any): one search of ``solve``."""
        ...

    def blind_search(self, request: Request, reveals: list[Reveal] | None = None) -> Found:
        """:func:`spider_cli.analysis.blind.player.search`, within the memory ceiling."""
        ...

    def rollout(self, playout: Playout) -> rollouts.Outcome:
        """:func:`spider_cli.analysis.blind.rollouts.rollout`, each search within the ceiling."""
        ...

    def chance_search(
        self,
        draw: Draw,
        candidates: Sequence[Line],
        effort: Effort,
        expired: Expired | None = None,
    ) -> Weighed:
        """:func:`spider_cli.analysis.blind.weighing.search`: the blind player's choices weighed
        on deals sampled from ``draw`` as hard as ``effort`` says, each search within the
        ceiling."""
        ...

    def orders(self, orders: Orders, limit: Limit) -> tuple[bool | None, int]:
        """:meth:`spider_cli.analysis.search.firstmoves.Orders.search`: does some order of first
        moves reach an end (None: not known within ``limit``, in states), and the states
        examined."""
        ...


class Python:
    """The Python path (the reference): each search as its module writes it."""

    compiled = False

    def moves(self, piles: State, spaces: Sequence[int], whole: bool = True) -> list[Move | Remove]:
        return list(compact.actions(piles, list(spaces), whole))

    def apply(self, piles: State, action: Move | Remove) -> tuple[list[bytes], int, int]:
        return compact.apply(piles, action)

    def beam(
        self, start: Start, width: int, limit: Limit, ties: int = 0
    ) -> tuple[list[Action] | None, int]:
        from spider_cli.analysis.search import beam

        return beam.beam(start, width, limit, ties)

    def beam_best(
        self, start: Start, width: int, limit: Limit
    ) -> tuple[list[Action] | None, int, int]:
        from spider_cli.analysis.search import beam

        return beam.beam_best(start, width, limit)

    def goal_search(self, sought: Sought) -> Searched:
        from spider_cli.analysis.search import goal

        return goal.astar(sought)

    def blind_search(self, request: Request, reveals: list[Reveal] | None = None) -> Found:
        from spider_cli.analysis.blind import player as blindplayer

        capped = _capped(request, self.compiled)
        most = memory.blind_reveal_moves(self.compiled)
        return blindplayer.search(capped, reveals, most)

    def rollout(self, playout: Playout) -> rollouts.Outcome:
        from spider_cli.analysis.blind import rollouts

        policy = rollouts.capped(playout.policy, memory.blind_positions(self.compiled))
        return rollouts.rollout(self.blind_search, replace(playout, policy=policy))

    def chance_search(
        self,
        draw: Draw,
        candidates: Sequence[Line],
        effort: Effort,
        expired: Expired | None = None,
    ) -> Weighed:
        from spider_cli.analysis.blind import rollouts, weighing

        policy = rollouts.capped(effort.policy, memory.blind_positions(self.compiled))
        effort = replace(effort, policy=policy)
        return weighing.search(self.rollout, draw, candidates, effort, expired)

    def orders(self, orders: Orders, limit: Limit) -> tuple[bool | None, int]:
        return orders.search(limit)


def _capped(request: Request, compiled: bool) -> Request:
    """``request`` with its positions held to the blind player's memory ceiling."""
    most = min(request.limit.positions, memory.blind_positions(compiled))
    return replace(request, limit=request.limit.within(most))


P = ParamSpec("P")
R = TypeVar("R")


def _bounded(method: Callable[P, R]) -> Callable[P, R]:
    """A core search that stops at its byte ceiling (``memory.core_ceiling``) reported in a
    player's words (:class:`memory.CeilingError`), not as an internal error."""

    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except MemoryError as error:
            raise memory.reached_core(error) from error

    return call


class Core:
    """The compiled core: each search converted to the core's arguments and back. The only
    place that knows how the core takes them."""

    compiled = True

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.cards: int = module.MAX_CARDS
        """The most cards a position the core takes may hold."""

    def moves(self, piles: State, spaces: Sequence[int], whole: bool = True) -> list[Move | Remove]:
        found = self.module.actions(piles, list(spaces), whole)
        return [
            Move(src, dst, count) if kind == 0 else Remove(src) for kind, src, dst, count in found
        ]

    def apply(self, piles: State, action: Move | Remove) -> tuple[list[bytes], int, int]:
        new, turned, outcome = self.module.apply(piles, code(action))
        return new, turned, outcome

    @_bounded
    def beam(
        self, start: Start, width: int, limit: Limit, ties: int = 0
    ) -> tuple[list[Action] | None, int]:
        from spider_cli.analysis.search import MAX_LEVELS

        removed = len(start.removed)
        line, positions = self.module.beam(
            start.piles,
            start.rows,
            removed,
            width,
            limit.positions,
            MAX_LEVELS,
            limit.expired,
            ties,
            memory.core_ceiling(),
        )
        return (None if line is None else [action(*a) for a in line]), positions

    @_bounded
    def beam_best(
        self, start: Start, width: int, limit: Limit
    ) -> tuple[list[Action] | None, int, int]:
        from spider_cli.analysis.search import MAX_LEVELS

        line, positions, best = self.module.beam_best(
            start.piles,
            start.rows,
            len(start.removed),
            width,
            limit.positions,
            MAX_LEVELS,
            limit.expired,
            0,
            memory.core_ceiling(),
        )
        return (None if line is None else [action(*a) for a in line]), positions, best

    @_bounded
    def goal_search(self, sought: Sought) -> Searched:
        from spider_cli.analysis.search import WEIGHT, Searched, goal

        steps, positions, exhaustive, depth, _bytes = self.module.goal_search(
            goal.spec(sought.search),
            sought.root[0],
            sought.macros,
            sought.into_spaces,
            sought.ordered,
            sought.width,
            sought.limit.positions,
            WEIGHT,
            sought.limit.expired,
            memory.core_ceiling(),
        )
        if steps is None:
            return Searched(None, positions, bool(exhaustive), depth)
        line = [tuple(action(*a) for a in step) for step in steps]
        keyed = goal.keyed(sought.search, sought.root, line, sought.macros, sought.into_spaces)
        return Searched(keyed, positions, False, 0)

    @_bounded
    def blind_search(self, request: Request, reveals: list[Reveal] | None = None) -> Found:
        from spider_cli.analysis.blind import Reveal

        turn = request.turn
        best, line, positions, found = self.module.blind_search(
            turn.piles,
            turn.removed,
            turn.mode.value,
            turn.hand,
            _capped(request, self.compiled).limit.positions,
            request.parts,
            request.width,
            turn.weights.core(),
            memory.blind_reveal_moves(self.compiled) if reveals is not None else 0,
            memory.core_ceiling(),
        )
        if reveals is not None:
            reveals.extend(
                Reveal(score, tuple(action(*a) for a in moves), state, pile, off)
                for score, moves, state, pile, off in found
            )
        return best, tuple(action(*a) for a in line), positions

    @_bounded
    def rollout(self, playout: Playout) -> rollouts.Outcome:
        from spider_cli.analysis.blind import rollouts

        policy = rollouts.capped(playout.policy, memory.blind_positions(self.compiled))
        *counts, end, log = self.module.blind_game(
            playout.piles,
            playout.rows,
            playout.removed,
            policy.budget,
            policy.searches,
            policy.weights.core(),
            policy.moves,
            policy.turns,
            playout.record,
            memory.core_ceiling(),
        )
        won, done, off, down, hand, moves, positions, worth, turns, lost = counts
        return rollouts.Outcome(
            bool(won),
            done,
            off,
            down,
            hand,
            moves,
            positions,
            worth,
            turns,
            bool(lost),
            tuple(end),
            tuple(log) if log is not None else None,
        )

    @_bounded
    def chance_search(
        self,
        draw: Draw,
        candidates: Sequence[Line],
        effort: Effort,
        expired: Expired | None = None,
    ) -> Weighed:
        from spider_cli.analysis.blind import Weighed, capped

        policy = capped(effort.policy, memory.blind_positions(self.compiled))
        chosen, *tallies, positions, played, stopped = self.module.chance_search(
            draw.piles,
            draw.removed,
            draw.rows,
            bytes(draw.unseen),
            [[code(a) for a in line] for line in candidates],
            draw.seed & SplitMix64.MASK,
            effort.trajectories,
            policy.budget,
            policy.searches,
            policy.weights.core(),
            policy.turns,
            policy.moves,
            effort.model.core(),
            round(effort.margin * 100),
            expired,
            memory.core_ceiling(),
        )
        return Weighed.of(chosen, tallies, positions, played, stopped)

    @_bounded
    def judge_commitments(
        self, piles: State, removed: int, hand: int, most: int
    ) -> tuple[list[tuple[int, tuple[Action, ...], State]], int]:
        """:func:`spider_cli.analysis.chance.judge.commitments` in ``csrc/judge.c``: each
        commitment as (act: 0 a card turned up, 1 a deal, 2 a removal; its line; the position
        after it), in the order found, and the closure's positions (the core's path only: the
        Python reference lives above this module)."""
        found, positions = self.module.judge_commitments(
            piles, removed, hand, most, memory.core_ceiling()
        )
        return [
            (act, tuple(action(*a) for a in line), tuple(after)) for act, line, after in found
        ], positions

    @_bounded
    def judge_search(
        self,
        draw: Draw,
        lines: Sequence[Sequence[Action]],
        samples: int,
        caps: Sequence[int],
        widths: Sequence[int],
        margin: float,
        expired: Expired | None = None,
        dense: int = 0,
    ) -> tuple[int, tuple[int, ...], tuple[int, ...], int, int, tuple[int, ...]] | None:
        """:func:`spider_cli.analysis.chance.judge.halving` in ``csrc/judge.c``: (chosen,
        wins, worlds judged, positions, the cap judged at, scores summed), or None when
        ``expired`` said so; ``dense``: a world not won scores that many thousandths of its
        progress."""
        from spider_cli.analysis.search import MAX_LEVELS

        chosen, wins, counts, positions, cap, stopped, scores = self.module.judge_search(
            draw.piles,
            draw.removed,
            draw.rows,
            bytes(draw.unseen),
            [[code(a) for a in line] for line in lines],
            draw.seed & SplitMix64.MASK,
            samples,
            tuple(caps),
            tuple(widths),
            MAX_LEVELS,
            round(margin * 100),
            expired,
            memory.core_ceiling(),
            dense,
        )
        if stopped:
            return None
        return chosen, tuple(wins), tuple(counts), positions, cap, tuple(scores)

    @_bounded
    def orders(self, orders: Orders, limit: Limit) -> tuple[bool | None, int]:
        found: tuple[bool | None, int] = self.module.orders(
            *orders.tables(), limit.positions, limit.expired, memory.core_ceiling()
        )
        return found


PYTHON = Python()
_compiled: Core | None = None


def first_moves(orders: Orders, limit: Limit) -> tuple[bool | None, int]:
    """:meth:`spider_cli.analysis.search.firstmoves.Orders.search` on the path :func:`backend`
    chooses (the Python path for piles longer than the core takes)."""
    path = backend() if orders.fits_the_core() else PYTHON
    return path.orders(orders, limit)


def _load() -> ModuleType | None:
    global _module, _unloadable
    if _module is _UNLOADED:
        try:
            import spider_cli.analysis._core as _core  # type: ignore[import-not-found]
        except ImportError as error:
            _module = None
            if not missing():  # installed, but it does not load: say why, once
                _unloadable = str(error).splitlines()[0][:200] if str(error) else "no reason"
        else:
            _module = _core
    return _module  # type: ignore[return-value]


_unloadable: str | None = None
"""Why the compiled core, installed, did not load (a wheel for another machine, a damaged
file), or None."""


def backend(cards: int = 0) -> Backend:
    """The path a search takes, for a position of ``cards`` cards (in the tableau, the hand
    and removed; 0: any a game can reach): the compiled core when it is built, wanted
    (:func:`wanted`) and the position within its bounds, else the Python path."""
    global _compiled
    module = _load() if wanted() else None
    if module is None:
        return PYTHON
    if _compiled is None:
        _compiled = Core(module)
    return _compiled if cards <= _compiled.cards else PYTHON


def built() -> bool:
    """Was the compiled core built for this installation?"""
    return _load() is not None


def wanted() -> bool:
    """Does the user (``SPIDER_PURE``) or a test (:func:`pure`) keep the Python path?"""
    return not _forced_pure and os.environ.get("SPIDER_PURE", "") in ("", "0")


class Reason(Enum):
    """Why the searches do not take the compiled core (:class:`Unused`)."""

    NOT_BUILT = "not built"
    """Left out at install time (no C compiler?)."""
    DOES_NOT_LOAD = "does not load"
    """Installed, but it does not load (a wheel for another machine, a damaged file)."""
    TURNED_OFF = "turned off"
    """The user (``SPIDER_PURE``) or a test (:func:`pure`) keeps the Python path."""


@dataclass(frozen=True)
class Unused:
    """Why the searches run on the Python path, about 30 times slower (the app says it):
    the ``reason``, and for :attr:`Reason.DOES_NOT_LOAD` the import's error (its first
    line, ``detail``)."""

    reason: Reason
    detail: str = ""


def unused() -> Unused | None:
    """Why the searches do not take the compiled core (None: they take it)."""
    if not built():
        return absent()
    if not wanted():
        return Unused(Reason.TURNED_OFF)
    return None


def missing() -> bool:
    """Was the compiled core left out at install time? Found without loading it, so that a
    start can say so and stay quick."""
    return importlib.util.find_spec("spider_cli.analysis._core") is None


def warning() -> Unused | None:
    """What to say once at the start of a long search when it will run slowly: why the core
    is not in use though the user did not turn it off (None: nothing to say)."""
    return None if built() or not wanted() else absent()


def absent() -> Unused:
    """Why the searches run on the Python path though the user did not ask for it: the core
    not built, or built but not loading (and why)."""
    if _load() is None and _unloadable is not None:
        return Unused(Reason.DOES_NOT_LOAD, _unloadable)
    return Unused(Reason.NOT_BUILT)


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
