"""The ``spider`` command: the command line of :mod:`spider_cli.app.cli`, with the REPL for a
person at a terminal (prompt_toolkit is imported only then, so scripts start fast)."""

from __future__ import annotations

from spider_cli.app import cli
from spider_cli.rules.deals import DealSource


def play_at_terminal(
    name: str | None, seed: int | DealSource | None, suits: int, ascii_only: bool
) -> int:
    """Play in the REPL (:func:`spider_cli.tui.repl.play`)."""
    from spider_cli.tui import repl

    return repl.play(name, seed, suits, ascii_only)


def main(argv: list[str] | None = None) -> int:
    """The console script's entry point."""
    return cli.main(argv, interactive=play_at_terminal)
