"""Garbage against every function of the compiled core: positions of random bytes, bytes a
little off a real position (ranks 0, 14 and 15, suits 4 to 7, face-down cards on face-up
ones, too many copies of a card), and integers at and past the edges of 64 bits. Each call
returns or raises ValueError, TypeError or OverflowError: never a crash, never a read or
write out of bounds. CI runs this file a second time on the core built under AddressSanitizer
and UndefinedBehaviorSanitizer (.ci/sanitized), where any such access ends the run.

The positions the core accepts are exactly those that :func:`accepts` (the rule, written
again in Python) allows, so the checker at the boundary is neither too weak nor too strict."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spider_cli.analysis import compact, native
from spider_cli.analysis.blind.evaluation import STANDARD
from spider_cli.analysis.compact import FACE_DOWN
from tests.helpers import reachable

WEIGHTS = STANDARD.core()

core = native._load()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")

REFUSED = (ValueError, TypeError, OverflowError)
"""What a bad argument may raise (OverflowError: an integer past C's, as Python's own
functions say)."""

UNSEEN = 15
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _is_card(code: int) -> bool:
    return code < FACE_DOWN and 1 <= code & 15 <= 13


def accepts(
    piles: Sequence[bytes], removed: int = 0, *, unseen: bool = False, known: bool = False
) -> bool:
    """The core's rule for a position: each pile face-down cards (FACE_DOWN alone, or a card
    plus FACE_DOWN) under face-up cards, its last card face up or unknown; no card more than
    eight times, no rank more than eight times with the suits removed, at most 104 cards in
    all."""
    if not 0 <= removed <= 8:
        return False
    copies: dict[int, int] = {}
    for pile in piles:
        k = 0
        while k < len(pile) and pile[k] >= FACE_DOWN:
            code = pile[k] - FACE_DOWN
            if code or known:
                if not _is_card(code):
                    return False
                copies[code] = copies.get(code, 0) + 1
            k += 1
        if pile and k == len(pile) and pile[-1] != FACE_DOWN:
            return False
        for byte in pile[k:]:
            if byte == UNSEEN and unseen:
                continue
            if not _is_card(byte):
                return False
            copies[byte] = copies.get(byte, 0) + 1
    if sum(map(len, piles)) + 13 * removed > 104:
        return False
    if any(n > 8 for n in copies.values()):
        return False
    return all(
        removed + sum(copies.get(suit * 16 + rank, 0) for suit in range(4)) <= 8
        for rank in range(1, 14)
    )


NEAR_CARDS = st.one_of(
    st.integers(0, 255),
    st.sampled_from([0, 14, 15, 16, 30, 31, 63, 64, 78, 79, 0x4D, 0x5D, 0x6D, 0x7D, 0x7F]),
    st.builds(
        lambda suit, rank, down: suit * 16 + rank + down,
        st.integers(0, 7),
        st.integers(0, 15),
        st.sampled_from((0, FACE_DOWN)),
    ),
)


@st.composite
def garbage_piles(draw: st.DrawFn) -> tuple[bytes, ...]:
    """Ten piles: a real position with a few bytes changed, added or taken, or random bytes."""
    if draw(st.booleans()):
        game = reachable(
            draw(st.integers(0, 1000)),
            draw(st.sampled_from((1, 2, 4))),
            draw(st.integers(0, 80)),
            draw(st.integers(0, 2**16)),
            draw(st.booleans()),
        )
        piles = [bytearray(p) for p in compact.encode(game).piles]
        for _ in range(draw(st.integers(0, 3))):
            i = draw(st.integers(0, 9))
            at = draw(st.integers(0, len(piles[i])))
            byte = draw(NEAR_CARDS)
            what = draw(st.sampled_from(("set", "insert", "delete")))
            if what == "insert" or not piles[i]:
                piles[i][at:at] = bytes((byte,))
            elif what == "set":
                piles[i][min(at, len(piles[i]) - 1)] = byte
            else:
                del piles[i][min(at, len(piles[i]) - 1)]
        return tuple(bytes(p) for p in piles)
    return tuple(
        bytes(draw(st.lists(NEAR_CARDS, max_size=draw(st.sampled_from((0, 3, 12, 30))))))
        for _ in range(10)
    )


# A whole suit of suit 4 to 7 lying face down (goal.c indexed need[4] of need[4] on it), a
# rank of 14 and 15 (goal.c's covers[14]), bytes of 0x7f.
CRASHERS = [
    (bytes(range(0x4D, 0x40, -1)), *([b""] * 9)),
    (bytes(range(0x7D, 0x70, -1)), *([b""] * 9)),
    (b"\x0e\x0f\x1e\x3f", *([b"\x05"] * 9)),
    (b"\x7f" * 20, *([b""] * 9)),
]

BIG = st.one_of(
    st.integers(-(2**70), 2**70),
    st.sampled_from(
        [-(2**63), -(2**31), -1, 0, 1, 8, 9, 104, 105, 2**31 - 1, 2**31, 2**63 - 1, 2**64]
    ),
)


def _call(function: Callable[..., Any], *args: Any) -> Any:
    """The call's result, or None when it refused its arguments as the core promises."""
    try:
        return function(*args)
    except REFUSED:
        return None


