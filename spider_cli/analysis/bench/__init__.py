"""``spider bench``: numbered deals played over a range, with every card known or blind, in worker
processes.

This face holds what the layers above use; the modules beside it are the wing's own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_cli.faces import face

if TYPE_CHECKING:  # the names, loaded on first use (spider_cli.faces)
    from spider_cli.analysis.bench import blind, full
    from spider_cli.analysis.bench.full import DealResult, Mapper

__getattr__, __dir__ = face(__name__, __file__)

__all__ = ["DealResult", "Mapper", "blind", "full"]
