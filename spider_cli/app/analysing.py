"""A session's analysis commands: solve, hint, odds, auto and apply.

Each function takes the :class:`~spider_cli.app.session.Session` it acts on; the session's
methods of the same names delegate here, so the session holds the game and its commands and
this module what asking the analysis means to it: the game as its player knows it, the line
found last (``found``, ``found_at``) for ``apply`` and ``auto``, and where the last hint
was asked (``hinted``: where, which choice, by which search; ``planned``). Every failure
is a SpiderError in a player's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_cli.app.results import Auto, Played
from spider_cli.language.gamefiles import DealOrigin
from spider_cli.rules.engine import Move
from spider_cli.rules.errors import SpiderError
from spider_cli.rules.goals import Constraints, Goal

if TYPE_CHECKING:
    from collections.abc import Callable

    from spider_cli.analysis.answers import Report
    from spider_cli.analysis.chances import Chance
    from spider_cli.analysis.hints import Advice
    from spider_cli.app.session import Session
    from spider_cli.rules.engine import Action, Game, PositionKey

__all__ = ["analysed", "apply", "auto", "hint", "odds", "solve"]


def analysed(session: Session) -> Game:
    """The game as its player knows it: a numbered deal hides its face-down cards and its
    hand, so hints and the solver must not use them."""
    if isinstance(session.origin, DealOrigin):
        from spider_cli.analysis.compact import player_view

        return player_view(session.game)
    return session.game


def solve(
    session: Session, goal: Goal, constraints: Constraints | None = None, each_reveal: bool = False
) -> Report:
    """Search the known cards for a line to ``goal`` (``apply`` plays it)."""
    from spider_cli.analysis import answers

    report = answers.answer(
        analysed(session), goal, constraints or Constraints(), each_reveal, clock=session.clock
    )
    _remember(session, report.actions)
    return report


def hint(session: Session, deeper: bool = False, following: bool = False) -> Advice:
    """The blind player's best line and why (``apply`` plays it): the same position always
    gets the same hint. ``deeper``: the best with searches ten times longer; ``following``:
    the player's next choice after the one given last here by the same search, labelled
    with its rank (back to the best once there are no more). No line goes back to a
    position the game has been in. Where the last hint's line ended, the player goes on
    with the value of a space it had there, as the bench's does."""
    from spider_cli.analysis import hints
    from spider_cli.analysis.blindplayer import Mode

    key = session.game.key()
    at, given, search = session.hinted
    skip = given if following and at == key and search == deeper else 0
    skip = max(skip, 1) if following else 0
    ended, mode = session.planned
    mode = mode if ended == key and mode is not None else Mode.KEEP
    budget = hints.BUDGET * (hints.DEEPER if deeper else 1)
    level = hints.hint_level(deeper)
    game, avoid = analysed(session), _visited(session)
    advice = hints.hint(game, budget, avoid, skip, mode, level=level)
    if skip and not advice.actions:  # no more alternatives: back to the best
        advice = hints.hint(game, budget, avoid, 0, mode, level=level)
        advice.text = f"no other choice; the best again: {advice.text}"
        skip = 0
    elif skip:
        advice.text = f"choice {skip + 1}: {advice.text}"
    session.hinted = (key, skip + 1, deeper)
    _remember(session, advice.actions)
    kept = advice.mode is not Mode.KEEP
    session.planned = (_ending(session, advice.actions), advice.mode) if kept else (None, None)
    return advice


def _ending(session: Session, line: list[Action]) -> PositionKey:
    """The position (its key) the game will be in once ``line`` is played."""
    work = session.game.copy()
    for action in line:
        work.push(action)
    return work.key()


def odds(session: Session) -> Chance:
    """The share of deals consistent with what the player sees (the face-down cards and the
    hand dealt at random from the cards out of sight) that full-information play wins from
    here; the same position always gets the same answer."""
    from spider_cli.analysis import chances
    from spider_cli.analysis.view import view_of

    return chances.odds(view_of(session.game))


