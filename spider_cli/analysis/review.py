"""A game's review (``review``): where the deal was lost with every card known, the blind
player's chance of a win after every move, and the moves that cost the most of it.

Where the deal was lost: a win found from the position after a move is a win from the one
before it too, so along a game "won with every card known" can change only once, from yes to
no. A bisection with full-information play (:func:`spider_cli.analysis.solve.autoplay.play`) finds
the last position from which it finds a win in about log2(moves) searches. A win found is
certain; "no win found" is certain only where the search proved it (a held rank, or every
reachable position examined), and the review says which.

The chance curve: after each move, the learned value's chance that the blind player wins from
what the player could see (:func:`spider_cli.analysis.blind.rollouts.learned`), microseconds a move.

Marked moves: a move after which the chance fell by a threshold (:data:`SEVERITIES`, lichess's
drops of win chance as points of the chance of a win) is an inaccuracy, a mistake or a
blunder, if the sampled odds confirm it (:func:`spider_cli.analysis.chance.search.estimate`
before and after: the blind player's games to the end on deals sampled from the cards out of
sight). A drop they do not confirm is not marked. Beside each, the blind player's own move.

Everything is bounded by positions and seeded by the position, so the same game gets the same
review on any machine. Ctrl-C stops it: what was done is kept, and the review says it stopped.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import overload

from spider_cli.analysis.blind import Kind, Mode, rollouts, view_of
from spider_cli.analysis.chance import Estimate, Level, levels
from spider_cli.analysis.chance import search as chancesearch
from spider_cli.analysis.limits import TURN_LIMIT, Limit
from spider_cli.analysis.solve import autoplay
from spider_cli.rules.cards import UNKNOWN
from spider_cli.rules.engine import DEAL, Action, Deal, Game, Remove
from spider_cli.rules.lines import fitted
from spider_cli.rules.text import move_text

BISECT_LIMIT = 1_500_000
"""Positions full-information play examines at each step of the bisection (about a second
on the compiled core; it wins 190 of our 4-suit deals 0-199 from the start within it)."""

ODDS_GAMES = 32
"""Sampled games that confirm a drop, before and after the move, as ``odds`` plays them
(half as many: the two sides are paired, played on deals drawn with one seed)."""

MOST_CONFIRMED = 4
"""Drops confirmed by the sampled odds, the largest first (each costs up to two estimates:
the games after the move are not played when those before it could not show a drop)."""


REVIEW_VERSION = 1
"""Raised whenever a change makes reviews answer otherwise (with :func:`version`'s other
parts): reviews kept in the history under another version are made again."""


def version(suits: int) -> str:
    """What decides a review of a ``suits``-suit game, as text: the key of the reviews kept
    in the history (the bisection's search, the blind player, the learned value)."""
    model = rollouts.learned(suits)
    return (
        f"review version {REVIEW_VERSION}, odds of {ODDS_GAMES} games, "
        f"bisection: {autoplay.search_key(BISECT_LIMIT).full}, "
        f"player: {chancesearch.player_key(Level.PLAIN, TURN_LIMIT.positions, suits)}, "
        f"value: {model.bias} {model.weights}"
    )


class Severity(Enum):
    """How much of the chance of a win a move cost."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


SEVERITIES = ((Severity.BLUNDER, 0.15), (Severity.MISTAKE, 0.10), (Severity.INACCURACY, 0.05))
"""The least drop of the chance of a win (as a share) for each mark, the worst first:
lichess marks a move by the win chance it loses (0.1, 0.2 and 0.3 of its winning chances,
which run from -1 to 1, so 5, 10 and 15 points of a win chance); Spider has no draws, so the
same points of the chance of a win."""


def severity(drop: float) -> Severity | None:
    """The mark a drop of the chance earns, or None."""
    return next((s for s, least in SEVERITIES if drop >= least - 1e-9), None)


class Outlook(Enum):
    """What full-information play says of the game, move by move."""

    WON = "won"
    """The game was won."""
    THROUGHOUT = "throughout"
    """A win is found from the last position: still won with every card known."""
    LOST_AT = "lost at"
    """A win is found before some move, and none after it."""
    NEVER = "never"
    """No win found from the start."""
    UNKNOWN = "unknown"
    """Some card out of sight is not known (a position of the manual's): no bisection."""
    STOPPED = "stopped"
    """Ctrl-C came before the bisection ended."""


@dataclass(frozen=True)
class Lost:
    """Where the deal was lost with every card known: the verdict; the move (1 is the
    first) after which no win was found, its text, and a winning line (in the manual's
    notation) from the position before it; whether the search proved the position after it
    lost; the positions examined, each search's limit, and the searches made."""

    verdict: Outlook
    move: int = 0
    move_text: str = ""
    line: tuple[str, ...] = ()
    proved: bool = False
    positions: int = 0
    limit: int = BISECT_LIMIT
    searches: int = 0


@dataclass(frozen=True)
class Mark:
    """A move that cost the chance of a win: its number and text, the learned value's chance
    before and after, the sampled odds before and after, and the blind player's own move
    there when it differs."""

    move: int
    text: str
    severity: Severity
    before: float
    after: float
    odds_before: Estimate
    odds_after: Estimate
    better: str = ""


@dataclass(frozen=True)
class Review:
    """A game's review: where it was lost, the chance after each move (``curve[0]`` at the
    start), the moves that dealt a row, the marked moves, and whether Ctrl-C stopped it."""

    suits: int
    moves: int
    lost: Lost
    curve: tuple[float, ...]
    deals: tuple[int, ...]
    marks: tuple[Mark, ...] = ()
    stopped: bool = False
    unconfirmed: int = 0
    """Drops past a threshold that the sampled odds did not confirm (not marked)."""
    game: str = ""
    """What identifies the game reviewed (:func:`fingerprint`): a review kept in the
    history is shown again for the game it was made of, and for no other."""


@dataclass(frozen=True)
class Step:
    """How far a review is, for its progress line (the app says it): the full-information
    search ``count`` of the bisection, after move ``move``; or (``move`` None) the drop
    ``count`` of ``of`` being confirmed by sampled games."""

    count: int
    move: int | None = None
    of: int = 0


Progress = Callable[[Step], None]


def review(
    game: Game,
    limit: int = BISECT_LIMIT,
    odds_games: int = ODDS_GAMES,
    progress: Progress | None = None,
) -> Review:
    """Review ``game`` (its cards all known, or not: see :attr:`Outlook.UNKNOWN`) from its
    start to the position it is in; ``progress`` is told what is being done."""
    say = progress or (lambda _text: None)
    positions, actions = positions_of(game)
    curve = tuple(_chance(g) for g in positions.walk())
    deals = tuple(k for k, a in enumerate(actions, 1) if isinstance(a, Deal))
    lost = Lost(Outlook.UNKNOWN)
    marks: list[Mark] = []
    unconfirmed = 0
    stopped = False
    try:
        if _known(game):
            lost = bisect(positions, actions, limit, say)
        stopped = lost.verdict is Outlook.STOPPED
        if not stopped:
            marks, unconfirmed = _marks(positions, actions, curve, odds_games, say)
    except KeyboardInterrupt:
        stopped = True
    return Review(
        game.suits,
        len(actions),
        lost,
        curve,
        deals,
        tuple(marks),
        stopped,
        unconfirmed,
        fingerprint(game),
    )


def fingerprint(game: Game) -> str:
    """What decides a review of ``game`` besides the review's own version, as a short
    digest: its start (every card, face down and in the hand too), its moves and the
    autoremove rule each was played under. Two games alike in these get the same review."""
    start = game.copy()
    while start.moves_made:
        start.pop()
    made = repr((start.key(), start.suits, game.move_stack, game.rules()))
    return hashlib.sha256(made.encode()).hexdigest()[:32]


def positions_of(game: Game) -> tuple[Positions, list[Action]]:
    """The game's position before its first move and after each, and its moves."""
    return Positions(game), list(game.move_stack)


class Positions(Sequence[Game]):
    """A game's positions, before its first move (``[0]``) and after each: one game walked
    back and forth by its undo and redo, each position given as a copy when asked for. Never
    all held at once: a copy of every position, each with the moves that led to it, holds
    memory that grows with the square of the moves (gigabytes at tens of thousands)."""

    def __init__(self, game: Game) -> None:
        self._work = game.copy()
        self._rules = game.rules()
        self._final = game.autoremove
        self._at = self._moves = game.moves_made

    def __len__(self) -> int:
        return self._moves + 1

    @overload
    def __getitem__(self, index: int) -> Game: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Game]: ...

    def __getitem__(self, index: int | slice) -> Game | Sequence[Game]:
        """The position after move ``index`` (0: the start), a copy of its own."""
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"the game has positions 0 to {self._moves}, not {index}")
        return self._go(index).copy()

    def walk(self) -> Iterator[Game]:
        """Each position in turn, from the start: the one game walked, not a copy (it is
        not to be changed, nor kept past the next step)."""
        for k in range(len(self)):
            yield self._go(k)

    def _go(self, k: int) -> Game:
        """The walked game, taken to the position after move ``k``: each move redone under
        the autoremove rule it was played under (the same cards come off), then the rule in
        force at the end set back."""
        work = self._work
        while self._at > k:
            work.pop()
            self._at -= 1
        while self._at < k:
            work.autoremove = self._rules[self._at]
            work.redo()
            self._at += 1
        work.autoremove = self._final
        return work


