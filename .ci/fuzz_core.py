"""A bounded, seeded fuzz loop over every function of the compiled core (issue 50).

Each round draws, from ``random.Random(round)``, a position (a real deal some random moves
on, or the same with bytes changed), a budget from none to past any machine (2**63 - 1), and
a byte ceiling, and calls every function the core exports with them. A call must return or
raise ValueError, TypeError, OverflowError or MemoryError (its ceiling reached); anything
else, or a crash, fails. ``.ci/sanitized`` runs it on the core built under AddressSanitizer
with a hard limit on resident memory, so a search that grows past its ceiling fails CI.

    python .ci/fuzz_core.py [--rounds N] [--first K]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spider_cli.analysis import native
from spider_cli.analysis.blind import rollouts
from spider_cli.analysis.blind.evaluation import STANDARD, TABLE_SIZE
from spider_cli.analysis.blind.view import view_of
from spider_cli.analysis.compact import FACE_DOWN, encode, player_view
from spider_cli.analysis.search import goal
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.goals import Constraints, Goal
from tests.helpers import play_randomly

ALLOWED = (ValueError, TypeError, OverflowError, MemoryError)
BUDGETS = (0, 1, 300, 5_000, 10**6, 10**12, 2**63 - 1)
CEILINGS = (1, 4096, 1 << 16, 1 << 20, 4 << 20, 16 << 20)
GOALS = ("win", "turn up a card in pile 1", "remove a suit", "get a space")


def _mangled(rng: random.Random, piles: tuple[bytes, ...]) -> tuple[bytes, ...]:
    """``piles`` with a few bytes changed (ranks and suits out of range, face-down cards
    where face-up ones lie, a card too many)."""
    out = [bytearray(p) for p in piles]
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(10)
        if out[k] and rng.random() < 0.7:
            out[k][rng.randrange(len(out[k]))] = rng.choice(
                (0, 14, 15, 16 * 7 + 3, FACE_DOWN, 255, rng.randrange(256))
            )
        else:
            out[k].append(rng.randrange(256))
    return tuple(bytes(p) for p in out)


TALLY: Counter[tuple[str, str]] = Counter()
"""How each function's calls ended: returned, or the exception's name."""


def _call(name: str, function: Any, *args: Any) -> None:
    try:
        function(*args)
        TALLY[name, "returned"] += 1
    except ALLOWED as error:
        TALLY[name, type(error).__name__] += 1
    except Exception as error:  # anything else is a bug of the core's boundary
        message = f"{name}: {type(error).__name__}: {error} (arguments {args!r:.300})"
        raise SystemExit(message) from error


def one_round(core: Any, seed: int) -> None:
    rng = random.Random(seed)
    suits = rng.choice((1, 2, 4))
    game = DealSource(Source.OURS, rng.randrange(1_000_000), suits).game()
    game = play_randomly(game, rng.randrange(60), seed)
    start = encode(game)
    view = view_of(player_view(game))
    piles = start.piles if rng.random() < 0.75 else _mangled(rng, start.piles)
    budget, ceiling = rng.choice(BUDGETS), rng.choice(CEILINGS)
    weights = STANDARD.core()
    if rng.random() < 0.3:
        weights = tuple(rng.randint(-1000, 1000) for _ in range(len(weights) - TABLE_SIZE)) + (
            tuple(rng.randint(-1000, 1000) for _ in range(TABLE_SIZE))
        )
    removed = len(game.removed)
    searches = rng.choice((((True, 0),), ((False, 0), (True, 0), (True, 30))))
    _call("actions", core.actions, piles, [i for i, p in enumerate(piles) if not p], True)
    _call("blind_value", core.blind_value, piles, removed, 150, weights)
    _call("rank_key", core.rank_key, piles, removed)
    _call("state_key", core.state_key, piles)
    width = rng.choice((0, 30, 10_000))
    _call(
        "blind_search",
        core.blind_search,
        view.piles() if piles is start.piles else piles,
        removed,
        rng.choice((150, 50, -2000)),
        view.hand,
        budget,
        rng.random() < 0.5,
        width,
        weights,
        True,
        ceiling,
    )
    _call(
        "blind_game",
        core.blind_game,
        piles,
        start.rows,
        removed,
        budget,
        searches,
        weights,
        rng.choice((1, 50, 1000)),
        rng.choice((0, 1, 3)),
        rng.random() < 0.5,
        ceiling,
    )
    _call(
        "beam",
        core.beam,
        piles,
        start.rows,
        removed,
        rng.choice((1, 64, 100_000)),
        budget,
        rng.choice((0, 10, 500)),
        None,
        rng.randrange(2**32),
        ceiling,
    )
    unseen = bytes(view.unseen())
    _call(
        "chance_search",
        core.chance_search,
        view.piles(),
        removed,
        view.hand // 10,
        unseen if rng.random() < 0.8 else unseen[: rng.randrange(len(unseen) + 1)],
        [[(2, 0, 0, 0)]] if view.hand else [[(0, 0, 1, 1)]],
        rng.randrange(2**64),
        rng.choice((1, 8, 64)),
        budget,
        searches,
        weights,
        rng.choice((0, 1, 2)),
        rng.choice((10, 200)),
        rollouts.learned(4).core(),
        rng.choice((0, 200)),
        None,
        ceiling,
    )
    try:
        search = goal.make_search(game, Goal(rng.choice(GOALS)), Constraints())
    except ValueError:
        return
    _call(
        "goal_search",
        core.goal_search,
        goal.spec(search),
        search.root()[0],
        rng.random() < 0.5,
        rng.random() < 0.5,
        rng.random() < 0.5,
        rng.choice((0, 0, 100)),
        budget,
        2,
        None,
        ceiling,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--first", type=int, default=0, help="the first round's seed")
    args = parser.parse_args()
    core = native._load()
    if core is None:
        sys.exit("the compiled core is not built")
    began = time.perf_counter()
    for seed in range(args.first, args.first + args.rounds):
        one_round(core, seed)
    print(f"fuzzed the core: {args.rounds} rounds in {time.perf_counter() - began:.0f} s")
    for (name, ended), count in sorted(TALLY.items()):
        print(f"  {name:14s} {ended:14s} {count}")


if __name__ == "__main__":
    main()
