"""A game's review as data and back: the JSON ``spider review --json`` prints and the history
keeps (docs/json.md), and the review read back from it, so that a review kept is shown
again without a search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spider_cli.rules.errors import SpiderError

if TYPE_CHECKING:
    from spider_cli.analysis import Review

__all__ = ["BadReview", "review_json", "review_of"]


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
            "move_text": lost.move_text or None,
            "line": list(lost.line),
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
                "text": m.text,
                "severity": m.severity.value,
                "before": round(m.before, 4),
                "after": round(m.after, 4),
                "odds_before": {"won": m.odds_before.won, "games": m.odds_before.games},
                "odds_after": {"won": m.odds_after.won, "games": m.odds_after.games},
                "better": m.better or None,
            }
            for m in review.marks
        ],
        "unconfirmed": review.unconfirmed,
        "stopped": review.stopped,
        "game": review.game,
    }


def review_of(data: Any) -> Review:
    """The review :func:`review_json` made ``data`` of (BadReview if it is not one)."""
    try:
        return _review_of(data)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise BadReview(f"a review kept does not read back ({type(error).__name__})") from None


def _review_of(data: dict[str, Any]) -> Review:
    from spider_cli.analysis import Estimate, Lost, Mark, Outlook, Review
    from spider_cli.analysis.review import Severity

    lost = data["lost"]
    marks = tuple(
        Mark(
            int(m["move"]),
            str(m["text"]),
            Severity(m["severity"]),
            float(m["before"]),
            float(m["after"]),
            Estimate(int(m["odds_before"]["won"]), int(m["odds_before"]["games"])),
            Estimate(int(m["odds_after"]["won"]), int(m["odds_after"]["games"])),
            str(m["better"] or ""),
        )
        for m in data["marks"]
    )
    return Review(
        int(data["suits"]),
        int(data["moves"]),
        Lost(
            Outlook(lost["verdict"]),
            int(lost["move"] or 0),
            str(lost["move_text"] or ""),
            tuple(str(t) for t in lost["line"]),
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
    )
