"""The blind player of ``spider bench --blind``: a fast policy that sees only a player's view.

Each turn it searches, within a budget of positions, the moves that only rearrange face-up
cards (:func:`spider_cli.analysis.compact.actions`): twice breadth-first and once with a
beam that sees deeper. It plays the line to the best-valued position found if that is
better than where it stands. A line may go on past a card it turns up, counting that card
as the worst it could be (:data:`UNSEEN`: it takes no card and goes nowhere but into a
space), so its value is one the line is sure of; the table plays the line only up to that
card, and the next turn plans with the card seen. With four suits, which card to go for is
weighed by what could turn up: the few best lines that end at a card are compared by the
value expected after samples of the cards not yet seen (a one-step expectimax). And when the
best line is sure, a line that spends a space to turn a card up is weighed as the manual
does its contingencies: by the share of the cards it could turn up after which the space
comes back (:func:`_contingent`).

The value is :mod:`spider_cli.analysis.blind.evaluation`'s weighted sum of features (remove suits,
turn up face-down cards, the piles with the fewest first, build same-suit runs and not other
suits', and the counts experts make), with the weights shipped for the game's number of suits;
a space's worth is the search's :class:`Mode`. When no line gains, the spaces are put to
use: the search is run again with a space worth less than a card turned up. When that gains
nothing either, a deal is due: the spaces are filled with the cards that harm the position
least (the same search, now valuing a space as a loss), then the row is dealt
(:func:`spider_cli.analysis.bench.blind.play_blind`).

A line is played only if it raises the value or turns up a card, so between two cards
turned up (or two deals) the value strictly rises and the policy cannot loop. Every search
is bounded by positions, and the samples are chosen in a fixed order, so the same deal is
always played the same way."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple, Protocol

from spider_cli.analysis.blind.evaluation import (
    Weights,
    pile_value,
    tops_value,
    unseen_ranks,
    value,
)
from spider_cli.analysis.blind.turns import Mode as Mode
from spider_cli.analysis.blind.turns import Request as Request
from spider_cli.analysis.blind.turns import Turn as Turn
from spider_cli.analysis.compact import REVEAL, State, actions, apply, run_length
from spider_cli.analysis.limits import TURN_LIMIT, Limit
from spider_cli.rules.engine import PILES, Action, Deal, Remove

UNSEEN = bytes((15,))
"""A card a line turns up, whatever it is (the worst case): a byte of rank 15, which the
compact moves never move onto another card, nor let another card onto, but may move into
a space, as any card may."""

BEAM = 30
"""Positions the third search keeps at each level (what it wins: BENCHMARKS.md)."""

WEIGHED = {1: False, 2: True, 4: True}
"""Whether a variant weighs which card to turn up by samples of the unseen cards
(:func:`_expect`): it pays at 2 and 4 suits and costs at one (BENCHMARKS.md)."""

CHOICES = 3
"""Lines ending at a card turned up that are weighed (the best-valued), beside the best
line's own."""

SAMPLES = 8
"""Cards tried as the one a line turns up (each kind, when there are no more kinds)."""

LOOK = 300
"""Positions examined after each card tried."""

_LOOKS = Limit(LOOK)


@dataclass(frozen=True)
class Candidate:
    """A line a turn's searches found: its moves (it may go on past a card it turns up),
    and the value it reaches, each card it turns up counted as :data:`UNSEEN`."""

    line: tuple[Action, ...]
    score: int


@dataclass(frozen=True)
class Plan:
    """What the policy would play: a line of moves (empty when none gains; the table plays
    it up to the first card it turns up), the positions its searches examined, the lines it
    weighed, best first (the line played first, when there is one), and whether every
    position within reach was examined (then "nothing gains" is sure)."""

    line: tuple[Action, ...]
    positions: int
    candidates: tuple[Candidate, ...] = ()
    exhausted: bool = False


Searches = tuple[tuple[bool, int], ...]
"""The searches of a turn, each ``(parts, width)`` as :class:`BlindSearch` takes them."""

SEARCHES: Searches = ((False, 0), (True, 0), (True, BEAM))
"""The player's three searches (see :func:`plan`)."""


