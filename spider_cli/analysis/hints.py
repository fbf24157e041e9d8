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
from dataclasses import dataclass, field

from spider_cli.analysis import native
from spider_cli.analysis.blind import Decision, Kind, Mode, RevealOdds, view_of, weights_for
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.chance import Level, Pick
from spider_cli.analysis.chance import search as chancesearch
from spider_cli.analysis.compact import encode, player_view
from spider_cli.analysis.limits import Limit
from spider_cli.analysis.search import detours
from spider_cli.analysis.solve import Answer, quick
from spider_cli.rules.cards import KING, SUIT_NAMES, UNKNOWN
from spider_cli.rules.engine import Action, Deal, Game, Move, Remove
from spider_cli.rules.goals import Constraints, Goal, GoalKind
from spider_cli.rules.lines import fitted
from spider_cli.rules.text import move_text
from spider_cli.rules.values import Value

BUDGET = 10_000
"""Positions each of the player's three searches examines for a hint, and for the same
player in ``spider bench --blind``: chosen for the games it wins against the time a hint
takes (both measured in BENCHMARKS.md, "The player's budget" and "Hint time")."""

DEEPER = 10
"""``hint deeper``: the player's searches get this many times :data:`BUDGET`."""

LEVEL = Level.QUICK
"""How far a hint looks ahead over the cards that could turn up on the compiled core
(BENCHMARKS.md: about a second a hint)."""

DEEPER_LEVEL = Level.STRONG
"""How far ``hint deeper`` looks ahead on the compiled core."""


def hint_level(deeper: bool = False) -> Level:
    """How far a hint (``deeper``: ``hint deeper``) looks ahead on the path in use: on the
    Python path, much slower (docs/benchmarks.md), one level less (a plain hint does not look
    ahead), so that it answers in about the same time (:data:`native.ABSENT` says so). A
    level plays the same move on both paths."""
    if native.backend().compiled:
        return DEEPER_LEVEL if deeper else LEVEL
    return Level.QUICK if deeper else Level.PLAIN


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


@dataclass
class Advice:
    """A hint: the text to show, the line ``apply`` plays (its first move is the hint, and
    it ends at the first unknown card it turns up), whether the hint is that a deal is due,
    the positions the searches examined, the value of a space the player decided with
    (``mode``: a hint asked where the line ends goes on with it), whether the game
    looks lost (the move offered, if any, is only the least bad), and whether the line
    is weak (it turns up no card, gets no space and removes no suit)."""

    text: str
    actions: list[Action] = field(default_factory=list)
    deal_due: bool = False
    positions: int = 0
    mode: Mode = Mode.KEEP
    lost: bool = False
    weak: bool = False

    @property
    def action(self) -> Action | None:
        """The move suggested first, if any."""
        return self.actions[0] if self.actions else None


