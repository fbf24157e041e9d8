"""The board's analysis view: a game reviewed, or a line found, stepped a position at a time.

``review`` on the board opens it over the tableau: the position under the cursor drawn as
the board draws every position (:func:`spider_cli.tui.render.tableau`), the move played
from it marked as a hint's is (the cards it moves, the card they go on), the review's words
on that move, and the chance curve under it with the cursor's cell reversed and the signs
of the moves below (:func:`spider_cli.app.words.stepping.curve_rows`). ``>`` opens it over
the line ``solve`` or ``hint`` found, before ``apply``. The state is the app's
:class:`~spider_cli.app.views.stepping.Study`; this module draws it and binds its keys:

- Left, Right: a move back, on; Home, End: the first position, the last;
- n, p: the next, the previous marked move; w: into the winning line at the move the deal
  was lost at, and out of it;
- Enter: play on from the position under the cursor as a new game;
- q, Esc: back to the game in play, as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from spider_cli.app.results import PlayedOn, Reply
from spider_cli.app.views.stepping import Study, play_on
from spider_cli.app.words import stepping as words
from spider_cli.rules.engine import Game, Move
from spider_cli.tui import render, wrapping
from spider_cli.tui.render import Glyphs, Spot

if TYPE_CHECKING:
    from prompt_toolkit.buffer import Buffer
    from prompt_toolkit.mouse_events import MouseEvent

    from spider_cli.analysis import Review
    from spider_cli.app.session import Session
    from spider_cli.tui.player import Player


class Board(Protocol):
    """What the view needs of the board it opens over (:class:`spider_cli.tui.board.Board`,
    which draws it and hands it its keys): the view is a part of the board, typed against
    this so that the board alone imports the other."""

    study: Study | None

    @property
    def session(self) -> Session: ...

    @property
    def player(self) -> Player: ...

    @property
    def buffer(self) -> Buffer: ...

    @property
    def question(self) -> object | None: ...

    def say(self, text: StyleAndTextTuples | str, style: str = "") -> None: ...

    def enter(self) -> None: ...


__all__ = ["Marks", "highlighted", "keys", "move_marks", "view"]

Marks = dict[int, tuple[int, str]]
"""Cards to mark on the tableau: pile, (from which of its cards, the style)."""


def move_marks(game: Game, move: Move | None, style: str = " class:hinted") -> Marks:
    """The cards ``move`` takes from its pile and the card it puts them on, as marks."""
    if move is None:
        return {}
    piles = game.piles
    return {
        move.dst: (max(0, len(piles[move.dst]) - 1), style),
        move.src: (len(piles[move.src]) - move.count, style),
    }


def highlighted(text: StyleAndTextTuples, marks: Marks) -> StyleAndTextTuples:
    """The tableau ``text`` (drawn with a handler a place, each knowing its spot) with the
    cards ``marks`` names styled."""
    if not marks:
        return text
    out: StyleAndTextTuples = []
    for fragment in text:
        handler = fragment[2] if len(fragment) == 3 else None
        spot = getattr(handler, "spot", None)
        mark = marks.get(spot.pile) if isinstance(spot, Spot) and spot.pile is not None else None
        if (
            handler is not None
            and isinstance(spot, Spot)
            and mark is not None
            and spot.at is not None
            and spot.at >= mark[0]
            and fragment[1].strip()
        ):
            out.append((fragment[0] + mark[1], fragment[1], handler))
        else:
            out.append(fragment)
    return out


class _Still:
    """A place on the view's tableau: it knows its spot (to be marked), and a click there
    does nothing (the position is not the game in play)."""

    def __init__(self, spot: Spot) -> None:
        self.spot = spot

    def __call__(self, event: MouseEvent) -> object:
        return None


def view(study: Study, glyphs: Glyphs, columns: int, rows: int) -> StyleAndTextTuples:
    """The view in ``rows`` rows of ``columns``: the position (the move played from it
    marked, and beside a mark the blind player's move, where its piles are others), the
    words, the curve, the keys (the tableau folds to leave them room)."""
    moment = study.moment()
    below: StyleAndTextTuples = []
    for line in words.moment_lines(moment):  # broken between words at the screen's width
        for row in wrapping.wrap(render.color_cards(line), columns):
            below += [*row, ("", "\n")]
    review = study.review
    if review is not None and not moment.in_line:
        for curve in words.curve_rows(review, columns, ascii=not glyphs.symbols):
            below += _curve_row(curve, moment.at)
    keys = words.keys_text(moment, bool(study.marks()), "←/→" if glyphs.symbols else "<-/->")
    for row in wrapping.wrap([("class:dim", keys)], columns):
        below += [*row, ("", "\n")]
    room = max(1, rows - below.count(("", "\n")))
    position = moment.position
    tableau = render.tableau(position, glyphs, columns, room, frozenset(), _Still)
    move = moment.move if isinstance(moment.move, Move) else None
    better = moment.better if isinstance(moment.better, Move) else None
    marks = move_marks(position, better, " class:better") | move_marks(position, move)
    return [*highlighted(tableau, marks), *below]


def _curve_row(row: words.CurveRow, at: int) -> StyleAndTextTuples:
    """A row of the curve, the cursor's cell reversed; a row of signs, coloured."""
    text = row.text
    if row.first is None:
        return [("class:curve-signs", text), ("", "\n")]
    cell = words.LABEL + at - row.first
    if not row.first <= at < row.first + len(text) - words.LABEL:
        return [("class:curve", text), ("", "\n")]
    return [
        ("class:curve", text[:cell]),
        ("class:curve-cursor", text[cell] if text[cell] != " " else "_"),
        ("class:curve", text[cell + 1 :]),
        ("", "\n"),
    ]


def open_review(board: Board, review: Review) -> None:
    """``review`` on the board: the view of the game reviewed, at its start."""
    board.study = Study.of_review(board.session.game, review)


def open_found(board: Board) -> None:
    """The ``>`` key: the view over the line ``solve`` or ``hint`` found here, if any."""
    analysis = board.session.analysis
    if analysis.next_found() is None:
        board.say("no line found here to step through: 'solve' or 'hint deeper' finds one")
        return
    board.study = Study.of_line(board.session.game, analysis.found)


def _play_on(board: Board, study: Study) -> None:
    """Enter: a new game from the position under the cursor (the game in play is left as
    it was, in progress in the history)."""
    moment = study.moment()
    board.study = None
    number = board.player.keeper.number
    session = board.session

    def call() -> Reply:
        game, origin = play_on(moment.position)
        session.begin(game, origin, words.played_on_name(moment, number))
        text = words.played_on_text(moment, number)
        return Reply(text, result=PlayedOn(origin, moment.at, number))

    board.player.perform(call, "")


def _enter(board: Board, study: Study) -> None:
    """Enter: with a command typed, the view closes and the command runs; else play on."""
    if board.buffer.text.strip():
        board.study = None
        board.enter()
    else:
        _play_on(board, study)


def keys(board: Board) -> KeyBindings:
    """The view's keys, while it is open (they come after the board's, and win). Its letters
    and arrows act while the command line is empty; a letter it does not take starts a
    command, as on the board, and Enter runs it (the view closing)."""
    bindings = KeyBindings()
    open_ = Condition(lambda: board.study is not None and board.question is None)
    empty = open_ & Condition(lambda: not board.buffer.text)

    def on(
        *names: str, when: Filter = empty, eager: bool = False
    ) -> Callable[[Callable[[Study], object]], None]:
        def bind(act: Callable[[Study], object]) -> None:
            def handler(event: KeyPressEvent) -> None:
                if board.study is not None:
                    act(board.study)

            for name in names:
                bindings.add(name, filter=when, eager=eager)(handler)

        return bind

    on("left")(lambda s: s.step(-1))
    on("right")(lambda s: s.step(1))
    on("home")(lambda s: s.home())
    on("end")(lambda s: s.end())
    on("n")(lambda s: s.next_mark())
    on("p")(lambda s: s.next_mark(forward=False))
    on("w")(lambda s: s.toggle_line())
    on("q")(lambda s: setattr(board, "study", None))
    on("c-z", "c-y", "?", "!", ">")(lambda s: None)  # the game in play stays as it is
    on("enter", when=open_)(lambda s: _enter(board, s))
    on("escape", when=open_, eager=True)(_close(board))
    return bindings


def _close(board: Board) -> Callable[[Study], None]:
    """Esc: back to the game in play (a command begun is dropped)."""

    def close(study: Study) -> None:
        board.buffer.reset()
        board.study = None

    return close
