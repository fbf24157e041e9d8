"""The ``spider`` command: the command line of :mod:`spider_cli.cli.main`, with the board or
the REPL for a person at a terminal (prompt_toolkit is imported only then, so scripts start
fast)."""

from __future__ import annotations

import os
import signal
import sys

import spider_cli
from spider_cli.cli import main as cli
from spider_cli.cli.exits import INTERRUPTED
from spider_cli.rules.deals import DealSource
from spider_cli.rules.goals import Wanted


def full_screen(line_mode: bool) -> bool:
    """The full-screen board, unless the line mode is asked for (``--line``), the terminal
    cannot place text (``TERM=dumb``) or the output is not a terminal."""
    return not line_mode and os.environ.get("TERM", "") != "dumb" and sys.stdout.isatty()


def play_at_terminal(
    name: str | None,
    seed: int | DealSource | None,
    suits: int | None,
    ascii_only: bool,
    line_mode: bool = False,
    wanted: Wanted | None = None,
) -> int:
    """``spider`` at a terminal: offer the journaled game back (no arguments), else start the
    file or deal asked for (or the first deal from it of the kind ``wanted``; ``suits``
    None: the player's setting), with the player's settings, and play
    until the player leaves: on the full-screen board (:mod:`spider_cli.tui.board`), or at
    a prompt below the output (:mod:`spider_cli.tui.repl`)."""
    import time

    from spider_cli.app import interrupt
    from spider_cli.app.files import preferences
    from spider_cli.app.journal import Journal
    from spider_cli.app.session import Session
    from spider_cli.app.timer import Timer
    from spider_cli.app.words.replies import started_text
    from spider_cli.rules.errors import SpiderError
    from spider_cli.tui import render
    from spider_cli.tui.board import Board
    from spider_cli.tui.linehistory import open_history
    from spider_cli.tui.repl import Repl

    glyphs = render.choose_glyphs(ascii_only, getattr(sys.stdout, "encoding", None))
    clock = time.perf_counter
    settings = preferences.load()  # kept from the last time (complete suits go at once)
    session = Session(clock=clock, timer=Timer(clock), settings=settings)
    try:
        started = session.new(seed, suits or settings.suits, wanted)
    except SpiderError as error:
        print(f"spider: {error}", file=sys.stderr)
        return 1
    session.changed = False
    kind: type[Board] | type[Repl] = Board if full_screen(line_mode) else Repl
    player = kind(session, glyphs, Journal(), open_history())
    if wanted is not None:
        player.player.later(started_text(started), "")
    try:
        with interrupt.terminating():
            return player.start(
                name, offer_journal=name is None and seed is None and wanted is None
            )
    except interrupt.Terminated as ended:  # the terminal is restored by now (prompt_toolkit)
        keeper = player.player.keeper
        keeper.left()
        kept = "the game is kept in the journal" if keeper.journal.keeping else "the game is lost"
        print(f"spider: ended by {ended.name}; {kept}", file=sys.stderr)
        return 128 + ended.signum


def main(argv: list[str] | None = None) -> int:
    """The console script's entry point. Ctrl-C from the package's first line
    (:func:`spider_cli._at_once` while the modules load) to the last: 130, never a
    traceback. Once the command has ended, its output written, a Ctrl-C changes nothing
    (the interpreter's own end would otherwise die of it, or print from its middle)."""
    starting = signal.getsignal(signal.SIGINT) is spider_cli._at_once
    if starting:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # the commands' Ctrl-C
    try:
        status = cli.main(argv, interactive=play_at_terminal)
    except KeyboardInterrupt:  # before the command line was read, or as cli.main returned
        status = INTERRUPTED
    if starting:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        _clear_python_mark()
    return status


def _clear_python_mark() -> None:
    """Clear CPython's mark of a Ctrl-C left unhandled. A KeyboardInterrupt that leaves
    code CPython ran from a string (``exec``: the dataclasses and named tuples of the
    modules loading build their methods so) marks the interpreter, and at its end it kills
    itself with SIGINT, saying nothing, though spider caught the interrupt and ends with 130.
    Every ``exec`` of a string begins by clearing the mark."""
    exec("")
