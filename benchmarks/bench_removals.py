"""Phase A of ``solve`` on removal questions it was not tuned on, with and without a member.

The positions come from numbered deals (our deals, 4 suits by default, every card known):
the winning line ``spider solve --seed`` finds is replayed up to the deal after which
``--stock`` cards are left in the hand (two deals, as in the manual's problems 4 and 5),
and there each suit is asked of as ``remove SUIT, no deal`` (with ``--then``, ``remove SUIT
then NEXT, no deal``, the next suit in the order spades, hearts, diamonds, clubs). Every question
is answered twice at the same limit: with phase A as it is, and with one member of
:data:`spider_cli.analysis.solve.solver.PORTFOLIO` left out (``--without``, by its index; the
beam by default). The two are paired on the same questions.

    python benchmarks/bench_removals.py --seeds 7000-7059 --limit 1000000
"""

from __future__ import annotations

import argparse
import time

from spider_cli.analysis.solve import autoplay, solver
from spider_cli.rules.cards import SUIT_NAMES, SUITS_IN_VARIANT
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import Deal, Game
from spider_cli.rules.goals import Constraints, Goal, GoalKind


def position(number: int, suits: int, stock: int) -> Game | None:
    """The deal's position on its winning line when ``stock`` cards are left in the hand,
    just before the next deal (None: no win found, or the line never gets there)."""
    game = DealSource.parse(str(number), suits).game()
    result = autoplay.play(game.copy(), second=False)
    if not result.won:
        return None
    for action in result.actions:
        if isinstance(action, Deal) and len(game.stock) <= stock:
            return game
        game.push(action)
    return None


def answer(
    game: Game, steps: tuple[tuple[int], ...], limit: int, members: tuple[solver.Member, ...]
) -> str:
    """The verdict of ``remove SUIT [then SUIT], no deal`` with phase A made of ``members``."""
    kept = solver.PORTFOLIO
    solver.PORTFOLIO = members
    try:
        goal = Goal(GoalKind.REMOVE, steps=steps)
        found = solver.answer(game, goal, Constraints(no_deal=True, limit=limit))
    finally:
        solver.PORTFOLIO = kept
    return str(found.status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="7000-7059", help="our deal numbers, A-B")
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--stock", type=int, default=20, help="cards left in the hand")
    parser.add_argument("--limit", type=int, default=1_000_000)
    parser.add_argument(
        "--without", type=int, default=3, help="the member left out (-1: none, one answer)"
    )
    parser.add_argument("--then", action="store_true", help="ask 'remove S then T' (T next)")
    args = parser.parse_args()
    low, high = (int(part) for part in args.seeds.split("-"))
    whole = solver.PORTFOLIO
    fewer = tuple(m for k, m in enumerate(whole) if k != args.without)
    pairs: dict[tuple[str, str], int] = {}
    began = time.perf_counter()
    for number in range(low, high + 1):
        game = position(number, args.suits, args.stock)
        if game is None:
            print(f"deal {number}: no position with {args.stock} cards in the hand")
            continue
        suits = SUITS_IN_VARIANT[args.suits]
        for k, suit in enumerate(suits):
            steps: tuple[tuple[int], ...] = ((suit,),)
            if args.then:
                steps = ((suit,), (suits[(k + 1) % len(suits)],))
            asked = " then ".join(SUIT_NAMES[step[0]] for step in steps)
            a = answer(game, steps, args.limit, whole)
            b = answer(game, steps, args.limit, fewer) if args.without >= 0 else a
            pairs[a, b] = pairs.get((a, b), 0) + 1
            mark = "" if a == b else "  <--"
            print(f"deal {number} remove {asked}: {a} / without: {b}{mark}", flush=True)
    print(f"\n{time.perf_counter() - began:.0f} s; (with, without): count")
    for (a, b), count in sorted(pairs.items()):
        print(f"  {a:<10} {b:<10} {count}")


if __name__ == "__main__":
    main()
