"""The counting argument: a proof, without playing a move, that a goal is out of reach.

It makes the manual's reasoning about free cards exact. Over a line with no deal, every card
either has never moved (it is still in the untouched base of its pile, under everything that
was put there), or lies where its last move put it: on a card one rank higher (a move puts a
run's first card there, and every other card of a run lies on one) or at the bottom of an
empty pile. Cards only leave a pile from its end, so what has never moved is a prefix of the
pile as it was at the start, and a removal takes 13 cards off an end and leaves that true.

So the position a goal needs can exist only if some choice of untouched bases leaves enough
places for the moved cards: the cards one rank higher (each takes one card), and the piles
emptied to their bottoms (each takes one, or stays a space). Kings need such a pile. This
module tries every choice of bases, pile by pile, cutting a branch as soon as even the best
cards the remaining piles could offer would not be enough. No choice left means the goal is
impossible, whatever is played. The argument knows nothing of order or of how runs must
move, so a choice that passes proves nothing: the search decides those questions.

Removals on the way are allowed for: a suit that could be taken out before the goal (by the
same argument, step by step) has its cards counted as needing no place.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from spider_cli.analysis.compact import FACE_DOWN, State, card_code, run_length
from spider_cli.analysis.limits import Limit, OverBudget
from spider_cli.rules.cards import KING
from spider_cli.rules.goals import GoalKind

RANKS = 13
ALL_RANKS = sum(1 << r for r in range(1, RANKS + 1))

COUNT_LIMIT = Limit(100_000)
"""Choices :func:`refute` examines at most before it gives up (no proof). The manual's
positions need 3,000 at most, but the passes are exponential in the worst case."""


@dataclass(frozen=True, kw_only=True)
class Question:
    """What the end of a line must look like, in the terms the argument can count.

    ``kind`` is :attr:`GoalKind.TURN_UP` (the top face-down card of pile ``target`` is
    turned up last, or of any pile when ``target`` is -1), :attr:`GoalKind.SPACE` (pile
    ``target``, if not -1, is one of the empty piles at the end) or :attr:`GoalKind.REMOVE`
    (``suit`` is the next suit to take out). ``spaces``
    is how many empty piles the end position needs, ``most_spaces`` how many it may have at
    most (None: any number). ``others`` are the suits that may be removed on the way.
    ``emptying``: the removal must leave its pile empty (its King at the pile's bottom,
    never moved). ``first``: the goal's space is the first new one, so a line from a table
    with no space has had no empty pile before its last step.
    """

    kind: GoalKind
    target: int = -1
    suit: int | None = None
    spaces: int = 0
    no_turn_up: bool = False
    most_spaces: int | None = None
    others: tuple[int, ...] = ()
    emptying: bool = False
    first: bool = False


Option = tuple[tuple[int, ...], int, int, int]
"""One choice of untouched base for a pile: (net need per rank, 1 if the pile is emptied to
its bottom, the ranks of the goal suit it can contribute as a bit mask, cards moved)."""


def refute(piles: State, question: Question, limit: Limit = COUNT_LIMIT) -> int | None:
    """The number of choices examined in proving ``question`` impossible from ``piles``, or
    None when the argument cannot rule it out (or gives up at ``limit``, counted in choices).

    With no space on the table, the line is first looked at up to its first space: until
    then no card can lie on a pile's bottom. If no space can ever come, that holds to the
    end, which makes the count much stricter.
    """
    proof = _Proof(piles, question, limit)
    try:
        return proof.examined if proof.holds() else None
    except OverBudget:
        return None


@dataclass(frozen=True)
class Setting:
    """What holds on every line to the goal, as the argument finds it: the suits that could
    be removed on the way (``free``), whether no pile is ever empty (``bare``), the most
    spaces the end may have, and the ends the goal allows (``finals``, one per pile for a card
    turned up in any pile)."""

    free: frozenset[int]
    bare: bool
    most: int | None
    finals: tuple[Question, ...]


def setting(piles: State, question: Question, limit: Limit = COUNT_LIMIT) -> Setting | None:
    """The :class:`Setting` of ``question`` from ``piles``, or None past ``limit``."""
    proof = _Proof(piles, question, limit)
    try:
        free, bare, most = proof.setting()
    except OverBudget:
        return None
    return Setting(free, bare, most, tuple(proof.finals(most)))


def turn_up_piles(
    piles: State, question: Question, limit: Limit = COUNT_LIMIT
) -> tuple[list[int], int] | None:
    """For a card to turn up in any pile (``question.target`` -1): the piles where the
    first card turned up could be, as far as the argument can tell (none: impossible), and
    the choices examined; or None when it gives up at ``limit``."""
    proof = _Proof(piles, question, limit)
    try:
        return proof.open_targets(), proof.examined
    except OverBudget:
        return None


class _Proof:
    """One :func:`refute`: its counts, and the choices they have examined so far."""

    def __init__(self, piles: State, question: Question, limit: Limit) -> None:
        self.piles = piles
        self.question = question
        self.limit = limit
        self.examined = 0

    def passes(self, question: Question, free: frozenset[int], bare: bool) -> bool:
        left = self.limit.within(self.limit.positions - self.examined)
        count, found = _search(self.piles, question, free, bare, left)
        self.examined += count
        return found

    def removable(self, bare: bool, most: int | None) -> frozenset[int]:
        """The suits that could be taken out before the goal, each with those before free."""
        free: frozenset[int] = frozenset()
        growing = True
        while growing:
            growing = False
            for suit in self.question.others:
                step = Question(
                    kind=GoalKind.REMOVE,
                    suit=suit,
                    no_turn_up=self.question.no_turn_up,
                    most_spaces=None if free else most,
                )
                if suit not in free and self.passes(step, free, bare):
                    free |= {suit}
                    growing = True
        return free

    def before_first_space(self) -> frozenset[int]:
        """For a goal whose space is the first (from a table with none): the suits that
        could be removed on the way. No pile is empty before the last step, which empties
        the goal's pile, so nothing moved lies on a pile's bottom; that step is a move onto
        a card, or the removal of a suit whose King is the pile's bottom card."""
        question = self.question
        free = self.removable(True, 0)
        pile = self.piles[question.target]
        suit = card_code(pile[0]) >> 4 if pile and pile[0] < FACE_DOWN else None
        if (
            suit is not None
            and card_code(pile[0]) & 15 == KING
            and suit in question.others
            and suit not in free
        ):
            last = Question(
                kind=GoalKind.REMOVE, suit=suit, no_turn_up=question.no_turn_up, emptying=True
            )
            if self.passes(last, free, True):
                free |= {suit}
        return free

    def setting(self) -> tuple[frozenset[int], bool, int | None]:
        """What holds on the way to the goal: the suits that could be removed first, whether
        the line stays bare (no space ever comes), and the most spaces it may end with."""
        question = self.question
        bare = False
        if question.first and all(self.piles):
            return self.before_first_space(), True, question.most_spaces
        if all(self.piles):  # up to the first space, which a move or a removal might make
            free = self.removable(True, 0)
            first_space = Question(
                kind=GoalKind.SPACE,
                spaces=1,
                no_turn_up=question.no_turn_up,
                most_spaces=question.most_spaces,
            )
            bare = not self.passes(first_space, free, True) and not any(
                self.passes(
                    Question(
                        kind=GoalKind.REMOVE,
                        suit=suit,
                        no_turn_up=question.no_turn_up,
                        most_spaces=0,
                        emptying=True,
                    ),
                    free,
                    True,
                )
                for suit in free
            )
        if not bare:
            free = self.removable(False, question.most_spaces)
        return free, bare, 0 if bare else None if free else question.most_spaces

    def finals(self, most: int | None) -> list[Question]:
        """The ends the goal allows: for a card turned up in any pile, one for each pile with
        a face-down card (the first card turned up ends the line: until then nothing else
        is)."""
        question = self.question
        if question.kind == GoalKind.TURN_UP and question.target < 0:
            return [
                replace(question, target=i, most_spaces=most, no_turn_up=True)
                for i, pile in enumerate(self.piles)
                if any(c >= FACE_DOWN for c in pile)
            ]
        return [replace(question, most_spaces=most)]

    def holds(self) -> bool:
        """Does no choice of bases leave room for the goal?"""
        free, bare, most = self.setting()
        return not any(self.passes(final, free, bare) for final in self.finals(most))

    def open_targets(self) -> list[int]:
        """The piles of the ends that some choice of bases leaves room for."""
        free, bare, most = self.setting()
        return [final.target for final in self.finals(most) if self.passes(final, free, bare)]


