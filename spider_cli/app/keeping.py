"""The game's bookkeeping, the same for every front end: its row in the history of games,
its journal, the file it was saved to (or loaded from), and whether it is counted (won or
lost, not recorded again).

A :class:`Keeper` is told what happened (a command ran, a game replaced another, the player
leaves) and keeps the records; what the player should read about it (a history that cannot
be written, a game kept aside) it leaves in :attr:`Keeper.notices` for the front end to say.
"""

from __future__ import annotations

import contextlib
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from spider_cli.app.files.gamelog import Facts, HistoryError, Result
from spider_cli.app.files.reviewdata import review_json
from spider_cli.app.journal import Journal, JournalEntry
from spider_cli.app.results import (
    GameReviewed,
    Loaded,
    LoadKind,
    Opened,
    PlayedOn,
    Resigned,
    Saved,
    SettingChanged,
)
from spider_cli.app.session import Session
from spider_cli.app.timer import Timer
from spider_cli.app.words import replies
from spider_cli.app.words.replies import win_text
from spider_cli.language.files import textfiles as files
from spider_cli.language.gamefiles import DealOrigin, without_time
from spider_cli.rules.errors import NotationError, SpiderError

if TYPE_CHECKING:
    from spider_cli.analysis import Review
    from spider_cli.app.files.stats import Figures

__all__ = ["Keeper", "LeaveQuestion", "Notice", "Tone", "history_facts", "keep_review"]


def history_facts(session: Session, game_file: str | None = None) -> Facts:
    """What the history of games records of the session's game now (``game_file``: its game
    file's text, if the caller has it)."""
    game, origin = session.game, session.origin
    numbered = isinstance(origin, DealOrigin)
    name = session.source_name or (origin.name if isinstance(origin, DealOrigin) else "position")
    seconds = 0.0 if session.timer is None else session.timer.seconds()
    text = session.files.game_file() if game_file is None else game_file
    return Facts(name, numbered, game.suits, game.moves_made, game.score(), seconds, text)


def keep_review(session: Session, number: int, review: Review) -> None:
    """Keep ``review`` of game ``number`` in the session's history of games (HistoryError if
    it cannot)."""
    import json

    from spider_cli.analysis import version

    session.games_log().store_review(
        number,
        version(review.suits),
        review.moves,
        replies.review_summary(review),
        json.dumps(review_json(review)),
    )


class Tone(Enum):
    """How a notice is said."""

    PLAIN = "plain"
    DIM = "dim"
    WARNING = "warning"


class Notice(NamedTuple):
    """Something the player should read, said after the screen is next drawn."""

    text: str
    tone: Tone = Tone.DIM


class LeaveQuestion(NamedTuple):
    """Asked before leaving (Enter: yes): the question, and the file a yes updates (None:
    a yes asks for a name)."""

    text: str
    update: str | None = None


def loaded_file(result: object) -> str | None:
    """The game file a ``load`` resumed (the game is as saved there), else None."""
    if isinstance(result, Loaded) and result.kind is LoadKind.GAME_FILE and result.path:
        return str(result.path)
    return None


