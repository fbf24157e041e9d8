"""``hint``: the blind player's next move, with the manual's reason for it.

The manual's program offered a suggestion with no claim that it was the best move. Ours is
the move of the player that ``spider bench --blind`` measures
(:func:`spider_cli.analysis.blind.player.decide`), played from the game as its player knows
it: the face-down cards unknown, save those the position or ``assume`` names. ``hint``,
``apply`` and ``auto`` play what the bench plays, turn by turn.

The reason is said in the manual's vocabulary: a natural move; top down; frees a King;
turns up a card; gets a space; keeps the space; prepares a contingency (the line takes
more moves than it needs to turn its card up, so that the card, whatever it is, finds more
to do). When the player has nothing that gains, the hint says so: a deal is due, every
space must first be filled, or the game looks lost; and a longer search
(:func:`~spider_cli.analysis.solve.solver.quick`) says what it sees further on, for the player
to judge. Asked again in the same position, ``hint`` gives the next of the player's lines
that starts with another move.

Every search here is bounded by the positions it examines, never by the time it takes: the
same position always gets the same hint, however busy the machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from spider_cli.analysis import native
from spider_cli.analysis.blind import (
    Decision,
    Kind,
    Mode,
    RevealOdds,
    Turn,
    view_of,
    weights_for,
)
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.chance import Level, Pick, judge, levels
from spider_cli.analysis.chance.search import JUDGING, Judged
from spider_cli.analysis.compact import encode, player_view
from spider_cli.analysis.limits import TURN_LIMIT, Limit
from spider_cli.analysis.search import detours
from spider_cli.analysis.solve import Answer, quick
from spider_cli.rules.cards import KING, UNKNOWN
from spider_cli.rules.engine import Action, Deal, Game, Move, Remove
from spider_cli.rules.goals import Constraints, Goal, GoalKind
from spider_cli.rules.lines import fitted
from spider_cli.rules.values import Value

DEEPER = 10
"""``hint deeper``: the player's searches get this many times :data:`TURN_LIMIT`'s
positions."""

LEVEL = Level.QUICK
"""How far a hint looks ahead over the cards that could turn up on the compiled core, unless
the player sets another level (``set level``; BENCHMARKS.md: about a second a hint)."""


def hint_limit(deeper: bool = False) -> Limit:
    """How far each of the player's searches looks for a hint (``deeper``: ``hint deeper``,
    :data:`DEEPER` times as far)."""
    return TURN_LIMIT.within(TURN_LIMIT.positions * DEEPER) if deeper else TURN_LIMIT


STRONGER = {
    Level.PLAIN: Level.QUICK,
    Level.QUICK: Level.STRONG,
    Level.STRONG: Level.EXPERT,
    Level.EXPERT: Level.EXPERT,
    Level.JUDGE: Level.JUDGE,
}
"""``hint deeper``'s level after the one set (and its searches ten times longer): the next
up; the judge stays the judge."""

WEAKER = {
    Level.PLAIN: Level.PLAIN,
    Level.QUICK: Level.PLAIN,
    Level.STRONG: Level.QUICK,
    Level.EXPERT: Level.STRONG,
    Level.JUDGE: Level.QUICK,
}
"""The level a hint plays on the Python path in place of the one asked for: one less (the
judge's choice is the quick level's, judged)."""


def hint_level(deeper: bool = False, level: Level = LEVEL) -> Level:
    """How far a hint (``deeper``: ``hint deeper``) looks ahead on the path in use, the
    player's ``level`` set (``set level``): on the Python path, much slower
    (docs/benchmarks.md), one level less (a plain hint does not look ahead), so that it
    answers in about the same time (the note that the core is not built says so). A level
    plays the same move on both paths."""
    level = STRONGER[level] if deeper else level
    return level if native.backend().compiled else WEAKER[level]


LONGER_BUDGET = 160_000
"""When the player has nothing that gains: the positions a longer search (the solver's
quick phase, :func:`~spider_cli.analysis.solve.solver.quick`) examines over all its goals, to say
what lies further on. It covers the 149,000 that problem 3's hearts take (first tries
included), the longest the examples need."""

FIRST_TRY = 25_000
FIRST_TRY_EACH = 10_000
"""The longer search's first, short try at each goal (positions in all, and for each of
the quick phase's three searches), so that a line that comes quickly for a lesser goal is
not lost to a long search for a greater one."""

NO_DEAL = Constraints(no_deal=True)


class Past(Value):
    """What the game has been through, for hints to avoid going round in circles: the
    positions it has been in (their keys, :meth:`Game.key`), and the runs moved since a card
    was last turned up, a row dealt or a suit removed, each as its first card, the pile it
    left and the length that pile was left with (the card it left is the last of those). A
    line that goes back to a position, or puts such a run back onto the card it left (the
    same pile at the same length) while turning nothing up, is a loop of the player's own
    across its turns (within a line, :func:`detours.straighten` cuts what the line does
    without); two runs that trade places are not."""

    keys: frozenset[object] = frozenset()
    left: frozenset[tuple[int, int, int]] = frozenset()


def past_of(game: Game, view: bool = False) -> Past:
    """The :class:`Past` of ``game`` (``view``: its keys as its player sees the positions,
    :func:`~spider_cli.analysis.compact.player_view`: a numbered deal's hints are given
    there)."""
    work = game.copy()
    keys: set[object] = set()
    left: set[tuple[int, int, int]] = set()
    this_turn = True
    while work.moves_made:
        down, removed = sum(work.down), len(work.removed)
        action = work.pop()
        if isinstance(action, Deal) or sum(work.down) != down or len(work.removed) != removed:
            this_turn = False
        elif this_turn and isinstance(action, Move):
            pile, count = work.piles[action.src], action.count
            if len(pile) - count > work.down[action.src]:
                left.add((pile[-count], action.src, len(pile) - count))
        keys.add(player_view(work).key() if view else work.key())
    return Past(frozenset(keys), frozenset(left))


NO_PAST = Past()


class HintKind(Enum):
    """What a hint says (its words: :func:`spider_cli.app.words.advice.advice_text`)."""

    WON = "won"
    """The game is won: nothing is left to do."""
    DEAL_AHEAD = "deal ahead"
    """Looking ahead over what turns up, a deal is the best choice."""
    NO_OTHER = "no other"
    """No other line gains (asked for the next choice past the last)."""
    LINE = "line"
    """A line that gains, with its :class:`Reasons`."""
    FILL_FOR_DEAL = "fill for a deal"
    """Nothing helps but a deal, and the line fills the spaces a deal needs filled."""
    CANNOT_FILL = "cannot fill"
    """A deal is due, but a space cannot be filled."""
    DEAL_DUE = "deal due"
    """Nothing helps but a deal."""
    LOST = "lost"
    """Nothing helps and the hand is empty: the game is lost."""
    WEAK_MOVE = "weak move"
    """Nothing gains and the hand is empty: a weak move, the best there is."""
    LOOKS_LOST = "looks lost"
    """Nothing gains, the hand is empty and no move is left but into a space."""


class Gain(Enum):
    """What a line gains (the last of a hint's :class:`Reasons`)."""

    REMOVES = "removes"
    """It removes suits (:attr:`Reasons.suits`)."""
    SPACES = "spaces"
    """It gets :attr:`Reasons.count` spaces."""
    TURNS_UP = "turns up"
    """It turns up :attr:`Reasons.count` cards (keeping :attr:`Reasons.kept` spaces)."""
    WEAK = "weak"
    """It gains nothing: the best the player has (builds the runs, or puts a space to use)."""


@dataclass(frozen=True)
class Prepared:
    """A contingency the line prepares: whether a space comes back more often than another
    card turns up (``back``), and the share of the cards the turned-up card could be for
    which that happens after the line (``ours``) and after turning it up at once
    (``theirs``)."""

    back: bool
    ours: float
    theirs: float


@dataclass(frozen=True)
class Reasons:
    """Why a line is the player's, in the manual's terms: its first move is a natural move,
    top down, or frees a King; it completes a suit (``completes``); what it gains
    (``gain``: the suits it removes, the spaces it gets or the cards it turns up, and the
    spaces it keeps); and the contingency it prepares. ``use``: a weak line puts a space to
    use (else it builds the runs)."""

    natural: bool = False
    top_down: bool = False
    frees_king: bool = False
    completes: int | None = None
    gain: Gain | None = None
    suits: tuple[int, ...] = ()
    count: int = 0
    kept: int = 0
    prepared: Prepared | None = None
    use: bool = False


@dataclass(frozen=True)
class LookedAhead:
    """What the search over what turns up found: the games it played, on how many deals of
    the cards not seen, the choices it weighed, the chance to win after the choice played,
    and (when the pick is not the player's first choice) the first choice's."""

    games: int
    deals: int
    choices: int
    chance: float
    first: float | None = None


@dataclass(frozen=True)
class WorldsJudged:
    """What the judge found (the judge level, :mod:`~spider_cli.analysis.chance.judge`): the
    worlds of the cards not seen it played on, the choices judged, the worlds the choice
    played won with every card known and how many it was judged on, the positions each world's
    search could examine, whether the judge told the choices apart (if not, the quick level's
    look-ahead chose), and (when the judge's pick is not the quick level's choice) that
    choice's wins and worlds."""

    worlds: int
    choices: int
    won: int
    judged: int
    cap: int
    told: bool
    first: tuple[int, int] | None = None


@dataclass(frozen=True)
class Further:
    """What a longer search sees when nothing gains: a line toward ``goal`` (``suit`` for a
    removal) of ``moves`` moves, starting with ``first``."""

    goal: GoalKind
    suit: int | None
    moves: int
    first: Action


@dataclass
class Advice:
    """A hint (its words: :mod:`spider_cli.app.words.advice`): what it says (``kind``, with
    the line's :class:`Reasons`), the line ``apply`` plays (its first move is the hint, and
    it ends at the first unknown card it turns up), whether the hint is that a deal is due,
    the positions the searches examined, the value of a space the player decided with
    (``mode``: a hint asked where the line ends goes on with it), whether the game looks
    lost (the move offered, if any, is only the least bad), whether the line is weak (it
    turns up no card, gets no space and removes no suit), what looking ahead found, what a
    longer search sees, whether the player's searches were complete (``exhausted``) or
    stopped at ``budget`` positions, and the rank of the choice (``choice``; ``again``: no
    other choice was left, so this is the best again)."""

    kind: HintKind
    actions: list[Action] = field(default_factory=list)
    deal_due: bool = False
    positions: int = 0
    mode: Mode = Mode.KEEP
    lost: bool = False
    weak: bool = False
    reasons: Reasons | None = None
    looked: LookedAhead | WorldsJudged | None = None
    further: Further | None = None
    exhausted: bool = False
    budget: int = 0
    choice: int = 1
    again: bool = False

    @property
    def action(self) -> Action | None:
        """The move suggested first, if any."""
        return self.actions[0] if self.actions else None


def hint(
    game: Game,
    budget: Limit = TURN_LIMIT,
    past: Past = NO_PAST,
    skip: int = 0,
    mode: Mode = Mode.KEEP,
    longer: int = LONGER_BUDGET,
    level: Level | None = None,
) -> Advice:
    """The player's line for ``game`` as its player sees it, and why.

    ``budget`` bounds each of the player's searches (:func:`hint_limit`), ``mode`` the value
    of a space it starts from (what it was at the end of the last hint's line). ``past`` is
    what the game has been through (:func:`past_of`): no line goes back to a position it
    has been in or puts a run back where it was (:class:`Past`), so following the hints
    never goes round in a circle. ``skip``
    passes over that many of the player's lines (each starting with another move): asking
    again gives the next alternative. ``longer`` is the longer search's budget, used when
    nothing gains. The player's close choices are weighed on sampled games at ``level``
    (:func:`~spider_cli.analysis.chance.search.weigh`; None: the hint's, :func:`hint_level`): its
    pick comes first, then the player's own lines. The advice counts the positions examined."""
    level = hint_level() if level is None else level
    if game.is_won():
        return Advice(HintKind.WON)
    decision = _decide(game, budget, mode)
    looked = None
    if level is not Level.PLAIN and _searchable(game):  # (the same order for alternatives)
        choice = levels.over(view_of(game), decision, level)
        decision = choice.played
        looked = _looked_ahead(choice)
        if looked is not None and decision.kind is Kind.DEAL and not skip:
            return Advice(
                HintKind.DEAL_AHEAD, deal_due=True, positions=decision.positions, looked=looked
            )
    lines = _lines(game, decision, past)
    if lines and decision.mode is not Mode.FILL:
        if skip >= len(lines):
            return Advice(HintKind.NO_OTHER, positions=decision.positions, mode=mode)
        advice = _advise(game, lines[skip], decision, budget.positions)
        advice.looked = None if skip else looked
        if advice.weak and not skip and longer:
            advice.further, positions = _longer(game, past, longer)
            advice.positions += positions
        return advice
    further, positions = _longer(game, past, longer) if not skip and longer else (None, 0)
    advice = _nothing(
        game, decision, [walk.line for walk in lines], skip, budget.positions, further
    )
    advice.positions = decision.positions + positions
    return advice


def _decide(game: Game, budget: Limit, mode: Mode) -> Decision:
    """The player's turn from ``game``: its compact piles (the face-down cards it knows as
    known), and the cards a face-down card may be where the variant weighs them."""
    piles = encode(game).piles
    unseen: list[int] = []
    if blindplayer.WEIGHED[game.suits]:
        unseen = [card for card, copies in enumerate(game.pool) for _ in range(copies)]
    turn = Turn(piles, len(game.removed), len(game.stock), mode, weights_for(game.suits))
    return blindplayer.decide(native.backend().blind_search, turn, budget, unseen)


def _searchable(game: Game) -> bool:
    """Whether the search over what turns up can weigh the player's choices: every card out
    of sight unknown (a numbered deal as its player sees it, or a position with nothing
    assumed), and the cards it may be exactly those the player can count."""
    hidden = [c for p, d in zip(game.piles, game.down, strict=True) for c in p[:d]]
    hidden += game.stock
    if any(c != UNKNOWN for c in hidden) or any(game.assumed):
        return False
    return len(view_of(game).unseen()) == len(hidden)


def _looked_ahead(choice: Pick) -> LookedAhead | WorldsJudged | None:
    """What the search or the judge found (None when it had nothing to weigh)."""
    if choice.judged is not None:
        return _judged(choice.judged)
    weighed = choice.weighed
    if weighed is None:
        return None
    first = None if weighed.chosen == 0 else weighed.chance(0)
    return LookedAhead(
        weighed.trajectories,
        weighed.deals,
        len(choice.candidates),
        weighed.chance(weighed.chosen),
        first,
    )


def _judged(judged: Judged) -> WorldsJudged:
    """What the judge found, for the hint's words."""
    told = judge.told(judged, JUDGING.dense)
    chosen = judged.chosen if told else 0  # (not told apart: the quick level's choice)
    first = None if chosen == 0 else (judged.wins[0], judged.counts[0])
    won, worlds = judged.wins[chosen], judged.counts[chosen]
    return WorldsJudged(max(judged.counts), len(judged.lines), won, worlds, judged.cap, told, first)


def _lines(game: Game, decision: Decision, past: Past) -> list[Walk]:
    """The decision's lines as a player plays them, best first: each up to the first
    unknown card it turns up, its detours cut (:func:`detours.straighten`), one for each
    first move, none that goes back to a position the game has been in. A line that puts
    back a run an earlier turn moved (:class:`Past`) is left out while another line is
    left: it is the player's last resort, not a move it never makes."""
    lines: list[Walk] = []
    firsts: set[Action] = set()
    piles = encode(game).piles
    for candidate in decision.candidates:
        walk = _walk(game, candidate.line, past)
        straight = _walk(game, detours.straighten(piles, list(candidate.line)), past)
        if not straight.revisits:
            walk = straight
        if not walk.line or walk.line[0] in firsts or walk.revisits:
            continue
        firsts.add(walk.line[0])
        lines.append(walk)
    if not lines and past.left:
        return _lines(game, decision, Past(past.keys))
    return lines


@dataclass(frozen=True)
class Walk:
    """A line played once on a copy of the game, and what that showed: the line up to and
    with the first move that turns up an unknown card (the player sees that card before
    going on), whether it passes through (or ends in) a position to
    avoid before that card, the suits it removes, the spaces before and after, the cards it
    turns up, and the pile of the last card turned up (-1: none)."""

    line: list[Action]
    revisits: bool
    removed: tuple[int, ...]
    spaces: tuple[int, int]
    turned: int
    pile: int


def _walk(game: Game, line: Sequence[Action], past: Past = NO_PAST) -> Walk:
    """``line``, a search's (every suit removed by the line itself), played once on a copy of
    ``game`` under the game's rule for complete suits (see :class:`Walk`): as far as it
    can be played there."""
    carried = fitted(game, line)
    work = game.copy()
    down, before, removed = sum(work.down), len(work.spaces()), len(work.removed)
    played: list[Action] = []
    revisits, pile, unknown = False, -1, False
    for action in carried.actions:
        played.append(action)
        unknown = bool(work.unknown_reveals(action))
        turns = False
        if not isinstance(action, Deal) and _turns_up(work, action):
            turns, pile = True, action.src if isinstance(action, Move) else action.pile
        if type(action) is Move and not turns and past.left:
            back = (work.piles[action.src][-action.count], action.dst, len(work.piles[action.dst]))
            revisits = revisits or back in past.left
        work.push(action)
        if unknown:
            break
        revisits = revisits or work.key() in past.keys
    return Walk(
        played,
        revisits,
        tuple(work.removed[removed:]),
        (before, len(work.spaces())),
        down - sum(work.down),
        pile,
    )


def _turns_up(game: Game, action: Move | Remove) -> bool:
    """Does ``action`` turn up a face-down card (known or not)?"""
    pile, count = (action.src, action.count) if isinstance(action, Move) else (action.pile, 13)
    down = game.down[pile]
    return bool(down) and len(game.piles[pile]) - count == down


@dataclass(frozen=True)
class _Searched:
    """What every hint made by the player's searches carries: whether they were complete,
    the positions each could examine, and what a longer search sees."""

    exhausted: bool
    budget: int
    further: Further | None = None

    def advice(
        self,
        kind: HintKind,
        line: Sequence[Action] = (),
        mode: Mode = Mode.KEEP,
        reasons: Reasons | None = None,
        positions: int = 0,
    ) -> Advice:
        """A hint of ``kind`` with these searches' terms."""
        return Advice(
            kind,
            list(line),
            mode=mode,
            positions=positions,
            reasons=reasons,
            further=self.further,
            exhausted=self.exhausted,
            budget=self.budget,
        )


def _advise(game: Game, gains: Walk, decision: Decision, budget: int) -> Advice:
    """The line, its first move and its :class:`Reasons`, in the manual's terms, with the
    positions examined (the decision's, and the contingencies')."""
    line = gains.line
    action = line[0]
    positions = decision.positions
    before, after = gains.spaces
    reasons = _move_reasons(game, action)
    removed = gains.removed
    searched = _Searched(decision.exhausted, budget)
    if isinstance(action, Remove):
        reasons = replace(reasons, completes=removed[0])
        removed = removed[1:]
    if isinstance(action, Remove) and len(line) == 1:
        return searched.advice(HintKind.LINE, line, decision.mode, reasons, positions)
    if removed:
        reasons = replace(reasons, gain=Gain.REMOVES, suits=removed)
    elif after > before:
        reasons = replace(reasons, gain=Gain.SPACES, count=after - before)
    elif gains.turned:
        kept = before if before and after >= before else 0
        reasons = replace(reasons, gain=Gain.TURNS_UP, count=gains.turned, kept=kept)
        prepared, judging = _prepares(game, line, gains.pile, decision.mode)
        positions += judging
        if prepared is not None:
            mine, plain = prepared
            back = mine.back > plain.back
            ours, theirs = (mine.back, plain.back) if back else (mine.on, plain.on)
            reasons = replace(reasons, prepared=Prepared(back, ours, theirs))
    else:
        reasons = replace(reasons, gain=Gain.WEAK, use=decision.mode is Mode.USE)
    mode = Mode.KEEP if gains.turned else decision.mode
    weak = reasons.gain is Gain.WEAK
    advice = searched.advice(HintKind.LINE, line, mode, reasons, positions)
    advice.weak = weak
    return advice


def _prepares(
    game: Game, line: list[Action], pile: int, mode: Mode
) -> tuple[tuple[RevealOdds, RevealOdds] | None, int]:
    """The contingencies (:func:`~spider_cli.analysis.blind.player.contingency`, over every
    card the one turned up could be) of the line and of the best one-move way to turn up
    the same card, when the line's are better: its first moves prepare for whatever the
    card is (the manual's first problem); and the positions judging them took."""
    if len(line) < 2 or pile < 0:
        return None, 0
    explicit = game.copy()
    explicit.autoremove = False  # the compact positions remove their suits themselves
    line = list(fitted(explicit, line, autoremoved=game.autoremove).actions)
    piles, removed, hand = encode(game).piles, len(game.removed), len(game.stock)
    cards = [(card, copies) for card, copies in enumerate(game.pool) if copies]
    mine = blindplayer.reveal_of(piles, line, removed)
    plains = [
        blindplayer.reveal_of(piles, [move], removed)
        for move in game.legal_moves()
        if type(move) is Move and move.src == pile and _turns_up(game, move)
    ]
    if mine is None or not any(plains):
        return None, 0
    search = native.backend().blind_search
    turn = Turn(piles, removed, hand, mode, weights_for(game.suits))
    judged = [
        blindplayer.contingency(search, turn, reveal, cards)
        for reveal in (mine, *plains)
        if reveal is not None
    ]
    positions = sum(j.positions for j in judged)
    plain = max(judged[1:], key=lambda j: (j.back, j.on))
    if (judged[0].back, judged[0].on) <= (plain.back, plain.on):
        return None, positions
    return (judged[0], plain), positions


def _nothing(
    game: Game,
    decision: Decision,
    lines: list[list[Action]],
    skip: int,
    budget: int,
    further: Further | None,
) -> Advice:
    """When no line gains: the spaces filled for a deal, a deal, a weak move said to be
    weak, or the game lost; with what the longer search sees further on."""
    searched = _Searched(decision.exhausted, budget, further)
    if game.stock:
        if decision.kind is Kind.LINE and lines:
            line = lines[skip % len(lines)]
            return searched.advice(HintKind.FILL_FOR_DEAL, line, decision.mode)
        if game.spaces():
            return searched.advice(HintKind.CANNOT_FILL)
        advice = searched.advice(HintKind.DEAL_DUE)
        advice.deal_due = True
        return advice
    if game.is_lost():
        return Advice(HintKind.LOST, lost=True)
    weak = [a for a in game.legal_moves() if type(a) is Move]
    onto = [a for a in weak if game.piles[a.dst]] or weak
    if onto:
        move = onto[max(0, skip) % len(onto)]
        advice = searched.advice(HintKind.WEAK_MOVE, [move])
    else:
        advice = searched.advice(HintKind.LOOKS_LOST)
    advice.lost = True
    return advice


def _longer(game: Game, past: Past, budget: int) -> tuple[Further | None, int]:
    """When the player has nothing that gains: what the solver's quick search sees further
    on (None when it sees nothing): removing a suit whose thirteen cards are
    all in view, then a space, then a card turned up (the manual's problem 3 needs 27 moves
    to remove the hearts).

    Each goal first gets a short try (:data:`FIRST_TRY` positions), so a line that comes
    quickly for a lesser goal is not lost to a long search for a greater one; then the
    goals in turn get what is left of the budget. With the positions examined."""
    goals = [Goal(GoalKind.REMOVE, steps=((suit,),)) for suit in _suits_in_view(game)]
    goals += [Goal(GoalKind.SPACE), Goal(GoalKind.TURN_UP)]
    left = budget
    for first_try in (True, False):
        for goal in goals:
            if left <= 0:
                return None, budget - left
            if first_try:
                answer = quick(game, goal, NO_DEAL, Limit(min(left, FIRST_TRY)), FIRST_TRY_EACH)
            else:
                answer = quick(game, goal, NO_DEAL, Limit(left))
            left -= answer.positions
            if answer.found and not _walk(game, answer.actions, past).revisits:
                return _further(goal, answer), budget - left
    return None, budget - left


def _further(goal: Goal, answer: Answer) -> Further:
    """What a longer line achieves: its goal, its length and its first move."""
    suit = goal.steps[0][0] if goal.steps else None
    return Further(goal.kind, suit, len(answer.actions), answer.actions[0])


def _suits_in_view(game: Game) -> list[int]:
    """The suits with every rank face up somewhere in the tableau."""
    ranks: dict[int, set[int]] = {}
    for pile, down in zip(game.piles, game.down, strict=True):
        for card in pile[down:]:
            ranks.setdefault(card >> 4, set()).add(card & 15)
    return [suit for suit, seen in sorted(ranks.items()) if len(seen) == KING]


def _move_reasons(game: Game, action: Action) -> Reasons:
    """What the move itself is, in the manual's terms: natural, top down, frees a King."""
    if type(action) is not Move:
        return Reasons()
    natural = game.is_natural(action)
    top_down = False
    if not natural and game.piles[action.dst]:
        moving = game.piles[action.src][-action.count] & 15
        ranks = {
            game.piles[m.src][-m.count] & 15
            for m in game.legal_moves()
            if type(m) is Move and game.piles[m.dst] and not game.is_natural(m)
        }
        top_down = len(ranks) > 1 and moving == max(ranks)
    rest = game.piles[action.src][: -action.count]
    frees = len(rest) > game.down[action.src] and rest[-1] & 15 == KING  # face up, free to move
    return Reasons(natural=natural, top_down=top_down, frees_king=frees)