def _rows(piles: Sequence[bytes]) -> list[list[int]]:
    return [[13 - (k % 13)] * 10 for k in range(max(0, (104 - sum(map(len, piles))) // 40))]


@pytest.mark.parametrize("piles", CRASHERS)
def test_the_crashers_of_the_probe_are_refused(piles: tuple[bytes, ...]) -> None:
    spec = (2, -1, 0, True, 0, 0, False, False, True, False, False, 0, 0, 0, 0, ((1,),), ())
    for call in (
        lambda: core.goal_search(spec, piles, True, True, True, 0, 1000, 2, None),
        lambda: core.rank_key(piles, 0),
        lambda: core.apply(piles, (0, 0, 1, 1)),
        lambda: core.blind_search(piles, 0, 150, 0, 100, True, 0, WEIGHTS, True),
        lambda: core.beam(piles, [], 0, 4, 100, 10, None),
    ):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(ValueError):
        core.rank_key((b"",) * 10, -(2**31))


@SETTINGS
@given(garbage_piles(), st.integers(-2, 10), st.booleans())
def test_the_core_accepts_exactly_the_positions_of_the_rule(
    piles: tuple[bytes, ...], removed: int, unseen: bool
) -> None:
    assert (_call(core.rank_key, piles, removed) is not None) == accepts(piles, removed)
    assert (_call(core.state_key, piles) is not None) == accepts(piles, unseen=True)
    assert (_call(core.actions, piles, []) is not None) == accepts(piles, unseen=True)
    rows: list[list[int]] = []
    known = _call(core.beam, piles, rows, removed, 4, 50, 5, None) is not None
    assert known == accepts(piles, removed, known=True)


@SETTINGS
@given(garbage_piles(), st.data())
def test_every_function_refuses_garbage_clearly(piles: tuple[bytes, ...], data: Any) -> None:
    number = data.draw(BIG)
    small = data.draw(st.integers(-2, 12))
    spaces = [i for i, p in enumerate(piles) if not p][:1]
    action = data.draw(
        st.tuples(
            st.integers(-1, 3),
            st.integers(-1, 10),
            st.integers(-1, 10),
            st.one_of(st.integers(-1, 14), BIG),
        )
    )
    weights = data.draw(
        st.sampled_from(
            [
                WEIGHTS,
                ((number,) * 8, *WEIGHTS[8:]),
                (*WEIGHTS[:8], *(number,) * (len(WEIGHTS) - 8)),
                (number,) * len(WEIGHTS),
                ((0,) * 7, 1, 1, 1, 1, 1),
            ]
        )
    )
    results = [
        _call(core.actions, piles, spaces, True),
        _call(core.apply, piles, action),
        _call(core.apply_undo, piles, action),
        _call(core.rank_key, piles, small),
        _call(core.rank_key, piles, number),
        _call(core.blind_value, piles, small, number, weights),
        _call(core.state_key, piles),
        _call(core.blind_search, piles, small, number, small, 200, True, small, weights, True),
        _call(core.blind_search, piles, 0, 150, number, number % 300, False, 0, WEIGHTS, False),
        _call(core.blind_game, piles, _rows(piles), small, 60, [(True, 0)], weights, 30),
        _call(core.blind_game, piles, [], 0, number, [(True, small)], WEIGHTS, small),
        _call(core.beam, piles, _rows(piles), small, 4, 300, small, None),
        _call(core.beam, piles, [], 0, number, number, number, None),
        _call(core.beam, piles, _rows(piles), small, 4, 300, small, None, True),
        _call(core.beam, piles, [], 0, number, number, number, None, number),
        _call(
            core.chance_search,
            piles,
            small,
            small % 6,
            bytes(data.draw(st.lists(NEAR_CARDS, max_size=60))),
            [[action], [(2, 0, 0, 0)]],
            number,
            small % 5 + 1,
            60,
            [(True, 0)],
            weights,
            small % 3,
            30,
            (0, (1,) * 10),
            small * 50,
            None,
        ),
    ]
    for kind in range(5):
        spec = (
            kind,
            small - 2,
            small,
            True,
            small,
            small % 3,
            False,
            False,
            True,
            False,
            small % 2 == 1,
            small,
            number if kind == 3 else 0x0D,
            number,
            small % 3,
            ((small % 5,),),
            [[data.draw(NEAR_CARDS) for _ in range(10)]] if small > 9 else [],
        )
        search = core.goal_search
        results.append(_call(search, spec, piles, True, True, True, small % 7, 300, small, None))
        results.append(_call(search, spec, piles, False, False, False, 0, number, 2, None))
    applied = results[1]
    if applied is not None:
        after, turned, outcome = applied
        assert len(after) == 10 and -1 <= turned <= 9 and -1 <= outcome <= 4
        assert results[2] == list(piles)
    if results[6] is not None:
        packed, digest = results[6]
        assert len(packed) == 10 + sum(map(len, piles)) and 0 <= digest < 2**64
    if results[7] is not None:
        best, line, positions, reveals = results[7]
        assert (
            isinstance(best, int)
            and positions <= 200
            and isinstance(line, list)
            and isinstance(reveals, list)
        )


def _tables(piles: tuple[bytes, ...], data: Any) -> tuple[Any, ...]:
    """Arguments for ``core.orders``: each pile's bases by length (each None or a base), the
    terms and the budget; half the time every one in its range, else numbers now and then
    far out of their range or of the wrong kind, and tables of the wrong length."""
    need: st.SearchStrategy[Any] = st.tuples(*[st.integers(-3, 0)] * 13)
    small: st.SearchStrategy[Any] = st.integers(0, 1)
    plain = st.one_of(st.none(), st.tuples(need, small, st.integers(0, 60)))
    end = st.one_of(st.none(), st.tuples(need, small, st.integers(0, 2**14 - 1), small))
    clean = data.draw(st.booleans())
    if not clean:  # (clean: every base of the right shape and in range: the search runs)
        need = st.one_of(
            need,
            st.lists(st.one_of(st.integers(-3, 3), BIG), min_size=12, max_size=14),
            st.just("need"),
        )
        small = st.one_of(small, BIG)
        plain = st.one_of(plain, st.tuples(need, small, small), st.tuples(need, small))
        end = st.one_of(end, st.tuples(need, small, small, small), st.tuples(need, small, small))
    tables = []
    for base in (plain, end):
        tables.append(
            [
                data.draw(
                    st.lists(base, min_size=len(p) + 1, max_size=len(p) + 1 + (i == 0 < clean))
                )
                for i, p in enumerate(piles)
            ]
        )
    terms = st.tuples(
        st.integers(0, 15),
        st.booleans(),
        st.integers(-1, 3),
        st.integers(0, 2),
        st.integers(-1, 3),
        st.sampled_from((0, 2**14 - 2)),
    )
    if not clean:
        terms = st.tuples(*[st.one_of(st.integers(-2, 16), BIG)] * 6)
    if clean:  # every pile's whole base allowed at the start, and some base at the end
        for row in tables[0]:
            row[-1] = row[-1] or ((0,) * 13, 0, 0)
        for row in tables[1]:
            row[0] = row[0] or ((0,) * 13, 1, 0, 0)
    budget = st.integers(0, 3_000) if clean else st.one_of(st.integers(0, 3_000), BIG)
    return (*tables, data.draw(terms), data.draw(budget))


@SETTINGS
@given(garbage_piles(), st.data())
def test_the_count_in_every_order_refuses_garbage_clearly(
    piles: tuple[bytes, ...], data: Any
) -> None:
    """``core.orders`` (firstmoves.py's search) on garbage piles and tables: it answers or
    refuses, and never reads past a table or a pile."""
    plain, end, terms, budget = _tables(piles, data)
    number = data.draw(BIG)
    found = _call(core.orders, piles, plain, end, *terms, budget, None)
    if found is not None:
        reached, examined = found
        assert reached in (True, False, None) and examined >= 0
    long_pile = (bytes([13] * 64), *piles[1:])
    assert _call(core.orders, long_pile, plain, end, 0, False, -1, 0, -1, 0, number, None) is None
