"""The rules of Spider: one mutable :class:`Game` with a move stack, and small move values.

The engine does no I/O and imports nothing from the parser or the UI. It is built for a
solver as much as for a player: cards are plain ints (see :mod:`spider_cli.rules.cards`), a move is
applied with :meth:`Game.push` and taken back exactly with :meth:`Game.pop`, and
:meth:`Game.key` gives a hashable picture of the position.

Piles are numbered 0..9 here; the notation and the UI number them 1..10.
Each pile is a list from its top (the first card dealt) to its bottom (the card that can move);
``down[i]`` counts its face-down cards, which are always the first ones.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import NamedTuple

from spider_cli.rules.cards import (
    ACE,
    KING,
    SUIT_NAMES,
    SUITS_IN_VARIANT,
    UNKNOWN,
    Card,
    card_text,
)
from spider_cli.rules.errors import IllegalMoveError, Part, PositionError
from spider_cli.rules.layout import grid, position_code
from spider_cli.rules.shuffle import SplitMix64, shuffled_deck
from spider_cli.rules.undo import Identified, Removed, TurnedUp

PILES = 10
DECK_SIZE = 104
DEAL_SIZE = 10
INITIAL_FACE_DOWN = 44
"""Face-down cards in every initial deal: the score counts the ones turned over since."""

SIXTH_CARD_PILES = {"left": (0, 1, 2, 3), "spread": (0, 3, 6, 9)}
"""Which four piles get a sixth card in the deal: the leftmost four, or piles 1, 4, 7, 10."""


class Move(NamedTuple):
    """Move the bottom ``count`` cards of pile ``src`` onto pile ``dst`` (piles 0..9)."""

    src: int
    dst: int
    count: int  # type: ignore[assignment]  # the field hides tuple.count, on purpose


class Deal(NamedTuple):
    """Deal a row of ten cards from the hand, one onto each pile."""


class Remove(NamedTuple):
    """Take a complete King-to-Ace suit off the bottom of ``pile``."""

    pile: int


DEAL = Deal()
Action = Move | Deal | Remove

PositionKey = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""What :meth:`Game.key` gives: piles, face-down counts, the hand (last card dealt first),
removed suits."""


_KNOWN_TURNS = tuple(TurnedUp(pile) for pile in range(PILES))
"""The turns of known cards, one a pile (made once: most turns are of these)."""


class Undo(NamedTuple):
    """What :meth:`Game.push` keeps to take an action back exactly."""

    action: Action
    turned: TurnedUp | None = None
    """A move's or a removal's: its pile's last face-down card, turned up."""
    dealt: tuple[Identified, ...] = ()
    """A deal's: the unknown cards it dealt."""
    autoremoved: tuple[Removed, ...] = ()
    """The suits autoremove took off after the action, in order."""
    autoremove: bool = False
    """Whether autoremove was on as the action was taken (a game file keeps the rule)."""

    def identified(self) -> list[Identified]:
        """The unknown cards the action turned up or dealt, in the order they became known."""
        known = [self.turned.identified] if self.turned and self.turned.identified else []
        known += self.dealt
        known += (r.turned.identified for r in self.autoremoved if r.turned and r.turned.identified)
        return known


