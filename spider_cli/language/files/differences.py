"""How a game differs from the position a file expects, one line per difference, in a
player's words (``spider check``, ``expect FILE``)."""

from __future__ import annotations

from collections.abc import Sequence

from spider_cli.language.files.position import PositionFile
from spider_cli.rules.cards import (
    SUIT_LETTERS,
    UNKNOWN,
    card_text,
    run_text,
    split_runs,
)
from spider_cli.rules.engine import Game
from spider_cli.rules.layout import cell_text


def _describe(cards: Sequence[int], down: int, show_hidden: bool) -> str:
    """A pile in words: ``2 face-down then 9s 8-6s``, or ``a space``."""
    if not cards:
        return "a space"
    parts = []
    if down:
        hidden = f"{down} face-down"
        if show_hidden:
            hidden += " (" + " ".join(cell_text(c, True) for c in cards[:down]) + ")"
        parts.append(hidden)
    runs = split_runs(cards[down:])
    if runs:
        parts.append(" ".join(run_text(run) for run in runs))
    return " then ".join(parts)


def differences(game: Game, expected: PositionFile) -> list[str]:
    """How ``game`` differs from the position in a file, one line per difference (none: same).

    Piles are compared by their face-down count, the known face-down cards the file names and
    their face-up cards; the variant, the hand and the removed suits only where the file states
    them.
    """
    out: list[str] = []
    if expected.suits_stated and game.suits != expected.suits:
        out.append(f"suits: expected a {expected.suits}-suit game, found {game.suits} suits")
    for i, (want, down) in enumerate(zip(expected.piles, expected.down, strict=True)):
        have, have_down = game.piles[i], game.down[i]
        hidden_ok = all(
            w in (UNKNOWN, h) for w, h in zip(want[:down], have[:have_down], strict=False)
        )
        if have_down == down and have[have_down:] == want[down:] and hidden_ok:
            continue
        show = any(want[:down])
        out.append(
            f"pile {i + 1}: expected {_describe(want, down, show)}, "
            f"found {_describe(have, have_down, show)}"
        )
    hand = game.hand
    if expected.stock_stated:
        if len(hand) != expected.stock_count:
            out.append(f"hand: expected {expected.stock_count} cards, found {len(hand)}")
        else:
            for j, (want_card, have_card) in enumerate(zip(expected.hand, hand, strict=True)):
                if want_card and want_card != have_card:
                    found = card_text(have_card) if have_card else "an unknown card"
                    out.append(
                        f"hand: expected {card_text(want_card)} as card {j + 1} to be "
                        f"dealt, found {found}"
                    )
    if expected.removed_stated:
        removed = sorted(game.removed)
        if expected.removed is not None and sorted(expected.removed) != removed:
            out.append(
                f"removed suits: expected {_suit_list(expected.removed)}, found "
                f"{_suit_list(removed)}"
            )
        elif expected.removed is None and expected.removed_count != len(removed):
            out.append(f"removed suits: expected {expected.removed_count}, found {len(removed)}")
    return out


def _suit_list(suits: Sequence[int]) -> str:
    return " ".join(SUIT_LETTERS[s] for s in sorted(suits)) or "none"
