"""Writing engine actions in the manual's notation ("8-6s from 3 to 10", "deal"), and times."""

from __future__ import annotations

from collections.abc import Sequence

from spider_cli.rules.cards import RANK_NAMES, SUIT_LETTERS, SUIT_NAMES, Card
from spider_cli.rules.engine import PILES, Action, Deal, Game, Remove
from spider_cli.rules.errors import IllegalMoveError


def move_text(game: Game, action: Action) -> str:
    """The manual's notation for ``action`` in ``game`` (before it is applied).

    "8-6s from 3 to 10", "As from 2 to 5", "deal", "remove the spades from 8". Raises
    IllegalMoveError for a move whose cards are not all face up in its source pile; any
    other move is written without checking it against the rules (the caller has).
    """
    if isinstance(action, Deal):
        return "deal"
    if isinstance(action, Remove):
        cards = game.piles[action.pile] if 0 <= action.pile < PILES else []
        if not cards:
            return f"remove {action.pile + 1}"
        return f"remove the {SUIT_NAMES[cards[-1] >> 4]} from {action.pile + 1}"
    src, dst, count = action
    if not (0 <= src < PILES and 1 <= count <= len(game.piles[src]) - game.down[src]):
        reason = game.why_illegal(action)
        assert reason, "a move whose cards are not all face up is illegal"
        raise IllegalMoveError(reason)
    return f"{moved_text(game.piles[src][-count:])} from {src + 1} to {dst + 1}"


def moved_text(cards: Sequence[int]) -> str:
    """Cards moved together, top one first, as the manual writes them: "6s", "8-6s", "Kh-Qs"."""
    top, bottom = Card(cards[0]), Card(cards[-1])
    if len(cards) == 1:
        return str(bottom)
    suit = SUIT_LETTERS[top.suit] if top.suit != bottom.suit else ""
    return f"{RANK_NAMES[top.rank]}{suit}-{bottom}"


def clock_text(seconds: float) -> str:
    """Seconds as a player reads a clock: "0:07", "12:34", "1:02:03"."""
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