def hint(
    game: Game,
    budget: int = BUDGET,
    past: Past = NO_PAST,
    skip: int = 0,
    mode: Mode = Mode.KEEP,
    longer: int = LONGER_BUDGET,
    level: Level | None = None,
) -> Advice:
    """The player's line for ``game`` as its player sees it, and why.

    ``budget`` is the positions each of the player's searches examines, ``mode`` the value
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
        return Advice("the game is won: nothing left to do")
    decision = _decide(game, budget, mode)
    looked = ""
    if level is not Level.PLAIN and _searchable(game):  # (the same order for alternatives)
        choice = chancesearch.weigh(view_of(game), decision, level)
        decision = choice.played
        looked = _looked_ahead(choice)
        if choice.weighed is not None and decision.kind is Kind.DEAL and not skip:
            return Advice(
                f"deal a row ('deal'): {looked.removeprefix('; ')}",
                deal_due=True,
                positions=decision.positions,
            )
    lines = _lines(game, decision, past)
    if lines and decision.mode is not Mode.FILL:
        if skip >= len(lines):
            return Advice("no other line gains", positions=decision.positions, mode=mode)
        advice = _advise(game, lines[skip], decision, budget)
        advice.text += "" if skip else looked
        if advice.weak and not skip and longer:
            further, positions = _longer(game, past, longer)
            advice.text += further
            advice.positions += positions
        return advice
    further, positions = _longer(game, past, longer) if not skip and longer else ("", 0)
    advice = _nothing(game, decision, [walk.line for walk in lines], skip, budget, further)
    advice.positions = decision.positions + positions
    return advice


def _decide(game: Game, budget: int, mode: Mode) -> Decision:
    """The player's turn from ``game``: its compact piles (the face-down cards it knows as
    known), and the cards a face-down card may be where the variant weighs them."""
    piles = encode(game).piles
    unseen: list[int] = []
    if blindplayer.WEIGHED[game.suits]:
        unseen = [card for card, copies in enumerate(game.pool) for _ in range(copies)]
    search = native.backend().blind_search
    return blindplayer.decide(
        search,
        piles,
        len(game.removed),
        len(game.stock),
        mode,
        budget,
        unseen,
        weights=weights_for(game.suits),
    )


def _searchable(game: Game) -> bool:
    """Whether the search over what turns up can weigh the player's choices: every card out
    of sight unknown (a numbered deal as its player sees it, or a position with nothing
    assumed), and the cards it may be exactly those the player can count."""
    hidden = [c for p, d in zip(game.piles, game.down, strict=True) for c in p[:d]]
    hidden += game.stock
    if any(c != UNKNOWN for c in hidden) or any(game.assumed):
        return False
    return len(view_of(game).unseen()) == len(hidden)


def _looked_ahead(choice: Pick) -> str:
    """What the search found, in a player's words (empty when it had nothing to weigh)."""
    weighed = choice.weighed
    if weighed is None:
        return ""
    chance = weighed.chance(weighed.chosen)
    own = weighed.chosen == 0
    text = (
        f"; looked ahead over {weighed.trajectories} games on {weighed.deals} deals of the "
        f"cards not seen, {len(choice.candidates)} choices weighed: about {chance:.0%} to win "
        "after it"
    )
    if not own:
        text += f" (the first choice before looking ahead: {weighed.chance(0):.0%})"
    return text


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
    going on), each move in notation, whether it passes through (or ends in) a position to
    avoid before that card, the suits it removes, the spaces before and after, the cards it
    turns up, and the pile of the last card turned up (-1: none)."""

    line: list[Action]
    texts: list[str]
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
    texts: list[str] = []
    revisits, pile, unknown = False, -1, False
    for action, text in zip(carried.actions, carried.texts, strict=True):
        played.append(action)
        texts.append(text)
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
        texts,
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


def _advise(game: Game, gains: Walk, decision: Decision, budget: int) -> Advice:
    """The line, its first move and its reasons, in the manual's words, with the positions
    examined (the decision's, and the contingencies')."""
    line, texts = gains.line, gains.texts
    action = line[0]
    positions = decision.positions
    before, after = gains.spaces
    reasons = _move_reasons(game, action)
    weak = False
    then = ""
    removed = gains.removed
    if isinstance(action, Remove):
        reasons.append(f"completes the {SUIT_NAMES[removed[0]]}")
        removed = removed[1:]
    if isinstance(action, Remove) and len(line) == 1:
        return Advice(
            f"{texts[0]}: " + "; ".join(reasons), line, mode=decision.mode, positions=positions
        )
    if removed:
        goal = "removes the " + " and the ".join(SUIT_NAMES[suit] for suit in removed)
    elif after > before:
        goal = "gets a space" if after - before == 1 else f"gets {after - before} spaces"
    elif gains.turned:
        goal = "turns up a card" if gains.turned == 1 else f"turns up {gains.turned} cards"
        if before and after >= before:
            goal += " and keeps the space" if before == 1 else " and keeps the spaces"
        prepared, judging = _prepares(game, line, gains.pile, decision.mode)
        positions += judging
        if prepared is not None:
            reasons.insert(0, "prepares a contingency")
            mine, plain = prepared
            back = mine.back > plain.back
            what = "a space comes back" if back else "a space comes back or another card turns up"
            ours, theirs = (mine.back, plain.back) if back else (mine.on, plain.on)
            then = f"; then {what} for {ours:.0%} of the cards it could be, against {theirs:.0%} "
            then += "turning it up at once"
    else:
        where = "in any line" if decision.exhausted else f"within {budget:,} positions"
        what = "puts a space to use" if decision.mode is Mode.USE else "builds the runs"
        goal = f"{what}: a weak line, the best the player has (no card turns up, no space "
        goal += f"is got and no suit removed {where})"
        weak = True
    if len(line) > 1:
        goal += f" ({len(line)} moves: {', '.join(texts)})"
    reasons.append(goal + then)
    mode = Mode.KEEP if gains.turned else decision.mode
    text = f"{texts[0]}: " + "; ".join(reasons)
    return Advice(text, line, mode=mode, weak=weak, positions=positions)


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
    judged = [
        blindplayer.contingency(search, piles, reveal, cards, mode, hand, weights_for(game.suits))
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
    further: str,
) -> Advice:
    """When no line gains: the spaces filled for a deal, a deal, a weak move said to be
    weak, or the game lost; with what the longer search sees further on."""
    nothing = "nothing helps now" if decision.exhausted else "no line that helps was found"
    if game.stock:
        if decision.kind is Kind.LINE and lines:
            line = lines[skip % len(lines)]
            texts = _walk(game, line).texts
            moves = f" ({len(line)} moves: {', '.join(texts)})" if len(line) > 1 else ""
            return Advice(
                f"{texts[0]}: {nothing} but a deal, and every space must be filled first "
                f"(a deal needs a card on every pile): this fills {_ones(line)}{moves}{further}",
                line,
                mode=decision.mode,
            )
        if game.spaces():
            return Advice(
                f"{nothing}: a deal is due, but every space must be filled first "
                f"and no card can go into one{further}"
            )
        return Advice(f"{nothing}: a deal is due ('deal'){further}", deal_due=True)
    if game.is_lost():
        return Advice("nothing helps and the hand is empty: the game is lost", lost=True)
    where = "in any line" if decision.exhausted else f"within {budget:,} positions"
    weak = [a for a in game.legal_moves() if type(a) is Move]
    onto = [a for a in weak if game.piles[a.dst]] or weak
    why = (
        f"nothing turns up a card, gets a space or removes a suit {where}, and the hand is "
        f"empty: the game looks lost ('solve win' to be sure){further}"
    )
    if onto:
        move = onto[max(0, skip) % len(onto)]
        return Advice(
            f"{move_text(game, move)}: a weak move, the best there is: {why}", [move], lost=True
        )
    return Advice(why, lost=True)


def _ones(line: list[Action]) -> str:
    return "one" if len(line) == 1 else "them"


def _longer(game: Game, past: Past, budget: int) -> tuple[str, int]:
    """When the player has nothing that gains: what the solver's quick search sees further
    on, said as a clause ("" when it sees nothing): removing a suit whose thirteen cards are
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
                return "", budget - left
            if first_try:
                answer = quick(game, goal, NO_DEAL, Limit(min(left, FIRST_TRY)), FIRST_TRY_EACH)
            else:
                answer = quick(game, goal, NO_DEAL, Limit(left))
            left -= answer.positions
            if answer.found and not _walk(game, answer.actions, past).revisits:
                return _longer_text(goal, answer), budget - left
    return "", budget - left


