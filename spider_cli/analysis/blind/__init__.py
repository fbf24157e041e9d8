"""The blind player: what a player sees (the view), the value its searches maximize, its moves,
rollouts of its game on sampled deals, and the weighing of its lines on the Python path.

This face holds what the layers above use; the modules beside it are the wing's own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_cli.faces import face

if TYPE_CHECKING:  # the names, loaded on first use (spider_cli.faces)
    from spider_cli.analysis.blind import player, rollouts, turns, weighing
    from spider_cli.analysis.blind.evaluation import (
        STANDARD,
        TABLE_SIZE,
        Weights,
        value,
        weights_for,
    )
    from spider_cli.analysis.blind.player import (
        BEAM,
        SEARCHES,
        UNSEEN,
        WEIGHED,
        Candidate,
        Decision,
        Found,
        Kind,
        Reveal,
        RevealOdds,
        decide,
        first_reveal,
        plan,
    )
    from spider_cli.analysis.blind.rollouts import (
        Playout,
        Policy,
        WinModel,
        capped,
        learned,
        rows_of,
        sample,
        sampled_game,
        seed_of,
    )
    from spider_cli.analysis.blind.turns import Mode, Request, Turn
    from spider_cli.analysis.blind.view import PlayerView, view_of
    from spider_cli.analysis.blind.weighing import MARGIN, Draw, Effort, Line, Weighed

__getattr__, __dir__ = face(__name__, __file__)

__all__ = [
    "BEAM",
    "MARGIN",
    "SEARCHES",
    "STANDARD",
    "TABLE_SIZE",
    "UNSEEN",
    "WEIGHED",
    "Candidate",
    "Decision",
    "Draw",
    "Effort",
    "Found",
    "Kind",
    "Line",
    "Mode",
    "PlayerView",
    "Playout",
    "Policy",
    "Request",
    "Reveal",
    "RevealOdds",
    "Turn",
    "Weighed",
    "Weights",
    "WinModel",
    "capped",
    "decide",
    "first_reveal",
    "learned",
    "plan",
    "player",
    "rollouts",
    "rows_of",
    "sample",
    "sampled_game",
    "seed_of",
    "turns",
    "value",
    "view_of",
    "weighing",
    "weights_for",
]
