"""``spider bench --blind``: numbered deals played without peeking.

A :class:`Dealer` holds the deal (every card known) and is the only thing that does. The
policy (:mod:`spider_cli.analysis.blind.player`) is given a :class:`PlayerView` each turn: the
face-up cards, how many cards are face down in each pile, how many are left in the hand, the
suits removed. The view is built of plain tuples and holds no reference to the Game, so
nothing the policy does with it can read a face-down card or the hand before it is turned up;
a game built from it (:meth:`PlayerView.game`) has those cards unknown. The table plays the
policy's moves after checking them with the engine, one at a time, with no undo.

Every search is bounded by positions, so a rerun plays the same games; time is only measured.
The deal may be ours or another program's (``pysol:N``, ``kpat:N``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from spider_cli.analysis.bench.full import DealResult, Listener, Mapper, Summary, play_all
from spider_cli.analysis.blind import Kind, Mode, PlayerView, Weights, view_of
from spider_cli.analysis.chance import Level, levels
from spider_cli.analysis.limits import TURN_LIMIT, Limit
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import DEAL, Action, Deal

MAX_MOVES = 1_000
"""Moves a blind game may take before it counts as lost (wins take 150 to 400)."""


class Dealer:
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
    table: Dealer,
    budget: Limit = TURN_LIMIT,
    level: Level = Level.PLAIN,
    weights: Weights | None = None,
) -> tuple[int, int]:
    """Play the table's deal by the player (:func:`~spider_cli.analysis.chance.levels.choose`
    at ``level``, its value weighed by ``weights``, by default those shipped), which sees
    only a :class:`PlayerView`: each turn its line is played up to the first card it turns
    up, or a row is dealt, until the game is won or lost. Returns the positions examined and
    the moves played."""
    positions = 0
    mode = Mode.KEEP
    while not table.won and table.moves < MAX_MOVES:
        turn = levels.choose(table.view(), mode, budget, level, weights=weights).played
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


Task = tuple[DealSource, Limit, Level]
"""One deal to play blind: (the deal, the limit of each of a turn's searches, the player's
level)."""


def play_deal(task: Task) -> DealResult:
    """Play one deal blind (run in a worker process), timed by ``time.perf_counter``."""
    deal, budget, level = task
    began = time.perf_counter()
    table = Dealer(deal)
    positions, moves = play_blind(table, budget, level)
    return DealResult(deal, table.won, time.perf_counter() - began, positions, moves)


def run(
    seeds: Iterable[int | DealSource],
    suits: int,
    budget: Limit = TURN_LIMIT,
    jobs: int | None = None,
    progress: Listener | None = None,
    level: Level = Level.PLAIN,
    *,
    done: Iterable[DealResult] = (),
    record: Callable[[DealResult], None] | None = None,
    mapper: Mapper | None = None,
) -> tuple[Summary, list[DealResult]]:
    """Play every deal blind (a plain number is one of ours of the ``suits``-suit game) by
    the player at ``level``, ``jobs`` at a time (default: every core), telling ``progress``
    how far it is (:data:`~spider_cli.analysis.bench.full.Event`). Deals with a result in
    ``done`` (an earlier run's, by the same player) are not played again but count in the
    summary; ``record`` is given each new result as it comes; ``mapper`` plays the tasks
    (default: on this machine)."""
    deals = [s if isinstance(s, DealSource) else DealSource(Source.OURS, s, suits) for s in seeds]
    unique = list(dict.fromkeys(deals))
    known = {r.deal: r for r in done}
    results = [known[d] for d in unique if d in known]
    tasks: list[Task] = [(d, budget, level) for d in unique if d not in known]
    return play_all(suits, tasks, results, play_deal, jobs, progress, record, mapper, shared=True)