def _visited(session: Session) -> frozenset[PositionKey]:
    """The positions the game has been in before this one, as hints see them."""
    from spider_cli.analysis.compact import player_view

    view = isinstance(session.origin, DealOrigin)
    work = session.game.copy()
    keys = set()
    while work.moves_made:
        work.pop()
        keys.add(player_view(work).key() if view else work.key())
    return frozenset(keys)


def auto(
    session: Session, n: int | None = None, each: Callable[[Played], None] | None = None
) -> Auto:
    """Play hint's moves one at a time until ``n`` moves (None: no limit), a deal being due,
    the win, or no move left; ``each`` is called after every move (the REPL redraws the
    board there; a KeyboardInterrupt raised in it stops play, the game as it is)."""
    if n is not None and n < 1:
        raise SpiderError("auto needs a positive number of moves")
    played: list[Played] = []
    why = ""
    start = session.game.moves_made
    try:
        while n is None or len(played) < n:
            if session.game.is_won():
                why = "the game is won"
                break
            if session.game.is_lost():
                why = "the game is lost"
                break
            if not session.found or session.found_at != session.game.key():
                advice = session.hint()
                if not advice.actions or advice.lost:
                    why = advice.text
                    break
            straight = _straight(session, played)
            if straight is None:
                played.extend(session.apply(1))
            else:  # the cards it moved last go on: from where they were, in one move
                rest = session.found[1:]
                session.undo(1)
                played[-1] = session.play(straight)
                session.found, session.found_at = rest, session.game.key() if rest else None
            if each is not None:
                each(played[-1])
        else:
            why = f"{len(played)} move{'s' if len(played) != 1 else ''} played"
    except KeyboardInterrupt:
        why = _interrupted(session.game.moves_made - start)
    session.found, session.found_at = [], None
    return Auto(tuple(played), why)


def _straight(session: Session, played: list[Played]) -> Move | None:
    """When the next move of the line found moves on exactly the cards ``auto`` moved last
    (a hint's line, then the next one's, can carry a run through a pile: 2h from 5 to 1,
    then from 1 to 8), the one move that takes them there from where they were, if it is
    legal and leads to the same position; else None."""
    if not played or not session.found:
        return None
    last, action = played[-1].action, session.found[0]
    if not (
        isinstance(last, Move)
        and isinstance(action, Move)
        and action.src == last.dst
        and action.count == last.count
        and action.dst != last.src
    ):
        return None
    work = session.game.copy()
    work.push(action)
    target = work.key()
    work.pop()
    work.pop()
    straight = Move(last.src, action.dst, last.count)
    if work.why_illegal(straight) is not None:
        return None
    work.push(straight)
    return straight if work.key() == target else None


def _remember(session: Session, line: list[Action]) -> None:
    session.found = list(line)
    session.found_at = session.game.key() if line else None


def apply(session: Session, n: int | None = None) -> list[Played]:
    """Play the line found last, all of it or its next ``n`` moves."""
    if not session.found:
        raise SpiderError("no line to apply: 'solve' or 'hint' finds one")
    if session.game.key() != session.found_at:
        raise SpiderError("the position has changed since that line was found: solve again")
    count = len(session.found) if n is None else n
    if count < 1:
        raise SpiderError("apply needs a positive number of moves")
    played = [session.play(action) for action in session.found[:count]]
    del session.found[:count]
    session.found_at = session.game.key() if session.found else None
    return played


def _interrupted(kept: int) -> str:
    """Why ``auto`` stopped when Ctrl-C stopped it, ``kept`` actions after it began."""
    if not kept:
        return "stopped by Ctrl-C before its first move"
    if kept == 1:
        return "stopped by Ctrl-C; the move it played is kept ('undo' takes it back)"
    return f"stopped by Ctrl-C; the {kept} moves it played are kept ('undo {kept}' takes them back)"
