"""Compact positions for the searches of :mod:`spider_cli.analysis.solve.solver` and
:mod:`spider_cli.analysis.solve.autoplay`: a position as ten ``bytes``, its moves, and its "chaos".

A position is a tuple of ten ``bytes``, one per pile from its top to its bottom, each card
its code (:mod:`spider_cli.rules.cards`) plus :data:`FACE_DOWN` when it lies face down (an unknown
face-down card is ``FACE_DOWN`` alone). Bytes hash once and slice in C, so a child position
costs a few microseconds; :class:`~spider_cli.rules.engine.Game` stays the reference, and every
line a search finds is replayed through it before it is reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from spider_cli.rules.cards import ACE, KING, UNKNOWN
from spider_cli.rules.engine import PILES, Game, Move, Remove

FACE_DOWN = 64
"""Added to a card's code when it lies face down; ``FACE_DOWN`` alone is an unknown card."""

Pile = bytes
State = tuple[bytes, ...]

ONE_BYTE = [bytes((i,)) for i in range(256)]
"""``ONE_BYTE[code]`` is the one-card pile of that code (made once, not per move)."""

CACHE_SIZE = 400_000
"""Piles remembered by each per-pile cache below (a pile is looked at again and again as the
searches move cards between the other piles)."""


@lru_cache(maxsize=CACHE_SIZE)
def run_length(pile: bytes) -> int:
    """How many cards at the bottom of a pile form a movable same-suit run (0 if empty):
    :meth:`Game.run_length <spider_cli.rules.engine.Game.run_length>` on compact piles.

    Face-down cards (code + 64) never continue a face-up card's run, so the run stops there.
    """
    if not pile:
        return 0
    j = len(pile) - 2
    while j >= 0 and pile[j] == pile[j + 1] + 1:
        j -= 1
    return len(pile) - 1 - j


def card_code(byte: int) -> int:
    """The card a compact pile's byte stands for, face up or down (0: an unknown card)."""
    return byte - FACE_DOWN if byte >= FACE_DOWN else byte


def completes_suit(pile: bytes) -> bool:
    """Is there a complete King-to-Ace suit, face up, at the bottom of the pile (to remove)?"""
    return len(pile) >= 13 and pile[-1] & 15 == ACE and run_length(pile) >= 13


# ---------------------------------------------------------------------------------------------
# From a game to compact positions


@dataclass(frozen=True)
class Start:
    """A game seen by the solver: its piles, its hand in rows of ten, its removed suits.

    ``rows`` lists the hand in dealing order; 0 stands for an unknown card.
    """

    piles: State
    rows: tuple[tuple[int, ...], ...]
    removed: tuple[int, ...]

    @property
    def cards(self) -> int:
        """The cards of the game: in the tableau, in the hand and removed."""
        return sum(map(len, self.piles)) + PILES * len(self.rows) + 13 * len(self.removed)


def player_view(game: Game) -> Game:
    """The game as its player sees it: every face-down card and the hand unknown.

    A numbered deal knows all its cards, but a person playing it does not, so hints and
    ``solve`` on such a game must not use them. The view has no history; it plays by the
    game's rule for complete suits (autoremove), as the lines found on it must.
    """
    piles = [[UNKNOWN] * game.down[i] + pile[game.down[i] :] for i, pile in enumerate(game.piles)]
    view = Game(piles, game.down, [UNKNOWN] * len(game.stock), game.removed, game.suits)
    view.autoremove = game.autoremove
    return view


def encode(game: Game) -> Start:
    """The game as the solver sees it; pending ``assume`` decisions count as known cards,
    in the order their pile will turn them up."""
    piles = []
    for i, pile in enumerate(game.piles):
        d = game.down[i]
        down = list(pile[:d])
        assumed = list(game.assumed[i])
        k = 0
        for j in range(d - 1, -1, -1):
            if down[j] == UNKNOWN and k < len(assumed):
                down[j] = assumed[k]
                k += 1
        piles.append(bytes([c + FACE_DOWN for c in down] + pile[d:]))
    hand = game.hand
    rows = tuple(tuple(hand[k : k + 10]) for k in range(0, len(hand), 10))
    return Start(tuple(piles), rows, tuple(game.removed))


def spaces_of(piles: State) -> int:
    return sum(1 for p in piles if not p)


