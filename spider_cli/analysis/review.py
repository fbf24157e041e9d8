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

Marked moves: at each of the player's decisions (a move, a deal, a removal) where the blind
player would have done otherwise (:func:`players_choice`), the chance after its move against
the chance after the move played, paired: both played on the same deals sampled from the cards
out of sight (:func:`spider_cli.analysis.chance.search.weigh`'s weighing, with two
candidates), each game played on by the blind player for a few turns and scored where it stops
by the learned value. A move that gave up 5, 10 or 15 points of the chance of a win
(:data:`SEVERITIES`, lichess's drops of win chance), or 15%, 30% or 50% of the chance the
blind player's move left (:data:`SHARES`), is an inaccuracy, a mistake or a blunder,
marked only where the paired interval of what it gave up lies above 0 (:data:`Z`). The
decisions are weighed in order of the learned value's cheap signal (how much more the blind
player's move leaves than the move played), within a budget of positions the review's own
(:data:`MARKS_SHARE` of its search's limit); a move that is the blind player's own costs
nothing.

Everything is bounded by positions and seeded by the position, so the same game gets the same
review on any machine. Ctrl-C stops it: what was done is kept, and the review says it stopped.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import overload

from spider_cli.analysis import compact, native
from spider_cli.analysis.blind import (
    Draw,
    Kind,
    Mode,
    first_reveal,
    rollouts,
    view_of,
    weights_for,
)
from spider_cli.analysis.chance import Level, levels
from spider_cli.analysis.chance import search as chancesearch
from spider_cli.analysis.chance.search import LEVELS
from spider_cli.analysis.limits import TURN_LIMIT, Limit
from spider_cli.analysis.search import detours
from spider_cli.analysis.solve import autoplay
from spider_cli.rules.cards import UNKNOWN
from spider_cli.rules.engine import DEAL, PILES, Action, Deal, Game
from spider_cli.rules.lines import fitted
from spider_cli.rules.shuffle import SplitMix64

BISECT_LIMIT = 1_500_000
"""Positions full-information play examines at each step of the bisection (about a second
on the compiled core; it wins 190 of our 4-suit deals 0-199 from the start within it)."""

MARKS_SHARE = 24
"""The positions the marks' sampled games may examine in all, as a multiple of the limit of
each search of the bisection (the review's budget): at the default, enough to weigh every
decision of a 200-move game of random moves at 2 suits (docs/benchmarks.md, "Review
marks"), where a third as many left most of them unweighed."""

FIRST_PAIRS = 16
"""Sampled deals a decision is weighed on first: enough to tell most moves that gave up
nothing from one that could be marked."""

MORE_PAIRS = 32
"""Sampled deals added where the first could not rule a mark out (the next sampled deals of
the same draw, so that the two rounds are one sample)."""

Z = 1.96
"""A mark needs the paired difference's 95% interval (its mean less this many standard errors)
above 0: the move played is then worse than the blind player's on the deals sampled, past
their noise."""

HORIZON = LEVELS[Level.QUICK]
"""How a sampled game goes on after each of the two moves: the quick level's rollouts (the
blind player's turns for a few turns, the learned value where they stop)."""


REVIEW_VERSION = 2
"""Raised whenever a change makes reviews answer otherwise (with :func:`version`'s other
parts): reviews kept in the history under another version are made again (2: marks by what
the move gave up against the blind player's, and moves kept as actions)."""


def version(suits: int) -> str:
    """What decides a review of a ``suits``-suit game, as text: the key of the reviews kept
    in the history (the bisection's search, the blind player, the learned value)."""
    model = rollouts.learned(suits)
    return (
        f"review version {REVIEW_VERSION}, marks: {MARKS_SHARE} {FIRST_PAIRS} {MORE_PAIRS} {Z} "
        f"{HORIZON.policy.budget} {HORIZON.policy.searches} {HORIZON.policy.turns}, "
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


SHARES = ((Severity.BLUNDER, 0.5), (Severity.MISTAKE, 0.3), (Severity.INACCURACY, 0.15))
"""The least share of the chance the position offered (after the blind player's move) that a
move must give up for each mark, the worst first, when it gives up :data:`LEAST` or more:
where the chance is small (4 suits: the blind player wins about one deal in ten), a move that
throws half of it away gives up few points."""

LEAST = 0.01
"""The fewest points of the chance (as a share) a move marked by :data:`SHARES` gave up."""


def severity(drop: float, offered: float = 1.0) -> Severity | None:
    """The mark a move earns that gave up ``drop`` of the chance ``offered`` (both shares),
    or None: the worse of :data:`SEVERITIES`' and :data:`SHARES`'."""
    by_points = next((s for s, least in SEVERITIES if drop >= least - 1e-9), None)
    share = drop / offered if offered > 0 else 0.0
    by_share = next((s for s, least in SHARES if share >= least - 1e-9), None)
    if drop < LEAST - 1e-9:
        by_share = None
    found = [s for s in (by_points, by_share) if s is not None]
    order = [s for s, _least in SEVERITIES]
    return min(found, key=order.index) if found else None


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
    first) after which no win was found, that move (``move_text``, an action for the words
    to write from the position before it), and a winning line of actions from the position
    before it; whether the search proved the position after it lost; the positions
    examined, each search's limit, and the searches made."""

    verdict: Outlook
    move: int = 0
    move_text: Action | None = None
    line: tuple[Action, ...] = ()
    proved: bool = False
    positions: int = 0
    limit: int = BISECT_LIMIT
    searches: int = 0


@dataclass(frozen=True)
class Gap:
    """What a move gave up against the blind player's own, on ``pairs`` deals sampled alike:
    the mean of the paired differences of the chance (a share: the blind player's move's
    less the move played's) and its 95% interval (:data:`Z`)."""

    mean: float
    low: float
    high: float
    pairs: int


@dataclass(frozen=True)
class Mark:
    """A move that gave up the chance of a win: its number, the move ``played`` (an action
    from the position before it), the mark, the sampled chance after the blind
    player's own move (``before``: what the position offered) and after the move played
    (``after``), the blind player's move (``better``), and the paired difference."""

    move: int
    played: Action
    severity: Severity
    before: float
    after: float
    better: Action
    gap: Gap


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
    """Decisions weighed on sampled deals, other than the blind player's, that gave up too
    little, or not surely (not marked)."""
    game: str = ""
    """What identifies the game reviewed (:func:`fingerprint`): a review kept in the
    history is shown again for the game it was made of, and for no other."""
    unweighed: int = 0
    """Decisions other than the blind player's that the marks' budget did not reach."""


class Stage(Enum):
    """What a review is doing, for its progress line."""

    BISECTION = "bisection"
    """The full-information searches of the bisection."""
    CHOICES = "choices"
    """The blind player's own move at each decision (the cheap signal)."""
    WEIGHING = "weighing"
    """The moves other than the blind player's, weighed on sampled deals."""


@dataclass(frozen=True)
class Step:
    """How far a review is, for its progress line (the app says it): the full-information
    search ``count`` of the bisection, after move ``move``; or (``move`` None) decision
    ``count`` of ``of`` at ``stage``."""

    count: int
    move: int | None = None
    of: int = 0
    stage: Stage = Stage.BISECTION


Progress = Callable[[Step], None]


def review(
    game: Game,
    limit: int = BISECT_LIMIT,
    progress: Progress | None = None,
) -> Review:
    """Review ``game`` (its cards all known, or not: see :attr:`Outlook.UNKNOWN`) from its
    start to the position it is in, each search of the bisection within ``limit`` positions
    and the marks' sampled games within :data:`MARKS_SHARE` times as many in all;
    ``progress`` is told what is being done."""
    say = progress or (lambda _text: None)
    positions, actions = positions_of(game)
    curve = tuple(_chance(g) for g in positions.walk())
    deals = tuple(k for k, a in enumerate(actions, 1) if isinstance(a, Deal))
    lost = Lost(Outlook.UNKNOWN)
    weighing = Weighing(limit * MARKS_SHARE)
    stopped = False
    try:
        if _known(game):
            lost = bisect(positions, actions, limit, say)
        stopped = lost.verdict is Outlook.STOPPED
        if not stopped:
            mark_moves(positions, actions, curve, weighing, say)
    except KeyboardInterrupt:
        stopped = True
    return Review(
        game.suits,
        len(actions),
        lost,
        curve,
        deals,
        tuple(sorted(weighing.marks, key=lambda m: m.move)),
        stopped,
        weighing.unconfirmed,
        fingerprint(game),
        weighing.unweighed,
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

    line = fitted(positions[lo], detours.tidy(compact.encode(positions[lo]), wins[lo])).actions
    return Lost(
        Outlook.LOST_AT,
        lo + 1,
        actions[lo],
        line,
        proofs[hi],
        examined,
        limit,
        searches,
    )


class _Stopped(Exception):
    """Ctrl-C during the bisection (what was found so far is kept)."""


@dataclass
class Weighing:
    """The marks as they are found (kept when Ctrl-C stops the review): the positions the
    sampled games may still examine, the marks, and the decisions weighed and not marked,
    and not reached."""

    budget: int
    marks: list[Mark] = field(default_factory=list)
    unconfirmed: int = 0
    unweighed: int = 0


def mark_moves(
    positions: Positions,
    actions: list[Action],
    curve: tuple[float, ...],
    weighing: Weighing,
    say: Progress,
) -> None:
    """Mark the moves that gave up the chance of a win against the blind player's own (see
    the module) into ``weighing``: the blind player's move at each decision, as it would
    carry its line on (half the budget at most, from the start), then the decisions where it
    differs from the move played, weighed on sampled deals in order of the learned value's
    signal (the chance after its move less the chance after the one played) until the budget
    of positions is spent."""
    looked: list[tuple[float, int, Action]] = []
    downs = [sum(g.down) for g in positions.walk()]
    plan: tuple[Action, ...] = ()  # the rest of the blind player's line, while it is played
    mode = Mode.KEEP  # the value of a space the blind player plans with, as it carries it on
    choices = weighing.budget // 2  # (the rest for the sampled games)
    for k in range(1, len(positions)):
        say(Step(k, None, len(actions), Stage.CHOICES))
        played = actions[k - 1]
        if plan and plan[0] == played:  # the blind player's own line, played on
            plan = plan[1:]
        elif choices <= 0:
            weighing.unweighed += 1  # (a decision the budget did not reach)
        else:
            game = positions[k - 1]
            line, mode, examined = players_turn(game, mode)
            choices -= examined
            weighing.budget -= examined
            plan = line[1:] if line and line[0] == played else ()
            if line and line[0] != played and not view_of(game).hand % PILES:
                tried = game  # (a copy of its own)
                tried.push(line[0])
                looked.append((_chance(tried) - curve[k], k, line[0]))
        if isinstance(played, Deal) or downs[k] < downs[k - 1]:
            mode = Mode.KEEP  # a card turned up, or a row dealt: the player plans afresh
    looked.sort(key=lambda c: (-c[0], c[1]))
    for n, (_signal, k, choice) in enumerate(looked, 1):
        if weighing.budget <= 0:
            weighing.unweighed += len(looked) - n + 1
            return
        say(Step(n, None, len(looked), Stage.WEIGHING))
        mark = _weigh(positions[k - 1], k, actions[k - 1], choice, weighing)
        if mark is None:
            weighing.unconfirmed += 1
        else:
            weighing.marks.append(mark)


def _weigh(game: Game, k: int, played: Action, choice: Action, weighing: Weighing) -> Mark | None:
    """Move ``k`` (``played`` from ``game``) against the blind player's ``choice`` on deals
    sampled from what its player saw, paired: its mark, or None. :data:`FIRST_PAIRS` deals,
    then :data:`MORE_PAIRS` more unless the first already rule a mark out; the positions
    examined are taken from the weighing's ``budget``."""
    view = view_of(game)
    seed = rollouts.seed_of(view)
    effort = HORIZON.effort(rollouts.learned(view.suits), weights_for(view.suits))
    lines = [(choice,), (played,)]
    sums = [0, 0]
    diff = square = pairs = 0
    for first, count in ((0, FIRST_PAIRS), (FIRST_PAIRS, MORE_PAIRS)):
        start = (seed + first) & SplitMix64.MASK  # (sample k from it is sample first + k)
        draw = Draw(
            view.piles(), len(view.removed), view.hand // PILES, tuple(view.unseen()), start
        )
        found = native.backend().chance_search(draw, lines, replace(effort, trajectories=2 * count))
        weighing.budget -= found.positions
        sums = [sums[0] + found.sums[0], sums[1] + found.sums[1]]
        diff -= found.diffs[1]  # (the search's differences are the second's less the first's)
        square += found.squares[1]
        pairs += found.counts[1]
        gap = _gap(diff, square, pairs)
        if gap.high < LEAST or weighing.budget <= 0:
            break
    won = rollouts.WON * pairs
    offered = sums[0] / won
    mark = severity(gap.mean, offered)
    if mark is None or gap.low <= 0:
        return None
    return Mark(k, played, mark, offered, sums[1] / won, choice, gap)


def _gap(diff: int, square: int, pairs: int) -> Gap:
    """The :class:`Gap` of ``pairs`` paired differences of worths (their sum ``diff``, the
    sum of their squares ``square``)."""
    mean = diff / pairs
    spread = (square - diff * diff / pairs) / (pairs - 1) if pairs > 1 else 0.0
    error = Z * math.sqrt(max(spread, 0.0) / pairs)
    won = rollouts.WON
    return Gap(mean / won, (mean - error) / won, (mean + error) / won, pairs)


def players_choice(game: Game) -> Action | None:
    """The blind player's move from ``game`` as a player of it sees it (None when it has
    none): a search of the hint's budget."""
    line, _mode, _examined = players_turn(game, Mode.KEEP)
    return line[0] if line else None


def players_turn(game: Game, mode: Mode) -> tuple[tuple[Action, ...], Mode, int]:
    """The blind player's line from ``game`` as a player of it sees it, planning with
    ``mode``, up to the first card it turns up (``(DEAL,)``, or none when it sees no move),
    the mode it goes on with, and the positions its search examined (the hint's budget)."""
    view = view_of(game)
    choice = levels.choose(view, mode, TURN_LIMIT, Level.PLAIN).played
    if choice.kind is Kind.DEAL:
        return (DEAL,), choice.mode, choice.positions
    if choice.kind is not Kind.LINE:
        return (), choice.mode, choice.positions
    first = first_reveal(view.piles(), choice.line)
    return (choice.line[:first] if first else choice.line), choice.mode, choice.positions


def chance(game: Game) -> float:
    """The learned value's chance of a win from what a player of ``game`` sees (the curve's
    measure), microseconds."""
    return _chance(game)