class Game:
    """A position and the moves that led to it (python-chess's Board, for Spider).

    Build one with :meth:`new` (a numbered deal) or from a position (the constructor, or a
    position file's ``to_game``); change it only with :meth:`push` / :meth:`pop` (and
    :meth:`assume`); :meth:`redo` replays what was popped.
    Unknown cards (code 0) are face-down cards or hand cards whose identity is not known; the
    ``pool`` holds the cards they can be. When one is turned up or dealt, its identity is the
    next pending :meth:`assume` for that pile, else a seeded draw from the pool.
    """

    __slots__ = (
        "_redo",
        "_stack",
        "assumed",
        "autoremove",
        "down",
        "piles",
        "pool",
        "removed",
        "rng",
        "stock",
        "suits",
    )

    def __init__(
        self,
        piles: list[list[int]],
        down: list[int],
        stock: list[int] | None = None,
        removed: Iterable[int] = (),
        suits: int = 4,
        seed: int = 0,
    ) -> None:
        """A position; ``stock`` is the hand as :attr:`stock` keeps it, the next card to deal
        last (0 for an unknown card; :attr:`hand` is its dealing order).

        Raises :class:`PositionError` if the position cannot exist.
        """
        if suits not in SUITS_IN_VARIANT:
            raise PositionError(f"a game has 1, 2 or 4 suits, not {suits}")
        self.suits = suits
        self.piles = [[int(c) for c in pile] for pile in piles]
        self.down = list(down)
        self.stock = [int(c) for c in stock or []]  # next card to deal is last
        self.removed = [int(s) for s in removed]
        self.autoremove = False
        self.rng = SplitMix64(seed)
        self.assumed: list[deque[int]] = [deque() for _ in range(PILES)]
        self._stack: list[Undo] = []
        self._redo: list[Action] = []
        self.pool = self._check_and_pool()

    @classmethod
    def new(cls, seed: int, suits: int = 4, sixth: str = "left") -> Game:
        """Deal number ``seed`` of the variant (see :func:`shuffled_deck`; a ValueError in
        words for a number outside 0 to 2**64 - 1).

        Cards are dealt from the front of the shuffled deck: four rows of ten face down,
        one more face down onto each pile of ``SIXTH_CARD_PILES[sixth]``, one row face up;
        the last 50 cards are the hand, in dealing order.
        """
        if sixth not in SIXTH_CARD_PILES:
            raise ValueError(f"sixth must be one of {', '.join(SIXTH_CARD_PILES)}")
        deck = shuffled_deck(seed, suits)
        piles: list[list[int]] = [[] for _ in range(PILES)]
        cards = iter(deck)
        for _ in range(4):
            for pile in piles:
                pile.append(next(cards))
        for i in SIXTH_CARD_PILES[sixth]:
            piles[i].append(next(cards))
        down = [len(pile) for pile in piles]
        for pile in piles:
            pile.append(next(cards))
        return cls(piles, down, list(cards)[::-1], suits=suits, seed=seed)

    def _check_and_pool(self) -> list[int]:
        """Check that the position can exist; return the pool of cards the unknowns can be."""
        if len(self.piles) != PILES or len(self.down) != PILES:
            raise PositionError(f"a tableau has {PILES} piles")
        if len(self.removed) > 8:
            raise PositionError("at most eight suits can be removed")
        counts = [0] * 64
        used = SUITS_IN_VARIANT[self.suits]
        for k in range(8):
            for r in range(1, 14):
                counts[used[k % len(used)] * 16 + r] += 1
        for i, pile in enumerate(self.piles):
            if not 0 <= self.down[i] <= len(pile):
                raise PositionError(f"pile {i + 1} cannot have {self.down[i]} face-down cards")
            if pile and self.down[i] == len(pile):
                raise PositionError(
                    f"pile {i + 1} has only face-down cards: its last card must be face up"
                )
            for j, c in enumerate(pile):
                if c == UNKNOWN and j >= self.down[i]:
                    raise PositionError(f"pile {i + 1} has an unknown card among its face-up cards")
        for suit in self.removed:
            if suit not in used:
                raise PositionError(f"no {SUIT_NAMES[suit]} in a {self.suits}-suit game")
            for r in range(1, 14):
                counts[suit * 16 + r] -= 1
        for c in [c for pile in self.piles for c in pile] + self.stock:
            if c != UNKNOWN:
                counts[c] -= 1
        for code in range(64):
            if counts[code] < 0:
                card = Card(code)
                have = sum(1 for p in self.piles for c in p if c == code) + self.stock.count(code)
                removed = self.removed.count(card.suit)
                total = have + removed
                where = f"{have} in play" + (f" and {removed} in removed suits" if removed else "")
                raise PositionError(
                    f"{card} appears {total} times ({where}); the deck has only "
                    f"{total + counts[code]}"
                )
        total = sum(len(p) for p in self.piles) + len(self.stock) + 13 * len(self.removed)
        if total != DECK_SIZE:
            raise PositionError(
                f"the position holds {total} cards (tableau, hand and removed suits); "
                f"a game has {DECK_SIZE}"
            )
        return counts

    # -- reading the position -----------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy of the position, its history and pending assumptions."""
        other = Game.__new__(Game)
        other.suits = self.suits
        other.piles = [p[:] for p in self.piles]
        other.down = self.down[:]
        other.stock = self.stock[:]
        other.removed = self.removed[:]
        other.autoremove = self.autoremove
        other.rng = SplitMix64(self.rng.state)
        other.assumed = [deque(q) for q in self.assumed]
        other._stack = self._stack[:]
        other._redo = self._redo[:]
        other.pool = self.pool[:]
        return other

    def key(self) -> PositionKey:
        """A hashable picture of the position (piles, face-down counts, hand, removed suits)."""
        return (
            tuple(map(tuple, self.piles)),
            tuple(self.down),
            tuple(self.stock),
            tuple(sorted(self.removed)),
        )

    @property
    def hand(self) -> list[int]:
        """The hand (stock) in dealing order."""
        return self.stock[::-1]

    @property
    def deals_left(self) -> int:
        return len(self.stock) // DEAL_SIZE

    @property
    def removed_count(self) -> int:
        """How many suits have been removed."""
        return len(self.removed)

    def removed_suits(self) -> list[int]:
        """The removed suits, in the order removed (as a position file names them)."""
        return list(self.removed)

    def __str__(self) -> str:
        """The manual's grid, every card the game knows shown (see :func:`layout.grid`)."""
        return grid(self).rstrip("\n")

    def __repr__(self) -> str:
        """``<Game spider:...>``: the position code, and how many moves led to it."""
        played = len(self._stack)
        after = f" after {played} move{'s' if played != 1 else ''}" if played else ""
        return f"<Game {position_code(self)}{after}>"

    @property
    def move_stack(self) -> list[Action]:
        """The actions pushed so far, oldest first."""
        return [record.action for record in self._stack]

    def rules(self) -> list[bool]:
        """Whether autoremove was on as each action of the move stack was taken."""
        return [record.autoremove for record in self._stack]

    @property
    def moves_made(self) -> int:
        """How many actions are on the move stack (without building a list of them)."""
        return len(self._stack)

    def next_redo(self) -> Action | None:
        """The action :meth:`redo` would replay next, or None."""
        return self._redo[-1] if self._redo else None

    def face_up(self, pile: int) -> list[int]:
        """The face-up cards of a pile, top to bottom."""
        return self.piles[pile][self.down[pile] :]

    def run_length(self, pile: int) -> int:
        """How many cards at the bottom of the pile form a movable same-suit run."""
        p = self.piles[pile]
        n = len(p)
        if n == 0:
            return 0
        j = n - 2
        d = self.down[pile]
        while j >= d and p[j] == p[j + 1] + 1:
            j -= 1
        return n - 1 - j

    def spaces(self) -> list[int]:
        """The empty piles."""
        return [i for i, p in enumerate(self.piles) if not p]

    def unknown_count(self) -> int:
        """How many cards in the tableau and hand are of unknown identity."""
        return sum(p.count(UNKNOWN) for p in self.piles) + self.stock.count(UNKNOWN)

    def is_natural(self, move: Move) -> bool:
        """A natural move brings a card onto the next higher card of its own suit."""
        dst = self.piles[move.dst]
        return bool(dst) and dst[-1] == self.piles[move.src][-move.count] + 1

    def complete_at_bottom(self, pile: int) -> bool:
        p = self.piles[pile]
        return (
            len(p) - self.down[pile] >= 13
            and p[-1] & 15 == ACE
            and p[-13] & 15 == KING
            and p[-13] - p[-1] == 12
            and self.run_length(pile) >= 13
        )

    def legal_moves(self) -> list[Action]:
        """Every legal action: moves (all of them, even pointless ones), removals, the deal."""
        piles = self.piles
        down = self.down
        moves: list[Action] = []
        bottoms = [p[-1] & 15 if p else 0 for p in piles]
        spaces = [i for i in range(PILES) if not bottoms[i]]
        for src in range(PILES):
            p = piles[src]
            n = len(p)
            if not n:
                continue
            d = down[src]
            j = n - 2
            while j >= d and p[j] == p[j + 1] + 1:
                j -= 1
            length = n - 1 - j
            low = bottoms[src]
            for dst in range(PILES):
                m = bottoms[dst] - low
                if 0 < m <= length:
                    moves.append(Move(src, dst, m))
            for dst in spaces:
                for count in range(1, length + 1):
                    moves.append(Move(src, dst, count))
            if length >= 13 and low == ACE and self.complete_at_bottom(src):
                moves.append(Remove(src))
        if self.stock and not spaces:
            moves.append(DEAL)
        return moves

    def is_legal(self, action: Action) -> bool:
        return self.why_illegal(action) is None

    def why_illegal(self, action: Action) -> str | None:
        """None if the action is legal, else the reason in a player's words."""
        refused = self.refusal(action)
        return None if refused is None else refused[0]

    def refusal(self, action: Action) -> tuple[str, Part | None] | None:
        """None if the action is legal, else :meth:`why_illegal`'s reason and the part of
        the action that breaks the rule (the cards, the pile they leave, where they go;
        None: the whole action), for a message that points at that word."""
        if isinstance(action, Deal):
            if not self.stock:
                return "cannot deal: the hand is empty", None
            spaces = self.spaces()
            if spaces:
                if len(spaces) == 1:
                    return f"cannot deal: pile {spaces[0] + 1} is a space", None
                *most, last = (str(i + 1) for i in spaces)
                return f"cannot deal: piles {', '.join(most)} and {last} are spaces", None
            return None
        if isinstance(action, Remove):
            if not 0 <= action.pile < PILES:
                return f"there is no pile {action.pile + 1}", Part.PILE
            if not self.complete_at_bottom(action.pile):
                return (
                    f"pile {action.pile + 1} does not end with a complete suit, King to Ace",
                    Part.PILE,
                )
            return None
        src, dst, count = action
        if not 0 <= src < PILES:
            return f"there is no pile {src + 1}", Part.SOURCE
        if not 0 <= dst < PILES:
            return f"there is no pile {dst + 1}", Part.DESTINATION
        if src == dst:
            return "a move needs two different piles", Part.DESTINATION
        p = self.piles[src]
        if not p:
            return f"pile {src + 1} is a space", Part.SOURCE
        if count < 1:
            return "a move needs at least one card", Part.CARDS
        up = len(p) - self.down[src]
        if count > up:
            return f"pile {src + 1} has only {up} face-up card{'s' if up != 1 else ''}", Part.CARDS
        if count > self.run_length(src):
            moving = p[-count:]
            return (
                f"{card_text(moving[0])}-{card_text(moving[-1])} is not a same-suit run",
                Part.CARDS,
            )
        card = p[-count]
        target = self.piles[dst]
        if not target:
            return None
        if card & 15 == KING:
            return "a King can only go into a space", Part.DESTINATION
        if target[-1] & 15 != (card & 15) + 1:
            return f"{card_text(card)} cannot go onto {card_text(target[-1])}", Part.DESTINATION
        return None

    def is_won(self) -> bool:
        """Won when every card is part of a complete suit (removed or still in the tableau)."""
        removed = len(self.removed)
        face_up = sum(map(len, self.piles)) - sum(self.down)
        return face_up >= 13 * (8 - removed) and removed + self.complete_in_tableau() == 8

    def is_lost(self) -> bool:
        """Lost when the hand is empty and nothing but pointless shuffles between spaces is left
        (a whole pile, no card face down, from one space to another). Stops at the first
        action that is more than that, as :meth:`legal_moves` would list it."""
        if self.stock or self.is_won():
            return False
        piles, down = self.piles, self.down
        bottoms = {p[-1] & 15 for p in piles if p}  # the ranks at the piles' bottoms
        space = not all(piles)
        for src, p in enumerate(piles):
            if not p:
                continue
            if space and (down[src] or len(p) > 1):
                return False  # part of a pile, or a pile over face-down cards, into a space
            length = self.run_length(src)
            low = p[-1] & 15
            for rank in range(low + 1, low + length + 1):
                if rank in bottoms:
                    return False  # a move onto a card
            if length >= 13 and low == ACE and self.complete_at_bottom(src):
                return False  # a removal
        return True

    def complete_in_tableau(self) -> int:
        """How many complete King-to-Ace same-suit runs lie face up in the tableau."""
        total = 0
        for i, p in enumerate(self.piles):
            j = self.down[i]
            while j + 13 <= len(p):
                if (
                    p[j] & 15 == KING
                    and p[j + 12] == p[j] - 12
                    and all(p[k] == p[k + 1] + 1 for k in range(j, j + 12))
                ):
                    total += 1
                    j += 13
                else:
                    j += 1
        return total

    def score(self) -> int:
        """The manual's score: 990 for a win with every suit removed, 1000 with all in play.

        10 per initially face-down card turned over, 15 per pile with no face-down cards left,
        2 per face-up card on the next higher card of its suit, 50 per complete suit (removed,
        or assembled King to Ace in the tableau, which then scores nothing per card), and after
        a win 2 per complete suit beyond three still in the tableau.
        """
        points = 10 * (INITIAL_FACE_DOWN - sum(self.down))
        points += 15 * self.down.count(0)
        in_tableau = self.complete_in_tableau()
        points += 50 * (len(self.removed) + in_tableau)
        pairs = 0
        for i, p in enumerate(self.piles):
            for k in range(self.down[i], len(p) - 1):
                if p[k] == p[k + 1] + 1:
                    pairs += 1
        points += 2 * (pairs - 12 * in_tableau)
        if in_tableau >= 4 and len(self.removed) + in_tableau == 8:
            points += 2 * (in_tableau - 3)
        return points

    # -- changing the position ----------------------------------------------------------------

    def assume(self, pile: int, card: int) -> None:
        """Decide that the next unknown card turned up or dealt onto ``pile`` is ``card``."""
        if not 0 <= pile < PILES:
            raise IllegalMoveError(f"there is no pile {pile + 1}", part=Part.PILE)
        if card == UNKNOWN or not self.pool[card]:
            why = (
                "every copy is already placed"
                if any(self.pool)
                else "no card of this game is unknown (its face-down cards come from the deal;"
                " 'assume' is for positions with unknown '--' cards)"
            )
            raise IllegalMoveError(
                f"{card_text(card)} cannot be an unknown card: {why}", part=Part.CARDS
            )
        if len(self.assumed[pile]) >= self.unknown_slots(pile):
            raise IllegalMoveError(
                f"pile {pile + 1} has no unknown card left to turn up", part=Part.PILE
            )
        self.pool[card] -= 1
        self.assumed[pile].append(card)
        self._redo.clear()

    def unknown_slots(self, pile: int) -> int:
        """Unknown cards that will arrive face up on ``pile``: its own, and dealt ones."""
        hand = self.hand
        dealt = sum(1 for j in range(pile, len(hand), DEAL_SIZE) if hand[j] == UNKNOWN)
        return self.piles[pile][: self.down[pile]].count(UNKNOWN) + dealt

    def unknown_reveals(self, action: Action) -> list[int]:
        """Piles where ``action`` would turn up or deal an unknown card with no assumption."""
        piles: list[int] = []
        if isinstance(action, Deal):
            for i, c in enumerate(reversed(self.stock[-DEAL_SIZE:])):
                if c == UNKNOWN and not self.assumed[i]:
                    piles.append(i)
            return piles
        pile = action.src if isinstance(action, Move) else action.pile
        count = action.count if isinstance(action, Move) else 13
        p = self.piles[pile]
        d = self.down[pile]
        if d and len(p) - count == d and p[d - 1] == UNKNOWN and not self.assumed[pile]:
            piles.append(pile)
        return piles

    def _identify(self, pile: int) -> Identified:
        """The identity of an unknown card arriving face up on ``pile``: the next assumed
        for it, else a seeded draw from the pool."""
        queue = self.assumed[pile]
        if queue:
            return Identified(pile, queue.popleft(), None)
        state = self.rng.state
        r = self.rng.below(sum(self.pool))
        pool = self.pool
        for code in range(64):
            r -= pool[code]
            if r < 0:
                pool[code] -= 1
                return Identified(pile, code, state)
        raise AssertionError("empty pool")

    def last_reveals(self) -> list[tuple[int, Card]]:
        """The unknown cards the last push or redo turned up or dealt: (pile, card) pairs."""
        if not self._stack:
            return []
        return [(known.pile, Card(known.card)) for known in self._stack[-1].identified()]

    def _forget(self, known: Identified) -> None:
        """Undo :meth:`_identify`: the card becomes unknown again."""
        self.piles[known.pile][-1] = UNKNOWN
        if known.state is None:
            self.assumed[known.pile].appendleft(known.card)
        else:
            self.pool[known.card] += 1
            self.rng.state = known.state

    def _flip(self, pile: int) -> TurnedUp | None:
        """Turn up the last face-down card if nothing covers it (None: none turned up)."""
        p = self.piles[pile]
        d = self.down[pile]
        if d and len(p) == d:
            self.down[pile] = d - 1
            if p[-1] == UNKNOWN:
                known = self._identify(pile)
                p[-1] = known.card
                return TurnedUp(pile, known)
            return _KNOWN_TURNS[pile]
        return None

    def _unflip(self, turned: TurnedUp | None) -> None:
        if turned is not None:
            if turned.identified is not None:
                self._forget(turned.identified)
            self.down[turned.pile] += 1

    def push(self, action: Action) -> None:
        """Apply a legal action (not checked: see :meth:`why_illegal`) and record it."""
        self._redo.clear()
        self._push(action)

    def _push(self, action: Action) -> None:
        if type(action) is Move:
            src, dst, n = action
            piles = self.piles
            ps = piles[src]
            pd = piles[dst]
            pd += ps[-n:]
            del ps[-n:]
            d = self.down[src]
            turned = self._flip(src) if d and len(ps) == d else None
            auto = self.autoremove
            if auto and len(pd) >= 13 and pd[-1] & 15 == ACE:
                record = Undo(action, turned, (), self._autoremove((dst,)), auto)
            else:
                record = Undo(action, turned, autoremove=auto)
        elif type(action) is Remove:
            record = Undo(action, self._remove(action.pile), autoremove=self.autoremove)
        else:
            dealt = self._deal()
            autos = self._autoremove(range(PILES)) if self.autoremove else ()
            record = Undo(action, None, dealt, autos, self.autoremove)
        self._stack.append(record)

    def _remove(self, pile: int) -> TurnedUp | None:
        p = self.piles[pile]
        self.removed.append(p[-1] >> 4)
        del p[-13:]
        return self._flip(pile)

    def _deal(self) -> tuple[Identified, ...]:
        stock = self.stock
        for pile in self.piles:
            pile.append(stock.pop())
        if UNKNOWN not in (p[-1] for p in self.piles):
            return ()
        dealt = []
        for i, p in enumerate(self.piles):
            if p[-1] == UNKNOWN:
                known = self._identify(i)
                p[-1] = known.card
                dealt.append(known)
        return tuple(dealt)

    def _autoremove(self, piles: Iterable[int]) -> tuple[Removed, ...]:
        done = []
        for i in piles:
            while self.complete_at_bottom(i):
                done.append(Removed(i, self._remove(i)))
        return tuple(done)

    def pop(self) -> Action:
        """Take back the last action exactly; it can be replayed with :meth:`redo`."""
        record = self._stack.pop()
        action, turned, dealt, autoremoved, _rule = record
        if autoremoved:
            for removed in reversed(autoremoved):
                self._unremove(removed.pile, removed.turned)
        piles = self.piles
        if type(action) is Move:
            src, dst, n = action
            if turned is not None:
                self._unflip(turned)
            pd = piles[dst]
            piles[src] += pd[-n:]
            del pd[-n:]
        elif type(action) is Remove:
            self._unremove(action.pile, turned)
        else:
            for known in reversed(dealt):
                self._forget(known)
            for cards in reversed(piles):
                self.stock.append(cards.pop())
        self._redo.append(action)
        return action

    def _unremove(self, pile: int, turned: TurnedUp | None) -> None:
        self._unflip(turned)
        suit = self.removed.pop()
        self.piles[pile] += [suit * 16 + r for r in range(KING, 0, -1)]

    def redo(self) -> Action:
        """Replay the last action taken back by :meth:`pop`, turning up the same cards.

        Exact because :meth:`pop` gives back assumptions and the generator's state.
        """
        if not self._redo:
            raise IllegalMoveError("nothing to redo")
        action = self._redo.pop()
        self._push(action)
        return action

    def restart(self) -> None:
        """Take back every action: the same hand from the start (redo can replay them)."""
        while self._stack:
            self.pop()
