"""The full-screen board: the tableau stays in place, the mouse and single keys play.

A prompt_toolkit :class:`~prompt_toolkit.application.Application` in four parts, top to
bottom: the tableau (redrawn after every command, as compact as the screen needs), the
status line, the last replies (a scrollable message area) and the command line, with the
line mode's completion, history and highlighting. The board is a :class:`Repl` whose output
goes to the message area instead of the terminal: typed lines, keys and clicks all run
through :meth:`Repl.perform`, so a game is counted, journaled and answered the same way in
both modes, and keys and clicks call the session's methods with typed values.

The mouse follows the manual's program: a click on a card sends it, and the cards covering
it, to their obvious place (:meth:`Game.obvious`); pressing on a card and letting go over
another pile moves the cards there, and so does a right click on a card (it is selected)
then a click on another pile. A click on the hand deals. The move is echoed in notation.

Questions (which card turns up, save before leaving, replace a file, a new deal, continue
the game in progress) are asked in the command line, never at a prompt outside the board;
Ctrl-C at one cancels it. The cards a command would turn up, and whether ``save`` may
replace a file, are asked before it runs, then handed to the session through
``ask_reveal`` and ``confirm_replace``, as the line mode's answers are. ``auto`` draws the
tableau after every move it plays.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from prompt_toolkit import print_formatted_text
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import (
    CompleteEvent,
    Completer,
    Completion,
    DynamicCompleter,
    PathCompleter,
)
from prompt_toolkit.data_structures import Point
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import split_lines
from prompt_toolkit.history import History
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    BufferControl,
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

from spider_cli.app import interrupt
from spider_cli.app.journal import Entry, Journal
from spider_cli.app.session import (
    Auto,
    Played,
    Reply,
    Session,
    auto_stop,
    chance_text,
    played_text,
    text_of,
)
from spider_cli.language import commands as cmd
from spider_cli.language.notation import parse_command, resolve
from spider_cli.rules.cards import Card
from spider_cli.rules.engine import Action, Deal, Game, Move, Remove
from spider_cli.rules.errors import SpiderError
from spider_cli.tui import render
from spider_cli.tui.completion import LegalSuggestions
from spider_cli.tui.highlight import CommandLexer, highlight_line
from spider_cli.tui.render import STYLE, UNICODE, Glyphs, Snapshot, Spot
from spider_cli.tui.repl import (
    NOT_IN_POOL,
    PROMPT,
    SEARCHES,
    Repl,
    pool_card,
    pool_completer,
    replace_question,
    resume_question,
)

MESSAGE_LINES = 500
"""Lines the message area keeps (it scrolls back through them)."""
MESSAGE_ROWS = 3
"""Rows the message area keeps on the screen at least: the tableau shrinks first."""
_FIXED_ROWS = 4 + MESSAGE_ROWS
"""Rows that are not piles: header, pile numbers, status line, command line, messages."""


class _Question(NamedTuple):
    """A question asked in the command line; ``answer`` gets the reply (None: Ctrl-C)."""

    text: str
    answer: Callable[[str | None], None]
    completer: Completer | None = None


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


class Board(Repl):
    """The game on a full screen: the tableau, the status line, replies, the command line."""

    def __init__(
        self,
        session: Session,
        glyphs: Glyphs = UNICODE,
        journal: Journal | None = None,
        history: History | None = None,
    ) -> None:
        super().__init__(session, glyphs, journal, history)
        self.messages: deque[StyleAndTextTuples] = deque(maxlen=MESSAGE_LINES)
        self.scroll = 0
        """Lines scrolled back from the newest reply."""
        self.fresh: frozenset[tuple[int, int]] = frozenset()
        self.shown: Game | None = None
        """A game shown instead of the session's (a replay's)."""
        self.previewed: Session | None = None
        """The game in progress, shown with its status line while it is offered back."""
        self.question: _Question | None = None
        self.typing = False
        """The player is writing a command: the single keys are letters again."""
        self.pressed: Spot | None = None
        self.selected: Spot | None = None
        self.farewell: list[StyleAndTextTuples] = []
        """What is said while leaving, printed once the screen is given back."""
        self._answers: dict[int, Card] = {}
        self._replace = False
        """The answer to "replace it?", asked before the ``save`` ran."""
        self._ran = False
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
            on_text_changed=self._text_changed,
        )
        self.app: Application[int] = Application(
            layout=self._layout(),
            key_bindings=self._keys(),
            style=STYLE,
            include_default_pygments_style=False,
            full_screen=True,
            mouse_support=True,
            refresh_interval=None if session.timer is None else 1.0,  # the clock ticks
        )

    # -- the screen ---------------------------------------------------------------------------

    def _layout(self) -> Layout:
        line = BufferControl(
            self.buffer,
            lexer=DynamicLexer(lambda: None if self.question else CommandLexer()),
            input_processors=[BeforeInput(self._prompt), AppendAutoSuggestion()],
        )
        messages = FormattedTextControl(
            self._messages, get_cursor_position=self._newest, focusable=False
        )
        body = HSplit(
            [
                Window(FormattedTextControl(self._tableau), height=self._tableau_height),
                Window(FormattedTextControl(self._status), height=1, style="class:bottom-toolbar"),
                Window(messages, height=Dimension(min=1)),
                Window(line, height=1),
            ]
        )
        menu = Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8))
        return Layout(FloatContainer(body, floats=[menu]), focused_element=line)

    def _size(self) -> tuple[int, int]:
        size = self.app.output.get_size()
        return size.columns, size.rows

    def _tableau(self) -> StyleAndTextTuples:
        columns, rows = self._size()
        game = self.shown or self.session.game
        text = render.tableau(
            game, self.glyphs, columns, max(1, rows - _FIXED_ROWS), self.fresh, self._click
        )
        selected = self.selected or self.pressed
        if selected is None or selected.pile is None or selected.at is None:
            return text
        out: StyleAndTextTuples = []
        for fragment in text:
            handler = fragment[2] if len(fragment) == 3 else None
            if (
                isinstance(handler, _Click)
                and handler.spot.pile == selected.pile
                and (handler.spot.at or 0) >= selected.at
                and fragment[1].strip()
            ):
                out.append((fragment[0] + " class:selected", fragment[1], handler))
            else:
                out.append(fragment)
        return out

    def _tableau_height(self) -> Dimension:
        return Dimension.exact(sum(1 for _ in split_lines(self._tableau())) - 1)

    def _click(self, spot: Spot) -> _Click:
        return _Click(self, spot)

    def _status(self) -> StyleAndTextTuples:
        columns, _rows = self._size()
        keys = self.question is None and not self.typing
        status = (self.previewed or self.session).status()
        return render.toolbar(status, self.glyphs, columns, keys=keys)

    def _message_rows(self) -> list[StyleAndTextTuples]:
        """The replies kept, broken into rows between words at the screen's width."""
        columns, _rows = self._size()
        return [row for line in self.messages for row in render.wrap(line, columns)]

    def _messages(self) -> StyleAndTextTuples:
        """The replies, each row as wide as the screen so that the wheel scrolls them."""
        columns, _rows = self._size()
        out: StyleAndTextTuples = []
        for n, row in enumerate(self._message_rows()):
            if n:
                out.append(("", "\n"))
            out += [(style, text, self._wheel) for style, text, *_ in row]
            out.append(("", " " * (columns - len(render.plain(row))), self._wheel))
        return out

    def _wheel(self, event: MouseEvent) -> object:
        """The wheel over the replies scrolls them; a button let go there drops a drag."""
        if event.event_type == MouseEventType.MOUSE_UP:
            self.pressed = None
        elif event.event_type == MouseEventType.SCROLL_UP:
            self.scroll = min(len(self._message_rows()) - 1, self.scroll + 1)
        elif event.event_type == MouseEventType.SCROLL_DOWN:
            self.scroll = max(0, self.scroll - 1)
        else:
            return NotImplemented
        return None

    def _newest(self) -> Point:
        """Where the message area's view ends: the newest row, or as far as scrolled back."""
        return Point(0, max(0, len(self._message_rows()) - 1 - self.scroll))

    def _prompt(self) -> StyleAndTextTuples:
        if self.question:
            return [("class:question", self.question.text)]
        return [("class:prompt", PROMPT)]

    # -- output (the Repl's, into the message area) -------------------------------------------

    def say(self, text: StyleAndTextTuples | str, style: str = "") -> None:
        fragments = FormattedText([(style, text + "\n")]) if isinstance(text, str) else text
        self.transcript.append(render.plain(fragments))
        lines = list(split_lines(fragments))
        if lines and not render.plain(lines[-1]):
            lines.pop()
        self.messages.extend(lines)
        self.scroll = 0

    def draw(
        self,
        fresh: frozenset[tuple[int, int]] = frozenset(),
        note: FormattedText | None = None,
        game: Game | None = None,
    ) -> None:
        """The tableau is always on the screen: note what to underline and say ``note``."""
        self.fresh = fresh
        self.shown = game
        if note:
            self.say(note)
        self.flush_later()

    @contextlib.contextmanager
    def searching(self, line: str) -> Iterator[None]:
        """While a search runs: a line that says so, and the terminal as for a prompt, so
        that Ctrl-C interrupts it (the board reads Ctrl-C as a key otherwise)."""
        if not SEARCHES.match(line) or threading.current_thread() is not threading.main_thread():
            yield
            return
        output = self.app.output
        previous = interrupt.install()  # Ctrl-C stops the search, never half a move
        try:
            with self.app.input.cooked_mode():
                # Said once Ctrl-C does stop the search (a player may press it at once).
                output.write_raw("\r\x1b[2Ksearching... (Ctrl-C stops)")
                output.flush()
                yield
        finally:
            signal.signal(signal.SIGINT, previous)
            self.app.renderer.clear()  # the line written here: the next drawing is whole

    def offer_journal(self, entry: Entry, then: Callable[[bool], None]) -> None:
        """Offer the game in progress back in the board's own command line, the game shown
        behind the question (Ctrl-C: it goes on); ``then`` gets the answer."""
        preview = Session.new_game(seed=0)
        with contextlib.suppress(SpiderError):  # a damaged one is said once answered
            preview.load(entry.path)
            self.shown, self.previewed = preview.game, preview

        def answered(keep: bool | None) -> None:
            self.shown = self.previewed = None
            then(keep is not False)

        self._yes(resume_question(entry), answered, default=True)

    def _welcome(self) -> str:
        return (
            super()._welcome()
            + "\nClick a card to send it to its obvious place. With the line empty, keys:"
            "\nu undo, r redo, d deal, h hint, o odds, n new, q quit; ':' starts a command."
        )

    # -- the loop -----------------------------------------------------------------------------

    def start(self, name: str | None = None, offer_journal: bool = False) -> int:
        status = super().start(name, offer_journal)
        if not self._ran:
            self.farewell = list(self.messages)  # never shown: the file could not be read
            self._print_farewell()
        return status

    def run(self) -> int:
        self._ran = True
        try:
            status = self.app.run()
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
        keys = KeyBindings()
        free = Condition(lambda: not self.typing and not self.question and not self.buffer.text)

        def key(name: str, call: Callable[[], None]) -> None:
            @keys.add(name, filter=free)
            def _(event: KeyPressEvent) -> None:
                call()

        key("u", lambda: self.act(lambda: self.session.undo(1)))
        key("r", lambda: self.act(lambda: self.session.redo(1)))
        key("d", lambda: self.act(self.session.deal))
        key("h", self._hint)
        key("?", self._hint)
        key("o", self._odds)
        key("q", self.leave)
        key("n", self._ask_new)
        key(":", self._start_typing)

        @keys.add("c-z")
        def _background(event: KeyPressEvent) -> None:
            event.app.suspend_to_background()  # the time played stops with the program

        @keys.add("enter")
        def _enter(event: KeyPressEvent) -> None:
            self.enter()

        @keys.add("c-c")
        def _cancel(event: KeyPressEvent) -> None:
            self.buffer.reset()
            question, self.question = self.question, None
            if question is not None:
                self.say(question.text + "^C", "class:dim")
                question.answer(None)
            else:
                self.typing = False
                self.selected = None

        @keys.add("c-d", filter=Condition(lambda: not self.buffer.text))
        def _leave(event: KeyPressEvent) -> None:
            if self.question is None:
                self.leave()

        @keys.add("escape", eager=True)
        def _escape(event: KeyPressEvent) -> None:
            if self.question is None:
                self.buffer.reset()
                self.typing = False
                self.selected = None

        @keys.add("pageup")
        def _back(event: KeyPressEvent) -> None:
            self.scroll = min(len(self.messages) - 1, self.scroll + MESSAGE_ROWS)

        @keys.add("pagedown")
        def _forward(event: KeyPressEvent) -> None:
            self.scroll = max(0, self.scroll - MESSAGE_ROWS)

        return keys

    def _text_changed(self, buffer: Buffer) -> None:
        if buffer.text:
            self.typing = True

    def _start_typing(self) -> None:
        self.typing = True

    def enter(self) -> None:
        """Enter: answer the question asked, or run the line typed."""
        line = self.buffer.text
        question, self.question = self.question, None
        if question is not None:
            self.buffer.reset()
            self.typing = False  # an answer, not a command: the single keys are back
            self.say(question.text + line)
            question.answer(line)
            return
        if not line.strip():
            self.buffer.reset()
            self.typing = True
            return
        self.buffer.append_to_history()
        self.buffer.reset()
        self.say([("class:prompt", PROMPT), *highlight_line(line), ("", "\n")])
        self._replacing(
            self._saved_over(line),
            lambda: self._with_reveals(self._reveals_of(line), lambda: self._run(line)),
        )

    def _run(self, line: str) -> None:
        if self.handle(line):
            self.leave()

    def show_played(self, played: Played, fresh: frozenset[tuple[int, int]]) -> None:
        """One move of ``auto``: said in the replies, and the board drawn now (not once the
        key's work is done), its moved cards underlined."""
        self.fresh = fresh
        self.say(render.change(played_text(played)))
        self.app.render_counter += 1  # a new drawing: nothing is taken from the last one
        self.app.renderer.render(self.app, self.app.layout)

    def auto_said(self, auto: Auto) -> str:
        """Why ``auto`` stopped (its moves are in the replies already)."""
        return "\n".join(auto_stop(auto))

    def act(
        self, call: Callable[[], object], text: Callable[[object], str] = text_of, name: str = ""
    ) -> None:
        """A key or a click: call a session method, shown as a typed command's result
        (``name``: the command the key stands for)."""

        def reply() -> Reply:
            result = call()
            return Reply(text(result), result=result)

        self.perform(reply, name)

    def _hint(self) -> None:
        self.act(self.session.hint, lambda advice: advice.text, "hint")  # type: ignore[attr-defined]

    def _odds(self) -> None:
        self.act(self.session.odds, lambda chance: chance_text(chance), "odds")  # type: ignore[arg-type]

    # -- questions ----------------------------------------------------------------------------

    def _ask(
        self, text: str, answer: Callable[[str | None], None], completer: Completer | None = None
    ) -> None:
        self.buffer.reset()
        self.question = _Question(text, answer, completer)

    def _yes(self, text: str, then: Callable[[bool | None], None], default: bool) -> None:
        """A yes/no question; ``then`` gets the answer, None for Ctrl-C."""

        def answer(reply: str | None) -> None:
            if reply is None:
                then(None)
                return
            word = reply.strip().lower() or ("y" if default else "n")
            if word in ("y", "yes", "n", "no"):
                then(word.startswith("y"))
                return
            self.say("please answer y or n", "class:warning")
            self._ask(text, answer)

        self._ask(text, answer)

    def _ask_new(self) -> None:
        suits = self.session.game.suits
        plural = "s" if suits != 1 else ""

        def then(yes: bool | None) -> None:
            if yes:
                self.act(lambda: self.session.new(None, suits))

        self._yes(f"Start a new deal ({suits} suit{plural})? [y/N] ", then, default=False)

    def ask_reveal(self, pile: int, pool: list[Card]) -> Card | None:
        """The card asked for before the command ran (None: a random one)."""
        return self._answers.pop(pile, None)

    def ask_replace(self, path: Path) -> bool:
        """The answer asked for before the ``save`` ran."""
        answer, self._replace = self._replace, False
        return answer

    def _saved_over(self, line: str) -> Path | None:
        """The file a ``save`` line would replace after asking (None: no question)."""
        try:
            command = parse_command(line)
        except SpiderError:
            return None
        if not isinstance(command, cmd.Save) or command.replace:
            return None
        return self._replaced_file(command.path)

    def _replaced_file(self, name: str) -> Path | None:
        """The file saving as ``name`` would replace, if the player must be asked first: one
        that exists and is not the game's own."""
        path = self.session.would_replace(name)
        return path if path is not None and not self.own_file(path) else None

    def _replacing(self, path: Path | None, then: Callable[[], None]) -> None:
        """Ask whether ``path`` may be replaced (Ctrl-C: no), if there is one; then go on."""
        if path is None:
            then()
            return

        def answer(yes: bool | None) -> None:
            self._replace = bool(yes)
            then()

        self._yes(replace_question(path), answer, default=False)

    def _reveals_of(self, line: str) -> list[int]:
        """The piles where the move a line names would turn up an unknown card."""
        try:
            command = parse_command(line)
        except SpiderError:
            return []
        tableau = (cmd.MoveCommand, cmd.ObviousCommand, cmd.DealCommand, cmd.RemoveCommand)
        if not isinstance(command, tableau):
            return []
        try:
            action = resolve(self.session.game, command)
        except SpiderError:
            return []
        return self._reveals(action)

    def _reveals(self, action: Action) -> list[int]:
        game = self.session.game
        return game.unknown_reveals(action) if game.why_illegal(action) is None else []

    def _with_reveals(self, piles: list[int], then: Callable[[], None]) -> None:
        """Ask which card turns up on each pile (Enter or Ctrl-C: a random one), then go on."""
        self._answers = {}
        game = self.session.game
        pool = [Card(code) for code, n in enumerate(game.pool) for _ in range(n)]

        def ask(k: int) -> None:
            if k == len(piles):
                then()
                return

            def answer(text: str | None) -> None:
                if text and text.strip():
                    card = pool_card(text, pool)
                    if card is None:
                        self.say(NOT_IN_POOL, "class:warning")
                        ask(k)
                        return
                    pool.remove(card)
                    self._answers[piles[k]] = card
                ask(k + 1)

            question = f"pile {piles[k] + 1} turns up: (Enter for a random card, or type one) "
            self._ask(question, answer, pool_completer(pool))

        ask(0)

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
                self.typing = False
                self.released(pressed or spot, spot)
            return None
        return NotImplemented

    def _card(self, spot: Spot) -> Spot | None:
        if spot.pile is None or spot.at is None:
            return None
        return spot

    def released(self, pressed: Spot, spot: Spot) -> None:
        """The button let go over ``spot`` after being pressed over ``pressed``."""
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
            self._play(self.session.game.obvious_at(spot.pile, spot.at))
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
                action = game.fitting_move(spot.pile, dst)
            except SpiderError as error:
                self.error(error)
                return
        else:
            action = Move(spot.pile, dst, len(cards) - spot.at)
        self._play(action)

    def _play(self, action: Action) -> None:
        """An action chosen with the mouse, through the session's methods."""
        session = self.session
        if isinstance(action, Deal):
            call: Callable[[], object] = session.deal
        elif isinstance(action, Remove):
            pile = action.pile

            def call() -> object:
                return session.remove(pile)
        else:
            move = action

            def call() -> object:
                return session.move(move)

        self._with_reveals(self._reveals(action), lambda: self.act(call))

    # -- leaving and replaying ----------------------------------------------------------------

    def leave(self) -> None:
        """Leave, the game kept in the journal; first ask to save when
        :meth:`~Repl.leave_question` has a question."""
        question = self.leave_question()
        if question is None:
            self.app.exit(result=0)
            return

        def then(yes: bool | None) -> None:
            if yes is None:
                self.say("(still playing)", "class:dim")
            elif yes and question.update is not None:
                self._save_and_leave(question.update)
            elif yes:
                self._ask_name()
            else:
                self._goodbye(self.not_saved())

        self._yes(question.text, then, True)

    def _ask_name(self) -> None:
        default = self._default_name()

        def answer(text: str | None) -> None:
            if text is None:
                self.say("(still playing)", "class:dim")
                return
            name = text.strip() or default
            self._replacing(self._replaced_file(name), lambda: self._save_and_leave(name))

        self._ask(f"Save as [{default}]: ", answer, PathCompleter(expanduser=True))

    def _save_and_leave(self, name: str) -> None:
        """Save the game as ``name`` and leave; asked for another name if that fails."""
        try:
            saved = self.session.save(name)
        except SpiderError as error:
            self.error(error)
            self._ask_name()
            return
        self.saved_as = str(saved.path)
        self.journal.update(self.session, self.saved_as, self.counted, self.number)
        self._goodbye(text_of(saved))

    def _goodbye(self, text: str) -> None:
        self.say(text)
        self.farewell.append([("", text)])
        self.app.exit(result=0)

    def replay(self) -> None:
        """Step through the game from the start on a copy: Enter next move, q stop."""
        viewer = self.replay_viewer()
        if viewer is None:
            return
        total = self.session.game.moves_made
        self.draw(note=render.message(f"replay: the start ({total} moves to go)"), game=viewer.game)

        def step(number: int) -> None:
            def answer(text: str | None) -> None:
                if text is None or text.strip().lower().startswith("q"):
                    note = f"back at the current position (move {total})"
                    self.draw(note=render.message(note))
                    return
                before = Snapshot.of(viewer.game)
                moved = f"move {number}/{total}: {viewer.redo().moves[0].text}"
                self.draw(
                    render.fresh_cards(before, viewer.game),
                    render.change(moved, render.describe_changes(before, viewer.game)),
                    game=viewer.game,
                )
                if number == total:
                    self.draw(note=render.message("replay over: this is the current position"))
                else:
                    step(number + 1)

            self._ask(f"replay {number - 1}/{total} (Enter: next move, q: stop) ", answer)

        step(1)
