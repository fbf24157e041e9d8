"""What could turn up: the search over sampled deals that weighs the blind player's choices, the
full-information judge of sampled worlds, the player at each level over both, and the odds of
a position.

This face holds what the layers above use; the modules beside it are the wing's own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_cli.faces import face

if TYPE_CHECKING:  # the names, loaded on first use (spider_cli.faces)
    from spider_cli.analysis.chance import levels, odds, search
    from spider_cli.analysis.chance.odds import Chance, Checked
    from spider_cli.analysis.chance.search import Estimate, Level, Pick

__getattr__, __dir__ = face(__name__, __file__)

__all__ = ["Chance", "Checked", "Estimate", "Level", "Pick", "levels", "odds", "search"]
