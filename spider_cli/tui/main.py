"""The ``spider`` command: the command line of :mod:`spider_cli.app.cli`, with the board or
the REPL for a person at a terminal (prompt_toolkit is imported only then, so scripts start
fast)."""

from __future__ import annotations

import os
import sys

from spider_cli.app import cli
from spider_cli.rules.deals import DealSource
from spider_cli.rules.goals import Wanted


def full_screen(line_mode: bool) -> bool:
    """The full-screen board, unless the line mode is asked for (``--line``), the terminal
    cannot place text (``TERM=dumb``) or the output is not a terminal."""
    return not line_mode and os.environ.get("TERM", "") != "dumb" and sys.stdout.isatty()


def play_at_terminal(
    name: str | None,
    seed: int | DealSource | None,
    suits: int,
    ascii_only: bool,
    line_mode: bool = False,
    wanted: Wanted | None = None,
) -> int:
    """Play on the board (:mod:`spider_cli.tui.board`) or in the REPL (:mod:`.repl`)."""
    from spider_cli.tui import repl

    return repl.play(name, seed, suits, ascii_only, board=full_screen(line_mode), wanted=wanted)


def main(argv: list[str] | None = None) -> int:
    """The console script's entry point."""
    return cli.main(argv, interactive=play_at_terminal)
