"""``spider bench --blind``: numbered deals played without peeking.

A :class:`Table` holds the deal (every card known) and is the only thing that does. The
policy (:mod:`spider_cli.analysis.blindplayer`) is given a :class:`PlayerView` each turn: the
face-up cards, how many cards are face down in each pile, how many are left in the hand, the
suits removed. The view is built of plain tuples and holds no reference to the Game, so
nothing the policy does with it can read a face-down card or the hand before it is turned up;
a game built from it (:meth:`PlayerView.game`) has those cards unknown. The table plays the
policy's moves after checking them with the engine, one at a time, with no undo.

Every search is bounded by positions, so a rerun plays the same games; time is only measured.
The deal may be ours or another program's (``pysol:N``, ``kpat:N``).
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

from spider_cli.analysis import blindplayer, sampler
from spider_cli.analysis.bench import (
    DealResult,
    Summary,
    local_results,
    progress_bar,
    summarize,
    wilson,
)
from spider_cli.analysis.blindplayer import Kind, Mode
from spider_cli.analysis.sampler import Sampling
from spider_cli.rules.cards import UNKNOWN
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import DEAL, Action, Deal, Game, ordered_deck

MAX_MOVES = 1_000
"""Moves a blind game may take before it counts as lost (wins take 150 to 400)."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What a player sees: each pile's face-up cards and its face-down count, the cards
    left in the hand, the suits removed (plain values only: no Game behind them)."""

    face_up: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    hand: int
    removed: tuple[int, ...]
    suits: int

    def unseen(self) -> list[int]:
        """The cards not seen yet, in order of their codes: the deck less the face-up cards
        and the suits removed (the face-down cards and the hand, whose order is unknown)."""
        counts = Counter(ordered_deck(self.suits))
        counts.subtract(card for pile in self.face_up for card in pile)
        counts.subtract(suit * 16 + rank for suit in self.removed for rank in range(1, 14))
        return sorted(counts.elements())

    def game(self) -> Game:
        """A game of this position whose face-down cards and hand are unknown."""
        piles = [[UNKNOWN] * d + list(up) for d, up in zip(self.down, self.face_up, strict=True)]
        return Game(piles, list(self.down), [UNKNOWN] * self.hand, list(self.removed), self.suits)


def view_of(game: Game) -> PlayerView:
    """What a player of ``game`` sees (the face-down cards and the hand left out, known or
    not)."""
    return PlayerView(
        tuple(tuple(p[d:]) for p, d in zip(game.piles, game.down, strict=True)),
        tuple(game.down),
        len(game.stock),
        tuple(game.removed),
        game.suits,
    )


class Table:
    """A numbered deal in play: the only holder of the cards not yet seen."""

    def __init__(self, deal: DealSource) -> None:
        self.__game = deal.game()

    def view(self) -> PlayerView:
        return view_of(self.__game)

    def play(self, action: Action) -> bool:
        """Play a move if the rules allow it (no undo); whether it turned a card up."""
        game = self.__game
        reason = game.why_illegal(action)
        if reason:
            raise AssertionError(f"the blind policy chose an illegal move: {action} ({reason})")
        down = sum(game.down)
        game.push(action)
        return sum(game.down) < down or isinstance(action, Deal)

    @property
    def won(self) -> bool:
        return self.__game.is_won()

    @property
    def lost(self) -> bool:
        return self.__game.is_lost()

    @property
    def moves(self) -> int:
        return self.__game.moves_made


def play_blind(
    table: Table, budget: int = blindplayer.BUDGET, sampling: Sampling | None = None
) -> tuple[int, int]:
    """Play the table's deal with :mod:`~spider_cli.analysis.blindplayer`, which sees only a
    :class:`PlayerView`: each turn (:func:`~spider_cli.analysis.blindplayer.decide`) its
    line is played up to the first card it turns up, or a row is dealt, until the game is
    won or lost; with ``sampling``, the turn is the sampling player's
    (:func:`~spider_cli.analysis.sampler.choose`). Returns the positions examined and the moves
    played."""
    positions = 0
    mode = Mode.KEEP
    while not table.won and table.moves < MAX_MOVES:
        view = table.view()
        if sampling is not None:
            turn = sampler.choose(view, mode, budget, sampling)
        else:
            unseen = view.unseen() if blindplayer.WEIGHED[view.suits] else ()
            piles = blindplayer.compact_view(view)
            turn = blindplayer.decide(piles, len(view.removed), view.hand, mode, budget, unseen)
        positions += turn.positions
        mode = turn.mode
        if turn.kind is Kind.LINE:
            for action in turn.line[: MAX_MOVES - table.moves]:
                if table.play(action):
                    mode = Mode.KEEP  # a card turned up: plan afresh
                    break
        elif turn.kind is Kind.DEAL:
            table.play(DEAL)
            mode = Mode.KEEP
        else:
            break  # no line gains, and no deal can be made: the game is lost
    return positions, table.moves


Task = tuple[DealSource, int, Sampling | None]
"""One deal to play blind: (the deal, positions each turn's search examines, the sampling
player's settings or None for the plain blind player)."""


def play_deal(task: Task) -> DealResult:
    """Play one deal blind (run in a worker process), timed by ``time.perf_counter``."""
    deal, budget, sampling = task
    began = time.perf_counter()
    table = Table(deal)
    positions, moves = play_blind(table, budget, sampling)
    return DealResult(deal, table.won, time.perf_counter() - began, positions, moves)


def summary_text(summary: Summary, results: list[DealResult], what: str) -> str:
    """The report: share won with its 95% interval, moves, time and positions per second."""
    low, high = wilson(summary.won, summary.deals)
    mean = sum(r.seconds for r in results) / len(results) if results else 0.0
    lines = [
        f"{summary.suits}-suit deals: {summary.deals}, won {summary.won} ({summary.rate:.1f}%, "
        f"95% interval {100 * low:.1f}-{100 * high:.1f}%) {what}",
        f"moves per game: {summary.moves_mean:.0f} on average",
        f"time per game: mean {mean:.2f} s, median {summary.median:.2f} s, "
        f"95th percentile {summary.p95:.2f} s",
        f"positions per second: {summary.positions_per_second:,.0f}",
        f"wall time: {summary.wall:.1f} s",
    ]
    if summary.lost:
        lost = ", ".join(map(str, summary.lost[:20])) + (" ..." if len(summary.lost) > 20 else "")
        lines.append(f"not won: {lost}")
    return "\n".join(lines)


def run(
    seeds: Iterable[int | DealSource],
    suits: int,
    budget: int = blindplayer.BUDGET,
    jobs: int | None = None,
    err: TextIO | None = None,
    sampling: Sampling | None = None,
) -> tuple[Summary, list[DealResult]]:
    """Play every deal blind (a plain number is one of ours of the ``suits``-suit game),
    ``jobs`` at a time (default: every core), showing progress on ``err`` (standard error
    by default); with ``sampling``, by the sampling player (:mod:`~spider_cli.analysis.sampler`)."""
    err = err or sys.stderr
    deals = [s if isinstance(s, DealSource) else DealSource(Source.OURS, s, suits) for s in seeds]
    tasks: list[Task] = [(deal, budget, sampling) for deal in deals]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks) or 1))
    began = time.perf_counter()
    results: list[DealResult] = []
    live = err.isatty()
    for result in local_results(tasks, jobs, play_deal):
        results.append(result)
        won = sum(r.won for r in results)
        bar = progress_bar(len(results), len(tasks), won, time.perf_counter() - began)
        if live:
            err.write("\r" + bar)
        elif len(results) * 10 // len(tasks) != (len(results) - 1) * 10 // len(tasks):
            err.write(bar + "\n")
        err.flush()
    if tasks and live:
        err.write("\n")
    results.sort(key=lambda r: r.seed)
    return summarize(suits, results, time.perf_counter() - began), results
