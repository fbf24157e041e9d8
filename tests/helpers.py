"""What the tests share: a game some random legal moves on (for property tests that need
positions deep into a deal), and the drivers of the two front ends through prompt_toolkit's
pipe input: the line-mode REPL (:func:`drive`) and the full-screen board (:func:`on_board`),
each stepping as a player types."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from spider_cli.analysis import compact
from spider_cli.analysis.blind.view import view_of
from spider_cli.analysis.compact import State
from spider_cli.app.journal import Journal
from spider_cli.app.session import Session
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import Game
from spider_cli.tui.board import Board
from spider_cli.tui.completion import SpiderCompleter
from spider_cli.tui.repl import Repl


def play_randomly(game: Game, moves: int, seed: int) -> Game:
    """``game`` after up to ``moves`` legal actions drawn by ``random.Random(seed)``."""
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
    return game


def reachable(number: int, suits: int, moves: int, seed: int, hidden: bool) -> Game:
    """Our deal ``number`` some random moves on; with ``hidden``, the player's view of it
    (face-down cards unknown)."""
    game = play_randomly(DealSource.parse(str(number), suits).game(), moves, seed)
    return compact.player_view(game) if hidden else game


def blind_view(number: int, suits: int, moves: int, seed: int) -> tuple[State, int, int]:
    """A blind position some random legal moves into our deal ``number``: its compact view
    (face-down cards unknown), suits removed, and cards in the hand."""
    view = view_of(play_randomly(DealSource.parse(str(number), suits).game(), moves, seed))
    return view.piles(), len(view.removed), view.hand


# ---------------------------------------------------------------------------------------------
# The front ends, as a player drives them

SEED = 5
"""The deal both front ends open unless a test gives a session. Deal 5: pile 1 ends with 4h
(Kd under it), pile 6 with 5h, pile 7 with 8d, pile 3 with 9d, pile 8 with 5s; it opens with
4h from 1 to 8 (Kd turns up), 8d from 7 to 3 (7c), 9-8d from 3 to 4."""


def drive(
    keys: str,
    session: Session | None = None,
    name: str | None = None,
    offer_journal: bool = False,
    output: DummyOutput | None = None,
) -> tuple[int, Repl]:
    """Run the REPL on typed keys until it leaves; the exit status and the REPL."""
    output = output or DummyOutput()
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=output):
        pipe.send_text(keys)
        pipe.close()
        repl = Repl(
            session or Session.new_game(seed=SEED, base_dir=Path.cwd()),
            journal=Journal(),
            history=InMemoryHistory(),
        )
        status = repl.start(name, offer_journal=offer_journal)
    return status, repl


def said(front: Repl | Board) -> str:
    """What a front end printed, a line of its transcript a line."""
    return "\n".join(front.transcript)


def repl_moves(repl: Repl) -> list[str]:
    return [entry.text for entry in repl.session.history()]


def complete(session: Session, text: str) -> list[str]:
    return [
        c.text
        for c in SpiderCompleter(session).get_completions(
            Document(text), CompleteEvent(completion_requested=True)
        )
    ]


class Screen(DummyOutput):
    """A terminal of a given size that shows nothing."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


def on_board(
    steps: list[str],
    session: Session | None = None,
    columns: int = 80,
    rows: int = 24,
    name: str | None = None,
) -> tuple[int, Board]:
    """Run the board on the steps, one at a time; the exit status and the board."""
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=Screen(columns, rows)):
        board = Board(
            session or Session.new_game(seed=SEED, base_dir=Path.cwd()),
            journal=Journal(),
            history=InMemoryHistory(),
        )
        app = board.app
        presses = [0]
        renders = [0]
        app.key_processor.after_key_press += lambda _: presses.__setitem__(0, presses[0] + 1)
        app.after_render += lambda _: renders.__setitem__(0, renders[0] + 1)

        async def feed() -> None:
            for step in steps:
                expected = presses[0] + _key_count(step)
                pipe.send_text(step)
                while presses[0] < expected:
                    await asyncio.sleep(0.01)
                drawn = renders[0]
                while renders[0] == drawn and not app.future.done():  # type: ignore[union-attr]
                    app.invalidate()
                    await asyncio.sleep(0.01)
            if not app.future.done():  # type: ignore[union-attr]
                pipe.close()

        app.pre_run_callables.append(lambda: app.create_background_task(feed()))
        status = board.start(name)
    return status, board


def _key_count(text: str) -> int:
    """The key presses prompt_toolkit reads from ``text``: a control sequence (a mouse
    report, PageUp) is one."""
    return len(re.findall(r"\x1b\[[0-9;<]*[@-~]|.", text, re.DOTALL))


def board_moves(board: Board) -> list[str]:
    return [entry.text for entry in board.session.history()]
