"""The compiled core's own memory ceiling: every entry point that allocates takes the bytes
it may hold as its last argument (a quarter of the machine's memory when none is given), and
stops there however large a budget it was given: a MemoryError that names the ceiling, the
core fine afterwards. Through :mod:`spider_cli.analysis.native` the stop reaches a player as
a :class:`~spider_cli.analysis.memory.CeilingError` in words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from spider_cli.analysis import memory, native
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind import rollouts
from spider_cli.analysis.blind.evaluation import STANDARD
from spider_cli.analysis.blind.player import Mode, Request, Turn
from spider_cli.analysis.blind.rollouts import Playout
from spider_cli.analysis.blind.view import view_of
from spider_cli.analysis.compact import encode
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.search import goal
from spider_cli.analysis.solve import solver
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.goals import Constraints, Goal

core = native._load()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")

HUGE = 10**12
"""A budget of positions no ceiling of these tests lets a search reach."""

SMALL = 1 << 20
"""A ceiling of one megabyte."""


def _start(suits: int = 4) -> Any:
    return encode(DealSource(Source.OURS, 5, suits).game())


def _calls() -> dict[str, Callable[[int | None], object]]:
    """Each allocating entry point on a real position with a budget past any ceiling; the
    argument is the ceiling (None: not given)."""
    assert core is not None
    start = _start()
    view = view_of(DealSource(Source.OURS, 5, 4).game())
    weights = STANDARD.core()
    turn = Turn(view.piles(), 0, view.hand, Mode.KEEP)
    decision = blindplayer.decide(native.backend().blind_search, turn, Limit(300))
    lines = [[native.code(a) for a in c.line[:1]] for c in decision.candidates[:2]]
    game = DealSource.parse("pysol:5", 4).game()
    search = goal.make_search(game, Goal("win"), Constraints())
    spec, root = goal.spec(search), search.root()[0]

    def extra(ceiling: int | None) -> tuple[int, ...]:
        return () if ceiling is None else (ceiling,)

    return {
        "blind_search": lambda c: core.blind_search(
            start.piles, 0, 150, 50, HUGE, True, 0, weights, True, *extra(c)
        ),
        "blind_game": lambda c: core.blind_game(
            start.piles, start.rows, 0, HUGE, ((True, 0),), weights, 1000, 0, False, *extra(c)
        ),
        "beam": lambda c: core.beam(
            start.piles, start.rows, 0, 100_000, HUGE, 500, None, 0, *extra(c)
        ),
        "chance_search": lambda c: core.chance_search(
            view.piles(),
            0,
            view.hand // 10,
            bytes(view.unseen()),
            lines,
            1,
            4,
            HUGE,
            ((True, 0),),
            weights,
            0,
            1000,
            rollouts.learned(4).core(),
            200,
            None,
            *extra(c),
        ),
        "goal_search": lambda c: core.goal_search(
            spec, root, True, True, False, 0, HUGE, 2, None, *extra(c)
        ),
    }


@pytest.mark.parametrize(
    "name", ["blind_search", "blind_game", "beam", "chance_search", "goal_search"]
)
def test_each_search_stops_at_the_ceiling_it_is_given(name: str) -> None:
    call = _calls()[name]
    with pytest.raises(MemoryError, match=f"memory ceiling of {SMALL} bytes"):
        call(SMALL)
    # the core is as it was: a search with room answers
    assert core is not None
    assert core.blind_search(_start().piles, 0, 150, 50, 300, True, 0, STANDARD.core(), False)


@pytest.mark.parametrize("ceiling", [0, -5])
def test_a_ceiling_is_a_positive_number_of_bytes(ceiling: int) -> None:
    with pytest.raises(ValueError, match="a memory ceiling is a positive number of bytes"):
        _calls()["blind_search"](ceiling)
    with pytest.raises(OverflowError):
        _calls()["beam"](2**70)


@pytest.mark.skipif(not native.wanted(), reason="SPIDER_PURE: the searches take the Python path")
def test_a_player_hears_of_the_ceiling_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "core_ceiling", lambda: SMALL)
    start = _start()
    backend = native.backend()
    with pytest.raises(memory.CeilingError, match="would have held more than 1 MB"):
        backend.blind_search(Request(Turn(start.piles, 0, 50, Mode.KEEP), Limit(HUGE), True))
    with pytest.raises(memory.CeilingError):
        backend.rollout(Playout(start.piles, start.rows, 0, rollouts.Policy(HUGE)))
    with pytest.raises(memory.CeilingError):
        backend.beam(start, 100_000, Limit(HUGE))
    game = DealSource.parse("pysol:5", 4).game()
    search = goal.make_search(game, Goal("win"), Constraints())
    with pytest.raises(memory.CeilingError):
        solver.astar(search, False, True, Limit(HUGE), ordered=False)


def test_the_count_in_every_order_stops_at_its_ceiling_too() -> None:
    from spider_cli.analysis.limits import Limit
    from spider_cli.analysis.search import firstmoves
    from spider_cli.analysis.search.counting import setting
    from spider_cli.analysis.solve import proofs
    from tests.analysis.test_moments import asked

    assert core is not None
    _game, _constraints, search = asked(230, "turn up", 1, False, False)
    tables = None
    for question in proofs._questions(search):
        found = setting(search.start.piles, question, Limit(20_000))
        for final in found.finals if found is not None else ():
            tables = firstmoves.Orders(search.start.piles, final, found).tables()
            break
        if tables:
            break
    assert tables is not None
    assert core.orders(*tables, 20_000, None) is not None  # (room enough: an answer)
    with pytest.raises(MemoryError, match="memory ceiling of 4096 bytes"):
        core.orders(*tables, HUGE, None, 4096)
