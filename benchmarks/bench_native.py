"""The compiled core against the Python path, side by side in one run:
``python benchmarks/bench_native.py [beam|blind|goal] [--rounds N]``.

Each part runs the same searches on both paths, alternating (core, Python, core, ...), and
prints positions a second on each and their ratio; the counts of positions must be equal
(the paths give the same answers), and the script says so if they are not. Ratios, because
this machine is shared and noisy: both paths see the same load.

- beam: the full-information beam (the backend's beam, width 1024) on our deals 10-13, 4 suits,
  300,000 positions each at most;
- blind: the blind player's three searches (blindplayer.plan) on every fifth turn's position
  of blind games of deals 0-3, 4 suits, at the 4-suit budget;
- goal: solve's goal searches (solver.solve, counting off) on the first eight of the
  manual's recorded questions, 100,000 positions each at most.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from spider_cli.analysis import compact, native
from spider_cli.analysis.bench import blind
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind.evaluation import STANDARD
from spider_cli.analysis.blind.player import Mode, Turn
from spider_cli.analysis.limits import TURN_LIMIT, Limit
from spider_cli.analysis.solve import solver
from spider_cli.app import examples
from spider_cli.app.words.notes import path_text
from spider_cli.language.commands import Solve
from spider_cli.language.files.positions import load_position
from spider_cli.language.notation import parse_command
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import Game


def beam_work() -> Callable[[], int]:
    starts = [compact.encode(DealSource(Source.OURS, n, 4).game()) for n in range(10, 14)]
    return lambda: sum(native.backend().beam(s, 1024, Limit(300_000))[1] for s in starts)


def blind_work() -> Callable[[], int]:
    """Every fifth turn's position of blind games of deals 0-3 (4 suits), searched at the
    4-suit budget."""
    views = []
    for n in range(4):
        table = blind.Dealer(DealSource(Source.OURS, n, 4))
        for turn_number in range(60):
            view = table.view()
            if turn_number % 5 == 0:
                views.append(view)
            piles = view.piles()
            search = native.backend().blind_search
            at = Turn(piles, len(view.removed), view.hand, Mode.KEEP)
            turn = blindplayer.plan(search, at, Limit(2_000))
            if not turn.line:
                break
            for action in turn.line:
                if table.play(action):
                    break
    budget = TURN_LIMIT

    def work() -> int:
        search = native.backend().blind_search
        return sum(
            blindplayer.plan(search, v.turn(Mode.KEEP, STANDARD), budget).positions for v in views
        )

    return work


def goal_work() -> Callable[[], int]:
    """The first eight recorded questions of the manual's examples, at most 100,000
    positions each."""
    asked: list[tuple[Game, Solve]] = []
    for example in examples.catalogue():
        if not example.questions:
            continue
        game = load_position(example.path).to_game()
        for question in example.questions:
            text = ", ".join(part for part in (question.solve, question.constraints) if part)
            command = parse_command(f"solve {text}, limit 100000")
            assert isinstance(command, Solve), text
            asked.append((game, command))
    asked = asked[:8]

    def work() -> int:
        return sum(
            solver.answer(game, c.goal, c.constraints, prove_by_counting=False).positions
            for game, c in asked
        )

    return work


PARTS = {"beam": beam_work, "blind": blind_work, "goal": goal_work}


def compare(name: str, rounds: int) -> None:
    work = PARTS[name]()
    times: dict[str, list[float]] = {"core": [], "python": []}
    counts: dict[str, set[int]] = {"core": set(), "python": set()}
    for _ in range(rounds):
        for path in ("core", "python"):
            began = time.perf_counter()
            if path == "core":
                count = work()
            else:
                with native.pure():
                    count = work()
            times[path].append(time.perf_counter() - began)
            counts[path].add(count)
    same = counts["core"] == counts["python"] and len(counts["core"]) == 1
    positions = next(iter(counts["python"]))
    rate = {path: positions / statistics.median(t) for path, t in times.items()}
    print(
        f"{name}: {positions:,} positions; core {rate['core']:,.0f}/s, "
        f"python {rate['python']:,.0f}/s, ratio {rate['core'] / rate['python']:.1f}x"
        + ("" if same else f"  COUNTS DIFFER: {counts}")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", help="beam, blind, goal (default: all three)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not native.backend().compiled:
        raise SystemExit(path_text(native.unused()))
    for name in args.parts or PARTS:
        if name not in PARTS:
            raise SystemExit(f"no part {name!r}: beam, blind or goal")
        compare(name, args.rounds)


if __name__ == "__main__":
    main()