def _known(game: Game) -> bool:
    """Whether every card out of sight is known (a numbered deal is; a position of the
    manual's is not)."""
    hidden = [c for p, d in zip(game.piles, game.down, strict=True) for c in p[:d]]
    return UNKNOWN not in hidden and UNKNOWN not in game.stock and not any(game.assumed)


def _chance(game: Game) -> float:
    """The learned value's chance of a win from what a player of ``game`` sees."""
    if game.is_won():
        return 1.0
    view = view_of(game)
    f = rollouts.features(view.piles(), len(view.removed), view.hand // 10)
    return rollouts.learned(game.suits).worth(f) / rollouts.WON


def bisect(positions: Sequence[Game], actions: list[Action], limit: int, say: Progress) -> Lost:
    """Where the deal was lost (see the module): the last position from which full-
    information play finds a win within ``limit`` positions, by bisection."""
    last = len(positions) - 1
    if positions[last].is_won():
        return Lost(Outlook.WON)
    examined = searches = 0
    wins: dict[int, list[Action]] = {}
    proofs: dict[int, bool] = {}

    def won(k: int) -> bool:
        nonlocal examined, searches
        say(Step(searches + 1, k))
        try:
            result = autoplay.play(positions[k], Limit(limit))  # (a copy of its own)
        except KeyboardInterrupt:
            raise _Stopped from None
        examined += result.positions
        searches += 1
        if result.won:
            wins[k] = result.actions
        proofs[k] = result.proved
        return result.won

    try:
        if not won(0):
            return Lost(
                Outlook.NEVER, proved=proofs[0], positions=examined, limit=limit, searches=1
            )
        if won(last):
            return Lost(Outlook.THROUGHOUT, positions=examined, limit=limit, searches=searches)
        lo, hi = 0, last  # a win found at lo; none at hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if won(mid):
                lo = mid
            else:
                hi = mid
    except _Stopped:
        return Lost(Outlook.STOPPED, positions=examined, limit=limit, searches=searches)

    move = actions[lo]
    line = fitted(positions[lo], wins[lo]).texts
    return Lost(
        Outlook.LOST_AT,
        lo + 1,
        move_text(positions[lo], move),
        line,
        proofs[hi],
        examined,
        limit,
        searches,
    )


class _Stopped(Exception):
    """Ctrl-C during the bisection (what was found so far is kept)."""


def _marks(
    positions: Sequence[Game],
    actions: list[Action],
    curve: tuple[float, ...],
    games: int,
    say: Progress,
) -> tuple[list[Mark], int]:
    """The moves whose drop of the chance the sampled odds confirm, in the game's order, and
    how many drops they did not confirm. Deals and removals are never marked: a deal is
    often due, and a removal never loses."""
    drops = [
        (curve[k - 1] - curve[k], k)
        for k in range(1, len(curve))
        if not isinstance(actions[k - 1], Deal | Remove)
        and severity(curve[k - 1] - curve[k]) is not None
    ]
    drops.sort(key=lambda d: (-d[0], d[1]))
    marks: list[Mark] = []
    unconfirmed = 0
    for n, (drop, k) in enumerate(drops[:MOST_CONFIRMED], 1):
        say(Step(n, None, len(drops)))
        game = positions[k - 1]
        seen = view_of(game)
        seed = rollouts.seed_of(seen)  # both sides on deals drawn alike: a paired comparison
        before = chancesearch.estimate(seen, games, seed)
        if severity(before.won / before.games) is None:  # too few won before to fall so far
            unconfirmed += 1
            continue
        after = chancesearch.estimate(view_of(positions[k]), games, seed)
        confirmed = severity(before.won / before.games - after.won / after.games)
        if confirmed is None:
            unconfirmed += 1
            continue
        mark = severity(drop)
        assert mark is not None
        played = move_text(game, actions[k - 1])
        better = _players_move(game)
        marks.append(
            Mark(
                k,
                played,
                mark,
                curve[k - 1],
                curve[k],
                before,
                after,
                better if better != played else "",
            )
        )
    unconfirmed += max(0, len(drops) - MOST_CONFIRMED)
    marks.sort(key=lambda m: m.move)
    return marks, unconfirmed


def _players_move(game: Game) -> str:
    """The blind player's move from ``game`` in the manual's notation ("" when it has
    none)."""
    choice = players_choice(game)
    return "" if choice is None else move_text(game, choice)


def players_choice(game: Game) -> Action | None:
    """The blind player's move from ``game`` as a player of it sees it (None when it has
    none): a search of the hint's budget."""
    view = view_of(game)
    choice = levels.choose(view, Mode.KEEP, TURN_LIMIT, Level.PLAIN).played
    if choice.kind is Kind.DEAL:
        return DEAL
    if choice.kind is Kind.LINE and choice.line:
        return choice.line[0]
    return None


def chance(game: Game) -> float:
    """The learned value's chance of a win from what a player of ``game`` sees (the curve's
    measure), microseconds."""
    return _chance(game)
