"""Detours cut out of a line: a full-information win (``spider solve --seed``, the bench's
lines, :func:`clean`) or a hint's line, which ends at the first card it turns up
(:func:`straighten`).

A search finds a good line but not a tidy one: it may move a card and later move it back
with nothing gained in between, or carry a card from pile to pile before it settles. These
passes, repeated until none changes the line, make it shorter while it still wins (or still
ends where it ended):

* a jump: where one move from a position reaches a position the line visits later, the
  moves in between go (a loop, or a card shuttled and put back, or two moves that one does);
* a shortcut for a card moved twice: the run moved by one move and moved again later goes
  straight to where it ends (or stays, when it comes back), if the rest of the line is still
  legal and still wins;
* a return: a card that comes back onto the card it left, its moves dropped, if the rest
  of the line does without them;
* for a line a player reads (:func:`tidy`), a drop: a few moves that turn nothing up taken
  out, or a run's move with its next one, the later moves then finding their cards where
  they are (an Ace carried round the piles and left on another goes).

Every change is checked by playing the line on the compact positions with the rules'
legality tests, and :func:`spider_cli.analysis.solve.autoplay.play` checks the result with the
engine once more before it is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from spider_cli.analysis.compact import (
    ONE_BYTE,
    Start,
    State,
    actions,
    apply,
    completes_suit,
    run_length,
)
from spider_cli.rules.engine import DEAL, PILES, Action, Deal, Move, Remove

Key = tuple[State, int]
"""A position of the line: its piles and the rows dealt so far."""


def _step(start: Start, key: Key, action: Action) -> Key | None:
    """The position after ``action``, or None if the rules do not allow it there."""
    piles, dealt = key
    if isinstance(action, Deal):
        if dealt >= len(start.rows) or not all(piles):
            return None
        row = start.rows[dealt]
        return tuple(piles[i] + ONE_BYTE[row[i]] for i in range(PILES)), dealt + 1
    if isinstance(action, Remove):
        if not completes_suit(piles[action.pile]):
            return None
    else:
        src, dst, m = action
        p, q = piles[src], piles[dst]
        if src == dst or not 0 < m <= run_length(p) or (q and q[-1] & 15 != (p[-m] & 15) + 1):
            return None
    new, _turned, _outcome = apply(piles, action)
    return tuple(new), dealt


def _keys(start: Start, line: list[Action], first: Key | None = None) -> list[Key] | None:
    """The positions the line goes through from ``first`` (the start), or None if a move is
    illegal."""
    key: Key = first or (start.piles, 0)
    keys = [key]
    for action in line:
        after = _step(start, key, action)
        if after is None:
            return None
        keys.append(after)
        key = after
    return keys


def _won(key: Key, start: Start) -> bool:
    """Every card off the table and the hand dealt: the game won."""
    return key[1] == len(start.rows) and not any(key[0])


def _jump(start: Start, line: list[Action], keys: list[Key]) -> list[Action] | None:
    """The line with its first detour cut (see the module doc), or None if it has none."""
    index = {key: i for i, key in enumerate(keys)}
    for i, (piles, dealt) in enumerate(keys[:-2]):
        best: tuple[int, Action] | None = None
        options: list[Action] = list(actions(piles, [k for k, p in enumerate(piles) if not p]))
        options.append(DEAL)
        for action in options:
            child = _step(start, (piles, dealt), action)
            j = index.get(child) if child is not None else None
            if j is not None and j > i + 1 and (best is None or j > best[0]):
                best = (j, action)
        if best is not None:
            j, action = best
            return [*line[:i], action, *line[j:]]
    return None


Good = Callable[[Key], bool]
"""Whether a changed line's last position will do (the game won, or the line's own end)."""


def _shortcut(start: Start, line: list[Action], keys: list[Key], good: Good) -> list[Action] | None:
    """The line with its first card moved twice taken straight (or left where it was), or
    None if no such change keeps it winning. The card's second move is the next move from
    the pile it went to, if that moves the same cards."""
    for i, first in enumerate(line):
        if not isinstance(first, Move):
            continue
        card = keys[i][0][first.src][-first.count]
        j = next(
            (k for k in range(i + 1, len(line)) if getattr(line[k], "src", None) == first.dst),
            None,
        )
        if j is None:
            continue
        later = line[j]
        if not isinstance(later, Move) or later.count != first.count:
            continue
        if keys[j][0][later.src][-later.count] != card:
            continue
        between = line[i + 1 : j]
        straight = Move(first.src, later.dst, first.count)
        tries = [[*between, straight], [straight, *between]]
        if later.dst == first.src:
            tries.insert(0, between)
        for middle in tries:
            rest = _keys(start, [*middle, *line[j + 1 :]], keys[i])
            if rest is not None and good(rest[-1]):
                return [*line[:i], *middle, *line[j + 1 :]]
    return None


def _return(start: Start, line: list[Action], keys: list[Key], good: Good) -> list[Action] | None:
    """The line without the moves of the first card that comes back onto the card it left
    (carried there in one or more moves of the same cards), or None if no such change keeps
    the line legal and its end good."""
    for i, first in enumerate(line):
        if not isinstance(first, Move):
            continue
        piles = keys[i][0]
        source = piles[first.src]
        head = len(source) - first.count
        place = (first.src, source[head - 1] if head else None)
        where, moves = first.dst, [i]
        for k in range(i + 1, len(line)):
            later = line[k]
            if not isinstance(later, Move) or where not in (later.src, later.dst):
                continue
            if later.dst == where or later.count != first.count:
                break  # something lands on the cards, or they move with others
            now = keys[k][0]
            moves.append(k)
            where = later.dst
            if (where, now[where][-1] if now[where] else None) == place:
                kept = [a for n, a in enumerate(line) if n not in moves]
                rest = _keys(start, kept)
                if rest is not None and good(rest[-1]):
                    return kept
                break
    return None


DROPPED = 4
"""The most moves in a row :func:`_drop` tries to take out of a winning line."""


def _likeness(pile: bytes, like: bytes) -> tuple[bool, int]:
    """How much ``pile`` looks like ``like``: the same cards, then how many first cards agree
    (to tell twin cards apart by what lies under them)."""
    same = 0
    for a, b in zip(pile, like, strict=False):
        if a != b:
            break
        same += 1
    return pile == like, same


def _pick(fits: list[int], now: State, before: State, own: int) -> int:
    """Of the piles ``fits``, the one that looks most like pile ``own`` did (its own number
    first among equals)."""
    return max(fits, key=lambda i: (*_likeness(now[i], before[own]), i == own, -i))


def _moved(action: Action, before: State, now: State) -> Action | None:
    """``action``, played from ``before`` in the line, as the same cards' act in ``now``: the
    run headed by the same card onto the same card (or into a space), the same suit removed,
    on the piles that look most like the ones it used. None if no pile will do."""
    if isinstance(action, Deal):
        return action
    if isinstance(action, Remove):
        ace = before[action.pile][-1]
        fits = [i for i in range(PILES) if completes_suit(now[i]) and now[i][-1] == ace]
        return Remove(_pick(fits, now, before, action.pile)) if fits else None
    src, dst, m = action
    card, onto = before[src][-m], before[dst][-1] if before[dst] else None
    sources = [
        i
        for i in range(PILES)
        if len(now[i]) >= m and now[i][-m] == card and run_length(now[i]) >= m
    ]
    if not sources:
        return None
    frm = _pick(sources, now, before, src)
    targets = [i for i in range(PILES) if i != frm and (now[i][-1] if now[i] else None) == onto]
    return Move(frm, _pick(targets, now, before, dst), m) if targets else None


def _quiet(line: list[Action], keys: list[Key], k: int) -> bool:
    """Whether the line's move ``k`` is a card move that turns nothing up."""
    action = line[k]
    if not isinstance(action, Move):
        return False
    return keys[k + 1][0][action.src] == keys[k][0][action.src][: -action.count]