class Keeper:
    """The records of the game a session plays: history row, journal, saved-as, counted."""

    def __init__(self, session: Session, journal: Journal | None = None) -> None:
        self.session = session
        self.journal = journal if journal is not None else Journal()
        self.saved_as: str | None = None
        """The game's own file: loaded from, or saved to last."""
        self.counted = False
        """The game is finished in the history (won or lost): it is not recorded again."""
        self.number: int | None = None
        """The game's number in the history of games (None until it is recorded)."""
        self.notices: list[Notice] = []
        self._recorded: tuple[int | None, str, Result] | None = None
        self._history_failed = False
        session.games_log()  # one history for this game and the ones it is replaced by

    def take_notices(self) -> list[Notice]:
        notices, self.notices = self.notices, []
        return notices

    def _note(self, text: str, tone: Tone = Tone.DIM) -> None:
        self.notices.append(Notice(text, tone))

    # -- files --------------------------------------------------------------------------------

    def own_file(self, path: Path) -> bool:
        """Whether ``path`` is the game's own file: loaded from, or saved to last (``save``
        replaces it without asking)."""
        return self.saved_as is not None and Path(self.saved_as) == path

    def observe(self, result: object) -> None:
        """What a command's result means for the records: a file saved is the game's own,
        a game given up is lost, a setting is kept, a review is kept with the game."""
        if isinstance(result, Saved):
            self.saved(result)
        elif isinstance(result, Resigned):
            self.resigned()
        elif isinstance(result, SettingChanged):
            self.keep_settings()
        elif isinstance(result, GameReviewed) and not result.review.stopped:
            self.reviewed(result)

    def reviewed(self, reviewed: GameReviewed) -> None:
        """Keep the review with the game in the history (a game not recorded yet has no
        moves, and no review worth keeping)."""
        if self.number is None:
            return
        try:
            keep_review(self.session, self.number, reviewed.review)
        except HistoryError as error:
            self._note(f"the review is not kept: {error}", Tone.WARNING)

    def saved(self, saved: Saved) -> None:
        """The game was saved: that file is its own now."""
        self.saved_as = str(saved.path)

    def default_name(self) -> str:
        """The name offered when saving: the game's own file, else one from its deal."""
        if self.saved_as:
            with contextlib.suppress(ValueError):
                return str(Path(self.saved_as).relative_to(self.session.base_dir))
            return self.saved_as
        origin = self.session.origin
        if not isinstance(origin, DealOrigin):
            return "game.spider"
        return f"game-{origin.name.replace(':', '-')}.spider"  # game-pysol-14934.spider

    # -- the game begins ----------------------------------------------------------------------

    def opened_file(self, loaded: Loaded | None) -> None:
        """The game was set up from a file named on the command line (None: a new deal). A
        game in progress in the journal waits there for the next ``spider`` to offer it
        back, this spider taking another journal; where none is free (or the file goes on
        with that very game), the journaled game is given up for this one, kept aside."""
        self.saved_as = loaded_file(loaded)
        entry = self.journal.read()
        self.number = self.continued(loaded)
        if entry is None or entry.counted:
            self._set_aside()
            return
        other = None
        if entry.moves and (self.number is None or self.number != entry.number):
            other = self.journal.vacate()
        if other is None:
            self.abandon_journaled(entry)  # given up for the game asked for
            self._set_aside()
            return
        self.journal = other
        self._note(_waiting_text(self._waiting() or [entry]), Tone.PLAIN)

    def _waiting(self) -> list[JournalEntry]:
        """Every game left waiting in a journal of the directory (no spider holds it), the
        newest first (the locks :meth:`Journal.waiting` takes are let go at once)."""
        found = []
        for journal, entry in self.journal.waiting():
            if journal.path != self.journal.path:
                journal.release()
            found.append(entry)
        return found

    def _set_aside(self) -> None:
        """Keep the journaled game (if any) aside as previous.spider, and say where."""
        aside = self.journal.retire()
        if aside is not None:
            where = files.shown(str(aside))
            self._note(
                f"The game that was in progress is kept in {where} "
                f"('load \"{where}\"' brings it back).",
                Tone.PLAIN,
            )

    def resume_journal(self, entry: JournalEntry, keep: bool) -> bool:
        """Take the game in progress back, or keep it aside as previous.spider (counted);
        whether it was taken back."""
        session = self.session
        if keep:
            try:
                session.load(entry.path)
            except SpiderError as error:
                aside = self.journal.retire()
                kept = ", nor kept aside" if aside is None else f"; it is kept in {aside}"
                kept = files.shown(kept)
                reason, quoted = _apart(error)
                self._note(
                    f"The game in progress could not be read back ({reason}){kept}.{quoted}",
                    Tone.WARNING,
                )
                return False
            self.saved_as = entry.saved_as
            if entry.begun:  # the file the position began from, not the journal's name
                session.source_name = entry.begun
            behind = entry.saved_as is None or entry.behind
            session.changed = behind and session.game.moves_made > 0
            self.counted = entry.counted
            self.number = entry.number
            return True
        if not entry.counted:
            self.abandon_journaled(entry)
        aside = self.journal.retire()
        if aside is not None:
            where = files.shown(str(aside))
            self._note(f"That game is kept in {where} ('load \"{where}\"' brings it back).")
        return False

    def abandon_journaled(self, entry: JournalEntry) -> None:
        """Record a journaled game given up at the start as abandoned (with the time it
        had taken: a stopped watch holds it)."""
        other = Session.new_game(seed=0, timer=Timer(lambda: 0.0), log=self.session.log)
        with contextlib.suppress(SpiderError):
            other.load(entry.path)
            self.record(other, entry.number, Result.ABANDONED)

    def replaced(self, previous: Session, result: object) -> None:
        """Another game was started on purpose (``result``: the command's): the old one is
        abandoned in the history, its journal kept aside (a game played on from one of its
        positions leaves it as it was: in progress, for 'open N')."""
        count = previous.game.moves_made
        if not self.counted and not isinstance(result, PlayedOn):
            self.record(previous, self.number, Result.ABANDONED)
        aside = self.journal.retire()
        if aside is None and self.journal.not_kept and count:
            back = f"; 'open {self.number}' brings it back" if self.number is not None else ""
            self._note(
                f"the previous game, {count} move{'s' if count != 1 else ''}, could not be "
                f"kept aside ({self.journal.not_kept}){back}",
                Tone.WARNING,
            )
        if aside is not None and count and previous.changed:
            where = files.shown(str(aside))
            self._note(
                f"(the previous game, {count} move{'s' if count != 1 else ''}, is kept "
                f"in {where}: 'load \"{where}\"' brings it back)"
            )
        self.saved_as = loaded_file(result)
        opened = result if isinstance(result, Opened) else None
        self.number = opened.number if opened else self.continued(result)
        self.counted = opened.finished if opened else False

    def continued(self, loaded: object) -> int | None:
        """The game of the history that a game file just loaded continues (said), so that
        its row goes on rather than a new one (see :meth:`GameLog.continued`); else None."""
        if loaded_file(loaded) is None:
            return None
        log = self.session.games_log()
        try:
            number = log.continued(history_facts(self.session))
        except HistoryError:
            return None  # said when the game is next recorded
        if number is not None:
            self._note(f"(this goes on with game {number} of the history: 'games' lists it)")
        return number

    # -- after each command, and on leaving ---------------------------------------------------

    def record(
        self,
        session: Session,
        number: int | None,
        result: Result,
        again: bool = False,
        game_file: str | None = None,
    ) -> int | None:
        """Write a game to the history (not one left with no move made; not again when
        nothing but the time changed, unless ``again``); its number there. Trouble with the
        history is said once (until it works again), and the game goes on."""
        unfinished = (Result.IN_PROGRESS, Result.ABANDONED)
        if number is None and not session.game.moves_made and result in unfinished:
            return None
        facts = history_facts(session, game_file)
        seen = (number, without_time(facts.game_file), result)
        if seen == self._recorded and not again:
            return number
        log = session.games_log()
        try:
            number = log.record(number, facts, result)
        except HistoryError as error:
            if not self._history_failed:
                self._note(f"{error}; the game goes on", Tone.WARNING)
            self._history_failed = True
            return number
        finally:
            for notice in log.take_notices():
                self._note(notice, Tone.WARNING)
        self._history_failed = False
        self._recorded = (number, seen[1], result)
        return number

    def after_command(self) -> None:
        """Record the game in the history (finished, if it is won or lost) and journal it;
        the time played stops while the game is over."""
        session = self.session
        game = session.game
        won, lost = game.is_won(), game.is_lost()
        if session.timer is not None:
            session.timer.pause() if won or lost else session.timer.resume()
        text = session.files.game_file()  # once, for the history and the journal
        if not self.counted:
            result = Result.WON if won else Result.LOST if lost else Result.IN_PROGRESS
            self.number = self.record(session, self.number, result, game_file=text)
            self.counted = result is not Result.IN_PROGRESS
            if won:
                self._note(win_text(session.status(), session.describe_start(), self._figures()))
        warning = self.journal.update(
            session, self.saved_as, self.counted, self.number, game_file=text
        )
        if warning:
            self._note(warning, Tone.WARNING)
        if won:
            self.journal.clear(session)

    def _figures(self) -> Figures | None:
        """The figures of this game's variant in the history, once it counts there (a
        numbered deal), or None."""
        if self.number is None or not isinstance(self.session.origin, DealOrigin):
            return None
        from spider_cli.app.files import stats

        log = self.session.games_log()
        try:
            table = stats.figures(log.finished(), log.carried())
        except HistoryError:
            return None
        return table.get(self.session.game.suits)

    def left(self) -> None:
        """Leaving: the game's time played goes to the history and the journal; the game
        stays in progress, as the journal offers it back (abandoned if it could not be
        journaled)."""
        if self.counted:
            return
        kept = self.journal.keeping
        result = Result.IN_PROGRESS if kept else Result.ABANDONED
        self.number = self.record(self.session, self.number, result, again=True)
        if kept and self.session.game.moves_made:
            self.journal.update(self.session, self.saved_as, False, self.number, timed=True)

    def keep_settings(self) -> None:
        """A setting changed: keep the player's settings for the next start."""
        from spider_cli.app.files import preferences

        try:
            preferences.save(self.session.settings)
        except SpiderError as error:
            self._note(str(error), Tone.WARNING)

    def resigned(self) -> None:
        """The player gave the game up: it is recorded as lost, and not again; said either
        way (the reply says only that it is lost: whether the history took it is known
        here)."""
        if self.counted:
            return
        self.number = self.record(self.session, self.number, Result.LOST, again=True)
        self.counted = True
        if self._history_failed:
            self._note(
                "the game is not recorded as lost: the game history cannot be used", Tone.WARNING
            )
        elif self.number is not None:
            self._note(f"(recorded as lost: game {self.number} of the history)")

    def save_on_leaving(self, name: str) -> Saved:
        """Save the game as ``name`` while leaving (a file it may replace: asked before)."""
        saved = self.session.save(name, replace=True)
        self.saved(saved)
        self.journal.update(self.session, self.saved_as, self.counted, self.number)
        return saved

    def not_saved(self) -> str:
        """What leaving without saving means: the journal keeps the game, unless it could
        not be written."""
        if not self.journal.keeping:
            return (
                f"Not saved, and the journal in {files.shown(str(self.journal.directory))} "
                "could not be written: this game is lost when spider ends."
            )
        return "Not saved. The game stays in the journal: 'spider' offers it back."

    def leave_question(self) -> LeaveQuestion | None:
        """What to ask before leaving, or None to leave at once. The journal keeps the game
        in progress and ``spider`` offers it back, so the player is asked only when the
        game would be lost (the journal could not be written) or when the file it was
        loaded from or saved to is now behind it (a yes updates that file)."""
        session = self.session
        if not (session.changed and session.game.moves_made):
            return None
        if not self.journal.keeping:
            return LeaveQuestion("The journal could not keep this game. Save it? [Y/n] ")
        if self.saved_as is not None:
            name = self.default_name()
            return LeaveQuestion(f"{name} is behind this game. Update it? [Y/n] ", name)
        return None


def _waiting_text(waiting: list[JournalEntry]) -> str:
    """Where the games left waiting are (the newest first), each said with how it began
    and its moves, and how to take them up."""

    def one(entry: JournalEntry) -> str:
        what = f"{entry.start}, " if entry.start else ""
        return f"{what}{entry.moves} move{'s' if entry.moves != 1 else ''}"

    offer = "'spider' with no deal or file offers"
    if len(waiting) == 1:
        entry = waiting[0]
        where = files.shown(entry.path.name)
        return f"The game that was in progress ({one(entry)}) waits in {where}: {offer} it back."
    listed = "; ".join(f"{one(e)}, in {files.shown(e.path.name)}" for e in waiting)
    return f"{len(waiting)} games in progress wait, the newest first: {listed}. {offer} them back."


def _apart(error: SpiderError) -> tuple[str, str]:
    """An error's reason, and the line it quotes with a caret under the place (after a line
    break; "" when it quotes none), to say the line below the sentence, not inside it."""
    if isinstance(error, NotationError) and error.context:
        bare = NotationError(error.message, error.line, error.column, file=error.file)
        return str(bare), "\n" + error.context
    return str(error), ""
