"""Full-information play: win a numbered deal with every card known (``spider solve
--seed``, ``spider bench``).

A beam search in the manner of KPatience's solver (spidersolver2): positions ranked by their
"chaos" (:func:`spider_cli.analysis.compact.rank_key`), a beam for each number of deals
made (:mod:`spider_cli.analysis.beam`), widened until it wins or its positions run out. Not
exhaustive: "no win found" is not a proof.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spider_cli.analysis import detours, native
from spider_cli.analysis.compact import FACE_DOWN, encode
from spider_cli.analysis.goals import PLAY_LIMIT, Limit
from spider_cli.rules.cards import UNKNOWN
from spider_cli.rules.engine import Action, Game
from spider_cli.rules.text import move_text

WIDTHS = (4, 16, 64, 256, 1024, 4096)
"""The beam widths tried in turn (a wider beam gets what the narrower ones left of the
limit: at the default limit, 4096 is reached only when 1024 fails early)."""


PER_SECOND = 100_000
"""About the positions :func:`play` examines in a second on the Python path, and on the
compiled core (:data:`PER_SECOND_CORE`): "within N seconds" buys N times as many (at most
:data:`PLAY_LIMIT`), whether or not a clock also caps the time."""

PER_SECOND_CORE = 1_500_000


def play_limit(seconds: float | None) -> int:
    """The positions :func:`play` may examine for "within ``seconds``" (None: the default)."""
    rate = PER_SECOND_CORE if native.backend().compiled else PER_SECOND
    return PLAY_LIMIT if not seconds else min(PLAY_LIMIT, round(seconds * rate))


@dataclass
class PlayResult:
    """The outcome of :func:`play`: a winning line, or none within the limits."""

    won: bool
    actions: list[Action]
    positions: int
    seconds: float | None  # measured only when play was given a clock
    width: int
    texts: list[str] = field(default_factory=list)

    def text(self) -> str:
        timed = f" in {self.seconds:.2f} s" if self.seconds is not None else ""
        work = f"{self.positions:,} positions{timed}, beam width {self.width}"
        if not self.won:
            return f"no win found within the limits ({work})"
        lines = [f"won in {len(self.texts)} moves ({work})"]
        lines.extend(f"  {k:>3}. {t}" for k, t in enumerate(self.texts, start=1))
        return "\n".join(lines)


PLAY = Limit(PLAY_LIMIT)
"""Full-information play's limit unless it is given one: :data:`PLAY_LIMIT` positions."""


def play(game: Game, limit: Limit = PLAY, widths: tuple[int, ...] = WIDTHS) -> PlayResult:
    """Find a winning line for a game whose cards are all known (a numbered deal).

    Beam search level by level: every position of the beam is expanded, the children are
    ranked by :func:`rank_key`, and the best ``width`` are kept for each number of deals
    made. Each width in turn until a win or ``limit`` (its positions; memory is bounded by
    the beam: the seen-set holds only kept positions). The limit's clock (None: none is
    read) times the play, and stops it at the limit's time. A card unknown is the caller's
    bug.
    """
    start = encode(game)
    if any(c == FACE_DOWN for p in start.piles for c in p) or any(
        UNKNOWN in row for row in start.rows
    ):
        raise ValueError("full-information play needs every card known (a numbered deal)")
    began = limit.now()
    backend = native.backend(start.cards)
    expired = limit.expired
    positions = 0
    width = widths[0]
    found = None
    for width in widths:
        found, count = backend.beam(start, width, limit.within(limit.positions - positions))
        positions += count
        if found is not None or positions >= limit.positions or (expired and expired()):
            break
    took = limit.elapsed(began)
    if found is None:
        return PlayResult(False, [], positions, took, width)
    line = detours.clean(start, found)
    return PlayResult(True, line, positions, took, width, _replay_plain(game, line))


def _replay_plain(game: Game, line: list[Action]) -> list[str]:
    """Check a line with the engine and write it in notation."""
    work = game.copy()
    texts = []
    for action in line:
        reason = work.why_illegal(action)
        if reason:  # pragma: no cover - the solver's moves are the engine's moves
            raise AssertionError(f"solver produced an illegal move: {action} ({reason})")
        texts.append(move_text(work, action))
        work.push(action)
    if not work.is_won():  # pragma: no cover
        raise AssertionError("solver's winning line does not win")
    return texts
