"""Answers with every card known: the manual's questions (solver, proofs, contingencies) and
full-information play of a deal (autoplay).

This face holds what the layers above use; the modules beside it are the wing's own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_cli.faces import face

if TYPE_CHECKING:  # the names, loaded on first use (spider_cli.faces)
    from spider_cli.analysis.solve import answers, autoplay
    from spider_cli.analysis.solve.answers import EachReveal, Report, solve
    from spider_cli.analysis.solve.autoplay import (
        WIDTHS,
        PlayResult,
        SearchKey,
        Stage,
        play,
        search_key,
    )
    from spider_cli.analysis.solve.contingencies import Contingency
    from spider_cli.analysis.solve.proofs import Ground, Proof
    from spider_cli.analysis.solve.solver import Answer, quick

__getattr__, __dir__ = face(__name__, __file__)

__all__ = [
    "WIDTHS",
    "Answer",
    "Contingency",
    "EachReveal",
    "Ground",
    "PlayResult",
    "Proof",
    "Report",
    "SearchKey",
    "Stage",
    "answers",
    "autoplay",
    "play",
    "quick",
    "search_key",
    "solve",
]
