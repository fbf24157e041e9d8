"""``hint``: the best next move by search, with the manual's reason for it.

The manual's program offered a suggestion with no claim that it was the best move.
Ours looks ahead over the known cards (breadth-first, a few thousand positions, the manual's
uses of a space as single steps, lines ending where an unknown card turns up) and ranks what
each line achieves the manual's way: remove a suit; try to get a space; turn up a card,
keeping the space if there is one; keep options open (natural moves, working from the top
down). The best lines that turn up a card are also judged by the share of the cards it could
turn up after which a space can be got back: a line that raises that share before turning
the card up "prepares a contingency", as the manual does in its first problem.

The reason is one line in the manual's vocabulary: a natural move; top down; turns up a
card; gets a space; keeps the space; frees a King; prepares a contingency. When nothing
helps, the hint says a deal is due, or that the game is lost.

Every search here is bounded by the positions it examines, never by the time it takes: the
same position always gets the same hint, however busy the machine.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from spider_cli.analysis.compact import apply, rank_key, spaces_of
from spider_cli.analysis.solver import Answer, Search, make_search, quick, replay_steps, solve
from spider_cli.rules.cards import KING, SUIT_NAMES
from spider_cli.rules.engine import Action, Game, Move, Remove
from spider_cli.rules.goals import Constraints, Goal, GoalKind
from spider_cli.rules.text import move_text

BUDGET = 3_000
"""Positions the look-ahead examines (about a tenth of a second)."""

CANDIDATES = 200
"""Lines kept for each pile a card can be turned up in (the shortest ones come first)."""

RECOVERY_LIMIT = 150
"""Positions examined, for each card a line could turn up, to see if a space comes back
(and, if not, as many to see if another card can be turned up)."""

JUDGED = 12
"""Lines that turn up a card whose contingencies are worked out (the best by other merits)."""

DEEPER_BUDGET = 160_000
"""When the look-ahead finds nothing: the positions a longer search (the solver's quick
phase, :func:`~spider_cli.analysis.solver.quick`) examines over all its goals before the
hint says that nothing helps. It stands for the four seconds this search used to get
(150,000 to 190,000 positions on an idle machine), and covers the 149,000 that problem 3's
hearts take (first tries included), the longest the examples need."""

FIRST_TRY = 25_000
FIRST_TRY_EACH = 10_000
"""The longer search's first, short try at each goal (positions in all, and for each of
the quick phase's three searches), so that a line that comes quickly for a lesser goal is
not lost to a long search for a greater one: problem 5's space comes at 12,083 positions
(the second search's 2,083rd), problem 3's card to turn up after the hearts at 20,145 (the
third search's 145th)."""


@dataclass
class Advice:
    """A hint: the text to show, the line ``apply`` plays (its first move is the hint),
    and whether the hint is that a deal is due."""

    text: str
    actions: list[Action] = field(default_factory=list)
    deal_due: bool = False
    positions: int = 0
    """The positions the searches behind this advice examined."""

    @property
    def action(self) -> Action | None:
        """The move suggested first, if any."""
        return self.actions[0] if self.actions else None


@dataclass
class _Outcome:
    """What one line of the look-ahead achieves."""

    kind: str  # "remove", "space", "reveal" (unknown card), "flip" (known card)
    steps: list[tuple]
    spaces: int = 0
    pile: int = -1  # canonical slot of the pile turned up, in the position before the move
    real: int = 0  # the pile turned up, numbered 1-10 (once the line has been judged)
    outs: tuple[float, float] = (0.0, 0.0)  # the space comes back, play goes on: _recovery
    first: tuple[bool, int] = (False, 0)  # the first move: natural? the rank it moves
    chaos: int = 0  # chaos after the line (see compact.rank_key): tidier first when judging

    @property
    def moves(self) -> int:
        return sum(len(step) for step in self.steps)


def hint(
    game: Game,
    budget: int = BUDGET,
    avoid: frozenset = frozenset(),
    skip: int = 0,
    deeper: int | None = None,
) -> Advice:
    """The best line for ``game`` as its player sees it, and why.

    ``avoid`` holds the keys (:meth:`Game.key`) of positions the game has already been
    in: no line passes through one, so following the hints never goes round in a circle.
    ``skip`` passes over that many of the best lines (each starting with another move):
    asking again gives the next alternative. ``deeper`` is the longer search's budget
    (None: :data:`DEEPER_BUDGET`). The advice counts the positions examined."""
    tally = [0]
    advice = _hint(game, budget, avoid, skip, DEEPER_BUDGET if deeper is None else deeper, tally)
    advice.positions = tally[0]
    return advice


def _hint(
    game: Game, budget: int, avoid: frozenset, skip: int, deeper: int, tally: list[int]
) -> Advice:
    if game.is_won():
        return Advice("the game is won: nothing left to do")
    legal = game.legal_moves()
    removals = [a for a in legal if type(a) is Remove]
    if removals:
        action = removals[0]
        text = move_text(game, action)
        suit = SUIT_NAMES[game.piles[action.pile][-1] >> 4]
        return Advice(f"{text}: completes the {suit}", [action])
    search = make_search(game, Goal(GoalKind.TURN_UP), Constraints(no_deal=True))
    outcomes, exhausted = _look_ahead(search, budget, game, tally)
    reveals = sorted(
        (o for o in outcomes if o.kind == "reveal"),
        key=lambda o: (*_value(o, search.root_spaces)[:2], -o.chaos),
        reverse=True,
    )
    shortest: dict[int, _Outcome] = {}
    for outcome in sorted(reveals, key=lambda o: o.moves):
        shortest.setdefault(outcome.pile, outcome)
    for outcome in {id(o): o for o in [*reveals[:JUDGED], *shortest.values()]}.values():
        outcome.outs = _recovery(game, search, outcome, tally)
    ranked = sorted(outcomes, key=lambda o: _value(o, search.root_spaces), reverse=True)
    firsts: set[Action] = set()
    for best in ranked:
        real, texts, _reveal = replay_steps(game, search, best.steps)
        if _revisits(game, real, avoid) or real[0] in firsts:
            continue
        if not _prepares(best, outcomes):
            short, short_texts = _shorten(game, real, texts)
            if not _revisits(game, short, avoid):  # a shorter line may pass where we were
                real, texts = short, short_texts
        if real[0] in firsts:
            continue
        firsts.add(real[0])
        if len(firsts) > skip:
            return _advise(game, search, best, outcomes, real, texts)
    if not exhausted and not skip:
        longer = _deeper(game, avoid, deeper, tally)
        if longer is not None:
            return longer
    return _fallback(game, budget, avoid, exhausted, skip - len(firsts))


def _fallback(game: Game, budget: int, avoid: frozenset, exhausted: bool, skip: int) -> Advice:
    """When no line gains anything: a move that loses nothing, what a deal needs, a weak
    move said to be weak, or the game lost."""
    fresh = [a for a in game.legal_moves() if type(a) is Move and not _revisits(game, [a], avoid)]
    natural = [a for a in fresh if _is_natural_run(game, a)]
    if natural and skip <= 0:
        text = move_text(game, natural[0])
        return Advice(
            f"{text}: a natural move (nothing better: it keeps options open)", [natural[0]]
        )
    nothing = "nothing helps now" if exhausted else "no line that helps was found"
    if game.stock:
        if game.spaces():
            fill = space_filler(game, fresh)
            if fill is None:
                return Advice(
                    f"{nothing}: a deal is due, but every space must be filled first "
                    "and no card can go into one"
                )
            return Advice(
                f"{move_text(game, fill)}: {nothing} but a deal, and every space must be "
                "filled first (a deal needs a card on every pile): this fills one",
                [fill],
            )
        return Advice(f"{nothing}: a deal is due ('deal')", deal_due=True)
    if game.is_lost():
        return Advice("nothing helps and the hand is empty: the game is lost")
    where = "in any line" if exhausted else f"within {budget:,} positions"
    weak = [a for a in fresh if game.piles[a.dst]] or fresh
    if weak:
        k = max(0, skip) % len(weak)
        return Advice(
            f"{move_text(game, weak[k])}: a weak move, the best there is: nothing turns up "
            f"a card, gets a space or removes a suit {where}, and the hand is empty: "
            "the game looks lost ('solve win' to be sure)",
            [weak[k]],
        )
    return Advice(
        f"nothing turns up a card, gets a space or removes a suit {where}, and "
        "the hand is empty: the game looks lost ('solve win' to be sure)"
    )


def space_filler(game: Game, moves: list[Move] | None = None) -> Move | None:
    """What to put in a space before a deal (of ``moves``, default every legal one): a run
    that turns up a card if one can, else the longest whole run (it keeps runs together),
    else the fewest cards; never a whole pile (that only moves the space)."""
    if moves is None:
        moves = [a for a in game.legal_moves() if type(a) is Move]
    into = [a for a in moves if not game.piles[a.dst] and a.count < len(game.piles[a.src])]
    if not into:
        return None

    def merit(a: Move) -> tuple[bool, bool, int]:
        whole = a.count == game.run_length(a.src)
        turns_up = whole and len(game.piles[a.src]) - game.down[a.src] == a.count
        return (turns_up and game.down[a.src] > 0, whole, a.count if whole else -a.count)

    return max(into, key=merit)


def _revisits(game: Game, line: list[Action], avoid: frozenset) -> bool:
    """Does playing ``line`` pass through (or end in) a position in ``avoid``?"""
    if not avoid:
        return False
    work = game.copy()
    for action in line:
        if work.unknown_reveals(action):
            return False  # a card turns up: a new position from here on
        work.push(action)
        if work.key() in avoid:
            return True
    return False


def _deeper(game: Game, avoid: frozenset, budget: int, tally: list[int]) -> Advice | None:
    """When the short look-ahead finds nothing: the solver's quick search for a longer line,
    to remove a suit whose thirteen cards are all in view, then to get a space, then to
    turn up a card (the manual's problem 3 needs 29 moves to remove the hearts).

    Each goal first gets a short try (:data:`FIRST_TRY` positions), so a line that comes
    quickly for a lesser goal is not lost to a long search for a greater one; then the
    goals in turn get what is left of :data:`DEEPER_BUDGET`."""
    goals = [Goal(GoalKind.REMOVE, steps=((suit,),)) for suit in _suits_in_view(game)]
    goals += [Goal(GoalKind.SPACE), Goal(GoalKind.TURN_UP)]
    left = budget
    for first_try in (True, False):
        for goal in goals:
            if left <= 0:
                return None
            if first_try:
                answer = quick(game, goal, NO_DEAL, min(left, FIRST_TRY), FIRST_TRY_EACH)
            else:
                answer = quick(game, goal, NO_DEAL, left)
            tally[0] += answer.positions
            if answer.found and not _revisits(game, answer.actions, avoid):
                return _deeper_advice(game, goal, answer)
            left -= answer.positions
    return None


NO_DEAL = Constraints(no_deal=True)


def _deeper_advice(game: Game, goal: Goal, answer: Answer) -> Advice:
    """The first move of a longer line, and what the line achieves."""
    first, moves = answer.texts[0], len(answer.texts)
    suit = SUIT_NAMES[goal.steps[0][0]] if goal.steps else ""
    what, ask = {
        "remove": (f"toward removing the {suit}", f"remove {suit}"),
        "space": ("gets a space", "get a space"),
        "turn up": ("turns up a card", "turn up a card"),
    }[goal.kind]
    if moves > 1:
        what += f" in {moves} moves ('apply' plays them, 'solve {ask}, no deal' lists them)"
    reasons = [*_move_reasons(game, answer.actions[0], []), what]
    return Advice(f"{first}: " + "; ".join(reasons), list(answer.actions))


def _suits_in_view(game: Game) -> list[int]:
    """The suits with every rank face up somewhere in the tableau."""
    ranks: dict[int, set[int]] = {}
    for pile, down in zip(game.piles, game.down, strict=True):
        for card in pile[down:]:
            ranks.setdefault(card >> 4, set()).add(card & 15)
    return [suit for suit, seen in sorted(ranks.items()) if len(seen) == KING]


def _look_ahead(
    search: Search, budget: int, game: Game, tally: list[int]
) -> tuple[list[_Outcome], bool]:
    """Breadth-first over the known cards, the space techniques as single steps: the lines
    to each kind of progress (several for each pile a card turns up in).

    Returns the outcomes (shortest lines first) and whether every position was examined.
    """
    root = search.root()
    parents: dict[tuple, tuple | None] = {root: None}
    queue = deque([root])
    outcomes: list[_Outcome] = []
    per_pile: dict[int, int] = {}
    while queue:
        if len(parents) > budget:
            tally[0] += len(parents)
            for outcome in outcomes:
                outcome.first = _first(root[0], outcome.steps[0])
            return outcomes, False
        key = queue.popleft()
        piles = key[0]
        for step, child, met in search.expand(key, True, False):
            action = step[-1]
            if child is None:  # turns up an unknown card: the line ends
                cur = piles
                for move in step:
                    new, turned, _outcome = apply(cur, move)
                    cur = tuple(new)
                if per_pile.get(turned, 0) < CANDIDATES:
                    per_pile[turned] = per_pile.get(turned, 0) + 1
                    outcomes.append(
                        _Outcome(
                            "reveal",
                            [*_steps(parents, key), step],
                            spaces_of(cur),
                            turned,
                            chaos=rank_key(cur, 0)[0],
                        )
                    )
                continue
            if child in parents:
                continue
            parents[child] = (key, step)
            line = None
            if type(action) is Remove:
                line = _Outcome("remove", _steps(parents, child))
            elif met:
                line = _Outcome("flip", _steps(parents, child), spaces_of(child[0]))
            elif spaces_of(child[0]) > search.root_spaces:
                line = _Outcome("space", _steps(parents, child), spaces_of(child[0]))
            if line is not None:
                outcomes.append(line)
            else:
                queue.append(child)
    for outcome in outcomes:
        outcome.first = _first(root[0], outcome.steps[0])
    tally[0] += len(parents)
    return outcomes, True


def _steps(parents: dict[tuple, tuple | None], key: tuple) -> list[tuple]:
    steps = []
    link = parents[key]
    while link is not None:
        key, step = link
        steps.append(step)
        link = parents[key]
    steps.reverse()
    return steps


def _recovery(
    game: Game, search: Search, outcome: _Outcome, tally: list[int]
) -> tuple[float, float]:
    """The shares of the unknown cards for which, once this line turns one up, a space can
    be got back (or a first one got) without dealing, and for which play goes on at all
    (that, or another card can be turned up). This is the manual's contingency reasoning:
    in its first problem a Jack, 4 or King gives the space back, and the preparation it
    advises lets an 8 take column 10's diamonds, so that another card turns up there."""
    real, _texts, reveal = replay_steps(game, search, outcome.steps)
    if reveal is None:
        return (0.0, 0.0)
    outcome.real = reveal
    before = game.copy()
    for action in real[:-1]:
        before.push(action)
    limits = Constraints(no_deal=True, limit=RECOVERY_LIMIT)
    total = back = on = 0
    for card, copies in enumerate(before.pool):
        if not copies:
            continue
        work = before.copy()
        work.assume(reveal - 1, card)
        work.push(real[-1])
        total += copies
        space = solve(work, Goal(GoalKind.SPACE), limits, prove_by_counting=False)
        tally[0] += space.positions
        if space.found:
            back += copies
            on += copies
            continue
        turn = solve(work, Goal(GoalKind.TURN_UP), limits, prove_by_counting=False)
        tally[0] += turn.positions
        if turn.found:
            on += copies
    return (back / total, on / total) if total else (0.0, 0.0)


def _value(outcome: _Outcome, root_spaces: int) -> tuple:
    """How good a line is, the manual's way (larger is better): remove a suit, get a space,
    turn up a card (keeping the space), more cards after which the space comes back, more
    after which play goes on, fewer moves; then a natural first move, then the highest card
    first ("top down")."""
    rank = {"remove": 4, "space": 3, "flip": 2, "reveal": 2}[outcome.kind]
    kept = outcome.spaces >= root_spaces
    if outcome.kind in ("flip", "reveal") and not kept:
        rank = 1  # turns up a card but uses up a space: worse than getting one
    shares = tuple(round(share, 2) for share in outcome.outs)
    return (rank, kept, *shares, -outcome.moves, *outcome.first)


def _first(piles: tuple, step: tuple) -> tuple[bool, int]:
    """Is a line's first move natural, and what rank does it move?"""
    action = step[0]
    if type(action) is not Move:
        return (False, 0)
    card = piles[action.src][-action.count]
    target = piles[action.dst]
    return (bool(target) and target[-1] == card + 1, card & 15)


def _advise(
    game: Game,
    search: Search,
    best: _Outcome,
    outcomes: list[_Outcome],
    real: list[Action],
    texts: list[str],
) -> Advice:
    """The best line, its first move and its reasons."""
    action = real[0]
    reasons = _move_reasons(game, action, outcomes)
    goal = {
        "remove": "toward removing a suit",
        "space": "gets a space",
        "flip": "turns up a card",
        "reveal": "turns up a card",
    }[best.kind]
    if best.kind in ("flip", "reveal") and search.root_spaces and best.spaces >= search.root_spaces:
        goal += " and keeps the space" if search.root_spaces == 1 else " and keeps the spaces"
    if len(real) > 1:
        goal += f" ({len(real)} moves: {', '.join(texts)})"
    plain = _prepares(best, outcomes)
    if plain is not None:
        reasons.insert(0, "prepares a contingency")
        which = 0 if best.outs[0] > plain[0] else 1
        what = ("a space comes back", "a space comes back or another card turns up")[which]
        goal += (
            f"; then {what} for {best.outs[which]:.0%} of the cards it could be, "
            f"not {plain[which]:.0%}"
        )
    reasons.append(goal)
    return Advice(f"{texts[0]}: " + "; ".join(reasons), list(real))


def _prepares(best: _Outcome, outcomes: list[_Outcome]) -> tuple[float, float] | None:
    """The shares of the plain (one-move) way to turn up the same card, when the line
    turns it up with better contingencies than that (its first moves prepare them)."""
    direct = [
        o
        for o in outcomes
        if o.kind == "reveal" and o.moves == 1 and o.real and o.real == best.real
    ]
    if best.kind != "reveal" or best.moves < 2 or not direct:
        return None
    plain = max(o.outs for o in direct)
    return plain if best.outs > plain else None


def _gains(game: Game, line: list[Action]) -> tuple[int, int, int] | None:
    """What playing ``line`` achieves (suits removed, spaces, cards turned up), or None
    if it is not legal from ``game``."""
    work = game.copy()
    for action in line:
        if work.why_illegal(action):
            return None
        work.push(action)
    return (len(work.removed), len(work.spaces()), -sum(work.down))


def _shorten(game: Game, real: list[Action], texts: list[str]) -> tuple[list[Action], list[str]]:
    """Drop the moves a line does not need: each move whose removal leaves the rest
    legal and achieving at least as much (suits removed, spaces, cards turned up)."""
    aim = _gains(game, real)
    k = 0
    while aim is not None and k < len(real) - 1:
        shorter = real[:k] + real[k + 1 :]
        got = _gains(game, shorter)
        if got is not None and all(g >= a for g, a in zip(got, aim, strict=True)):
            real, texts = shorter, []
        else:
            k += 1
    if not texts:
        work = game.copy()
        for action in real:
            texts.append(move_text(work, action))
            work.push(action)
    return real, texts


def _move_reasons(game: Game, action: Action, outcomes: list[_Outcome]) -> list[str]:
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


def _is_natural_run(game: Game, action: Move) -> bool:
    """A natural move of a whole run (not a split of one) onto its own suit: it loses
    nothing and keeps options open (the manual's first rule of thumb)."""
    return game.is_natural(action) and action.count == game.run_length(action.src)
