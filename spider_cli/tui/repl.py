"""The line mode: a prompt below the output (``spider --line``, or where the board cannot be).

A :class:`Repl` is the line mode's surface for a :class:`~spider_cli.tui.player.Player`,
which runs every typed line (read once, its questions asked, then run) and keeps the game's
records; the line mode only chooses how to show things and asks each question at a prompt
of its own, before the next command is read.

The prompt is built in one function, :func:`build_prompt_session`, from pieces that live in
their own modules (pgcli's layout): the completer (:mod:`spider_cli.tui.completion`), the
lexer that highlights the line by the grammar (:mod:`spider_cli.tui.highlight`), the style
and the status line (:mod:`spider_cli.tui.render`); the history of typed lines is kept in
:mod:`spider_cli.tui.linehistory`.

After each command that changed the position, the screen is redrawn: the tableau with the
cards that moved underlined, then what changed (the move in notation, the card turned up, a
suit removed, the deals left). Other answers are printed below. ``auto`` shows each move as
it plays it. Ctrl-C clears the line; Ctrl-D or ``quit`` leaves, the game kept in the
journal; Ctrl-Z stops the program in the background, and the time played with it.
"""

from __future__ import annotations

import contextlib
import functools
import signal
import sys
import threading
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.application.current import get_app_session
from prompt_toolkit.completion import Completer
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import split_lines
from prompt_toolkit.history import History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.shortcuts import clear

from spider_cli.app import interrupt
from spider_cli.app.handlers import COMMANDS
from spider_cli.app.journal import Journal, JournalEntry
from spider_cli.app.results import Auto, Played, Status
from spider_cli.app.session import Session
from spider_cli.app.words.replies import auto_text
from spider_cli.language import commands as cmd
from spider_cli.rules.engine import Game
from spider_cli.rules.errors import NotationError, SpiderError
from spider_cli.tui import mousereports, render, wrapping
from spider_cli.tui.completion import LegalSuggestions, SpiderCompleter
from spider_cli.tui.highlight import CommandLexer
from spider_cli.tui.linehistory import HISTORY_FILE, _trim_history, open_history
from spider_cli.tui.player import (
    PROMPT,
    Answer,
    Player,
    Prompt,
    Stop,
    error_lines,
    placed,
    ticking,
)
from spider_cli.tui.render import STYLE, UNICODE, Glyphs
from spider_cli.tui.waiting import running

if TYPE_CHECKING:
    from spider_cli.analysis import Review

__all__ = ["HISTORY_FILE", "Repl", "_trim_history", "build_prompt_session", "open_history"]

TRANSCRIPT_LENGTH = 2000
_RESERVED_ROWS = 8
"""Screen rows kept free below the tableau: header, numbers, notes, prompt, menu, toolbar."""


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
        key_bindings=mousereports.guarded(),
    )


