"""The interactive game: a prompt_toolkit prompt over the command interpreter.

The REPL adds no rules and no parser of its own: every typed line goes to
``Session.execute``, and the REPL only chooses how to show the result (by the type of the
command that ran, carried in ``Reply.command``). What it does on its own account (open a file
named on the command line, resume the journal, save on leaving, step through a replay) calls
the session's methods with typed values, never a command line built for the purpose.

The prompt is built in one function, :func:`build_prompt_session`, from pieces that live in
their own modules (pgcli's layout): the completer
(:mod:`spider_cli.tui.completion`), the lexer that highlights the line by the grammar
(:mod:`spider_cli.tui.highlight`), the style and the status line (:mod:`spider_cli.tui.render`).

After each command that changed the position, the screen is redrawn: the tableau with the
cards that moved underlined, then what changed (the move in notation, the card turned up, a
suit removed, the deals left). Other answers are printed below. The game is journaled after
every command (:mod:`spider_cli.app.journal`) and recorded in the history of games
(:mod:`spider_cli.app.gamelog`), from its first move until it is won, lost or given up for
another (a saved game loaded again goes on in its row). ``auto`` shows each move as it plays
it. Ctrl-C clears the line; Ctrl-D or ``quit`` leaves, the game kept in the journal, and
asks to save first only when the game would be lost or a file it was saved to is behind it
(:meth:`Repl.leave_question`); Ctrl-Z stops the program in the background, and the time
played with it.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import os
import re
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.application.current import get_app_session
from prompt_toolkit.completion import Completer, PathCompleter, WordCompleter
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.history import History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.shortcuts import clear

from spider_cli.app import interrupt
from spider_cli.app.atomic import write_atomically
from spider_cli.app.gamelog import HistoryError, Result
from spider_cli.app.journal import Entry, Journal
from spider_cli.app.session import (
    Auto,
    DealOrigin,
    Loaded,
    LoadKind,
    Opened,
    Played,
    Reply,
    Saved,
    Session,
    auto_text,
    played_text,
    started_text,
    text_of,
)
from spider_cli.app.timer import Timer
from spider_cli.app.userdirs import state_dir
from spider_cli.language import commands as cmd
from spider_cli.language import textfiles as files
from spider_cli.language.gamefiles import without_time
from spider_cli.language.notation import parse_command
from spider_cli.rules.cards import Card
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import Game
from spider_cli.rules.errors import NotationError, SpiderError
from spider_cli.rules.goals import Wanted
from spider_cli.tui import render
from spider_cli.tui.completion import LegalSuggestions, SpiderCompleter
from spider_cli.tui.highlight import CommandLexer
from spider_cli.tui.render import STYLE, UNICODE, Glyphs, Snapshot

PROMPT = "spider> "
TRANSCRIPT_LENGTH = 2000
HISTORY_FILE = "history"
HISTORY_KEEP = 5_000
"""Entries the history file keeps: at start-up a longer file loses its oldest entries."""
_RESERVED_ROWS = 8
"""Screen rows kept free below the tableau: header, numbers, notes, prompt, menu, toolbar."""


class FileHistory(History):
    """The prompt's history file, in prompt_toolkit's format (an entry is a ``# <time>``
    line, then its lines each after a ``+``). Read and appended only where it is a regular
    file of its own: a symbolic link (in a shared directory, another user's), a named pipe
    or a device at its name is left alone, and a history that cannot be read or written is
    not an error (the prompt keeps this run's lines in memory)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__()

    def load_history_strings(self) -> Iterable[str]:
        try:
            text = files.read_text(self.path, HISTORY_FILE, follow_links=False)
        except SpiderError:
            return []
        entries = text.split("\n# ")[1:]
        lines = (entry.split("\n")[1:] for entry in entries)
        strings = ["\n".join(line[1:] for line in entry if line.startswith("+")) for entry in lines]
        return reversed(strings)

    def store_string(self, string: str) -> None:
        lines = "".join(f"+{line}\n" for line in string.split("\n"))
        entry = f"\n# {datetime.datetime.now()}\n{lines}".encode("utf-8", errors="replace")
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
        with contextlib.suppress(OSError):
            fd = files.open_regular(self.path, flags, follow_links=False)
            with os.fdopen(fd, "ab") as file:
                file.write(entry)


def open_history(directory: Path | None = None) -> History:
    """The history kept across runs in the state directory (in memory if it cannot be)."""
    directory = directory or state_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return InMemoryHistory()
    path = directory / HISTORY_FILE
    _trim_history(path)
    return FileHistory(path)


def _trim_history(path: Path, keep: int = HISTORY_KEEP) -> None:
    """Cut the history file down to its last ``keep`` entries (it grows by one a command).

    A file too short to need it is not read. Never an error."""
    try:
        if path.lstat().st_size < keep * 16:
            return
        text = files.read_text(path, HISTORY_FILE, follow_links=False)
        entries = text.split("\n# ")[1:]
        if len(entries) > keep:
            write_atomically(path, "".join(f"\n# {entry}" for entry in entries[-keep:]))
    except (OSError, SpiderError):
        return


NOT_IN_POOL = "not a card an unknown card can be (Tab lists them)"


def pool_card(text: str, pool: Iterable[Card]) -> Card | None:
    """The card typed at a reveal question if an unknown card can be it, else None."""
    try:
        card = Card.parse(text.strip())
    except SpiderError:
        return None
    return card if card in pool else None


def replace_question(path: Path) -> str:
    """Asked before ``save`` replaces another file (Enter: no)."""
    return f"{files.shown(path.name)} exists. Replace it? [y/N] "


def resume_question(entry: Entry) -> str:
    """Asked when ``spider`` starts with a game in progress in the journal (Enter: yes)."""
    plural = "s" if entry.moves != 1 else ""
    return f"Continue the game in progress ({entry.moves} move{plural})? [Y/n] "


class LeaveQuestion(NamedTuple):
    """Asked before leaving (Enter: yes): the question, and the file a yes updates (None:
    a yes asks for a name)."""

    text: str
    update: str | None = None


def pool_completer(pool: Iterable[Card]) -> WordCompleter:
    """Completion of the cards an unknown card can be, by suit, high cards first."""
    cards = sorted(set(pool), key=lambda card: (card.suit, -card.rank))
    return WordCompleter([str(card) for card in cards], ignore_case=True)


def build_prompt_session(repl: Repl, history: History | None = None) -> PromptSession[str]:
    """The prompt: history with suggestions, completion, live highlighting, status line."""
    return PromptSession(
        message=[("class:prompt", PROMPT)],
        history=history if history is not None else InMemoryHistory(),
        auto_suggest=LegalSuggestions(repl.session),
        completer=repl.completer,
        complete_while_typing=True,
        lexer=CommandLexer(),
        enable_suspend=True,
        bottom_toolbar=repl.toolbar,
        style=STYLE,
        include_default_pygments_style=False,
        reserve_space_for_menu=4,
    )


class Repl:
    """One player at the keyboard: the prompt loop around a :class:`Session`."""

    def __init__(
        self,
        session: Session,
        glyphs: Glyphs = UNICODE,
        journal: Journal | None = None,
        history: History | None = None,
    ) -> None:
        self.session = session
        self.glyphs = glyphs
        self.journal = journal if journal is not None else Journal()
        self.transcript: deque[str] = deque(maxlen=TRANSCRIPT_LENGTH)
        """What was printed lately, as plain text (what a test reads: DummyOutput shows
        nothing)."""
        self.saved_as: str | None = None
        self.counted = False
        """The game is finished in the history (won or lost): it is not recorded again."""
        self.number: int | None = None
        """The game's number in the history of games (None until it is recorded)."""
        self._recorded: tuple[int | None, str, Result] | None = None
        self._history_failed = False
        self.completer: Completer = SpiderCompleter(session)
        self._toolbar = FormattedText([])
        self._later: list[tuple[str, str]] = []
        self._random_rest = False  # Ctrl-D at a reveal question: random cards for the rest
        session.ask_reveal = self.ask_reveal
        session.confirm_replace = self.confirm_replace
        session.games_log()  # one history for this game and the ones it is replaced by
        self.history = history if history is not None else InMemoryHistory()

    @functools.cached_property
    def prompt_session(self) -> PromptSession[str]:
        """The line mode's prompt, built when first used (the board has its own line)."""
        return build_prompt_session(self, self.history)

    # -- output -------------------------------------------------------------------------------

    def say(self, text: StyleAndTextTuples | str, style: str = "") -> None:
        """Print formatted text (or a plain string in ``style``) and keep it in the transcript."""
        fragments = FormattedText([(style, text + "\n")]) if isinstance(text, str) else text
        self.transcript.append(render.plain(fragments))
        print_formatted_text(
            FormattedText(fragments), end="", style=STYLE, include_default_pygments_style=False
        )

    def later(self, text: str, style: str = "class:dim") -> None:
        """Say this after the screen is next drawn (a redraw would wipe it out before)."""
        self._later.append((text, style))

    def flush_later(self) -> None:
        while self._later:
            self.say(*self._later.pop(0))

    def error(self, error: SpiderError, line: str = "") -> None:
        """A failed command: a caret under the typed ``line`` where it cannot be read, then
        the reason; errors about other text (a file being loaded) in full."""
        if (
            isinstance(error, NotationError)
            and error.column
            and line
            and (error.context.split("\n", 1)[0] == line.rstrip("\r\n"))
        ):
            caret = " " * (len(PROMPT) + error.column - 1) + "^"
            self.say(caret, "class:error-context")
            self.say(f"error: {error.message}", "class:error")
        else:
            self.say(f"error: {error}", "class:error")

    def toolbar(self) -> FormattedText:
        return self._toolbar

    def refresh_toolbar(self) -> None:
        self._toolbar = render.toolbar(self.session.status(), self.glyphs)

    def draw(
        self,
        fresh: frozenset[tuple[int, int]] = frozenset(),
        note: FormattedText | None = None,
        game: Game | None = None,
    ) -> None:
        """Redraw the screen: the tableau (as compact as the screen needs), then ``note``."""
        game = game or self.session.game
        size = get_app_session().output.get_size()
        with _SCREEN:  # the ticking line of a search waits (auto draws while it ticks)
            clear()
            note_rows = len(render.plain(note).splitlines()) if note else 0
            rows = max(8, size.rows - _RESERVED_ROWS - note_rows)
            self.say(render.tableau(game, self.glyphs, size.columns, rows, fresh))
            if note:
                self.say(note)
            self.flush_later()

    # -- questions ----------------------------------------------------------------------------

    def ask(self, question: str, completer: Completer | None = None) -> str:
        """One answer from the player; Ctrl-C raises KeyboardInterrupt, Ctrl-D EOFError."""
        session: PromptSession[str] = PromptSession(
            style=STYLE,
            include_default_pygments_style=False,
            completer=completer,
            complete_while_typing=completer is not None,
        )
        try:
            answer = session.prompt([("class:prompt", question)])
        except (KeyboardInterrupt, EOFError) as stop:
            self.transcript.append(
                question + ("^C" if isinstance(stop, KeyboardInterrupt) else "^D")
            )
            raise
        self.transcript.append(question + answer)
        return answer

    def yes(self, question: str, default: bool = True) -> bool:
        """A yes/no question: y is yes, n is no, Enter the ``default``; asked again
        otherwise. Ctrl-C raises KeyboardInterrupt (the caller cancels), Ctrl-D EOFError."""
        while True:
            answer = self.ask(question).strip().lower() or ("y" if default else "n")
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.say("please answer y or n", "class:warning")

    def confirm_replace(self, path: Path) -> bool:
        """Whether ``save`` may replace a file that exists: the game's own file (the one it
        was loaded from or saved to), yes; another, if the player says so (Ctrl-C: no)."""
        return self.own_file(path) or self.ask_replace(path)

    def own_file(self, path: Path) -> bool:
        """Whether ``path`` is the game's own file: loaded from, or saved to last."""
        return self.saved_as is not None and Path(self.saved_as) == path

    def ask_replace(self, path: Path) -> bool:
        """Ask the player whether ``path`` may be replaced: Enter, Ctrl-C or Ctrl-D is no."""
        try:
            return self.yes(replace_question(path), default=False)
        except (KeyboardInterrupt, EOFError):
            return False

    def ask_reveal(self, pile: int, pool: list[Card]) -> Card | None:
        """Which card an unknown card turning up is: typed (from the pool), or random.

        Ctrl-C takes a random card for this one; Ctrl-D for every other one the command
        turns up too (a deal can turn up ten). A card refused is said, and the question
        asked again on an empty line."""
        if self._random_rest:
            return None
        question = f"pile {pile + 1} turns up: (Enter for a random card, or type one) "
        while True:
            try:
                answer = self.ask(question, completer=pool_completer(pool))
            except KeyboardInterrupt:
                return None
            except EOFError:
                self._random_rest = True
                return None
            card = pool_card(answer, pool)
            if card is not None or not answer.strip():
                return card
            self.say(NOT_IN_POOL, "class:warning")

    # -- the loop -----------------------------------------------------------------------------

    def start(self, name: str | None = None, offer_journal: bool = False) -> int:
        """Set up the game (the journaled one, a file, or the new deal), then play."""
        if offer_journal:
            waiting = self.journal.waiting()
            if waiting:
                self.offer_journals(waiting)
                return self._play_until_left()
        else:
            loaded = None
            if name is not None:
                try:
                    loaded = self.session.load(name)
                except SpiderError as error:
                    self.error(error)
                    return 1
                self.saved_as = self._loaded_file(loaded)
            entry = self.journal.read()
            if entry is not None and not entry.counted:
                self._abandon_journaled(entry)  # given up for the game asked for
            self.number = self._continued(loaded)
            aside = self.journal.retire()
            if aside is not None:
                where = files.shown(str(aside))
                self.later(
                    f"The game that was in progress is kept in {where} "
                    f"('load \"{where}\"' brings it back)."
                )
        self.begin()
        return self._play_until_left()

    def _play_until_left(self) -> int:
        """Play until the player leaves (the timer paused while spider waits in the
        background), then record how the game was left."""
        with self.background_pauses():
            status = self.run()
        self._left()
        return status

    def begin(self) -> None:
        """The game is set up: journal it, and draw it with the welcome."""
        self._after_command()
        self.draw(note=render.message(self._welcome()))

    def _welcome(self) -> str:
        moves = self.session.game.moves_made
        where = f", continued after move {moves}" if moves else ""
        return (
            f"Spider: {self.session.describe_start()}{where}.\n"
            "New here? Type 'help'. Moves are written 'Jh from 8 to 9', or just '8 9'.\n"
            "Tab completes. 'quit' leaves; the game is always kept for next time."
        )

    def offer_journals(self, waiting: list[tuple[Journal, Entry]]) -> None:
        """Offer the games left in journals back one after another, the newest first,
        until one is taken up; then begin (with the new deal if none is). Each is offered
        with its own journal, which this spider keeps if it takes the game up."""
        if not waiting:
            self.begin()
            return
        (journal, entry), rest = waiting[0], waiting[1:]
        first_free, self.journal = self.journal, journal

        def answered(keep: bool) -> None:
            if self.resume_journal(entry, keep):
                for other, _ in rest:
                    other.release()
                self.begin()
                return
            journal.release()
            self.journal = first_free
            self.offer_journals(rest)

        self.offer_journal(entry, answered)

    def offer_journal(self, entry: Entry, then: Callable[[bool], None]) -> None:
        """Ask whether the game in progress is taken back (Ctrl-C or Ctrl-D: yes); ``then``
        gets the answer."""
        try:
            keep = self.yes(resume_question(entry))
        except (KeyboardInterrupt, EOFError):
            keep = True
        then(keep)

    def resume_journal(self, entry: Entry, keep: bool) -> bool:
        """Take the game in progress back, or keep it aside as previous.spider (counted);
        whether it was taken back."""
        if keep:
            try:
                self.session.load(entry.path)
            except SpiderError as error:
                aside = self.journal.retire()
                kept = ", nor kept aside" if aside is None else f"; it is kept in {aside}"
                kept = files.shown(kept)
                self.later(
                    f"The game in progress could not be read back ({error}){kept}.",
                    "class:warning",
                )
                return False
            self.saved_as = entry.saved_as
            behind = entry.saved_as is None or entry.behind
            self.session.changed = behind and self.session.game.moves_made > 0
            self.counted = entry.counted
            self.number = entry.number
            return True
        if not entry.counted:
            self._abandon_journaled(entry)
        aside = self.journal.retire()
        if aside is not None:
            where = files.shown(str(aside))
            self.later(f"That game is kept in {where} ('load \"{where}\"' brings it back).")
        return False

    def _abandon_journaled(self, entry: Entry) -> None:
        """Record a journaled game given up at the start as abandoned (with the time it
        had taken: a stopped watch holds it)."""
        other = Session.new_game(seed=0, timer=Timer(lambda: 0.0), log=self.session.log)
        with contextlib.suppress(SpiderError):
            other.load(entry.path)
            self._record(other, entry.number, Result.ABANDONED)

    def run(self) -> int:
        """Read and run commands until the player leaves; the exit status. Ctrl-C stops
        a command, but never in the middle of a move (:mod:`~spider_cli.app.interrupt`)."""
        previous = interrupt.install()
        try:
            while True:
                try:
                    line = self.prompt_session.prompt()
                except KeyboardInterrupt:
                    continue  # Ctrl-C: the line is dropped, the game goes on
                except EOFError:
                    if self.confirm_leave():
                        return 0
                    continue
                if self.handle(line) and self.confirm_leave():
                    return 0
        finally:
            signal.signal(signal.SIGINT, previous)

    def handle(self, line: str) -> bool:
        """Run one line and show its result; True when the player asked to leave. ``auto``
        runs through :meth:`auto`, to show each move as it is played."""
        try:
            command = parse_command(line)
        except SpiderError:
            command = None  # said by the session, with the caret where the line goes wrong
        if isinstance(command, cmd.Auto):
            self.auto(command, line)
            return False
        return self.perform(lambda: self.session.execute(line), line)

    def auto(self, command: cmd.Auto, line: str) -> None:
        """Hint's moves one at a time, each shown as it is played (:meth:`show_played`), so
        that a long ``auto`` shows its progress; Ctrl-C stops it, the moves played kept."""
        before = [Snapshot.of(self.session.game)]

        def moved(played: Played) -> None:
            game = self.session.game
            fresh = render.fresh_cards(before[0], game)
            before[0] = Snapshot.of(game)
            self.show_played(played, fresh)

        def call() -> Reply:
            result = self.session.auto(command.n, each=moved)
            return Reply(self.auto_said(result), command=command, result=result)

        self.say("auto: hint's moves, one at a time (Ctrl-C stops)", "class:dim")
        self.perform(call, line)

    def show_played(self, played: Played, fresh: frozenset[tuple[int, int]]) -> None:
        """One move of ``auto``, as it is played: the tableau drawn again (``fresh``: the
        cards the move changed), the move below it."""
        self.draw(fresh, render.change(played_text(played)))

    def auto_said(self, auto: Auto) -> str:
        """What is said under the tableau once ``auto`` stops: each move again (each drawing
        wiped the one before), then why it stopped."""
        return auto_text(auto)

    def perform(self, call: Callable[[], Reply], line: str = "") -> bool:
        """Run a call of the session's methods (a typed line, a key, a click) and show its
        result: the one way a command is run, counted and journaled. True when the player
        asked to leave."""
        session = self.session
        game_before = session.game
        before = Snapshot.of(game_before)
        previous = session.copy()  # the game before: a command that replaces it leaves it
        self._random_rest = False
        try:
            with self.searching(line):
                reply = call()
        except SpiderError as error:
            self.error(error, line)
            return False
        except KeyboardInterrupt:  # Ctrl-C during a long solve: stop it, keep the game
            if Snapshot.of(session.game) == before:
                self.say("interrupted; the game is as it was", "class:dim")
            else:  # (a move is never cut in half: see spider_cli.app.interrupt)
                self.say("interrupted; the moves made before Ctrl-C are kept", "class:dim")
            return False
        except Exception as error:  # a bug must not cost the game: say it in one line
            self.say(
                f"internal error ({type(error).__name__}: {error}); the game is kept in "
                "the journal, please report this",
                "class:error",
            )
            return False
        command = reply.command
        if isinstance(command, cmd.Quit):
            return True
        if command is None and reply.result is None and not line.strip():
            self.draw()  # Enter on an empty line: the tableau again
            return False
        replaced = session.game is not game_before
        if replaced:
            self._replaced(previous, reply)
        if isinstance(reply.result, Saved):
            self.saved_as = str(reply.result.path)
        self._after_command()
        self._show(reply, before, replaced)
        self.flush_later()
        return False

    def searching(self, line: str) -> contextlib.AbstractContextManager[None]:
        """What the player sees while ``line`` runs: a ticking line for a search."""
        return _ticking(line)

    def _show(self, reply: Reply, before: Snapshot, replaced: bool) -> None:
        command = reply.command
        game = self.session.game
        if isinstance(command, cmd.Show):
            if command.pile is None:
                self.draw()
            else:
                self.say(render.pile_detail(game, command.pile - 1, self.glyphs))
        elif isinstance(command, cmd.Replay):
            self.replay()
        elif replaced:
            self.draw(note=render.message(reply.text))
        elif Snapshot.of(game) != before:
            self.draw(render.fresh_cards(before, game), render.change(reply.text))
        elif reply.text:
            self.say(render.message(reply.text))

    def _loaded_file(self, loaded: object) -> str | None:
        """The game file a ``load`` resumed (the game is as saved there), else None."""
        if isinstance(loaded, Loaded) and loaded.kind is LoadKind.GAME_FILE and loaded.path:
            return str(loaded.path)
        return None

    def _replaced(self, previous: Session, reply: Reply) -> None:
        """Another game was started on purpose: the old one is abandoned in the history, its
        journal kept aside."""
        count = previous.game.moves_made
        if not self.counted:
            self._record(previous, self.number, Result.ABANDONED)
        aside = self.journal.retire()
        if aside is not None and count and previous.changed:
            where = files.shown(str(aside))
            self.later(
                f"(the previous game, {count} move{'s' if count != 1 else ''}, is kept "
                f"in {where}: 'load \"{where}\"' brings it back)"
            )
        self.saved_as = self._loaded_file(reply.result)
        opened = reply.result if isinstance(reply.result, Opened) else None
        self.number = opened.number if opened else self._continued(reply.result)
        self.counted = opened.finished if opened else False

    def _continued(self, loaded: object) -> int | None:
        """The game of the history that a game file just loaded continues (said), so that
        its row goes on rather than a new one (see :meth:`GameLog.continued`); else None."""
        if self._loaded_file(loaded) is None:
            return None
        log = self.session.games_log()
        try:
            number = log.continued(self.session.history_facts())
        except HistoryError:
            return None  # said when the game is next recorded
        if number is not None:
            self.later(f"(this goes on with game {number} of the history: 'games' lists it)")
        return number

    def _record(
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
        facts = session.history_facts(game_file)
        seen = (number, without_time(facts.game_file), result)
        if seen == self._recorded and not again:
            return number
        log = session.games_log()
        try:
            number = log.record(number, facts, result)
        except HistoryError as error:
            if not self._history_failed:
                self.later(f"{error}; the game goes on", "class:warning")
            self._history_failed = True
            return number
        finally:
            for notice in log.take_notices():
                self.later(notice, "class:warning")
        self._history_failed = False
        self._recorded = (number, seen[1], result)
        return number

    def _after_command(self) -> None:
        """Record the game in the history (finished, if it is won or lost), journal it,
        refresh the status line; the time played stops while the game is over."""
        session = self.session
        game = session.game
        won, lost = game.is_won(), game.is_lost()
        if session.timer is not None:
            session.timer.pause() if won or lost else session.timer.resume()
        text = session.game_file()  # once, for the history and the journal
        if not self.counted:
            result = Result.WON if won else Result.LOST if lost else Result.IN_PROGRESS
            self.number = self._record(session, self.number, result, game_file=text)
            self.counted = result is not Result.IN_PROGRESS
        warning = self.journal.update(
            session, self.saved_as, self.counted, self.number, game_file=text
        )
        if warning:
            self.later(warning, "class:warning")
        if won:
            self.journal.clear(session)
        self.refresh_toolbar()

    def _left(self) -> None:
        """Leaving: the game's time played goes to the history and the journal; the game
        stays in progress, as the journal offers it back (abandoned if it could not be
        journaled)."""
        if self.counted:
            return
        kept = self.journal.keeping
        result = Result.IN_PROGRESS if kept else Result.ABANDONED
        self.number = self._record(self.session, self.number, result, again=True)
        if kept and self.session.game.moves_made:
            self.journal.update(self.session, self.saved_as, False, self.number, timed=True)

    @contextlib.contextmanager
    def background_pauses(self) -> Iterator[None]:
        """While playing, Ctrl-Z (SIGTSTP) stops the program and the time played with it."""
        tstp = getattr(signal, "SIGTSTP", None)
        if tstp is None or threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.signal(tstp, self._stop_in_background)
        try:
            yield
        finally:
            signal.signal(tstp, previous)

    def _stop_in_background(self, signum: int, frame: object) -> None:
        self.paused_while(lambda: os.kill(os.getpid(), signal.SIGSTOP))

    def paused_while(self, stopped: Callable[[], None]) -> None:
        """Pause the time played while ``stopped`` runs (the program waits in the
        background until it is continued)."""
        timer = self.session.timer
        running = timer is not None and timer.running
        if timer is not None:
            timer.pause()
        try:
            stopped()
        finally:
            if timer is not None and running:
                timer.resume()

    # -- replay -------------------------------------------------------------------------------

    def replay_viewer(self) -> Session | None:
        """A copy of the session taken back to its start, for stepping through the game
        (the line mode and the board both replay it); None, said so, with no moves yet."""
        session = self.session
        if not session.game.moves_made:
            self.say("no moves yet: this is the start of the game")
            return None
        viewer = session.copy(game=session.game.copy(), ask_reveal=None, found=[])
        viewer.restart()
        return viewer

    def replay(self) -> None:
        """Step through the game from the start on a copy: Enter next move, q stop."""
        viewer = self.replay_viewer()
        if viewer is None:
            return
        total = self.session.game.moves_made
        keys = KeyBindings()

        @keys.add("q")
        @keys.add("escape")
        def _stop(event: KeyPressEvent) -> None:
            event.app.exit(result="q")

        stepper: PromptSession[str] = PromptSession(
            key_bindings=keys, style=STYLE, include_default_pygments_style=False
        )
        note = f"back at the current position (move {total})"
        self.draw(note=render.message(f"replay: the start ({total} moves to go)"), game=viewer.game)
        for number in range(1, total + 1):
            question = f"replay {number - 1}/{total} (Enter: next move, q: stop) "
            try:
                answer = stepper.prompt([("class:prompt", question)])
            except (KeyboardInterrupt, EOFError):
                break
            self.transcript.append(question + answer)
            if answer.strip().lower().startswith("q"):
                break
            before = Snapshot.of(viewer.game)
            text = f"move {number}/{total}: {viewer.redo().moves[0].text}"
            self.draw(
                render.fresh_cards(before, viewer.game),
                render.change(text, render.describe_changes(before, viewer.game)),
                game=viewer.game,
            )
        else:
            note = "replay over: this is the current position"
        self.draw(note=render.message(note))

    # -- leaving ------------------------------------------------------------------------------

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
            name = self._default_name()
            return LeaveQuestion(f"{name} is behind this game. Update it? [Y/n] ", name)
        return None

    def confirm_leave(self) -> bool:
        """Leave, after asking to save when :meth:`leave_question` has a question; False
        to keep playing."""
        session = self.session
        question = self.leave_question()
        if question is None:
            return True
        try:
            if not self.yes(question.text):
                self.say(self.not_saved())
                return True
        except KeyboardInterrupt:
            self.say("(still playing)", "class:dim")
            return False
        except EOFError:
            return True
        default = self._default_name()
        name = question.update
        while True:
            try:
                if name is None:
                    answer = self.ask(
                        f"Save as [{default}]: ", completer=PathCompleter(expanduser=True)
                    )
                    name = answer.strip() or default
            except KeyboardInterrupt:
                self.say("(still playing)", "class:dim")
                return False
            except EOFError:
                self.say(self.not_saved())
                return True
            try:
                saved = session.save(name)
            except SpiderError as error:
                self.error(error)
                name = None
                continue
            self.saved_as = str(saved.path)
            self.journal.update(session, self.saved_as, self.counted, self.number)
            self.say(text_of(saved))
            return True

    def _default_name(self) -> str:
        if self.saved_as:
            with contextlib.suppress(ValueError):
                return str(Path(self.saved_as).relative_to(self.session.base_dir))
            return self.saved_as
        origin = self.session.origin
        if not isinstance(origin, DealOrigin):
            return "game.spider"
        return f"game-{origin.name.replace(':', '-')}.spider"  # game-pysol-14934.spider


_SCREEN = threading.Lock()
"""Held while the screen is drawn, and while the ticking line is written: not in between."""

SEARCHES = re.compile(
    r"\s*(solve|hint|auto|odds)\b|\s*new\b.*\b(winnable|easy|medium|hard)\b", re.IGNORECASE
)
"""A line that starts a search, or hint's moves one after another, or checks deals (which
can take long: Ctrl-C stops it)."""


@contextlib.contextmanager
def _ticking(line: str) -> Iterator[None]:
    """While a ``solve`` or ``hint`` runs at a terminal, a line that counts the seconds and
    says how to stop, so that a long search does not look like a hang; wiped afterwards."""
    out = sys.stdout
    if not SEARCHES.match(line) or not out.isatty():
        yield
        return
    done = threading.Event()

    def tick() -> None:
        began = time.monotonic()
        while not done.wait(0.5):
            with _SCREEN:
                out.write(f"\rsearching... {time.monotonic() - began:.0f} s (Ctrl-C stops)")
                out.flush()

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
        out.write("\r\x1b[2K")
        out.flush()


def play(
    name: str | None,
    seed: int | DealSource | None,
    suits: int,
    ascii_only: bool = False,
    board: bool = False,
    wanted: Wanted | None = None,
) -> int:
    """``spider`` at a terminal: offer the journaled game back (no arguments), else start the
    file or deal asked for (or the first deal from it of the kind ``wanted``), and play
    until the player leaves: on the full-screen ``board`` (:mod:`spider_cli.tui.board`), or
    at a prompt below the output."""
    glyphs = render.choose_glyphs(ascii_only, getattr(sys.stdout, "encoding", None))
    clock = time.perf_counter
    session = Session(clock=clock, timer=Timer(clock))
    try:
        started = session.new(seed, suits, wanted)
    except SpiderError as error:
        print(f"spider: {error}", file=sys.stderr)
        return 1
    session.changed = False
    kind = Repl
    if board:
        from spider_cli.tui.board import Board

        kind = Board
    player = kind(session, glyphs, Journal(), open_history())
    if wanted is not None:
        player.later(started_text(started), "")
    return player.start(name, offer_journal=name is None and seed is None and wanted is None)
