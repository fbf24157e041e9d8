"""The analysis: searches over positions, with every card known or only what a player sees.

It stands on the rules and never reads text. Its wings, from the ground up:

* :mod:`~spider_cli.analysis.compact`, :mod:`~spider_cli.analysis.limits`,
  :mod:`~spider_cli.analysis.memory`, :mod:`~spider_cli.analysis.intervals`: what every search
  shares (positions as bytes, how far a search may go, the memory it may hold, how sure a count
  of wins is);
* :mod:`~spider_cli.analysis.search` (full information) and :mod:`~spider_cli.analysis.blind`
  (the blind player): the Python path of every search the compiled core also runs;
* :mod:`~spider_cli.analysis.native`: which path runs, the core or the Python reference;
* :mod:`~spider_cli.analysis.solve` (answers with every card known) and
  :mod:`~spider_cli.analysis.chance` (the search over what could turn up, and the odds);
* on top, what a player asks for: :mod:`~spider_cli.analysis.hints`,
  :mod:`~spider_cli.analysis.review` and :mod:`~spider_cli.analysis.bench`.

This face holds what the application uses. Results are data; the words are the application's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_cli.faces import face

if TYPE_CHECKING:  # the names, loaded on first use (spider_cli.faces)
    from spider_cli.analysis.bench import DealResult, Mapper
    from spider_cli.analysis.blind import Mode, view_of
    from spider_cli.analysis.chance import Chance, Checked, Estimate, Level
    from spider_cli.analysis.compact import player_view
    from spider_cli.analysis.hints import Advice, hint
    from spider_cli.analysis.limits import PLAY_LIMIT, TURN_LIMIT, Halt, Halted, Limit, Verdict
    from spider_cli.analysis.review import Lost, Mark, Outlook, Review, version
    from spider_cli.analysis.search import FOUND_FIRST, FOUND_LAST, HeldRank
    from spider_cli.analysis.solve import (
        Answer,
        Contingency,
        EachReveal,
        Ground,
        PlayResult,
        Proof,
        Report,
        SearchKey,
        Stage,
        play,
    )

__getattr__, __dir__ = face(__name__, __file__)

__all__ = [
    "FOUND_FIRST",
    "FOUND_LAST",
    "PLAY_LIMIT",
    "TURN_LIMIT",
    "Advice",
    "Answer",
    "Chance",
    "Checked",
    "Contingency",
    "DealResult",
    "EachReveal",
    "Estimate",
    "Ground",
    "Halt",
    "Halted",
    "HeldRank",
    "Level",
    "Limit",
    "Lost",
    "Mapper",
    "Mark",
    "Mode",
    "Outlook",
    "PlayResult",
    "Proof",
    "Report",
    "Review",
    "SearchKey",
    "Stage",
    "Verdict",
    "hint",
    "play",
    "player_view",
    "version",
    "view_of",
]