def _drops(line: list[Action], keys: list[Key], i: int) -> Iterator[tuple[int, ...]]:
    """The sets of moves :func:`_drop` tries to take out, from move ``i`` on: the moves in a
    row from it that turn nothing up (up to :data:`DROPPED`), and it with the next move of the
    run it moved (the run then stays where it was)."""
    for w in range(1, DROPPED + 1):
        if i + w > len(line) or not _quiet(line, keys, i + w - 1):
            break
        yield tuple(range(i, i + w))
    first = line[i]
    assert isinstance(first, Move)
    card = keys[i][0][first.src][-first.count]
    for j in range(i + 1, len(line)):
        later = line[j]
        if isinstance(later, Move) and keys[j][0][later.src][-later.count] == card:
            if j > i + DROPPED and _quiet(line, keys, j):
                yield (i, j)
            return


def _drop(start: Start, line: list[Action], keys: list[Key], good: Good) -> list[Action] | None:
    """The line without the first of :func:`_drops`' sets that the rest does without, the
    rest played by its cards (:func:`_moved`), or None.

    This takes out a shuffle that leaves its cards elsewhere than they were (an Ace carried
    round the piles and left on another): the later moves find those cards where they are."""
    for i in range(len(line)):
        if not _quiet(line, keys, i):
            continue
        for dropped in _drops(line, keys, i):
            key, out = keys[i], list(line[:i])
            for k in range(i + 1, len(line)):
                if k in dropped:
                    continue
                action = _moved(line[k], keys[k][0], key[0])
                after = None if action is None else _step(start, key, action)
                if action is None or after is None:
                    break
                out.append(action)
                key = after
            else:
                if good(key):
                    return out
    return None


def _cut(start: Start, line: list[Action], good: Good, drop: bool = False) -> list[Action]:
    """``line`` with detours cut while its end stays good (as it is, if it is not legal or
    its end is not good to begin with)."""
    keys = _keys(start, line)
    if keys is None or not good(keys[-1]):
        return line
    while True:
        shorter = (
            _jump(start, line, keys)
            or _shortcut(start, line, keys, good)
            or _return(start, line, keys, good)
            or (_drop(start, line, keys, good) if drop else None)
        )
        if shorter is None or len(shorter) >= len(line):
            return line
        new_keys = _keys(start, shorter)
        if new_keys is None or not good(new_keys[-1]):
            return line
        line, keys = shorter, new_keys


def clean(start: Start, line: list[Action]) -> list[Action]:
    """A winning line with its detours cut: never longer, and still winning (a line that is
    not a legal win from ``start`` comes back as it is)."""
    return _cut(start, line, lambda key: _won(key, start))


def tidy(start: Start, line: list[Action]) -> list[Action]:
    """:func:`clean`, then also shuffles dropped whose cards the rest of the line finds where
    they are (:func:`_drop`): for a winning line a player reads (the review's). Full-information
    play keeps :func:`clean` alone, as the tables of its results record its lines' lengths
    under the search's version."""
    won = lambda key: _won(key, start)  # noqa: E731
    return _cut(start, _cut(start, line, won), won, drop=True)


def straighten(piles: State, line: list[Action]) -> list[Action]:
    """A line of moves from ``piles`` (no deal; it may end at a card it turns up, which
    stays face down here) with its detours cut: never longer, and ending in the same
    position (a line that is not legal comes back as it is)."""
    start = Start(piles, (), ())
    keys = _keys(start, line)
    if keys is None:
        return line
    end = keys[-1]
    return _cut(start, line, lambda key: key == end)
