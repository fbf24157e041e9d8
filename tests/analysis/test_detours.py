"""Full-information lines with their detours cut: never longer, still winning (checked by
the engine), with no position visited twice and no move that jumps ahead."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis import compact, native
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.search import detours
from spider_cli.analysis.solve import autoplay
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import Move


def _won_line(number: int, suits: int) -> tuple[compact.Start, list, object]:
    game = DealSource.parse(str(number), suits).game()
    found, _positions = native.backend().beam(compact.encode(game), 64, Limit(300_000))
    return compact.encode(game), found or [], game


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 5_000), st.sampled_from((1, 2)))
def test_a_clean_line_is_shorter_or_equal_and_still_wins(number: int, suits: int) -> None:
    start, line, game = _won_line(number, suits)
    if not line:
        return
    clean = detours.clean(start, line)
    assert len(clean) <= len(line)
    autoplay._as_played(game, clean)  # raises if a move is illegal or the line does not win
    keys = detours._keys(start, clean)
    assert keys is not None and len(set(keys)) == len(keys)  # no position twice
    assert detours._jump(start, clean, keys) is None


def _there_and_back(piles: compact.State) -> tuple[Move, Move] | None:
    """A move that turns nothing up, and the move that takes it back, if there are any."""
    spaces = [i for i, p in enumerate(piles) if not p]
    for there in compact.actions(piles, spaces):
        if not isinstance(there, Move):
            continue
        after, turned, _outcome = compact.apply(piles, there)
        back = Move(there.dst, there.src, there.count)
        if (
            turned < 0
            and back in compact.actions(tuple(after), spaces)
            and compact.apply(tuple(after), back)[0] == list(piles)
        ):
            return there, back
    return None


def test_a_card_moved_away_and_back_for_nothing_is_cut() -> None:
    start, line, game = _won_line(3, 1)
    clean = detours.clean(start, line)
    keys = detours._keys(start, clean)
    assert keys is not None
    k, pair = next((k, p) for k, key in enumerate(keys) if (p := _there_and_back(key[0])))
    detour = [*clean[:k], *pair, *clean[k:]]
    assert detours.clean(start, detour) == clean
    autoplay._as_played(game, detour)  # (the detour itself is a legal win)


def test_a_line_that_does_not_win_comes_back_as_it_is() -> None:
    start, line, _game = _won_line(3, 1)
    assert detours.clean(start, line[:-5]) == line[:-5]
    assert detours.clean(start, [Move(0, 0, 1)]) == [Move(0, 0, 1)]


def _c(rank: int, suit: int = 0) -> int:
    return suit * 16 + rank


DOWN = compact.FACE_DOWN


def test_a_hints_line_loses_a_card_carried_round_and_back() -> None:
    piles: compact.State = (
        bytes([DOWN, _c(5, 1), _c(4)]),  # A: the 4 lies on a 5 of hearts
        bytes([_c(5, 2)]),
        bytes([_c(5, 3)]),
        bytes([DOWN, _c(9, 1), _c(8, 1), _c(7, 2)]),
        bytes([_c(8, 3)]),
        bytes([DOWN, _c(3, 1)]),
        bytes([_c(4, 3)]),
        *[bytes([_c(13)])] * 3,
    )
    carried = [Move(0, 1, 1), Move(1, 2, 1), Move(3, 4, 1), Move(2, 0, 1), Move(5, 6, 1)]
    assert detours.straighten(piles, carried) == [Move(3, 4, 1), Move(5, 6, 1)]
    # a line already straight, or one that is not legal, comes back as it is
    assert detours.straighten(piles, [Move(3, 4, 1)]) == [Move(3, 4, 1)]
    assert detours.straighten(piles, [Move(1, 0, 1)]) == [Move(1, 0, 1)]


def test_a_card_parked_for_a_swap_stays_in_the_line() -> None:
    piles: compact.State = (
        bytes([DOWN, _c(9), _c(8, 1)]),  # the 8 of hearts must make room
        bytes([DOWN, _c(9, 1), _c(8)]),  # for the 8 of spades, and the other way round
        bytes([_c(9, 2)]),  # where one 8 waits
        bytes([DOWN, _c(1)]),
        bytes([_c(2)]),
        *[bytes([_c(13)])] * 5,
    )
    swap = [Move(0, 2, 1), Move(1, 0, 1), Move(2, 1, 1), Move(3, 4, 1)]
    assert detours.straighten(piles, swap) == swap


def _by_cards(start: compact.Start, line: list, keys: list, k: int, first: Move) -> list | None:
    """``first`` played at the line's move ``k``, then the rest of the line by its cards
    (each run headed by the same card onto the same card), if that still wins."""
    key = detours._step(start, keys[k], first)
    out = [first]
    for n in range(k, len(line)):
        action = detours._moved(line[n], keys[n][0], key[0]) if key else None
        key = detours._step(start, key, action) if key and action else None
        if key is None:
            return None
        out.append(action)
    return out if detours._won(key, start) else None


def _shuffles(start: compact.Start, line: list) -> list[list]:
    """Winning lines made of ``line`` with one card moved aside for nothing and left there
    (the later moves finding it where it is), which played exactly as written would not win."""
    keys = detours._keys(start, line)
    assert keys is not None
    found = []
    for k, (piles, _dealt) in enumerate(keys[:-1]):
        spaces = [i for i, p in enumerate(piles) if not p]
        for aside in compact.actions(piles, spaces):
            if not isinstance(aside, Move) or compact.apply(piles, aside)[1] >= 0:
                continue  # (a move that turns a card up is not for nothing)
            rest = _by_cards(start, line, keys, k, aside)
            if rest is not None and detours._keys(start, [*line[:k], aside, *line[k:]]) is None:
                found.append([*line[:k], *rest])
    return found


def test_a_card_shuffled_round_and_left_elsewhere_is_cut() -> None:
    """An Ace carried to another pile for nothing: the later moves take it from where it is,
    and :func:`detours.tidy` drops the move, where :func:`detours.clean` may not."""
    kept = 0
    for number in (3, 5):
        start, line, game = _won_line(number, 2)
        clean = detours.clean(start, line)
        shuffles = _shuffles(start, clean)[::7][:6]
        assert shuffles
        for shuffled in shuffles:
            kept += len(detours.clean(start, shuffled)) == len(shuffled)
            again = detours.tidy(start, shuffled)
            assert len(again) < len(shuffled)
            autoplay._as_played(game, again)
    assert kept  # (some of them only the drop takes out)