@lru_cache(maxsize=100_000)
def base_options(
    pile: bytes,
    target: bool,
    no_turn_up: bool,
    suit: int | None,
    free: frozenset[int],
    emptying: bool = False,
    empty: bool = False,
) -> tuple[Option, ...]:
    """Every untouched base a pile may keep at the end of a line, fewest moved cards first.

    A pile with an unknown face-down card keeps it covered (turning it up ends the line),
    except the target of "turn up", which ends with its top face-down card bare. "No turn
    up" keeps every face-down card covered. ``empty``: the pile must end empty (the target
    of "space"), so nothing of it stays untouched.
    """
    n = len(pile)
    unknown = max((j for j in range(n) if pile[j] == FACE_DOWN), default=-1)
    down = max((j for j in range(n) if pile[j] >= FACE_DOWN), default=-1)
    if empty:
        if unknown >= 0 or (no_turn_up and down >= 0):
            return ()
        bases: range = range(0, 1)
    elif target:
        if down < 0:
            return ()
        bases = range(down + 1, down + 2)
    else:
        covered = down if no_turn_up else unknown
        bases = range(n, covered + 1 if covered >= 0 else -1, -1)
    found = []
    for u in bases:
        need = [0] * (RANKS + 1)
        mask = 0
        for c in pile[u:]:
            code = card_code(c)
            rank = code & 15
            if code >> 4 not in free:
                need[rank] += 1
            need[rank - 1] -= 1  # a moved card takes one card of the rank below
            if code >> 4 == suit:
                mask |= 1 << rank
        if u > 0 and not target:
            top = card_code(pile[u - 1])
            need[(top & 15) - 1] -= 1
            if suit is not None:
                mask |= _standing_run(pile, u, suit, emptying)
        found.append((tuple(need[1:]), 1 if u == 0 else 0, mask, n - u))
    return tuple(found)


