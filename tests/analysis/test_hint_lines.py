"""Hinted lines carry no card round and back: a card that returns onto the card it left
within one line does so because the line needs it (deals 3 and 5 at 2 suits had such detours
at moves 30, 39 and 58 before hints cut them; deal 7 at 4 suits has a swap that needs one)."""

from __future__ import annotations

import pytest

from spider_cli.app.session import Session
from spider_cli.rules.engine import Game, Move


def _returns(game: Game, line: list) -> list[tuple[int, list[int]]]:
    """Each card a line carries back onto the card it left: the move it leaves by, and the
    moves that carry it (the line's moves of those cards, the return last)."""
    piles = [[(i, k) for k in range(len(p))] for i, p in enumerate(game.piles)]
    left: dict[tuple[int, int], tuple[int, object, list[int]]] = {}
    found = []
    for n, action in enumerate(line):
        if not isinstance(action, Move):
            break
        src, dst, m = action
        moving = piles[src][-m:]
        head = moving[0]
        beneath = piles[src][-m - 1] if len(piles[src]) > m else None
        onto = piles[dst][-1] if piles[dst] else None
        if head in left:
            pile, under, moves = left[head]
            moves.append(n)
            if (dst, onto) == (pile, under):
                found.append((moves[0], list(moves)))
        else:
            left[head] = (src, beneath, [n])
        for card in moving[1:]:
            left.pop(card, None)
        del piles[src][-m:]
        piles[dst].extend(moving)
    return found


def _ends(game: Game, line: list) -> object | None:
    """The key of the position ``line`` leads to, or None if a move is not legal."""
    work = game.copy()
    for action in line:
        if work.why_illegal(action) is not None:
            return None
        work.push(action)
    return work.key()


@pytest.mark.parametrize(("number", "suits", "hints"), [(3, 2, 22), (5, 2, 22), (7, 4, 23)])
def test_a_hinted_line_brings_no_card_back_where_it_was_unless_it_must(
    number: int, suits: int, hints: int
) -> None:
    session = Session.new_game(seed=0)
    session.execute(f"new {number} suits {suits}")
    checked = 0
    for _ in range(hints):
        reply = session.execute("hint").text
        line = list(session.analysis.found)
        if not line:
            if "a deal is due" not in reply:
                break
            session.execute("deal")
            continue
        end = _ends(session.game, line)
        for _first, moves in _returns(session.game, line):
            # the card's round trip is needed: without it the line is not legal, or ends
            # somewhere else
            shorter = [a for n, a in enumerate(line) if n not in moves]
            assert _ends(session.game, shorter) != end, (line, moves)
        checked += 1
        session.execute("apply all")
    assert checked >= 15
