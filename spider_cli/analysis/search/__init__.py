"""Full-information search on the Python path: the references of the core's searches (the goal
search, the beam, the first moves' counts) and the proofs and passes they need.

This face holds what the layers above use; the modules beside it are the wing's own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_cli.faces import face

if TYPE_CHECKING:  # the names, loaded on first use (spider_cli.faces)
    from spider_cli.analysis.search import (
        beam,
        blocked,
        counting,
        detours,
        firstmoves,
        goal,
        moments,
    )
    from spider_cli.analysis.search.beam import FOUND_FIRST, FOUND_LAST, MAX_LEVELS, settle
    from spider_cli.analysis.search.blocked import HeldRank
    from spider_cli.analysis.search.counting import Question, refute, turn_up_piles
    from spider_cli.analysis.search.firstmoves import Orders
    from spider_cli.analysis.search.goal import (
        CHAOS_WEIGHT,
        WEIGHT,
        Key,
        KeyedLine,
        Line,
        Search,
        Searched,
        Sought,
        make_search,
    )

__getattr__, __dir__ = face(__name__, __file__)

__all__ = [
    "CHAOS_WEIGHT",
    "FOUND_FIRST",
    "FOUND_LAST",
    "MAX_LEVELS",
    "WEIGHT",
    "HeldRank",
    "Key",
    "KeyedLine",
    "Line",
    "Orders",
    "Question",
    "Search",
    "Searched",
    "Sought",
    "beam",
    "blocked",
    "counting",
    "detours",
    "firstmoves",
    "goal",
    "make_search",
    "moments",
    "refute",
    "settle",
    "turn_up_piles",
]