def plan(
    search: BlindSearch,
    turn: Turn,
    budget: Limit = TURN_LIMIT,
    unseen: Sequence[int] = (),
    searches: Searches = SEARCHES,
) -> Plan:
    """The line (from the ``turn``'s position, valued by its weights with a space worth its
    mode) to the best-valued position found, going on past cards turned up (each as
    the worst card, :data:`UNSEEN`); an empty line when nothing beats the position as it is.

    Three searches of ``budget`` positions each: breadth-first moving only whole runs into
    spaces (it sees further), breadth-first moving parts of runs too, and a beam of
    :data:`BEAM` (deeper still); the best line wins (the first on a tie). Given the cards
    not yet seen (``unseen``), a line that turns a card up is then chosen by the value
    expected once the card is seen (:func:`_expect`). The other lines weighed come after
    it in the turn's candidates (:func:`_candidates`). ``searches``: other searches than
    these three (the sampling player's rollouts use fewer)."""
    reveals: list[Reveal] = []
    found_by = [search(Request(turn, budget, parts, width), reveals) for parts, width in searches]
    best = max(found_by, key=lambda found: found[0])
    spent = sum(found[2] for found in found_by)
    exhausted = any(  # a breadth-first search with parts saw everything
        parts and not width and found[2] < budget.positions
        for (parts, width), found in zip(searches, found_by, strict=True)
    )
    line, looked = best[1], 0
    if unseen and best[1]:
        line, looked = _expect(search, turn, best[1], reveals, unseen)
    if unseen and not first_reveal(turn.piles, line):
        line, more = _contingent(search, turn, line, best[0], reveals, unseen)
        looked += more
    if not line:
        return Plan((), spent + looked, (), exhausted)
    chosen = next((r.score for r in reveals if r.line == line), best[0])
    others = [Candidate(found[1], found[0]) for found in found_by if found[1]]
    others += [Candidate(r.line, r.score) for r in reveals]
    return Plan(line, spent + looked, _candidates(Candidate(line, chosen), others), exhausted)


CANDIDATES = 24
"""Lines a turn offers beside its own (for ``hint`` asked again, and for players that weigh
them by samples of the unseen cards)."""


def _candidates(chosen: Candidate, others: list[Candidate]) -> tuple[Candidate, ...]:
    """The line played, then the best-valued of the others (the first found on a tie), each
    line once, at most :data:`CANDIDATES` of them."""
    ranked = [chosen]
    lines = {chosen.line}
    for other in sorted(others, key=lambda c: -c.score):  # (stable)
        if len(ranked) > CANDIDATES:
            break
        if other.line not in lines:
            lines.add(other.line)
            ranked.append(other)
    return tuple(ranked)


class Kind(Enum):
    """What a turn decides: play a line, deal a row, or nothing (the game is lost)."""

    LINE = "line"
    DEAL = "deal"
    LOST = "lost"


@dataclass(frozen=True)
class Decision:
    """One turn of the blind player (:func:`decide`): what to do, the value of a space it
    was decided with (``mode``: the next turn starts there unless a card turns up or a row
    is dealt), the lines weighed, best first (the first is the line to play; it may go on
    past a card it turns up), the positions examined, and whether "nothing gains" is sure
    (every position within reach examined)."""

    kind: Kind
    mode: Mode
    candidates: tuple[Candidate, ...] = ()
    positions: int = 0
    exhausted: bool = False

    @property
    def line(self) -> tuple[Action, ...]:
        """The line to play (empty unless ``kind`` is LINE)."""
        return self.candidates[0].line if self.candidates else ()


def decide(
    search: BlindSearch,
    turn: Turn,
    budget: Limit = TURN_LIMIT,
    unseen: Sequence[int] = (),
    searches: Searches = SEARCHES,
) -> Decision:
    """One turn: the line :func:`plan` finds with a space worth the ``turn``'s mode; when
    none gains, the spaces put to use (:attr:`Mode.USE`), and when that gains nothing either, a row
    dealt once every space is filled (:attr:`Mode.FILL`: the lines that fill them); with
    the hand empty and nothing gaining, the game is lost.

    The turn's piles are compact (:mod:`~spider_cli.analysis.compact`): a face-down card is
    ``FACE_DOWN``, or its code plus ``FACE_DOWN`` where the player knows it (a position
    of the manual's, ``assume``): a line goes on past a known card as past any move.
    ``unseen`` are the cards a face-down card may be (none: the cards turned up are not
    weighed); ``budget`` and ``searches``: see :func:`plan`."""
    positions = 0
    spaces = not all(turn.piles)
    hand, mode = turn.hand, turn.mode
    exhausted = True
    while True:
        planned = plan(search, turn.at(mode), budget, unseen, searches)
        positions += planned.positions
        exhausted = exhausted and planned.exhausted
        if planned.line:
            return Decision(Kind.LINE, mode, planned.candidates, positions, planned.exhausted)
        if hand and not spaces:
            return Decision(Kind.DEAL, mode, (), positions, exhausted)
        if spaces and mode is Mode.KEEP:
            mode = Mode.USE
        elif hand and mode is Mode.USE:
            mode = Mode.FILL
        else:
            return Decision(Kind.LOST, mode, (), positions, exhausted)


