"""A session's analysis: solve, hint, odds, auto and apply, and what they leave behind.

An :class:`Analysis` belongs to one :class:`~spider_cli.app.session.Session` (its
``analysis``) and keeps what asking the analysis leaves: the line found last (``found``,
``found_at``) for ``apply`` and ``auto``, where the last hint was asked (``hinted``,
``planned``), and whether the player has been told that the searches run on the slow path.
It sees the game through :class:`Table`, what it needs to see of the session, so that
this module does not import the session's; it never changes the game: ``apply`` and
``auto`` hand the session the moves to play (:meth:`Analysis.take`, :meth:`Analysis.step`).
Every failure is a SpiderError in a player's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from spider_cli.app.results import Reviewed, Stop, Stopped
from spider_cli.language.gamefiles import DealOrigin, Origin
from spider_cli.rules.engine import Move
from spider_cli.rules.errors import SpiderError
from spider_cli.rules.goals import Constraints, Goal
from spider_cli.rules.values import Value

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from spider_cli.analysis import Advice, Chance, Mode, Report, Review
    from spider_cli.app.results import Played
    from spider_cli.language.settings import Settings
    from spider_cli.rules.engine import Action, Game, PositionKey

__all__ = ["Analysis", "Straighten", "Table"]


class Table(Protocol):
    """What the analysis sees of the session it belongs to (it never changes it): the
    game, how it began, the clock that times a search, the player's settings (the hint's
    level), and the reviews kept."""

    @property
    def game(self) -> Game: ...
    @property
    def origin(self) -> Origin: ...
    @property
    def clock(self) -> Callable[[], float] | None: ...
    @property
    def settings(self) -> Settings: ...
    def kept_review(self, game: str, suits: int, moves: int) -> Review | None: ...


class Analysis:
    """The analysis of one session's game (see the module)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.found: list[Action] = []
        """The rest of the line the last ``solve`` or ``hint`` found, for ``apply``."""
        self.found_at: PositionKey | None = None
        """The position (``Game.key()``) ``found`` starts from."""
        self.found_by_hint = False
        """``found`` is a hint's line: ``apply`` plays its first move unless told more."""
        self.hinted: tuple[PositionKey | None, int, bool] = (None, 0, False)
        """Where the last hint was asked, the rank of the choice given, and whether the
        search was the deeper one (``hint next`` gives the following choice)."""
        self.planned: tuple[frozenset[PositionKey], Mode | None] = (frozenset(), None)
        """The positions along the last hint's line (after each of its moves), and the value
        of a space the player had there (a hint asked on the way goes on with it)."""
        self.slow_noted = False
        """The player has been told that the searches run on the slow Python path."""
        self.deal_due_at: PositionKey | None = None
        """Where the last hint said a deal is due (the board's ``!`` deals there)."""
        self.reviewed: tuple[tuple[PositionKey, int], Review] | None = None
        """The last review, and the position (with the moves made) it was made in."""

    def analysed(self) -> Game:
        """The game as its player knows it: a numbered deal hides its face-down cards and
        its hand, so hints and the solver must not use them."""
        table = self.table
        if isinstance(table.origin, DealOrigin):
            from spider_cli.analysis import player_view

            return player_view(table.game)
        return table.game

    def next_found(self) -> Action | None:
        """The next move of the line found, if it starts in the position the game is in."""
        if not self.found or self.found_at != self.table.game.key():
            return None
        return self.found[0]

    def noted(self, text: str) -> str:
        """A search's answer, after a note when the searches run on the slow Python path:
        once in a session."""
        from spider_cli.analysis import native
        from spider_cli.app.words.notes import slow_note

        slow = native.warning()
        if slow is None or self.slow_noted:
            return text
        self.slow_noted = True
        return f"{slow_note(slow)}\n{text}"

    def solve(
        self, goal: Goal, constraints: Constraints | None = None, each_reveal: bool = False
    ) -> Report:
        """Search the known cards for a line to ``goal`` (``apply`` plays it)."""
        from spider_cli.analysis.solve import answers

        report = answers.solve(
            self.analysed(),
            goal,
            constraints or Constraints(),
            each_reveal,
            clock=self.table.clock,
        )
        self._remember(report.actions)
        return report

    def hint(self, deeper: bool = False, following: bool = False) -> Advice:
        """The blind player's best line and why (``apply`` plays it): the same position
        always gets the same hint. ``deeper``: the best with searches ten times longer;
        ``following``: the player's next choice after the one given last here by the same
        search (after ``hint deeper``, the deeper search's), labelled with its rank (back to
        the best once there are no more). No line goes back to a position the game has been
        in. Along the last hint's line (its move played, or all of it), the player goes on
        with the value of a space it had there, as the bench's does."""
        from spider_cli.analysis import Mode, hints
        from spider_cli.analysis.chance import Level

        key = self.table.game.key()
        at, given, search = self.hinted
        deeper = deeper or (following and at == key and search)  # 'next' of the last list
        skip = given if following and at == key and search == deeper else 0
        skip = max(skip, 1) if following else 0
        along, mode = self.planned
        mode = mode if key in along and mode is not None else Mode.KEEP
        budget = hints.hint_limit(deeper)
        level = hints.hint_level(deeper, Level(self.table.settings.level))
        game = self.analysed()
        past = hints.past_of(self.table.game, isinstance(self.table.origin, DealOrigin))
        advice = hints.hint(game, budget, past, skip, mode, level=level)
        if skip and not advice.actions:  # no more alternatives: back to the best
            advice = hints.hint(game, budget, past, 0, mode, level=level)
            advice.again = True
            skip = 0
        advice.choice = skip + 1
        self.hinted = (key, skip + 1, deeper)
        self.deal_due_at = key if advice.deal_due else None
        self._remember(advice.actions, hinted=True)
        kept = advice.mode is not Mode.KEEP
        self.planned = (self._along(advice.actions), advice.mode) if kept else (frozenset(), None)
        return advice

    def _along(self, line: list[Action]) -> frozenset[PositionKey]:
        """The positions (their keys) the game will be in as ``line`` is played."""
        work = self.table.game.copy()
        keys = []
        for action in line:
            work.push(action)
            keys.append(work.key())
        return frozenset(keys)

    def odds(self) -> Chance:
        """The share of deals consistent with what the player sees (the face-down cards and
        the hand dealt at random from the cards out of sight) that full-information play
        wins from here; the same position always gets the same answer."""
        from spider_cli.analysis import view_of
        from spider_cli.analysis.chance import odds as chances
        from spider_cli.app.words import progress  # (how far its games are, for the ticking line)

        return chances.odds(view_of(self.table.game), progress=progress.say_odds)

    def review(self, progress: Callable[[str], None] | None = None, again: bool = False) -> Review:
        """The game's review from its start (:mod:`spider_cli.analysis.review`); the game
        is left as it is. A review of the same game kept in the history under this review
        version is shown as it was kept, no search made, unless ``again``; the last review
        of a position is kept, for ``review N``."""
        from spider_cli.analysis import review

        game = self.table.game
        key = game.key(), game.moves_made
        if not again and self.reviewed is not None and self.reviewed[0] == key:
            return self.reviewed[1]
        kept = None
        if not again:
            kept = self.table.kept_review(review.fingerprint(game), game.suits, game.moves_made)
        if kept is not None:
            done = kept
        else:
            from spider_cli.app.words.replies import review_step

            told = progress
            say = (lambda step: told(review_step(step))) if told is not None else None
            done = review.review(game, progress=say)
        if not done.stopped:
            self.reviewed = (key, done)
        return done

    def reviewed_move(self, move: int) -> Reviewed:
        """The position before move ``move`` of the game as its player saw it, the move
        played, the blind player's own move there, the chances after each, the review's mark
        on it, if any, and whether the deal was lost there (the game is left as it is)."""
        from spider_cli.analysis import Outlook, review, view_of
        from spider_cli.rules.text import move_text

        game = self.table.game
        if not 1 <= move <= game.moves_made:
            made = game.moves_made
            raise SpiderError(
                f"the game has no move {move}: its moves are 1 to {made}"
                if made
                else "the game has no moves yet: 'review N' shows the position before move N"
            )
        done = self.review()
        before = game.copy()
        while before.moves_made >= move:
            before.pop()
        action = game.move_stack[move - 1]
        played = move_text(before, action)
        mark = next((m for m in done.marks if m.move == move), None)
        choice = mark.better if mark is not None else review.players_choice(before)
        better, better_chance = "", None
        if choice is not None and choice != action:
            better = move_text(before, choice)
            tried = before.copy()
            tried.push(choice)
            better_chance = review.chance(tried)
        lost = done.lost
        here = lost if lost.verdict is Outlook.LOST_AT and lost.move == move else None
        return Reviewed(
            move,
            view_of(before).game(),
            played,
            mark,
            done.curve[move - 1],
            done.curve[move],
            better,
            better_chance,
            here,
        )

    def step(self, played: Sequence[Played]) -> Action | Straighten | Stopped:
        """``auto``'s next step after the moves it has ``played``: the next move of the
        line found (a hint's, asked for when none is left), a :class:`Straighten` when that
        move carries on the cards it moved last, or why it stops (:class:`Stopped`: the
        win, the loss, no move left). The session plays it (``Session.auto``)."""
        game = self.table.game
        if game.is_won():
            return Stopped(Stop.WON)
        if game.is_lost():
            return Stopped(Stop.LOST)
        if self.next_found() is None:
            advice = self.hint()
            if not advice.actions or advice.lost:
                return Stopped(Stop.NO_MOVE, advice)
        straight = self._straight(played)
        if straight is None:
            return self.take(1)[0]
        self.found = self.found[1:]
        self.found_at = self._after([straight], back=1) if self.found else None
        return Straighten(straight)

    def forget(self) -> None:
        """Drop the line found (``auto`` is over: its hints are not to be applied)."""
        self.found, self.found_at = [], None

    def _straight(self, played: Sequence[Played]) -> Move | None:
        """When the next move of the line found moves on exactly the cards ``auto`` moved
        last (a hint's line, then the next one's, can carry a run through a pile: 2h from 5
        to 1, then from 1 to 8), the one move that takes them there from where they were,
        if it is legal and leads to the same position; else None."""
        if not played or not self.found:
            return None
        last, action = played[-1].action, self.found[0]
        if not (
            isinstance(last, Move)
            and isinstance(action, Move)
            and action.src == last.dst
            and action.count == last.count
            and action.dst != last.src
        ):
            return None
        work = self.table.game.copy()
        work.push(action)
        target = work.key()
        work.pop()
        work.pop()
        straight = Move(last.src, action.dst, last.count)
        if work.why_illegal(straight) is not None:
            return None
        work.push(straight)
        return straight if work.key() == target else None

    def _remember(self, line: list[Action], hinted: bool = False) -> None:
        self.found = list(line)
        self.found_at = self.table.game.key() if line else None
        self.found_by_hint = hinted

    def take(self, n: int | None = None, whole: bool = False) -> list[Action]:
        """The moves ``apply`` plays, taken off the line found last: a hint's move (the one
        it named; ``whole``: its whole line), ``solve``'s whole line, or the next ``n``
        moves of either. The session plays them (``Session.apply``)."""
        if not self.found:
            raise SpiderError("no line to apply: 'solve' or 'hint' finds one")
        if self.table.game.key() != self.found_at:
            raise SpiderError("the position has changed since that line was found: solve again")
        if n is None:
            n = 1 if self.found_by_hint and not whole else len(self.found)
        if n < 1:
            raise SpiderError("apply needs a positive number of moves")
        taken = self.found[:n]
        del self.found[:n]
        self.found_at = self._after(taken) if self.found else None
        return taken

    def _after(self, actions: list[Action], back: int = 0) -> PositionKey:
        """The position the game reaches after taking back ``back`` moves, then
        ``actions``: where the rest of the line found starts."""
        work = self.table.game.copy()
        for _ in range(back):
            work.pop()
        for action in actions:
            work.push(action)
        return work.key()


class Straighten(Value):
    """``auto``'s step that replaces the move it played last with ``move``, which takes the
    same cards from where they were straight to where the line carries them on."""

    move: Move
