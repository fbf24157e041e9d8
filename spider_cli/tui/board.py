"""The full-screen board: the tableau stays in place, the mouse and single keys play.

A prompt_toolkit :class:`~prompt_toolkit.application.Application` in four parts, top to
bottom: the tableau (redrawn after every command, as compact as the screen needs), the
status line, the last replies (a scrollable message area) and the command line, with the
line mode's completion, history and highlighting. The board is a surface for a
:class:`~spider_cli.tui.player.Player`, as the line mode is: typed lines, keys and clicks all
run through the player, so a game is counted, journaled and answered the same way in both
modes, and keys and clicks call the session's methods with typed values.

The mouse follows the manual's program: a click on a card sends it, and the cards covering it, to
their obvious place (:func:`~spider_cli.rules.placing.obvious_at`); pressing on a card and letting
go over another pile moves the cards there, and so does a right click on a card (it is selected)
then a click on another pile. A click on the hand deals. The move is echoed in notation.

Questions (which card turns up, save before leaving, replace a file, a new deal, continue
the game in progress) are asked in the command line, never at a prompt outside the board;
Ctrl-C at one cancels it. The cards a command would turn up, and whether ``save`` may
replace a file, are asked before it runs (the player prepares it first), as in the line
mode. ``auto`` draws the tableau after every move it plays.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from prompt_toolkit import print_formatted_text
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import (
    CompleteEvent,
    Completer,
    Completion,
    DynamicCompleter,
)
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import fragment_list_width, split_lines
from prompt_toolkit.history import History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.layout import (
    BufferControl,
    ConditionalContainer,
    Dimension,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import AppendAutoSuggestion, BeforeInput
from prompt_toolkit.lexers import DynamicLexer
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

from spider_cli.app import interrupt
from spider_cli.app.handlers import COMMANDS
from spider_cli.app.journal import Journal, JournalEntry
from spider_cli.app.results import Auto, Played
from spider_cli.app.session import Session, status_of
from spider_cli.app.views.stepping import Study
from spider_cli.app.words.replies import auto_stop
from spider_cli.language import commands as cmd
from spider_cli.rules.engine import Action, Deal, Game, Move
from spider_cli.rules.errors import SpiderError
from spider_cli.rules.placing import fitting_move, obvious_at
from spider_cli.tui import analysis, mousereports, render, wrapping
from spider_cli.tui.completion import LegalSuggestions, SpiderCompleter
from spider_cli.tui.highlight import CommandLexer, highlight_line
from spider_cli.tui.player import (
    PROMPT,
    Player,
    Prompt,
    Stop,
    error_lines,
    ticking,
)
from spider_cli.tui.render import STYLE, UNICODE, Glyphs, Spot
from spider_cli.tui.waiting import running

if TYPE_CHECKING:
    from spider_cli.analysis import Review

TRANSCRIPT_LENGTH = 2000
MESSAGE_LINES = 500
"""Lines the message area keeps (it scrolls back through them)."""
WHEEL_ROWS = 3
"""Rows of replies a turn of the wheel scrolls."""
MESSAGE_ROWS = 6
"""Rows the message area keeps on the screen at least (five of replies and the sign that
more lie above): the tableau folds its runs and face-down cards first."""
_FIXED_ROWS = 4 + MESSAGE_ROWS
"""Rows that are not piles: header, pile numbers, status line, command line, messages."""


class _NotOnAnEmptyLine(Completer):
    """Completion while typing, but no menu on an empty line unless Tab asks for it.

    The menu would cover the replies: a line typed and entered in one go (pasted, or read
    in one piece on a busy machine) leaves a completion pending, which runs once the
    command is done, on the line Enter has emptied."""

    def __init__(self, completer: Completer) -> None:
        self.completer = completer

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterable[Completion]:
        if document.text or event.completion_requested:
            yield from self.completer.get_completions(document, event)


class _Click:
    """The mouse handler of one place on the tableau."""

    def __init__(self, board: Board, spot: Spot) -> None:
        self.board = board
        self.spot = spot

    def __call__(self, event: MouseEvent) -> object:
        return self.board.mouse(self.spot, event)


class Board:
    """The game on a full screen: the tableau, the status line, replies, the command line."""

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
        """What was said lately, as plain text (what a test reads)."""
        self.history = history if history is not None else InMemoryHistory()
        self.completer: Completer = SpiderCompleter(session)
        self.messages: deque[StyleAndTextTuples] = deque(maxlen=MESSAGE_LINES)
        self.scroll = 0
        """Lines scrolled back from the newest reply."""
        self.fresh: frozenset[tuple[int, int]] = frozenset()
        self.shown: Game | None = None
        """A game shown instead of the session's (a replay's)."""
        self.previewed: Session | None = None
        """The game in progress, shown with its status line while it is offered back."""
        self.question: Prompt | None = None
        self.study: Study | None = None
        """The analysis view's state while it is open (:mod:`spider_cli.tui.analysis`)."""
        self.pressed: Spot | None = None
        self.selected: Spot | None = None
        self.reading = False
        """A long reply (help, games) has the screen, the tableau set aside until q, Esc,
        Enter or the next command."""
        self.farewell: list[StyleAndTextTuples] = []
        """What is said while leaving, printed once the screen is given back."""
        self._ran = False
        self._screen = threading.Lock()
        """Held while the screen is drawn during a search, and while its ticking line is
        written."""
        self.buffer = Buffer(
            history=self.history,
            completer=_NotOnAnEmptyLine(
                DynamicCompleter(
                    lambda: self.question.completer if self.question else self.completer
                )
            ),
            complete_while_typing=True,
            auto_suggest=LegalSuggestions(session),
            multiline=False,
        )
        self.app: Application[int] = Application(
            layout=self._layout(),
            key_bindings=merge_key_bindings(
                [self._keys(), mousereports.guarded(), analysis.keys(self)]
            ),
            style=STYLE,
            include_default_pygments_style=False,
            full_screen=True,
            mouse_support=True,
            refresh_interval=None if session.timer is None else 1.0,  # the clock ticks
        )
        self.app.key_processor.before_key_press += self.player.touched

    # -- the screen ---------------------------------------------------------------------------

    def _layout(self) -> Layout:
        line = BufferControl(
            self.buffer,
            lexer=DynamicLexer(lambda: None if self.question else CommandLexer()),
            input_processors=[BeforeInput(self._prompt), AppendAutoSuggestion()],
        )
        messages = FormattedTextControl(self._messages, focusable=False)
        body = HSplit(
            [
                ConditionalContainer(
                    Window(FormattedTextControl(self._tableau), height=self._tableau_height),
                    filter=Condition(lambda: not self.reading),
                ),
                Window(FormattedTextControl(self._status), height=1, style="class:bottom-toolbar"),
                Window(messages, height=Dimension(min=1)),
                Window(line, height=1, get_horizontal_scroll=self._line_scroll),
            ]
        )
        menu = Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8))
        return Layout(FloatContainer(body, floats=[menu]), focused_element=line)

    def _line_scroll(self, window: Window) -> int:
        """The command line's sideways scroll: none while the prompt and the line fit
        (prompt_toolkit keeps a scroll once made, which hid the prompt after a long line)."""
        info = window.render_info
        wide = fragment_list_width(self._prompt()) + get_cwidth(self.buffer.text) + 1  # cursor
        return window.horizontal_scroll if info is None or wide > info.window_width else 0

    def _size(self) -> tuple[int, int]:
        size = self.app.output.get_size()
        return size.columns, size.rows

    def _tableau(self) -> StyleAndTextTuples:
        columns, rows = self._size()
        if self.study is not None:  # the analysis view, a row of replies below it
            return analysis.view(self.study, self.glyphs, columns, max(1, rows - 5))
        game = self.shown or self.session.game
        text = render.tableau(
            game, self.glyphs, columns, max(1, rows - _FIXED_ROWS), self.fresh, self._click
        )
        selected = self.selected or self.pressed
        marks = analysis.move_marks(game, self.marked())  # pile: (from which card, style)
        if selected is not None and selected.pile is not None and selected.at is not None:
            marks[selected.pile] = (selected.at, " class:selected")
        return analysis.highlighted(text, marks)

    def marked(self) -> Move | None:
        """The next move of the line ``hint`` or ``solve`` found in this position (marked on
        the tableau; ``!`` plays it), or None."""
        if self.shown is not None:
            return None
        action = self.session.analysis.next_found()
        return action if isinstance(action, Move) else None

    def _tableau_height(self) -> Dimension:
        return Dimension.exact(sum(1 for _ in split_lines(self._tableau())) - 1)

    def _click(self, spot: Spot) -> _Click:
        return _Click(self, spot)

    def _status(self) -> StyleAndTextTuples:
        columns, _rows = self._size()
        keys = self.question is None and not self.buffer.text
        if self.study is not None:  # the position the view stands on; its keys are its own
            status = status_of(self.study.moment().position, self.session.origin)
            return render.toolbar(status, self.glyphs, columns)
        status = (self.previewed or self.session).status()
        return render.toolbar(status, self.glyphs, columns, keys=keys)

    def _message_rows(self) -> list[StyleAndTextTuples]:
        """The replies kept, broken into rows between words at the screen's width (a line
        with a caret under it is cut around the caret instead: :func:`wrapping.rows`)."""
        columns, _rows = self._size()
        return wrapping.rows(self.messages, columns)

    def _message_height(self) -> int:
        """The rows the message area has: what the tableau, the status line and the
        command line leave."""
        _columns, rows = self._size()
        tableau = 0 if self.reading else sum(1 for _ in split_lines(self._tableau())) - 1
        return max(1, rows - tableau - 2)

    def _view(self) -> tuple[list[StyleAndTextTuples], int, int, int]:
        """The rows of replies in view (scrolled back ``self.scroll`` rows, kept within the
        replies), how many are hidden above them and below, and the rows of the area."""
        rows = self._message_rows()
        height = self._message_height()
        if self.reading:  # a long reply: no sign above it, and a last row that says how back
            room = max(1, height - 1)
            self.scroll = max(0, min(self.scroll, len(rows) - room))
            end = len(rows) - self.scroll
            return rows[max(0, end - room) : end], max(0, end - room), len(rows) - end, height
        self.scroll = max(0, min(self.scroll, len(rows) - height))
        end = len(rows) - self.scroll
        start = max(0, end - height)
        if start and height > 1:
            start += 1  # the top row says that there is more
        if self.scroll and height > 2:
            end -= 1  # and the bottom one, that newer replies are below
        return rows[start:end], start, len(rows) - end, height

    def _messages(self) -> StyleAndTextTuples:
        """The replies in view, each row as wide as the screen so that the wheel scrolls
        them, with a sign above and below when there is more (PageUp and PageDown)."""
        columns, _rows = self._size()
        view, above, below, height = self._view()
        if self.reading:
            more = f"▼ {below} more: PageDown; " if below else ""
            view.append([("class:more", f"{more}q or Esc: back to the game"[:columns])])
        elif above and height > 1:
            sign = f"▲ {above} more line{'s' if above != 1 else ''}: PageUp or the wheel"
            view.insert(0, [("class:more", sign[:columns])])
        if below and height > 2 and not self.reading:
            view.append([("class:more", f"▼ {below} newer: PageDown"[:columns])])
        out: StyleAndTextTuples = []
        for n, row in enumerate(view):
            if n:
                out.append(("", "\n"))
            out += [(style, text, self._wheel) for style, text, *_ in row]
            out.append(("", " " * (columns - fragment_list_width(row)), self._wheel))
        return out

    def _page(self) -> int:
        """How far PageUp and PageDown scroll: the message area less a row kept in view."""
        return max(1, self._message_height() - 2)

    def scroll_by(self, rows: int) -> None:
        """Scroll the replies back (``rows`` > 0) or forward; the view moves at once."""
        self.scroll = max(0, self.scroll + rows)
        self._view()  # kept within the replies

    def _wheel(self, event: MouseEvent) -> object:
        """The wheel over the replies scrolls them; a button let go there drops a drag."""
        if event.event_type == MouseEventType.MOUSE_UP:
            self.pressed = None
        elif event.event_type == MouseEventType.SCROLL_UP:
            self.scroll_by(WHEEL_ROWS)
        elif event.event_type == MouseEventType.SCROLL_DOWN:
            self.scroll_by(-WHEEL_ROWS)
        else:
            return NotImplemented
        return None

    def _prompt(self) -> StyleAndTextTuples:
        if self.question:
            return [("class:question", self.question.text)]
        return [("class:prompt", PROMPT)]

    # -- output, into the message area ---------------------------------------------------------

    def say(self, text: StyleAndTextTuples | str, style: str = "") -> None:
        fragments = FormattedText([(style, text + "\n")]) if isinstance(text, str) else text
        self.transcript.append(wrapping.plain(fragments))
        lines = list(split_lines(fragments))
        if lines and not wrapping.plain(lines[-1]):
            lines.pop()
        self.messages.extend(lines)
        self.scroll = 0

    def read(self, text: FormattedText) -> None:
        """A long reply (help, games): said, and when it is longer than the replies' area
        beside the tableau, given the screen from its first line (``q``, Esc, Enter or the
        next command gives the board back)."""
        before = len(self._message_rows())
        self.say(text)
        self.reading = False
        length = len(self._message_rows()) - before
        if length > self._message_height():
            self.reading = True
            self.scroll = max(0, length - (self._message_height() - 1))
            self._view()

    def close_reading(self) -> None:
        """Back to the board from a long reply."""
        self.reading = False
        self.scroll = 0

    def draw(
        self,
        fresh: frozenset[tuple[int, int]] = frozenset(),
        note: FormattedText | None = None,
        game: Game | None = None,
    ) -> None:
        """The tableau is always on the screen: note what to underline and say ``note``."""
        self.reading = False
        self.fresh = fresh
        self.shown = game
        if note:
            self.say(note)
        self.player.flush_later()

    def error(self, error: SpiderError, line: str = "") -> None:
        """A failed command: a caret under the typed ``line`` where it cannot be read, then
        the reason; errors about other text (a file being loaded) in full."""
        for text, style in error_lines(error, line):
            self.say(text, style)

    def refresh(self) -> None:
        """The status line is drawn from the session each time: nothing to refresh."""

    @contextlib.contextmanager
    def searching(self, command: cmd.Command | None) -> Iterator[None]:
        """While a search runs: a line that says so, and the terminal as for a prompt, so
        that Ctrl-C interrupts it (the board reads Ctrl-C as a key otherwise)."""
        if (
            not COMMANDS.searches(command)
            or threading.current_thread() is not threading.main_thread()
        ):
            yield
            return
        output = self.app.output

        def write(text: str) -> None:
            output.write_raw(text)
            output.flush()

        previous = interrupt.install()  # Ctrl-C stops the search, never half a move
        try:
            # Said once Ctrl-C does stop the search (a player may press it at once).
            with self.app.input.cooked_mode(), ticking(write, self._screen):
                yield
        finally:
            signal.signal(signal.SIGINT, previous)
            self.app.renderer.clear()  # the line written here: the next drawing is whole

    def analyse(self, review: Review) -> None:
        """``review`` done: the analysis view of the game reviewed opens."""
        analysis.open_review(self, review)

    def offering(self, entry: JournalEntry | None) -> None:
        """While the game in progress is offered back: shown behind the question, with its
        status line (None: the question was answered)."""
        self.shown = self.previewed = None
        if entry is None:
            return
        preview = Session.new_game(seed=0)
        with contextlib.suppress(SpiderError):  # a damaged one is said once answered
            preview.load(entry.path)
            self.shown, self.previewed = preview.game, preview

    show_note = "the tableau is the board above ('show N' lists one pile in full)"
    keys_help = (
        "\nClick a card to send it to its obvious place, the hand to deal. Ctrl-Z undoes,"
        "\nCtrl-Y redoes, ? hints (its cards are marked), ! plays that move, > steps"
        "\nthrough a line found; 'help keys'."
    )

    # -- the loop -----------------------------------------------------------------------------

    def start(self, name: str | None = None, offer_journal: bool = False) -> int:
        """Set up the game (the journaled one, a file, or the new deal), then play."""
        status = self.player.start(name, offer_journal)
        if not self._ran:
            self.farewell = list(self.messages)  # never shown: the file could not be read
            self._print_farewell()
        return status

    def run(self) -> int:
        self._ran = True
        try:
            status = running(self.app, self.app.run)
        except EOFError:  # the terminal went away: the game is in the journal
            status = 0
        self._print_farewell()
        return status

    def _print_farewell(self) -> None:
        for line in self.farewell:
            print_formatted_text(
                FormattedText([*line, ("", "\n")]),
                end="",
                style=STYLE,
                include_default_pygments_style=False,
            )

    def _keys(self) -> KeyBindings:
        """The keys that act at once. Letters always write the command line, so a typed
        word is never taken for keys; these keys start no command word."""
        keys = KeyBindings()
        asking = Condition(lambda: self.question is not None)
        free = ~asking & Condition(lambda: not self.buffer.text)
        prepared = self.player.prepared  # a key runs its command as a typed one does

        @keys.add("c-z", filter=~asking)
        def _undo(event: KeyPressEvent) -> None:
            prepared(cmd.Undo())

        @keys.add("c-y", filter=~asking)
        def _redo(event: KeyPressEvent) -> None:
            prepared(cmd.Redo())

        @keys.add("?", filter=free)
        def _hint(event: KeyPressEvent) -> None:
            prepared(cmd.Hint(following=self.hinted_here()))

        @keys.add("!", filter=free)
        def _play_hint(event: KeyPressEvent) -> None:
            self.play_marked()

        stepping = Condition(lambda: self.question is not None and self.question.stepper)

        @keys.add("q", filter=stepping)
        @keys.add("escape", filter=stepping, eager=True)
        def _stop(event: KeyPressEvent) -> None:
            self.buffer.text = "q"
            self.enter()

        @keys.add("b", filter=stepping)
        def _step_back(event: KeyPressEvent) -> None:
            self.buffer.text = "b"
            self.enter()

        @keys.add(">", filter=free)
        def _step_found(event: KeyPressEvent) -> None:
            analysis.open_found(self)

        @keys.add("enter")
        def _enter(event: KeyPressEvent) -> None:
            self.enter()

        @keys.add("c-c")
        def _cancel(event: KeyPressEvent) -> None:
            self.buffer.reset()
            question, self.question = self.question, None
            if question is not None:
                self.say(question.text + "^C", "class:dim")
                question.answer(Stop.CANCEL)
            else:
                self.selected = None

        @keys.add("c-d", filter=Condition(lambda: not self.buffer.text))
        def _leave(event: KeyPressEvent) -> None:
            if self.question is None:
                self.player.leave()

        @keys.add("escape", filter=~asking, eager=True)
        def _escape(event: KeyPressEvent) -> None:
            self.buffer.reset()
            self.selected = None
            self.close_reading()

        @keys.add("q", filter=free & Condition(lambda: self.reading))
        def _close(event: KeyPressEvent) -> None:
            self.close_reading()

        @keys.add("pageup")
        def _back(event: KeyPressEvent) -> None:
            self.scroll_by(self._page())

        @keys.add("pagedown")
        def _forward(event: KeyPressEvent) -> None:
            self.scroll_by(-self._page())

        @keys.add("home", filter=free)  # (with a line typed, Home and End move in it)
        def _oldest(event: KeyPressEvent) -> None:
            self.scroll_by(len(self._message_rows()))

        @keys.add("end", filter=free)
        def _newest(event: KeyPressEvent) -> None:
            self.scroll = 0

        return keys

    def hinted_here(self) -> bool:
        """Whether a hint was asked in this position (``?`` again gives the next choice, as
        Microsoft Spider's hint key moves on to its next suggestion)."""
        return self.session.analysis.hinted[0] == self.session.game.key()

    def play_marked(self) -> None:
        """The ``!`` key: play the next move of the line found (the one marked on the
        tableau); where the last hint said a deal is due, deal; with nothing found here,
        hint's move (as ``auto 1``)."""
        analysis = self.session.analysis
        if self.marked() is not None:
            self.player.prepared(cmd.Apply(1))
        elif analysis.deal_due_at == self.session.game.key():
            self.player.prepared(cmd.DealCommand())
        else:
            self.player.auto(cmd.Auto(1), "", key=True)

    def enter(self) -> None:
        """Enter: answer the question asked, or run the line typed (a long reply gives the
        screen back first)."""
        line = self.buffer.text
        if self.reading:
            self.close_reading()
            if not line.strip() and self.question is None:
                return
        question, self.question = self.question, None
        if question is not None:
            self.buffer.reset()
            self.say(question.text + line)
            question.answer(line)
            return
        if not line.strip():
            self.buffer.reset()
            self.scroll = 0  # Enter on an empty line: the newest replies again
            return
        self.buffer.append_to_history()
        self.buffer.reset()
        self.say([("class:prompt", PROMPT), *highlight_line(line), ("", "\n")])
        self.player.enter(line)

    def show_played(self, played: Played, fresh: frozenset[tuple[int, int]]) -> None:
        """One move of ``auto``: said in the replies, and the board drawn now (not once the
        key's work is done), its moved cards underlined."""
        self.fresh = fresh
        self.say(render.played(played))
        with self._screen:  # not while the ticking line is written
            self.app.render_counter += 1  # a new drawing: nothing is taken from the last one
            self.app.renderer.render(self.app, self.app.layout)

    def auto_said(self, auto: Auto) -> str:
        """Why ``auto`` stopped (its moves are in the replies already)."""
        return "\n".join(auto_stop(auto))

    # -- questions ----------------------------------------------------------------------------

    def ask(self, question: Prompt) -> None:
        """Ask in the command line; Enter answers, Ctrl-C cancels."""
        self.buffer.reset()
        self.question = question

    # -- the mouse ----------------------------------------------------------------------------

    def mouse(self, spot: Spot, event: MouseEvent) -> object:
        """Press and let go on one pile: its obvious move; over another pile: a move there.
        A right click selects a card for the next click's pile."""
        kind = event.event_type
        if kind == MouseEventType.MOUSE_DOWN:
            if self.question is not None:
                return None
            if event.button == MouseButton.RIGHT:
                self.selected = None if self.selected == spot else self._card(spot)
            else:
                self.pressed = spot
            return None
        if kind == MouseEventType.MOUSE_UP:
            pressed, self.pressed = self.pressed, None
            if self.question is None and event.button != MouseButton.RIGHT:
                self.released(pressed or spot, spot)
            return None
        return NotImplemented

    def _card(self, spot: Spot) -> Spot | None:
        if spot.pile is None or spot.at is None:
            return None
        return spot

    def released(self, pressed: Spot, spot: Spot) -> None:
        """The button let go over ``spot`` after being pressed over ``pressed`` (while a
        past position is shown, as ``review N`` shows one: back to the game, nothing moved)."""
        if self.shown is not None:
            self.draw()
            return
        selected, self.selected = self.selected, None
        if selected is not None and spot.pile not in (None, selected.pile):
            self._move_to(selected, spot.pile)
        elif spot.pile is None:
            if pressed.pile is None:
                self._play(Deal())
        elif pressed.pile is not None and pressed.pile != spot.pile:
            self._move_to(pressed, spot.pile)
        else:
            self._obvious(pressed)

    def _obvious(self, spot: Spot) -> None:
        """A click on a pile: the cards from the one clicked (the bottom one: the longest
        run that fits) to their obvious place."""
        assert spot.pile is not None
        try:
            self._play(obvious_at(self.session.game, spot.pile, spot.at))
        except SpiderError as error:
            self.error(error)

    def _move_to(self, spot: Spot, dst: int) -> None:
        """The cards from the one at ``spot`` to pile ``dst`` (from the bottom card: as
        many as fit, as '3 10' does)."""
        assert spot.pile is not None
        game = self.session.game
        cards = game.piles[spot.pile]
        if not cards:
            self.error(SpiderError(f"pile {spot.pile + 1} is a space"))
            return
        if spot.at is None or spot.at >= len(cards) - 1:
            try:
                action = fitting_move(game, spot.pile, dst)
            except SpiderError as error:
                self.error(error)
                return
        else:
            action = Move(spot.pile, dst, len(cards) - spot.at)
        self._play(action)

    def _play(self, action: Action) -> None:
        """An action chosen with the mouse: its questions asked, then played."""
        self.player.prepared(action)

    def finish(self, status: int, farewell: str | None = None) -> None:
        """Leave (``farewell``: said, and printed once the screen is given back)."""
        if farewell:
            self.say(farewell)
            self.farewell.append([("", farewell)])
        self.app.exit(result=status)