class Reveal(NamedTuple):
    """A line a search met that ends at the first card it turns up."""

    score: int  # the value after it, the card counted as UNSEEN
    line: tuple[Action, ...]
    state: State  # the position after it
    pile: int  # where the card was turned up
    removed: int  # suits removed by then


def _children(
    state: State,
    off: int,
    worth: int,
    space: int,
    cards: int,
    hand: int,
    parts: bool,
    weights: Weights,
    unseen: tuple[int, ...],
) -> Iterator[tuple[State, int, int, Action, int]]:
    """The positions one move from ``state`` (``off`` suits removed, valued ``worth``, a
    space worth ``space``): each child, its suits removed, its value, the move, and the pile
    where it turned a card up (-1: none). A card turned up is :data:`UNSEEN`; ``parts``:
    parts of runs may go into a space.

    A suit is not removed while the hand holds cards if fewer than ten would be left in the
    tableau: a row could then never be dealt (a complete suit left in place counts as won)."""
    spaces = [i for i, p in enumerate(state) if not p][:1]  # spaces are interchangeable
    runs = [run_length(p) for p in state]
    tops = tops_value(state, weights, unseen)
    for action in actions(state, spaces, whole_into_space=False):
        assert not isinstance(action, Deal)  # (actions gives no deals)
        if isinstance(action, Remove):
            if hand and cards - 13 * (off + 1) < PILES:
                continue
            src, dst, now = action.pile, action.pile, off + 1
        else:
            src, dst, count = action
            if not (parts or state[dst]) and count < runs[src]:
                continue  # into a space goes a whole run (parts go onto cards)
            now = off
        new, turned, outcome = apply(state, action)
        if outcome == REVEAL:  # the card turned up is not seen until the line is played
            new[turned] = new[turned][:-1] + UNSEEN
        else:
            turned = -1
        child = tuple(new)
        # Only the piles the action touched change value (by their own part of it), and
        # what the top cards make together.
        score = worth + weights.removed * (now - off) - tops + tops_value(child, weights, unseen)
        for i in {src, dst}:
            before, after = state[i], new[i]
            score += (pile_value(after, weights, unseen) if after else space) - (
                pile_value(before, weights, unseen) if before else space
            )
        yield child, now, score, action, turned


Node = tuple[State, int, int, tuple[Action, ...], bool]
"""A position a search reached: its piles, suits removed, value, line, and whether the line
has turned a card up."""


Found = tuple[int, tuple[Action, ...], int]
"""What a search found: the best value, the line to it, and the positions examined."""


class BlindSearch(Protocol):
    """One search of the blind player (:func:`search`, or the compiled core's, as
    :func:`spider_cli.analysis.native.backend` gives it): the best-valued line found from
    the request's turn within its limit's positions, level by level, as (its value, the
    line, positions examined). The request's ``width`` 0 keeps every position of a level
    (breadth-first), else only the ``width`` best (a beam: deeper at the same cost); with
    ``parts``, parts of runs may go into a space. The lines that end at their first card
    turned up are added to ``reveals``; positions are valued by the turn's weights."""

    def __call__(self, request: Request, reveals: list[Reveal] | None = None) -> Found: ...