@lru_cache(maxsize=CACHE_SIZE // 4)
def is_complete_pile(pile: bytes) -> bool:
    """True when a pile is nothing but whole King-to-Ace suits, all face up (or is empty)."""
    return len(pile) % 13 == 0 and all(
        completes_suit(pile[: k + 13]) for k in range(0, len(pile), 13)
    )


NO_COVERS = (99,) * 14
""":func:`suit_covers` of a pile with no card of the suit."""


@lru_cache(maxsize=CACHE_SIZE)
def suit_covers(pile: bytes, suit: int) -> tuple[int, ...]:
    """For each rank, how many cards lie below that card of ``suit`` in the pile, not
    counting the run of its own suit directly below it (99 when the pile has none)."""
    covers = [99] * 14
    n = len(pile)
    end = n - 1
    for i in range(n - 1, -1, -1):
        c = pile[i]
        if i < n - 1 and not (c < FACE_DOWN and c == pile[i + 1] + 1):
            end = i
        code = card_code(c)
        if code and code >> 4 == suit:
            extra = 1 if c >= FACE_DOWN else 0
            covers[code & 15] = min(covers[code & 15], n - 1 - end + extra)
    return tuple(covers)


def blocks(pile: bytes) -> int:
    """How many same-suit runs the face-up part of a pile is made of."""
    return pile_info(pile)[0] - sum(1 for c in pile if c >= FACE_DOWN)


# ---------------------------------------------------------------------------------------------
# Moves on compact positions


REVEAL = -1
"""Outcome of a move that turns up an unknown card: its line ends there."""


def actions(
    piles: State,
    spaces: list[int],
    whole_into_space: bool = True,
) -> Iterator[Move | Remove]:
    """The card moves and removals of a position (the deal is handled by the caller).

    ``spaces`` are the empty piles a move may go into (all of them, or just the first when
    spaces are interchangeable); ``whole_into_space=False`` drops moves of a whole pile
    (with nothing face down under it) into a space, which change nothing but pile order.
    """
    bottoms = [p[-1] & 15 if p else 0 for p in piles]
    for src in range(PILES):
        p = piles[src]
        if not p:
            continue
        length = run_length(p)
        low = bottoms[src]
        if length >= 13 and completes_suit(p):  # (the length test first: it is cheap)
            yield Remove(src)
        for dst in range(PILES):
            m = bottoms[dst] - low
            if 0 < m <= length:
                yield Move(src, dst, m)
        if spaces:
            top = length if whole_into_space or length < len(p) else length - 1
            for dst in spaces:
                for m in range(1, top + 1):
                    yield Move(src, dst, m)


def onto_cards(piles: State, src: int, dsts: Iterable[int]) -> Iterator[Move]:
    """The moves of (part of) pile ``src``'s run onto the last cards of the piles ``dsts``
    (empty piles are skipped): :func:`actions` restricted to some piles, for the macros."""
    p = piles[src]
    if not p:
        return
    length = run_length(p)
    low = p[-1] & 15
    for dst in dsts:
        q = piles[dst]
        if q:
            m = (q[-1] & 15) - low
            if 0 < m <= length:
                yield Move(src, dst, m)


def apply(piles: State, action: Move | Remove) -> tuple[list[bytes], int, int]:
    """Apply a move or removal: (new piles, the pile whose card turned up or -1, outcome).

    The outcome is 0, or :data:`REVEAL` when the move turns up an unknown card (the new
    piles then still show it face down), or for a removal the suit removed plus one.
    """
    new = list(piles)
    if isinstance(action, Move):
        src, dst, m = action
        p = piles[src]
        rest = p[:-m]
        new[dst] = piles[dst] + p[-m:]
        outcome = 0
    else:
        src = action.pile
        p = piles[src]
        rest = p[:-13]
        outcome = (p[-1] >> 4) + 1
    turned = -1
    if rest and rest[-1] >= FACE_DOWN:
        if rest[-1] == FACE_DOWN:
            new[src] = rest
            return new, src, REVEAL
        rest = rest[:-1] + ONE_BYTE[rest[-1] - FACE_DOWN]
        turned = src
    new[src] = rest
    return new, turned, outcome


# ---------------------------------------------------------------------------------------------
# Chaos: how untidy a position is (KPatience's measure), for ranking positions


@lru_cache(maxsize=CACHE_SIZE)
def pile_info(pile: bytes) -> tuple[int, int, int, int]:
    """(chaos, rank of the first card, rank of the bottom card, movable run length).

    Chaos counts the face-down cards and every face-up card that does not continue the
    same-suit run of the card above it (the first face-up card always counts).
    """
    if not pile:
        return (0, 0, 0, 0)
    chaos = 1
    for k in range(1, len(pile)):
        if pile[k - 1] != pile[k] + 1:
            chaos += 1
    return (chaos, pile[0] & 15, pile[-1] & 15, run_length(pile))


def rank_key(piles: State, removed: int) -> tuple[int, int]:
    """How promising a position is for the beam, smaller first: (chaos, -readiness).

    Chaos is the sum over piles, less one for each pile headed by a King or whose first card
    could go onto another pile's bottom, less one for each space; readiness adds the movable
    runs, the cards removed and the spaces.
    """
    infos = [pile_info(p) for p in piles]
    bottoms = {info[2] for info in infos if info[2]}
    chaos = 0
    playable = 0
    spaces = 0
    for chaos_p, first, _bottom, run in infos:
        if not run:
            spaces += 1
            continue
        chaos += chaos_p
        playable += run
        if first == KING or first + 1 in bottoms:
            chaos -= 1
    chaos = max(0, chaos - spaces)
    return chaos, -(playable + 13 * removed + spaces)
