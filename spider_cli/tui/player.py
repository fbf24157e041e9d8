"""One player at the keyboard, whichever front end: what a typed line, a key or a click
does, the questions asked before a command runs, replaying the game and leaving it.

A :class:`Player` drives a :class:`~spider_cli.app.session.Session` through its two phases
(prepare, then run with the answers) and keeps the game's records through a
:class:`~spider_cli.app.keeping.Keeper`. What it shows and asks goes through a
:class:`Surface`: the line mode (:mod:`spider_cli.tui.repl`) prints below the prompt and asks
at prompts of its own; the board (:mod:`spider_cli.tui.board`) writes into its message area
and asks in its command line. Questions are handed to the surface with what to do with the
answer, so both ask the same questions in the same order, each its own way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from enum import Enum
from typing import TYPE_CHECKING, NamedTuple, Protocol

from prompt_toolkit.application.current import get_app_session
from prompt_toolkit.completion import Completer, PathCompleter, WordCompleter
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples

from spider_cli.analysis import native
from spider_cli.app import interrupt
from spider_cli.app.handlers import COMMANDS
from spider_cli.app.interpreter import Answers, Prepared, Shown
from spider_cli.app.journal import Journal, JournalEntry
from spider_cli.app.keeping import Keeper, Tone
from spider_cli.app.results import Auto, GameReviewed, Played, Reply, Reviewed
from spider_cli.app.session import Session
from spider_cli.app.words import progress
from spider_cli.app.words.notes import NOT_BUILT, slow_note
from spider_cli.app.words.replies import result_lines, review_text, reviewed_text, text_of
from spider_cli.language import commands as cmd
from spider_cli.language.explain import HELP_SUFFIX, UnknownCommandError
from spider_cli.language.files import textfiles as files
from spider_cli.language.notation import parse_command
from spider_cli.language.places import in_line
from spider_cli.rules.cards import Card
from spider_cli.rules.engine import Action, Game
from spider_cli.rules.errors import NotationError, SpiderError, caret_line, cells
from spider_cli.tui import render
from spider_cli.tui.render import Snapshot

if TYPE_CHECKING:
    from spider_cli.analysis import Review

PROMPT = "spider> "


@contextlib.contextmanager
def ticking(write: Callable[[str], None], lock: threading.Lock) -> Iterator[None]:
    """While a search runs, a line that counts its seconds, says how far the search is (if
    it says: :mod:`spider_cli.app.words.progress`) and how to stop it, so that a long search does
    not look like a hang: written at once and every half second with
    ``write`` (holding ``lock``, which the screen's drawing holds too), wiped afterwards."""
    done = threading.Event()
    began = time.monotonic()
    progress.clear()

    def tick() -> None:
        while True:
            far = progress.said()
            far = f", {far}" if far else ""
            with lock:
                seconds = time.monotonic() - began
                write(f"\r\x1b[2Ksearching... {seconds:.0f} s{far} (Ctrl-C stops)")
            if done.wait(0.5):
                return

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
        progress.clear()
        with lock:
            write("\r\x1b[2K")


NOT_IN_POOL = "not a card an unknown card can be (Tab lists them)"
TONES = {Tone.PLAIN: "", Tone.DIM: "class:dim", Tone.WARNING: "class:warning"}


def placed(error: SpiderError, line: str) -> SpiderError:
    """The error of a typed ``line`` said at the word of the line it is about, if it is
    about one (:func:`~spider_cli.language.places.in_line`)."""
    typed = line.rstrip("\r\n")
    return in_line(error, typed) if typed.strip() else error


def error_lines(error: SpiderError, line: str = "") -> list[tuple[str, str]]:
    """A failed command as lines and their styles: a caret under the typed ``line`` where it
    cannot be read, or under the word at fault of a line that reads (:func:`placed`), then
    the reason; errors about other text (a file being loaded) in full."""
    typed = line.rstrip("\r\n")
    error = placed(error, typed)
    if isinstance(error, UnknownCommandError):  # typed at the prompt: say where help is
        error = NotationError(error.message + HELP_SUFFIX, error.line, error.column, error.context)
    if (
        isinstance(error, NotationError)
        and error.column
        and typed
        and typed.isprintable()  # (a tab or a control character is not one cell at a prompt)
        and error.context.split("\n", 1)[0] == caret_line(typed, error.column).split("\n", 1)[0]
    ):  # about the typed line (a long one shown cut): the caret goes under the line typed
        caret = " " * (len(PROMPT) + cells(typed[: error.column - 1])) + "^"  # wide: two
        return [(caret, "class:error-context"), (f"error: {error.message}", "class:error")]
    return [(f"error: {error}", "class:error")]


class Stop(Enum):
    """A question left unanswered: Ctrl-C (cancel it) or Ctrl-D (the line mode's end)."""

    CANCEL = "^C"
    END = "^D"


Answer = str | Stop


class Prompt(NamedTuple):
    """A question for the player; ``answer`` gets the reply. ``stepper``: q, Escape and b
    answer at once (stepping through a replay)."""

    text: str
    answer: Callable[[Answer], None]
    completer: Completer | None = None
    stepper: bool = False


class Surface(Protocol):
    """Where a player's game is shown and questions asked (the line mode, the board)."""

    transcript: deque[str]
    glyphs: render.Glyphs
    keys_help: str
    """Said after the welcome: the surface's own keys and clicks."""
    show_note: str
    """Said under ``show``: where the tableau is (the board need not draw it again)."""

    def say(self, text: StyleAndTextTuples | str, style: str = "") -> None: ...

    def read(self, text: FormattedText) -> None:
        """Show a long reply (help, games) where it can be read whole."""

    def draw(
        self,
        fresh: frozenset[tuple[int, int]] = frozenset(),
        note: FormattedText | None = None,
        game: Game | None = None,
    ) -> None: ...

    def error(self, error: SpiderError, line: str = "") -> None: ...

    def ask(self, question: Prompt) -> None: ...

    def searching(self, command: cmd.Command | None) -> contextlib.AbstractContextManager[None]: ...

    def show_played(self, played: Played, fresh: frozenset[tuple[int, int]]) -> None: ...

    def auto_said(self, auto: Auto) -> str: ...

    def refresh(self) -> None: ...

    def offering(self, entry: JournalEntry | None) -> None: ...

    def analyse(self, review: Review) -> None:
        """A review done: the board opens its analysis view of it; the line mode has none."""

    def finish(self, status: int, farewell: str | None = None) -> None: ...

    def run(self) -> int: ...


def pool_card(text: str, pool: Iterable[Card]) -> Card | None:
    """The card typed at a reveal question if an unknown card can be it, else None."""
    try:
        card = Card.parse(text.strip())
    except SpiderError:
        return None
    return card if card in pool else None


def pool_completer(pool: Iterable[Card]) -> WordCompleter:
    """Completion of the cards an unknown card can be, by suit, high cards first."""
    cards = sorted(set(pool), key=lambda card: (card.suit, -card.rank))
    return WordCompleter([str(card) for card in cards], ignore_case=True)


def replace_question(path: os.PathLike[str] | str) -> str:
    """Asked before ``save`` replaces another file (Enter: no)."""
    return f"{files.shown(os.path.basename(path))} exists. Replace it? [y/N] "


def resume_question(entry: JournalEntry) -> str:
    """Asked when ``spider`` starts with a game in progress in the journal (Enter: yes)."""
    plural = "s" if entry.moves != 1 else ""
    start = f"{entry.start}, " if entry.start else ""
    return f"Continue the game in progress ({start}{entry.moves} move{plural})? [Y/n] "


class Player:
    """A session played through a surface, its records kept by a keeper."""

    def __init__(self, session: Session, surface: Surface, journal: Journal | None = None):
        self.session = session
        self.surface = surface
        self.keeper = Keeper(session, journal)
        self._later: list[tuple[str, str]] = []

    def touched(self, *_event: object) -> None:
        """A key or a click: the game's watch counts play, and goes on after a pause."""
        timer = self.session.timer
        if timer is not None:
            timer.touch()

    # -- saying -------------------------------------------------------------------------------

    def later(self, text: str, style: str = "class:dim") -> None:
        """Say this after the screen is next drawn (a redraw would wipe it out before)."""
        self._later.append((text, style))

    def flush_later(self) -> None:
        """Say what waited for the screen to be drawn (the keeper's notices too)."""
        for notice in self.keeper.take_notices():
            self._later.append((notice.text, TONES[notice.tone]))
        while self._later:
            self.surface.say(*self._later.pop(0))

    def ask_yes(self, text: str, then: Callable[[bool | Stop], None], default: bool) -> None:
        """A yes/no question: y is yes, n is no, Enter the ``default``; asked again
        otherwise. ``then`` gets the answer (a Stop for Ctrl-C or Ctrl-D)."""

        def answer(reply: Answer) -> None:
            if isinstance(reply, Stop):
                then(reply)
                return
            word = reply.strip().lower() or ("y" if default else "n")
            if word in ("y", "yes", "n", "no"):
                then(word.startswith("y"))
                return
            self.surface.say("please answer y or n", "class:warning")
            self.surface.ask(Prompt(text, answer))

        self.surface.ask(Prompt(text, answer))

    # -- the game begins ----------------------------------------------------------------------

    def start(self, name: str | None = None, offer_journal: bool = False) -> int:
        """Set up the game (the journaled one, a file, or the new deal), then play until the
        player leaves (the time played paused while spider waits in the background)."""
        waiting = self.keeper.journal.waiting() if offer_journal else []
        if waiting:
            self.offer_journals(waiting)
        else:
            loaded = None
            if name is not None:
                try:
                    loaded = self.session.load(name)
                except SpiderError as error:
                    self.surface.error(error)
                    return 1
            self.keeper.opened_file(loaded)
            self.begin()
        with self.background_pauses():
            status = self.surface.run()
        self.keeper.left()
        return status

    def begin(self) -> None:
        """The game is set up: journal it, and draw it with the welcome."""
        self.after_command()
        self.surface.draw(note=render.message(self.welcome() + self.surface.keys_help))

    def welcome(self) -> str:
        moves = self.session.game.moves_made
        where = f", continued after move {moves}" if moves else ""
        slow = ""
        if native.missing() and native.wanted():  # said once, here rather than at a search
            self.session.analysis.slow_noted = True
            slow = f"\n{slow_note(NOT_BUILT)}."
        return (
            f"Spider: {self.session.describe_start()}{where}.\n"
            "New here? Type 'help'. Moves are written 'Jh from 8 to 9', or just '8 9'.\n"
            "Tab completes. 'quit' leaves; the game is always kept for next time." + slow
        )

    def offer_journals(self, waiting: list[tuple[Journal, JournalEntry]]) -> None:
        """Offer the games left in journals back one after another, the newest first,
        until one is taken up; then begin (with the new deal if none is). Each is offered
        with its own journal, which this spider keeps if it takes the game up."""
        if not waiting:
            self.begin()
            return
        (journal, entry), rest = waiting[0], waiting[1:]
        keeper = self.keeper
        first_free, keeper.journal = keeper.journal, journal
        self.surface.offering(entry)

        def answered(keep: bool | Stop) -> None:  # Ctrl-C or Ctrl-D: yes
            self.surface.offering(None)
            if keeper.resume_journal(entry, keep is not False):
                for other, _ in rest:
                    other.release()
                self.begin()
                return
            journal.release()
            keeper.journal = first_free
            self.offer_journals(rest)

        self.ask_yes(resume_question(entry), answered, default=True)

    # -- commands -----------------------------------------------------------------------------

    def enter(self, line: str) -> None:
        """A typed line: read once, its questions asked, then run and shown."""
        try:
            command = parse_command(line)
        except SpiderError as error:
            self.surface.error(error, line)
            return
        if command is None:
            self.perform(Reply, line)
        elif COMMANDS.streams(command) and isinstance(command, cmd.Auto):
            self.auto(command, line)
        else:
            self.prepared(command, line)

    def prepared(self, what: cmd.Command | Action, line: str = "") -> None:
        """Prepare a command (or an action chosen with the mouse), ask its questions, run it.
        A command that would replace a game in progress (a new deal, a game of the history, a
        file) is checked, then asked about first, as it leaves the game."""
        moves = self.session.game.moves_made
        if isinstance(what, cmd.Open) and what.number == self.keeper.number:
            self.surface.say(f"game {what.number} is the game in play", "class:dim")
            return
        instead = _replacement(what)
        if instead and moves and not self.keeper.counted:
            try:
                self.session.prepare(what)  # a command that cannot run is said before asking
            except SpiderError as error:
                self.surface.error(error, line)
                return

            def then(yes: bool | Stop) -> None:
                if yes is True:
                    self._prepared(what, line)

            plural = "s" if moves != 1 else ""
            question = f"Abandon this game ({moves} move{plural}) for {instead}? [y/N] "
            self.ask_yes(question, then, False)
            return
        self._prepared(what, line)

    def _prepared(self, what: cmd.Command | Action, line: str = "") -> None:
        try:
            prepared = self.session.prepare(what)
        except SpiderError as error:
            self.surface.error(error, line)
            return

        def with_cards(cards: tuple[tuple[int, Card], ...]) -> None:
            self._replacing(prepared, lambda replace: self._run(prepared, cards, replace, line))

        self._ask_reveals(prepared, with_cards)

    def _run(
        self,
        prepared: Prepared,
        cards: tuple[tuple[int, Card], ...],
        replace: bool | None,
        line: str,
    ) -> None:
        answers = Answers(cards, replace)
        if self.perform(lambda: self.session.run(prepared, answers), line, prepared.command):
            self.leave()

    def _ask_reveals(
        self, prepared: Prepared, then: Callable[[tuple[tuple[int, Card], ...]], None]
    ) -> None:
        """Ask which card turns up on each pile (Enter or Ctrl-C: a random one; Ctrl-D:
        random ones for the rest), then go on with the cards chosen."""
        piles, pool = prepared.reveals, list(prepared.pool)
        chosen: list[tuple[int, Card]] = []

        def ask(k: int) -> None:
            if k == len(piles):
                then(tuple(chosen))
                return

            def answer(reply: Answer) -> None:
                if reply is Stop.END:
                    then(tuple(chosen))
                    return
                if isinstance(reply, str) and reply.strip():
                    card = pool_card(reply, pool)
                    if card is None:
                        self.surface.say(NOT_IN_POOL, "class:warning")
                        ask(k)
                        return
                    pool.remove(card)
                    chosen.append((piles[k], card))
                ask(k + 1)

            question = f"pile {piles[k] + 1} turns up: (Enter for a random card, or type one) "
            self.surface.ask(Prompt(question, answer, pool_completer(pool)))

        ask(0)

    def _replacing(self, prepared: Prepared, then: Callable[[bool | None], None]) -> None:
        """Whether ``save`` may replace the file it names: its own file, yes; another, if
        the player says so (Enter, Ctrl-C or Ctrl-D: no); None when there is none."""
        path = prepared.replaces
        if path is None:
            then(None)
        elif self.keeper.own_file(path):
            then(True)
        else:
            self.ask_yes(replace_question(path), lambda yes: then(yes is True), default=False)

    def auto(self, command: cmd.Auto, line: str, key: bool = False) -> None:
        """Hint's moves one at a time, each shown as it is played, so that a long ``auto``
        shows its progress; Ctrl-C stops it, the moves played kept. ``key``: for a key that
        plays hint's move, which says no more than the move unless it could not play it."""
        before = [Snapshot.of(self.session.game)]

        def moved(played: Played) -> None:
            game = self.session.game
            fresh = render.fresh_cards(before[0], game)
            before[0] = Snapshot.of(game)
            self.keeper.after_command()  # each move journaled as played: none lost to a kill
            self.surface.show_played(played, fresh)

        def call() -> Reply:
            result = self.session.auto(command.n, each=moved)
            done = key and len(result.moves) == command.n
            text = "" if done else self.surface.auto_said(result)
            return Reply(text, command=command, result=result)

        if not key:
            self.surface.say("auto: hint's moves, one at a time (Ctrl-C stops)", "class:dim")
        self.perform(call, line, command)

    def perform(
        self, call: Callable[[], Reply], line: str = "", command: cmd.Command | None = None
    ) -> bool:
        """Run a call of the session's methods (a typed line, a key, a click) and show its
        result: the one way a command is run, counted and journaled (``command``: the one
        typed or that a key stands for, if any). True when the player asked to leave."""
        session = self.session
        surface = self.surface
        game_before = session.game
        before = Snapshot.of(game_before)
        previous = session.copy()  # the game before: a command that replaces it leaves it
        try:
            with surface.searching(command), interrupt.acting():
                reply = call()
        except SpiderError as error:
            surface.error(error, line)
            return False
        except KeyboardInterrupt:  # Ctrl-C during a long solve: stop it, keep the game
            if Snapshot.of(session.game) == before:
                surface.say("interrupted; the game is as it was", "class:dim")
            else:  # (a move is never cut in half: see spider_cli.app.interrupt)
                surface.say("interrupted; the moves made before Ctrl-C are kept", "class:dim")
            return False
        except Exception as error:  # a bug must not cost the game: say it in one line
            surface.say(
                f"internal error ({type(error).__name__}: {error}); the game is kept in "
                "the journal, please report this",
                "class:error",
            )
            return False
        if isinstance(reply.command, cmd.Quit):
            return True
        if reply.command is None and reply.result is None and not line.strip():
            surface.draw()  # Enter on an empty line: the tableau again
            return False
        try:
            with interrupt.HELD:  # the records whole: a Ctrl-C waits for them
                replaced = session.game is not game_before
                if replaced:
                    self.keeper.replaced(previous, reply.result)
                self.keeper.observe(reply.result)
                self.after_command()
            with interrupt.acting():
                self._show(reply, before, replaced)
                self.flush_later()
        except KeyboardInterrupt:  # while the reply was drawn: the game and its records stand
            surface.say("(Ctrl-C: the reply was cut short; the game is kept)", "class:dim")
        return False

    def after_command(self) -> None:
        """Record and journal the game, refresh the status line."""
        self.keeper.after_command()
        self.surface.refresh()

    def _show(self, reply: Reply, before: Snapshot, replaced: bool) -> None:
        command = reply.command
        game = self.session.game
        surface = self.surface
        shown = COMMANDS.shown(command)
        if shown is Shown.BOARD and isinstance(command, cmd.Show):
            if command.pile is None:
                surface.draw(note=render.message(surface.show_note))  # (empty: no note)
            else:
                surface.say(render.pile_detail(game, command.pile - 1, surface.glyphs))
        elif shown is Shown.STEPPED:
            self.replay()
        elif isinstance(reply.result, GameReviewed):  # the curve's rows within the screen
            done = reply.result.review
            columns = get_app_session().output.get_size().columns
            wide = review_text(done, game, width=columns)
            said = reply.text.replace(review_text(done, game), wide)
            surface.say(render.message(said))
            surface.analyse(done)
        elif isinstance(reply.result, Reviewed):  # the position before the move, as drawn
            said = reviewed_text(reply.result, game, position=False)
            surface.draw(note=render.message(said), game=reply.result.before)
        elif replaced:
            surface.draw(note=render.message(reply.text))
        elif Snapshot.of(game) != before:
            surface.draw(render.fresh_cards(before, game), _change(reply))
        elif reply.text and shown is Shown.READ:
            surface.read(render.message(reply.text))
        elif reply.text:
            surface.say(render.message(reply.text))

    # -- replay -------------------------------------------------------------------------------

    def replay(self) -> None:
        """Step through the game from the start on a copy: Enter the next move, b back one,
        q stop (the keys b and q act at once)."""
        session, surface = self.session, self.surface
        total = session.game.moves_made
        if not total:
            surface.say("no moves yet: this is the start of the game")
            return
        viewer = session.copy(game=session.game.copy())
        viewer.restart()
        surface.draw(
            note=render.message(f"replay: the start ({total} moves to go)"), game=viewer.game
        )

        def step(at: int) -> None:
            def answer(reply: Answer) -> None:
                word = "" if isinstance(reply, Stop) else reply.strip().lower()
                if isinstance(reply, Stop) or word.startswith("q"):
                    note = f"back at the current position (move {total})"
                    surface.draw(note=render.message(note))
                    return
                before = Snapshot.of(viewer.game)
                if word.startswith("b"):
                    if not at:
                        surface.say("replay: this is the start", "class:dim")
                        step(at)
                        return
                    took = viewer.undo(1).moves[0].text
                    back = f"back to move {at - 1}/{total} (took back {took})"
                    surface.draw(note=render.message(back), game=viewer.game)
                    step(at - 1)
                    return
                moved = f"move {at + 1}/{total}: {viewer.redo().moves[0].text}"
                surface.draw(
                    render.fresh_cards(before, viewer.game),
                    render.change(moved, render.describe_changes(before, viewer.game)),
                    game=viewer.game,
                )
                if at + 1 == total:
                    surface.draw(note=render.message("replay over: this is the current position"))
                else:
                    step(at + 1)

            question = f"replay {at}/{total} (Enter: next move, b: back, q: stop) "
            surface.ask(Prompt(question, answer, stepper=True))

        step(0)

    # -- leaving ------------------------------------------------------------------------------

    def leave(self) -> None:
        """Leave, the game kept in the journal; first ask to save when the keeper has a
        question (Ctrl-C: keep playing; the line mode's Ctrl-D: leave)."""
        question = self.keeper.leave_question()
        if question is None:
            self.surface.finish(0)
            return

        def then(yes: bool | Stop) -> None:
            if yes is Stop.CANCEL:
                self.surface.say("(still playing)", "class:dim")
            elif yes is Stop.END:
                self.surface.finish(0)
            elif yes and question.update is not None:
                self._save_and_leave(question.update)
            elif yes:
                self._ask_name()
            else:
                self.surface.finish(0, self.keeper.not_saved())

        self.ask_yes(question.text, then, True)

    def _ask_name(self) -> None:
        default = self.keeper.default_name()

        def answer(reply: Answer) -> None:
            if reply is Stop.CANCEL:
                self.surface.say("(still playing)", "class:dim")
            elif reply is Stop.END:
                self.surface.finish(0, self.keeper.not_saved())
            else:
                name = reply.strip() or default
                path = self.session.files.would_replace(name)
                if path is None or self.keeper.own_file(path):
                    self._save_and_leave(name)
                    return

                def replace(yes: bool | Stop) -> None:
                    if yes is True:
                        self._save_and_leave(name)
                        return
                    shown = files.shown(name)
                    self.surface.error(SpiderError(f"{shown} is kept as it was: nothing saved"))
                    self._ask_name()

                self.ask_yes(replace_question(path), replace, default=False)

        completer = PathCompleter(expanduser=True)
        self.surface.ask(Prompt(f"Save as [{default}]: ", answer, completer))

    def _save_and_leave(self, name: str) -> None:
        """Save the game as ``name`` and leave; asked for another name if that fails."""
        try:
            saved = self.keeper.save_on_leaving(name)
        except SpiderError as error:
            self.surface.error(error)
            self._ask_name()
            return
        self.surface.finish(0, text_of(saved))

    # -- the time played ----------------------------------------------------------------------

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


def _change(reply: Reply) -> FormattedText:
    """What a command that changed the position says: moves (played, taken back, replayed)
    drawn from the typed result, anything else from its text."""
    lines = result_lines(reply.result)
    return render.change(reply.text) if lines is None else render.pieces(lines)


def _replacement(what: cmd.Command | Action) -> str:
    """What a command would put in the game's place, in a question's words ("" if nothing)."""
    if isinstance(what, cmd.NewCommand):
        return "a new deal"
    if isinstance(what, cmd.Open):
        return f"game {what.number} of the history"
    if isinstance(what, cmd.Load):
        return f"{files.shown(what.path)}"
    return ""