def search(
    request: Request, reveals: list[Reveal] | None = None, reveal_moves: int | None = None
) -> Found:
    """A :class:`BlindSearch` on the Python path (the reference of csrc/blind.c); the
    reveals are kept as found while their lines hold ``reveal_moves`` moves in all (None:
    every one)."""
    turn, budget, parts, width = request.turn, request.limit.positions, request.parts, request.width
    piles, removed, mode, hand, weights = (
        turn.piles,
        turn.removed,
        turn.mode,
        turn.hand,
        turn.weights,
    )
    room = -1 if reveal_moves is None else reveal_moves
    cards = sum(map(len, piles)) + 13 * removed  # in the tableau or removed: the same all along
    unseen = unseen_ranks(piles, removed)
    best = value(piles, removed, mode.value, weights)
    best_line: tuple[Action, ...] = ()
    seen = {piles}
    level: list[Node] = [(piles, removed, best, (), False)]
    positions = 0
    while level and positions < budget:
        children: list[Node] = []
        for state, off, worth, line, turned_up in level:
            for child, now, score, action, turned in _children(
                state, off, worth, mode.value, cards, hand, parts, weights, unseen
            ):
                if positions == budget:
                    break
                if child in seen:
                    continue
                seen.add(child)
                positions += 1
                longer = (*line, action)
                if (
                    turned >= 0
                    and not turned_up
                    and reveals is not None
                    and (room < 0 or len(longer) <= room)
                ):
                    reveals.append(Reveal(score, longer, child, turned, now))
                    room -= len(longer) if room >= 0 else 0
                children.append((child, now, score, longer, turned_up or turned >= 0))
                if score > best:
                    best, best_line = score, longer
            if positions == budget:
                break
        if width:
            children.sort(key=lambda node: -node[2])  # (stable: the first found on a tie)
            del children[width:]
        level = children
    return best, best_line, positions