class Repl:
    """The line mode: a prompt below the output, over a :class:`Player`."""

    keys_help = ""
    show_note = ""

    def __init__(
        self,
        session: Session,
        glyphs: Glyphs = UNICODE,
        journal: Journal | None = None,
        history: History | None = None,
    ) -> None:
        self.session = session
        self.glyphs = glyphs
        self.player = Player(session, self, journal)
        self.transcript: deque[str] = deque(maxlen=TRANSCRIPT_LENGTH)
        """What was printed lately, as plain text (what a test reads: DummyOutput shows
        nothing)."""
        self.completer: Completer = SpiderCompleter(session)
        self.history = history if history is not None else InMemoryHistory()
        self.questions: list[Prompt] = []
        """Questions waiting to be asked, before the next command is read."""
        self.status: int | None = None
        """The exit status, once the player has left."""
        self._status: Status | None = None

    @functools.cached_property
    def prompt_session(self) -> PromptSession[str]:
        """The line mode's prompt, built when first used (each key seen by the game's watch)."""
        prompt = build_prompt_session(self, self.history)
        prompt.app.key_processor.before_key_press += self.player.touched
        return prompt

    def start(self, name: str | None = None, offer_journal: bool = False) -> int:
        """Set up the game (the journaled one, a file, or the new deal), then play."""
        return self.player.start(name, offer_journal)

    # -- output -------------------------------------------------------------------------------

    def read(self, text: FormattedText) -> None:
        """A long reply (help, games): printed, as any other (the terminal scrolls it)."""
        self.say(text)

    def say(self, text: StyleAndTextTuples | str, style: str = "", wrapped: bool = True) -> None:
        """Print formatted text (or a plain string in ``style``) and keep it in the transcript.

        Lines wider than the screen are broken between words, and a line with a caret under
        it cut around the caret (:func:`wrapping.rows`), unless not ``wrapped``: the tableau
        (laid out to fit), the caret under the line typed at the prompt (the terminal breaks
        both at the same place, so the caret stays in place)."""
        fragments = FormattedText([(style, text + "\n")]) if isinstance(text, str) else text
        self.transcript.append(wrapping.plain(fragments))
        if wrapped:
            columns = get_app_session().output.get_size().columns
            rows = wrapping.rows(split_lines(fragments), columns)
            fragments = [piece for row in rows for piece in [*row, ("", "\n")]][:-1]
        print_formatted_text(
            FormattedText(fragments), end="", style=STYLE, include_default_pygments_style=False
        )

    def error(self, error: SpiderError, line: str = "") -> None:
        """A failed command: a caret under the typed ``line`` where it cannot be read, then
        the reason; errors about other text (a file being loaded) in full, the line they
        show and its caret cut alike to the screen's width, never broken between words."""
        error = placed(error, line)
        for text, style in error_lines(error, line):
            context = error.context if isinstance(error, NotationError) else ""
            if style == "class:error-context":  # the caret under the line typed
                self.say(text, style, wrapped=False)
            elif context and text.endswith("\n" + context):
                self.say(text[: -len(context) - 1], style)
                self.say(context, style)
            else:
                self.say(text, style)

    def toolbar(self) -> FormattedText:
        """The status line, worded to fit the terminal's width as it is now."""
        if self._status is None:
            return FormattedText([])
        columns = get_app_session().output.get_size().columns
        return render.toolbar(self._status, self.glyphs, columns)

    def refresh(self) -> None:
        self._status = self.session.status()

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
            note_rows = len(wrapping.plain(note).splitlines()) if note else 0
            rows = max(8, size.rows - _RESERVED_ROWS - note_rows)
            self.say(render.tableau(game, self.glyphs, size.columns, rows, fresh), wrapped=False)
            if note:
                self.say(note)
            self.player.flush_later()

    def show_played(self, played: Played, fresh: frozenset[tuple[int, int]]) -> None:
        """One move of ``auto``, as it is played: the tableau drawn again (``fresh``: the
        cards the move changed), the move below it."""
        self.draw(fresh, render.played(played))

    def auto_said(self, auto: Auto) -> str:
        """What is said under the tableau once ``auto`` stops: each move again (each drawing
        wiped the one before), then why it stopped."""
        return auto_text(auto)

    def searching(self, command: cmd.Command | None) -> contextlib.AbstractContextManager[None]:
        """What the player sees while ``command`` runs: a ticking line for a search."""
        return _ticking(COMMANDS.searches(command))

    def analyse(self, review: Review) -> None:
        """The line mode has no analysis view: 'review N' prints a move's report."""

    def offering(self, entry: JournalEntry | None) -> None:
        """The game offered back, drawn above the question with its status line, as the
        board shows it behind its own (a game that cannot be read: nothing; that is said
        once answered)."""
        if entry is None:
            return
        preview = Session.new_game(seed=0)
        try:
            preview.load(entry.path)
        except SpiderError:
            return
        columns = get_app_session().output.get_size().columns
        self.draw(
            note=FormattedText(render.toolbar(preview.status(), self.glyphs, columns)),
            game=preview.game,
        )

    # -- questions ----------------------------------------------------------------------------

    def ask(self, question: Prompt) -> None:
        """Asked before the next command is read (:meth:`run`)."""
        self.questions.append(question)

    def answer(self, question: Prompt) -> None:
        """Ask one question at a prompt of its own; Ctrl-C and Ctrl-D are answers too."""
        keys = KeyBindings()
        if question.stepper:

            @keys.add("q")
            @keys.add("escape")
            def _stop(event: KeyPressEvent) -> None:
                event.app.exit(result="q")

            @keys.add("b")
            def _back(event: KeyPressEvent) -> None:
                event.app.exit(result="b")

        prompt: PromptSession[str] = PromptSession(
            style=STYLE,
            include_default_pygments_style=False,
            completer=question.completer,
            complete_while_typing=question.completer is not None,
            key_bindings=merge_key_bindings([keys, mousereports.guarded()]),
        )
        reply: Answer
        try:
            reply = running(
                prompt.app, functools.partial(prompt.prompt, [("class:prompt", question.text)])
            )
        except KeyboardInterrupt:
            reply = Stop.CANCEL
        except EOFError:
            reply = Stop.END
        self.transcript.append(question.text + (reply.value if isinstance(reply, Stop) else reply))
        question.answer(reply)

    # -- the loop -----------------------------------------------------------------------------

    def run(self) -> int:
        """Ask what waits to be asked, read and run commands until the player leaves; the
        exit status. Ctrl-C stops a command, but never in the middle of a move
        (:mod:`~spider_cli.app.interrupt`)."""
        previous = interrupt.install()
        try:
            while self.status is None:
                if self.questions:
                    self.answer(self.questions.pop(0))
                    continue
                try:
                    line = running(self.prompt_session.app, self.prompt_session.prompt)
                except KeyboardInterrupt:
                    continue  # Ctrl-C: the line is dropped, the game goes on
                except EOFError:
                    self.player.leave()
                    continue
                self.player.enter(line)
            return self.status
        finally:
            signal.signal(signal.SIGINT, previous)

    def finish(self, status: int, farewell: str | None = None) -> None:
        """Leave (after saying ``farewell``)."""
        if farewell:
            self.say(farewell)
        self.status = status


_SCREEN = threading.Lock()
"""Held while the screen is drawn, and while the ticking line is written: not in between."""


@contextlib.contextmanager
def _ticking(search: bool) -> Iterator[None]:
    """While a ``solve`` or ``hint`` runs at a terminal, the ticking line
    (:func:`~spider_cli.tui.player.ticking`)."""
    out = sys.stdout
    if not search or not out.isatty():
        yield
        return

    def write(text: str) -> None:
        out.write(text)
        out.flush()

    with ticking(write, _SCREEN), _not_echoed():
        yield


@contextlib.contextmanager
def _not_echoed() -> Iterator[None]:
    """Keys typed while a search runs are kept for the next prompt but not echoed: the
    terminal would print them into the ticking line."""
    try:
        import termios  # (not on Windows)
    except ImportError:
        yield
        return
    try:
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
    except (OSError, ValueError, termios.error):  # not a terminal
        yield
        return
    quiet = saved[:]
    quiet[3] &= ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)
