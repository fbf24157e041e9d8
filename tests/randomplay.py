"""A game some random legal moves on, for the property tests that need positions deep into a
deal (one helper for the core, blind and chances tests)."""

from __future__ import annotations

import random

from spider_cli.analysis import compact
from spider_cli.analysis.blind.view import view_of
from spider_cli.analysis.compact import State
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import Game


def play_randomly(game: Game, moves: int, seed: int) -> Game:
    """``game`` after up to ``moves`` legal actions drawn by ``random.Random(seed)``."""
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
    return game


def reachable(number: int, suits: int, moves: int, seed: int, hidden: bool) -> Game:
    """Our deal ``number`` some random moves on; with ``hidden``, the player's view of it
    (face-down cards unknown)."""
    game = play_randomly(DealSource.parse(str(number), suits).game(), moves, seed)
    return compact.player_view(game) if hidden else game


def blind_view(number: int, suits: int, moves: int, seed: int) -> tuple[State, int, int]:
    """A blind position some random legal moves into our deal ``number``: its compact view
    (face-down cards unknown), suits removed, and cards in the hand."""
    view = view_of(play_randomly(DealSource.parse(str(number), suits).game(), moves, seed))
    return view.piles(), len(view.removed), view.hand