def samples(unseen: Sequence[int], count: int = SAMPLES) -> list[tuple[int, int]]:
    """Cards that may be turned up, each with its weight: every kind of card with its
    number when there are at most ``count`` kinds, else ``count`` cards spread evenly over
    the unseen cards in order of rank (weight 1 each)."""
    kinds: dict[int, int] = {}
    for card in unseen:
        kinds[card] = kinds.get(card, 0) + 1
    if len(kinds) <= count:
        return sorted(kinds.items())
    ordered = sorted(unseen, key=lambda card: (card & 15, card))
    n = len(ordered)
    return [(ordered[(2 * i + 1) * n // (2 * count)], 1) for i in range(count)]


def _expect(
    search: BlindSearch,
    turn: Turn,
    line: tuple[Action, ...],
    reveals: list[Reveal],
    unseen: Sequence[int],
) -> tuple[tuple[Action, ...], int]:
    """Which card to turn up, when the best line turns one up: the best line's part up to
    its card, or one of the :data:`CHOICES` best-valued lines that end at a card, the one
    with the highest value expected once its card is seen (the mean, over :func:`samples` of
    the unseen cards, of the best value a search of :data:`LOOK` positions then reaches).
    Returns the line and the positions examined."""
    first = first_reveal(turn.piles, line)
    if not first:
        return line, 0  # the best line turns nothing up: it is sure, play it
    prefix = line[:first]
    candidates: dict[State, Reveal] = {}
    for reveal in sorted(reveals, key=lambda r: -r.score):  # (stable: the first found on a tie)
        if len(candidates) == CHOICES:
            break
        candidates.setdefault(reveal.state, reveal)
    for reveal in reveals:  # and the best line's own card
        if reveal.line == prefix:
            candidates.setdefault(reveal.state, reveal)
            break
    cards = samples(unseen)
    looked = 0
    best_line, best_total = prefix, None
    for reveal in candidates.values():
        total = 0
        for card, weight in cards:
            seen = list(reveal.state)
            seen[reveal.pile] = seen[reveal.pile][:-1] + bytes((card,))
            found = search(Request(turn.after(tuple(seen), reveal.removed), _LOOKS, True))
            looked += found[2]
            total += weight * found[0]
        if (
            best_total is None
            or total > best_total
            or (total == best_total and reveal.line == prefix)
        ):
            best_line, best_total = reveal.line, total
    return best_line, looked


class RevealOdds(NamedTuple):
    """How a line that turns up a card fares once the card is seen, over the cards it could
    be (weighted): the share after which the player's search gets back the spaces the line
    used (or gets a first one), the share after which play goes on (that, or another card
    turned up), and the positions examined."""

    back: float
    on: float
    positions: int


def contingency(
    search: BlindSearch,
    turn: Turn,
    reveal: Reveal,
    cards: Sequence[tuple[int, int]],
) -> RevealOdds:
    """The manual's contingency reasoning for ``reveal`` (a line from the ``turn``'s piles
    that ends at a card turned up): for each card it could be (``cards``, each with its
    weight), a search of :data:`LOOK` positions from the position with that card seen, and
    whether its best line gets a space back or turns up another card."""
    before = max(1, sum(1 for pile in turn.piles if not pile))
    total = back = on = positions = 0
    for card, weight in cards:
        seen = list(reveal.state)
        seen[reveal.pile] = seen[reveal.pile][:-1] + bytes((card,))
        _score, line, looked = search(
            Request(turn.after(tuple(seen), reveal.removed), _LOOKS, True)
        )
        positions += looked
        total += weight
        state, spaced, turned = tuple(seen), False, False
        for action in line:  # (past a card it turns up the line holds whatever the card is)
            assert not isinstance(action, Deal)  # (the searches make no deals)
            new, pile, outcome = apply(state, action)
            if outcome == REVEAL:
                new[pile] = new[pile][:-1] + UNSEEN
                turned = True
            state = tuple(new)
            spaced = spaced or sum(1 for pile in state if not pile) >= before
        back += weight * spaced
        on += weight * (spaced or turned)
    if not total:
        return RevealOdds(0.0, 0.0, positions)
    return RevealOdds(back / total, on / total, positions)


def reveal_of(piles: State, line: Sequence[Action], removed: int) -> Reveal | None:
    """``line`` (from ``piles``, ``removed`` suits off) as a line that ends at the first
    card it turns up (its value left 0), or None if that is not where it ends."""
    state = piles
    for k, action in enumerate(line):
        assert not isinstance(action, Deal)  # (a line of the searches makes no deals)
        new, pile, outcome = apply(state, action)
        if isinstance(action, Remove):
            removed += 1
        if outcome == REVEAL:
            if k < len(line) - 1:
                return None
            new[pile] = new[pile][:-1] + UNSEEN
            return Reveal(0, tuple(line), tuple(new), pile, removed)
        state = tuple(new)
    return None


def _contingent(
    search: BlindSearch,
    turn: Turn,
    line: tuple[Action, ...],
    score: int,
    reveals: list[Reveal],
    unseen: Sequence[int],
) -> tuple[tuple[Action, ...], int]:
    """A sure line (``line``, valued ``score``; it turns up no card) or a line that spends a
    space to turn up a card: its value counts the space as lost, so it is raised by the
    space's worth times the share of the cards it could turn up after which the space comes
    back (:func:`contingency`, over :func:`samples` of the unseen cards). Of the
    :data:`CHOICES` best-valued such lines that the raise could lift above ``score``, the
    one raised highest is played if it beats ``score``; on a tie, the one after which play
    goes on for more cards (the manual's first problem: the line that swaps the deuces before
    digging column 3, so that an 8 turned up there takes column 10's diamonds). Returns the
    line and the positions examined."""
    mode = turn.mode
    if mode.value <= 0:
        return line, 0
    spaces = sum(1 for pile in turn.piles if not pile)
    chosen: dict[State, tuple[Reveal, int]] = {}
    for reveal in sorted(reveals, key=lambda r: -r.score):  # (stable: the first found on a tie)
        if len(chosen) == CHOICES:
            break
        lost = spaces - sum(1 for pile in reveal.state if not pile)
        if lost > 0 and reveal.score + mode.value * lost > score:
            chosen.setdefault(reveal.state, (reveal, lost))
    cards = samples(unseen)
    looked = 0
    best_line, best_key = line, (float(score), 2.0)
    for reveal, lost in chosen.values():
        judged = contingency(search, turn, reveal, cards)
        looked += judged.positions
        key = (reveal.score + mode.value * lost * judged.back, judged.on)
        if key > best_key:
            best_line, best_key = reveal.line, key
    return best_line, looked


def first_reveal(piles: State, line: tuple[Action, ...]) -> int:
    """How many moves of ``line`` lead to the first card it turns up (0: it turns none up)."""
    state = piles
    for k, action in enumerate(line):
        assert not isinstance(action, Deal)  # (the searches make no deals)
        new, _turned, outcome = apply(state, action)
        if outcome == REVEAL:
            return k + 1
        state = tuple(new)
    return 0