def _standing_run(pile: bytes, u: int, suit: int, emptying: bool) -> int:
    """The ranks of the run of ``suit`` at the end of the base ``pile[:u]`` when it starts
    with the King, as a bit mask (else 0): the untouched start of the suit's K-A set, to
    which every other card of the set must be moved. With ``emptying``, the King must be
    the pile's bottom card."""
    last = pile[u - 1]
    if last >= FACE_DOWN or last >> 4 != suit:
        return 0
    top = u - run_length(pile[:u])  # the run's first card
    if pile[top] & 15 != KING or (emptying and top > 0):
        return 0
    return sum(1 << (card & 15) for card in pile[top:u])


def bottoms_suffice(
    need: tuple[int, ...], emptied: int, moved: int, bare: bool, spaces: int, most: int | None
) -> bool:
    """With every pile chosen: can the moved cards that no card one rank higher takes lie
    on the bottoms of emptied piles (none when ``bare``; each holds one moved card), and
    leave at least ``spaces`` and at most ``most`` of those piles empty?"""
    short = sum(x for x in need if x > 0)  # moved cards with no card one rank higher
    for on_bottoms in range(short, 1 if bare else min(moved, emptied) + 1):
        left = emptied - on_bottoms
        if left >= spaces and (most is None or left <= most):
            return True
    return False


def _search(
    piles: State, question: Question, free: frozenset[int], bare: bool, limit: Limit
) -> tuple[int, bool]:
    """(choices examined, whether some choice of bases passes the count). ``bare``: no
    moved card may lie on a pile's bottom (no pile has been empty on the way). Raises
    :class:`OverBudget` past ``limit``."""
    target = question.target
    choices = [
        base_options(
            pile,
            i == target and question.kind == GoalKind.TURN_UP,
            question.no_turn_up,
            question.suit,
            free,
            question.emptying,
            i == target and question.kind == GoalKind.SPACE,
        )
        for i, pile in enumerate(piles)
    ]
    if not all(choices) or (
        question.most_spaces is not None and question.spaces > question.most_spaces
    ):
        return 0, False
    order = sorted(range(len(piles)), key=lambda i: len(choices[i]))
    n = len(order)
    # What the piles after the k-th could still offer at best: per rank, tables, suit cards.
    relief = [(0,) * RANKS] * (n + 1)
    tables = [0] * (n + 1)
    masks = [0] * (n + 1)
    for k in range(n - 1, -1, -1):
        opts = choices[order[k]]
        relief[k] = tuple(
            relief[k + 1][r] + max(max(0, -o[0][r]) for o in opts) for r in range(RANKS)
        )
        tables[k] = tables[k + 1] + max(o[1] for o in opts)
        masks[k] = masks[k + 1]
        for o in opts:
            masks[k] |= o[2]
    wanted = ALL_RANKS if question.suit is not None else 0
    spaces = question.spaces
    most = question.most_spaces
    seen: set[tuple[int, tuple[int, ...], int, int, int]] = set()  # (k, need, emptied, mask, moved)
    examined = 0

    def passes(need: tuple[int, ...], emptied: int, mask: int, moved: int) -> bool:
        return mask & wanted == wanted and bottoms_suffice(need, emptied, moved, bare, spaces, most)

    def dfs(k: int, need: tuple[int, ...], emptied: int, mask: int, moved: int) -> bool:
        nonlocal examined
        if k == n:
            return passes(need, emptied, mask, moved)
        key = (k, need, emptied, mask, moved)
        if key in seen:
            return False
        seen.add(key)
        best, more, later = relief[k + 1], tables[k + 1], masks[k + 1]
        for step, bottom, bits, count in choices[order[k]]:
            examined += 1
            limit.spent(examined)
            total = tuple(a + b for a, b in zip(need, step, strict=True))
            if (mask | bits | later) & wanted != wanted:
                continue
            if sum(x - y for x, y in zip(total, best, strict=True) if x > y) > (
                0 if bare else emptied + bottom + more - spaces
            ):
                continue
            if dfs(k + 1, total, emptied + bottom, mask | bits, min(moved + count, 99)):
                return True
        return False

    found = dfs(0, (0,) * RANKS, 0, 0, 0)
    return examined, found
