"""A review as data: the whole review the history of games keeps with a game (its
``reviews`` table, :mod:`spider_cli.app.files.gamelog`) and ``spider review --json`` prints,
described in docs/json.md. Its summary in words is the player's
(:func:`spider_cli.app.words.replies.review_summary`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spider_cli.analysis import Review

__all__ = ["review_json"]


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
    }
