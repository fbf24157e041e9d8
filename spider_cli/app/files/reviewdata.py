"""A game's review as data and back: the JSON ``spider review --json`` prints and the history
keeps (docs/json.md), and the review read back from it, so that a review kept is shown
again without a search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spider_cli.rules.engine import DEAL, Action, Move, Remove
from spider_cli.rules.errors import SpiderError

if TYPE_CHECKING:
    from spider_cli.analysis import Review
    from spider_cli.analysis.review import Gap

__all__ = ["BadReview", "action_json", "action_of", "review_json", "review_of"]


class BadReview(SpiderError):
    """A review kept as JSON that does not read back (damaged, or of another shape)."""


def review_json(review: Review) -> dict[str, object]:
    """The review as data for scripts (``spider review --json``, described in docs/json.md)."""
    lost = review.lost
    return {
        "suits": review.suits,
        "moves": review.moves,
        "lost": {
            "verdict": lost.verdict.value,
            "move": lost.move or None,
            "move_text": None if lost.move_text is None else action_json(lost.move_text),
            "line": [action_json(a) for a in lost.line],
            "proved": lost.proved,
            "positions": lost.positions,
            "limit": lost.limit,
            "searches": lost.searches,
        },
        "curve": [round(c, 4) for c in review.curve],
        "deals": list(review.deals),
        "marks": [
            {
                "move": m.move,
                "text": action_json(m.played),
                "severity": m.severity.value,
                "before": round(m.before, 4),
                "after": round(m.after, 4),
                "better": action_json(m.better),
                "gap": _gap_json(m.gap),
            }
            for m in review.marks
        ],
        "unconfirmed": review.unconfirmed,
        "unweighed": review.unweighed,
        "stopped": review.stopped,
        "game": review.game,
    }


def action_json(action: Action) -> dict[str, object]:
    """An action as data, its piles numbered from 1 as a player reads them:
    ``{"move": {"from": 3, "to": 10, "cards": 2}}``, ``{"deal": true}``,
    ``{"remove": 8}``."""
    if isinstance(action, Move):
        return {"move": {"from": action.src + 1, "to": action.dst + 1, "cards": action.count}}
    if isinstance(action, Remove):
        return {"remove": action.pile + 1}
    return {"deal": True}


def action_of(data: dict[str, Any]) -> Action:
    """The action :func:`action_json` made ``data`` of (KeyError or TypeError if none)."""
    if "move" in data:
        move = data["move"]
        return Move(int(move["from"]) - 1, int(move["to"]) - 1, int(move["cards"]))
    if "remove" in data:
        return Remove(int(data["remove"]) - 1)
    if data["deal"] is not True:
        raise ValueError("not an action")
    return DEAL


def _gap_json(gap: Gap) -> dict[str, object]:
    return {
        "mean": round(gap.mean, 4),
        "low": round(gap.low, 4),
        "high": round(gap.high, 4),
        "pairs": gap.pairs,
    }


def review_of(data: Any) -> Review:
    """The review :func:`review_json` made ``data`` of (BadReview if it is not one)."""
    try:
        return _review_of(data)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise BadReview(f"a review kept does not read back ({type(error).__name__})") from None


def _review_of(data: dict[str, Any]) -> Review:
    from spider_cli.analysis import Lost, Mark, Outlook, Review
    from spider_cli.analysis.review import Gap, Severity

    lost = data["lost"]
    marks = tuple(
        Mark(
            int(m["move"]),
            action_of(m["text"]),
            Severity(m["severity"]),
            float(m["before"]),
            float(m["after"]),
            action_of(m["better"]),
            Gap(
                float(m["gap"]["mean"]),
                float(m["gap"]["low"]),
                float(m["gap"]["high"]),
                int(m["gap"]["pairs"]),
            ),
        )
        for m in data["marks"]
    )
    return Review(
        int(data["suits"]),
        int(data["moves"]),
        Lost(
            Outlook(lost["verdict"]),
            int(lost["move"] or 0),
            None if lost["move_text"] is None else action_of(lost["move_text"]),
            tuple(action_of(a) for a in lost["line"]),
            bool(lost["proved"]),
            int(lost["positions"]),
            int(lost["limit"]),
            int(lost["searches"]),
        ),
        tuple(float(c) for c in data["curve"]),
        tuple(int(d) for d in data["deals"]),
        marks,
        bool(data["stopped"]),
        int(data["unconfirmed"]),
        str(data["game"]),
        int(data["unweighed"]),
    )
