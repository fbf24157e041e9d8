"""What full-information play says of a deal or a position: whether a deal is won with
every card known (``new winnable``, ``spider --winnable``) and how hard that is (``new
easy``, ``spider --difficulty easy``), and the share of the deals a
player's view allows that are won from here (``odds``).

Every search is :func:`spider_cli.analysis.solve.autoplay.play` bounded by positions, never by the
clock, and the samples of the cards not in sight are drawn by a generator seeded with the
position, so the same question gets the same answer on any machine, however busy. "Won" is
always with every card known: the search sees the face-down cards and the hand, which a
player does not, so a player who cannot see them wins less often.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from spider_cli.analysis.blind import PlayerView, sampled_game, seed_of
from spider_cli.analysis.chance import search as chancesearch
from spider_cli.analysis.chance.search import Estimate
from spider_cli.analysis.intervals import wilson
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.solve import autoplay
from spider_cli.rules.engine import Game
from spider_cli.rules.goals import Wanted
from spider_cli.rules.values import Value

CHECK_LIMIT = 1_500_000
"""Positions full-information play may examine to win a deal offered as winnable: enough
for nearly every deal (what it wins and what a check costs:
``benchmarks/deal_difficulty.py``, BENCHMARKS.md)."""

TRIES = 30
"""Deals checked, one number after another, before ``new winnable`` gives up (a rank of
difficulty is a third of the deals won: 30 deals miss one with a chance below 1 in 10,000)."""

THRESHOLDS = {1: (15_000, 23_000), 2: (16_500, 40_000), 4: (70_000, 200_000)}
"""For each suit count, the most positions full-information play may need to win an easy
deal, and a medium one; a deal that needs more is hard. About the terciles of the positions
our won deals 0-199 needed (1 suit 14,730 and 22,861; 2 suits 16,504 and 39,373; 4 suits
71,367 and 204,516: ``benchmarks/deal_difficulty.py``, BENCHMARKS.md), so each rank is about
a third of the deals won. Fewer positions is easier for the search, and so, roughly, for a
player: fewer choices go wrong."""


class Checked(Value):
    """A deal checked by full-information play: won within :data:`CHECK_LIMIT` positions
    or not, the positions examined, and its rank (:data:`THRESHOLDS`; None when not won)."""

    won: bool
    positions: int
    rank: Wanted | None = None


def rank(positions: int, suits: int) -> Wanted:
    """The difficulty of a deal that full-information play won in ``positions``."""
    easy, medium = THRESHOLDS[suits]
    return (
        Wanted.EASY if positions <= easy else Wanted.MEDIUM if positions <= medium else Wanted.HARD
    )


def check(game: Game, limit: int | None = None, wanted: Wanted | None = None) -> Checked:
    """Play a deal whose cards are all known, at most ``limit`` positions (None:
    :data:`CHECK_LIMIT`), asking whether it is ``wanted`` (None: only whether it is won).

    Easy and medium deals are won within their rank's positions (:data:`THRESHOLDS`), so a
    check for them stops there: the search is monotone in its limit, so the answer is the
    one the whole limit gives. A check for a winnable or hard deal gives up when a wider
    beam could not run its course in what is left (``autoplay.play``'s ``give_up``)."""
    limit = CHECK_LIMIT if limit is None else limit
    if wanted in (Wanted.EASY, Wanted.MEDIUM):
        easy, medium = THRESHOLDS[game.suits]
        limit = min(limit, easy if wanted is Wanted.EASY else medium)
    give_up = wanted in (Wanted.WINNABLE, Wanted.HARD)
    result = autoplay.play(game, Limit(limit), give_up=give_up)
    if not result.won:
        return Checked(False, result.positions)
    return Checked(True, result.positions, rank(result.positions, game.suits))


def fits(checked: Checked, wanted: Wanted) -> bool:
    """Whether a checked deal is the kind asked for: won, and of the rank named."""
    return checked.won and wanted in (Wanted.WINNABLE, checked.rank)


def first_fitting(games: Iterable[Game], wanted: Wanted) -> tuple[int, Checked] | None:
    """The first of ``games`` (deals with every card known) of the kind wanted, by its place
    among them, and its check; None if none is."""
    for place, game in enumerate(games):
        checked = check(game, wanted=wanted)
        if fits(checked, wanted):
            return place, checked
    return None


# ---------------------------------------------------------------------------------------------
# The chance of a win from a position

SAMPLES = 20
"""Deals sampled by ``odds``: enough for an interval about 35 points wide, and few enough
that the samples take a second or two on the compiled core."""

SAMPLE_LIMIT = 150_000
"""Positions full-information play examines for each sample (a sample not won within it
counts as lost)."""


class Chance(Value):
    """Of ``samples`` deals consistent with a player's view, how many full-information play
    won from the position (``unseen``: the cards not in sight that the samples placed), and
    the blind player's own chance played out (:func:`chancesearch.estimate`; None when
    nothing is out of sight)."""

    won: int
    samples: int
    unseen: int
    player: Estimate | None = None

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the share won, as fractions."""
        return wilson(self.won, self.samples)


@dataclass(frozen=True)
class Played:
    """How far ``odds`` is, for its progress line (the app says it): ``done`` of ``of``
    games played by the blind player (``blind``), or ``done`` of ``of`` sampled deals
    played with every card known (not ``blind``), these before the deal ``done`` is
    played."""

    done: int
    of: int
    blind: bool


def odds(
    view: PlayerView,
    count: int = SAMPLES,
    limit: int = SAMPLE_LIMIT,
    progress: Callable[[Played], None] | None = None,
) -> Chance:
    """How many of ``count`` sampled deals full-information play wins from ``view``, at most
    ``limit`` positions each, and the blind player's chance played out (its games stop once
    their interval is :data:`~chancesearch.ODDS_WIDTH` narrow). With nothing out of sight
    there is one deal to play. ``progress`` is told how far the games have gone
    (:class:`Played`)."""
    unseen = len(view.unseen())
    player = None
    if unseen:

        def played(done: int, most: int) -> None:
            if progress is not None:
                progress(Played(done, most, blind=True))

        narrow = chancesearch.ODDS_WIDTH
        player = chancesearch.estimate(view, narrow=narrow, progress=played)
    seed = seed_of(view)
    deals = [sampled_game(view, seed, k) for k in range(count if unseen else 1)]
    if deals[0].is_won():  # (the search looks for a win only after a move)
        return Chance(len(deals), len(deals), unseen, player)
    won = 0
    for k, game in enumerate(deals):
        if progress is not None:
            progress(Played(k, len(deals), blind=False))
        won += autoplay.play(game, Limit(limit)).won
    return Chance(won, len(deals), unseen, player)
