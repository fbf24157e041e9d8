"""Every search of the blind player bounded and interruptible, on both paths: however large a
budget is asked for, each search stops at the memory ceiling (``SPIDER_MEMORY``), and a
signal (Ctrl-C) is seen while a search runs, not only once it has ended."""

from __future__ import annotations

import json
import signal
from collections.abc import Callable, Iterator
from functools import cache
from types import FrameType

import pytest

from spider_cli.analysis import compact, memory, native
from spider_cli.analysis.bench import blind
from spider_cli.analysis.blind import rollouts
from spider_cli.analysis.blind.player import SEARCHES, Found, Mode, Request, Turn
from spider_cli.analysis.blind.rollouts import Playout
from spider_cli.analysis.compact import State
from spider_cli.analysis.limits import Limit
from spider_cli.cli.main import main
from spider_cli.rules.deals import DealSource, Source
from tests.helpers import play_randomly

HUGE = 2**63 - 1


@cache
def _wide() -> tuple[State, int, int]:
    """A blind position whose searches reach more than a million positions (our deal 34 of
    two suits, 60 random moves on): its view, suits removed and cards in the hand."""
    table = blind.Dealer(DealSource(Source.OURS, 34, 2))
    play_randomly(table._Dealer__game, 60, 34)  # type: ignore[attr-defined]
    view = table.view()
    return view.piles(), len(view.removed), view.hand


@cache
def _known() -> tuple[State, tuple[tuple[int, ...], ...], int]:
    """The same position with every card known, for a rollout: piles, hand, suits removed."""
    table = blind.Dealer(DealSource(Source.OURS, 34, 2))
    game = play_randomly(table._Dealer__game, 60, 34)  # type: ignore[attr-defined]
    start = compact.encode(game)
    return start.piles, start.rows, len(game.removed)


def _search(state: tuple[State, int, int], budget: int, parts: bool, width: int = 0) -> Found:
    """The blind search from ``state`` (piles, suits removed, hand) on the path in use."""
    piles, removed, hand = state
    request = Request(Turn(piles, removed, hand, Mode.KEEP), Limit(budget), parts, width)
    return native.backend().blind_search(request)


@pytest.mark.parametrize(("parts", "width"), SEARCHES)
def test_each_blind_search_stops_at_the_memory_ceiling(
    search_path: str, monkeypatch: pytest.MonkeyPatch, parts: bool, width: int
) -> None:
    """A budget past the ceiling searches as a budget at the ceiling (breadth-first, this
    position holds more: the search stops there)."""
    wide = _wide()
    for setting in ("1M", "2M"):
        monkeypatch.setenv("SPIDER_MEMORY", setting)
        ceiling = memory.blind_positions(native.backend().compiled)
        at = _search(wide, ceiling, parts, width)
        for budget in (ceiling + 1, HUGE, 10**30):
            assert _search(wide, budget, parts, width) == at
        assert at[2] == ceiling if not width else at[2] <= ceiling


def test_a_rollout_asking_for_more_than_the_ceiling_plays_as_at_the_ceiling(
    search_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPIDER_MEMORY", "1M")
    piles, rows, removed = _known()
    at = rollouts.Policy(budget=memory.blind_positions(native.backend().compiled), moves=6)
    huge = rollouts.Policy(budget=HUGE, moves=6)
    assert native.backend().rollout(
        Playout(piles, rows, removed, huge)
    ) == native.backend().rollout(Playout(piles, rows, removed, at))


@pytest.fixture
def ticks() -> Iterator[Callable[[], int]]:
    """A timer signal every millisecond, its handler counting the times it ran: a handler
    runs only where the program looks for signals (a search that never looks would see one
    signal, once it ended, however long it ran)."""
    count = [0]

    def tick(_signum: int, _frame: FrameType | None) -> None:
        count[0] += 1

    previous = signal.signal(signal.SIGALRM, tick)
    try:
        yield lambda: count[0]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _counted(ticks: Callable[[], int], run: Callable[[], object]) -> int:
    signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
    before = ticks()
    run()
    seen = ticks() - before
    signal.setitimer(signal.ITIMER_REAL, 0)
    return seen


def test_signals_are_seen_during_a_blind_search(
    search_path: str, monkeypatch: pytest.MonkeyPatch, ticks: Callable[[], int]
) -> None:
    """200,000 positions take a tenth of a second or more on either path: many ticks."""
    monkeypatch.setenv("SPIDER_MEMORY", "1G")
    wide = _wide()
    budget = 200_000 if search_path == "core" else 20_000
    seen = _counted(ticks, lambda: _search(wide, budget, True))
    assert seen > 1


def test_signals_are_seen_during_a_rollout(
    search_path: str, monkeypatch: pytest.MonkeyPatch, ticks: Callable[[], int]
) -> None:
    monkeypatch.setenv("SPIDER_MEMORY", "1G")
    piles, rows, removed = _known()
    budget = 200_000 if search_path == "core" else 20_000
    policy = rollouts.Policy(budget=budget, searches=((True, 0),), moves=3)
    assert (
        _counted(ticks, lambda: native.backend().rollout(Playout(piles, rows, removed, policy))) > 1
    )


def test_ctrl_c_stops_a_blind_search(search_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The signal's KeyboardInterrupt comes out of the search (and nothing of it is kept)."""
    monkeypatch.setenv("SPIDER_MEMORY", "1G")
    wide = _wide()

    def interrupt(_signum: int, _frame: FrameType | None) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)  # once: a later tick would land past the test
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        with pytest.raises(KeyboardInterrupt):  # the timer set inside: however busy the machine
            signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
            _search(wide, HUGE, True)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_bench_blind_with_a_budget_past_the_ceiling_says_so_and_ends(
    search_path: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], home
) -> None:
    """The probe: ``bench --blind --budget 9223372036854775807``."""
    monkeypatch.setenv("SPIDER_MEMORY", "512K")
    argv = ["bench", "--blind", "--level", "plain", "--seeds", "3", "--suits", "1", "--jobs", "1"]
    argv += ["--json"]  # (the plain level: the ceiling is of each search, whatever the level)
    assert main([*argv, "--budget", str(HUGE)]) == 0
    out, err = capsys.readouterr()
    most = memory.blind_positions(native.backend().compiled)
    assert f"stops at the memory ceiling of {most:,} positions" in err
    assert json.loads(out)["limits"]["positions_per_search"] == most
