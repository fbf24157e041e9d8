"""How often ``auto`` puts a run back onto the card it left with nothing turned up, dealt or
removed in between (a loop of the player's across its turns).

Each deal is played by ``auto`` and ``deal`` to its end, as a player at the prompt would,
and every such return in the game is counted. Usage:

    python benchmarks/round_trips.py --deals 0-19 --suits 4 [--autoremove]

prints one line a deal (moves, won or suits removed, returns) and the totals.
"""

from __future__ import annotations

import argparse

from spider_cli.app.session import Session
from spider_cli.language.settings import Settings
from spider_cli.rules.engine import Deal, Game, Move


def returns(game: Game) -> list[int]:
    """The moves of ``game`` (1-based) that put a run back onto the card it left, that card
    where it was, with no card turned up, row dealt or suit removed since it left: a loop
    (a run that steps aside while the card under it moves, and comes back onto it, is the
    manual's way of moving both, not a loop). Cards are followed one by one (a pack holds
    two of each), so a twin put where the other was is not counted."""
    work = game.copy()
    while work.moves_made:
        work.pop()
    ids = [list(range(100 * i, 100 * i + len(p))) for i, p in enumerate(work.piles)]
    fresh = 10_000
    left: set[tuple[int, int, int, int]] = set()  # the run's first card, the card it left,
    # and where that card was (its pile, and the pile's length with it last)
    found = []
    for k, action in enumerate(game.move_stack, start=1):
        down, removed = sum(work.down), len(work.removed)
        if isinstance(action, Move):
            src, dst, n = ids[action.src], ids[action.dst], action.count
            first = src[-n]
            if dst and (first, dst[-1], action.dst, len(dst)) in left:
                found.append(k)
            if len(src) - n > work.down[action.src]:
                left.add((first, src[-n - 1], action.src, len(src) - n))
            dst += src[-n:]
            del src[-n:]
        elif isinstance(action, Deal):
            for row in ids:
                row.append(fresh)
                fresh += 1
        work.push(action)
        for row, cards in zip(ids, work.piles, strict=True):
            del row[len(cards) :]  # the suits removed, by the line or by autoremove
        if isinstance(action, Deal) or sum(work.down) != down or len(work.removed) != removed:
            left.clear()
    return found


def play(number: int, suits: int, autoremove: bool) -> Game:
    """Deal ``number`` played by ``auto`` and deals to its end."""
    session = Session(settings=Settings(autoremove=autoremove))
    session.new(number, suits)
    while not session.game.is_won():
        before = session.game.moves_made
        session.auto()
        if session.game.stock and not session.game.spaces():
            session.deal()
        elif session.game.moves_made == before:
            break
    return session.game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="0-19", help="first-last deal numbers")
    parser.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    parser.add_argument("--autoremove", action="store_true")
    args = parser.parse_args()
    first, _, last = args.deals.partition("-")
    total_moves = total = won = 0
    for number in range(int(first), int(last or first) + 1):
        game = play(number, args.suits, args.autoremove)
        found = returns(game)
        total_moves += game.moves_made
        total += len(found)
        won += game.is_won()
        end = "won" if game.is_won() else f"{len(game.removed)} suits removed"
        print(
            f"deal {number}: {game.moves_made} moves, {end}, {len(found)} returns {found}",
            flush=True,
        )
    print(f"total: {total_moves} moves, {won} won, {total} returns")


if __name__ == "__main__":
    main()
