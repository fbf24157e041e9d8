"""Benchmarks of the solver: run ``python benchmarks/bench_solver.py`` (figures in BENCHMARKS.md).

Three parts, each also runnable alone (``questions``, ``speed``, ``deals``):

* questions: every question recorded with the manual's examples (``examples/index.toml``)
  answered by the solver, with the time, the positions examined, the length of the line
  found (or ">N": no line of N moves or fewer exists), and whether the answer agrees with
  the manual's. ``--limit N`` sets the positions examined before "unknown" (default:
  ``solve``'s own, 3,000,000 on the compiled core); ``--match TEXT`` keeps the questions
  whose example name or text holds TEXT.
* speed: positions per second of the complete search (on problem 3, to a fixed limit).
* deals: full-information play of numbered deals (``spider bench``) for 1, 2 and 4 suits,
  ``--play-limit N`` positions each (and ``--time-limit`` seconds, if given).
* growth: the complete search's positions depth by depth for one question (``--example``,
  ``--question``), to ``--limit`` positions: how far an exhaustive proof is out of reach.
* counting: what the counting argument (``spider_cli/analysis/search/counting.py``) costs before
  each search, on positions from random play of numbered deals: questions it proves, median and
  slowest time, and how many more it would prove with ten times its budget.
* hints: ``hint`` on every example position with a move to make: the advice and its time.

Usage: python benchmarks/bench_solver.py [questions|speed|deals|growth|counting|hints]
           [--limit N] [--match TEXT]
           [--deals N] [--play-limit N] [--time-limit SECONDS]
       python benchmarks/bench_solver.py growth --example problem-2 \
           --question "get a space, no deal" --limit 8000000
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from spider_cli.analysis import compact, hints
from spider_cli.analysis.bench import full as bench
from spider_cli.analysis.limits import PLAY_LIMIT, Limit
from spider_cli.analysis.search import counting
from spider_cli.analysis.search.goal import Search, make_search
from spider_cli.analysis.solve.proofs import counted
from spider_cli.analysis.solve.solver import PORTFOLIO, answer, astar, limit_of, search_limit
from spider_cli.app import examples
from spider_cli.app.words.advice import advice_text
from spider_cli.app.words.bench import known_report
from spider_cli.cli.progressbar import ProgressBar
from spider_cli.language.commands import Solve
from spider_cli.language.files.positions import load_position
from spider_cli.language.notation import parse_command
from spider_cli.rules.engine import Game
from spider_cli.rules.goals import Constraints, Goal, GoalKind


def solve_command(text: str) -> Solve:
    """The ``solve`` command typed as ``solve TEXT``."""
    command = parse_command(f"solve {text}")
    assert isinstance(command, Solve), text
    return command


def example_game(name: str) -> Game:
    """The example position of that name."""
    path = examples.find(name)
    assert path is not None, name
    return load_position(path).to_game()


def questions(limit: int, match: str = "") -> None:
    """Answer every recorded question of the manual's examples (those whose example name or
    question holds ``match``) and compare."""
    agree = total = 0
    print(
        f"{'example':<28} {'question':<58} {'manual':<10} {'solver':<10} "
        f"{'positions':>10} {'seconds':>8} {'line':>6}"
    )
    for example in examples.catalogue():
        if not example.questions:
            continue
        game = load_position(example.path).to_game()
        for question in example.questions:
            text = ", ".join(part for part in (question.solve, question.constraints) if part)
            if match not in example.name and match not in text:
                continue
            command = solve_command(f"{text}, limit {limit}")
            found = answer(
                game,
                command.goal,
                command.constraints,
                limit_of(command.constraints, time.perf_counter),
            )
            total += 1
            agree += found.status == question.answer
            mark = "" if found.status == question.answer else "  <-- differs"
            line = (
                f"{len(found.texts)}" if found.found else f">{found.depth}" if found.depth else ""
            )
            print(
                f"{example.name:<28} {text[:58]:<58} {question.answer:<10} "
                f"{found.status:<10} {found.positions:>10,} {found.seconds or 0.0:>8.2f} "
                f"{line:>6}{mark}"
            )
    print(f"agree with the manual: {agree} of {total} (limit {limit:,} positions each)")


def speed(limit: int = 300_000) -> None:
    """Positions per second: the whole of ``solve`` (phase A, then the complete search), and
    the complete search alone, each to a fixed number of positions on problem 3."""
    game = example_game("problem-3")
    goal = Goal(GoalKind.REMOVE, steps=((3,), (1,)))
    constraints = Constraints(no_deal=True, no_turn_up=True, limit=limit)
    began = time.perf_counter()
    searched = answer(game, goal, constraints)
    seconds = time.perf_counter() - began
    print(
        f"solve (both phases), problem 3, clubs then hearts: {searched.positions:,} positions "
        f"in {seconds:.2f} s = {searched.positions / seconds:,.0f} positions per second"
    )
    search = make_search(game, goal, constraints)
    began = time.perf_counter()
    count = astar(search, False, True, Limit(limit), ordered=False).positions
    seconds = time.perf_counter() - began
    print(
        f"complete search alone, the same question: {count:,} positions in {seconds:.2f} s "
        f"= {count / seconds:,.0f} positions per second"
    )
    count, began = 0, time.perf_counter()
    for member in PORTFOLIO:  # phase A's searches, a fifth each
        search.chaos_weight = member.chaos_weight
        into_spaces = bool(member.width)
        count += astar(
            search, member.macros, into_spaces, Limit(limit // 5), width=member.width
        ).positions
    seconds = time.perf_counter() - began
    print(
        f"phase A's {len(PORTFOLIO)} searches alone, {limit // 5:,} positions each: "
        f"{count:,} positions in {seconds:.2f} s = {count / seconds:,.0f} positions per second"
    )


def growth(name: str, question: str, limit: int) -> None:
    """Breadth-first over every move from the example's position (the complete search's
    canonical positions, no line kept), printing each depth's new positions and the total,
    until the goal is met, every position is examined, or ``limit`` is passed."""
    game = example_game(name)
    command = solve_command(question)
    search = make_search(game, command.goal, command.constraints)
    root = search.root()
    seen = {root}
    layer = [root]
    began = time.perf_counter()
    print(f"{name}: {question}")
    print(f"{'depth':>5} {'new positions':>14} {'total':>12} {'ratio':>6} {'seconds':>8}")
    depth = 0
    while layer:
        following = []
        for key in layer:
            for _step, child, met in search.expand(key, False, True):
                if child is None or met:
                    print(f"the goal is met at depth {depth + 1}")
                    return
                if child not in seen:
                    seen.add(child)
                    following.append(child)
        depth += 1
        ratio = f"{len(following) / len(layer):.2f}" if following else ""
        print(
            f"{depth:>5} {len(following):>14,} {len(seen):>12,} {ratio:>6} "
            f"{time.perf_counter() - began:>8.0f}"
        )
        layer = following
        if len(seen) > limit:
            print(f"stopped past {limit:,} positions")
            return
    print(f"every position examined: {len(seen):,}, and none meets the goal")


def counting_cost(count: int = 120) -> None:
    """The counting argument on ``count`` positions from random play (deals 0-999, 1, 2 or 4
    suits, up to 120 moves; every other one as its player sees it), for four goals under
    two sets of constraints."""
    rng = random.Random(7)
    goals = (
        Goal(GoalKind.SPACE),
        Goal(GoalKind.TURN_UP),
        Goal(GoalKind.REMOVE, steps=((0,),)),
        Goal(GoalKind.REMOVE, steps=((1,), (2,))),
    )
    rules = (Constraints(no_deal=True), Constraints(no_deal=True, keep_spaces=1, no_new_space=True))
    times: list[float] = []
    proved = more = 0
    for k in range(count):
        game = Game.new(rng.randrange(1000), rng.choice((1, 2, 4)))
        for _ in range(rng.randrange(0, 120)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        if k % 2:
            game = compact.player_view(game)
        for goal in goals:
            for constraints in rules:
                search = make_search(game, goal, constraints)
                began = time.perf_counter()
                proof, _pile = counted(search)
                times.append(time.perf_counter() - began)
                proved += proof is not None
                if proof is None and times[-1] > 0.05:  # slow and unproved: the budget's cost
                    more += _proved_with_more(search)
    print(
        f"{len(times)} questions on {count} positions: proved impossible {proved}; "
        f"with ten times the budget of {counting.COUNT_LIMIT.positions:,} choices, {more} more"
    )
    print(
        f"time: median {statistics.median(times) * 1000:.1f} ms, 95th percentile "
        f"{statistics.quantiles(times, n=20)[-1] * 1000:.1f} ms, "
        f"slowest {max(times) * 1000:.1f} ms"
    )


def _proved_with_more(search: Search) -> bool:
    """Does the argument prove the goal impossible with ten times its budget?"""
    return counted(search, Limit(10 * counting.COUNT_LIMIT.positions))[0] is not None


def hint_times() -> None:
    """``hint`` on every example position (not the scripts' end positions): its advice and
    how long it took, with the median and the slowest."""
    times = []
    for example in examples.catalogue():
        if example.path.suffix != ".txt":
            continue
        game = load_position(example.path).to_game()
        began = time.perf_counter()
        advice = hints.hint(game)
        times.append(time.perf_counter() - began)
        print(f"{example.name:<34} {times[-1]:6.2f} s  {advice_text(game, advice)[:100]}")
    print(
        f"{len(times)} positions: median {statistics.median(times):.2f} s, "
        f"slowest {max(times):.2f} s"
    )


def deals(count: int, limit: int, time_limit: float | None) -> None:
    """Full-information play of deals 0 .. count-1 for each number of suits, at most
    ``limit`` positions (and ``time_limit`` seconds, if given) each."""
    for suits in (1, 2, 4):
        summary, _results = bench.run(
            range(count), suits, limit, time_limit, progress=ProgressBar(sys.stderr)
        )
        print(known_report(summary, limit, time_limit))
        print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "part", nargs="?", choices=("questions", "speed", "deals", "growth", "counting", "hints")
    )
    parser.add_argument("--example", default="problem-2", help="growth: the example")
    parser.add_argument(
        "--question",
        default="get a space, no deal",
        help="growth: the goal and constraints, as after 'solve'",
    )
    parser.add_argument(
        "--limit",
        type=int,
        help="positions examined per question before 'unknown' (questions: solve's own "
        "default on this path; growth: 300,000)",
    )
    parser.add_argument(
        "--match", default="", help="questions: only those whose example or text holds this"
    )
    parser.add_argument("--deals", type=int, default=100, help="deals per suit count")
    parser.add_argument(
        "--play-limit", type=int, default=PLAY_LIMIT, help="deals: positions per deal"
    )
    parser.add_argument(
        "--time-limit", type=float, help="deals: also stop a deal after this many seconds"
    )
    args = parser.parse_args()
    if args.part == "growth":
        growth(args.example, args.question, args.limit or 300_000)
        return
    if args.part == "counting":
        counting_cost()
        return
    if args.part == "hints":
        hint_times()
        return
    if args.part in (None, "questions"):
        questions(args.limit or search_limit(Constraints()), args.match)
        print()
    if args.part in (None, "speed"):
        speed()
        print()
    if args.part in (None, "deals"):
        deals(args.deals, args.play_limit, args.time_limit)


if __name__ == "__main__":
    main()