def _longer_text(goal: Goal, answer: Answer) -> str:
    """What a longer line achieves, and how to see it."""
    moves = len(answer.texts)
    suit = SUIT_NAMES[goal.steps[0][0]] if goal.steps else ""
    what, ask = {
        GoalKind.REMOVE: (f"removing the {suit}", f"remove {suit}"),
        GoalKind.SPACE: ("getting a space", "get a space"),
        GoalKind.TURN_UP: ("turning up a card", "turn up a card"),
    }[goal.kind]
    return (
        f"; a longer search sees a way toward {what} in {moves} move{'s' if moves > 1 else ''}, "
        f"starting {answer.texts[0]} ('solve {ask}, no deal' lists them)"
    )


def _suits_in_view(game: Game) -> list[int]:
    """The suits with every rank face up somewhere in the tableau."""
    ranks: dict[int, set[int]] = {}
    for pile, down in zip(game.piles, game.down, strict=True):
        for card in pile[down:]:
            ranks.setdefault(card >> 4, set()).add(card & 15)
    return [suit for suit, seen in sorted(ranks.items()) if len(seen) == KING]


def _move_reasons(game: Game, action: Action) -> list[str]:
    """What the move itself is, in the manual's words."""
    reasons: list[str] = []
    if type(action) is not Move:
        return reasons
    if game.is_natural(action):
        reasons.append("a natural move")
    elif game.piles[action.dst]:
        moving = game.piles[action.src][-action.count] & 15
        ranks = {
            game.piles[m.src][-m.count] & 15
            for m in game.legal_moves()
            if type(m) is Move and game.piles[m.dst] and not game.is_natural(m)
        }
        if len(ranks) > 1 and moving == max(ranks):
            reasons.append("top down")
    rest = game.piles[action.src][: -action.count]
    if len(rest) > game.down[action.src] and rest[-1] & 15 == KING:  # face up, free to move
        reasons.append("frees a King")
    return reasons
