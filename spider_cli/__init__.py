"""spider: a Spider solitaire workbench, and its Python API.

>>> import spider_cli as sp
>>> game = sp.Game.new(17)
>>> action = sp.parse_move(game, "6 1")
>>> sp.move_text(game, action)
'6s from 6 to 1'

The names below load on first use (PEP 562), so ``import spider_cli`` stays cheap: it loads
neither the parser (lark) nor the terminal (prompt_toolkit) nor the solver until a name that
needs them is used.

* The game: :class:`Game`, the actions :class:`Move`, :class:`Deal` (:data:`DEAL`) and
  :class:`Remove` (:data:`Action` is any of them), :class:`Card`.
* The notation: :func:`parse_command` and :func:`resolve` (text to a command to an action),
  :func:`parse_move` (both at once), :func:`move_text` (an action back to text).
* Positions: :func:`read_position`, :func:`load_position`, :func:`parse_position_code` give a
  :class:`PositionFile` (``.to_game()``); :func:`grid`, :func:`markdown`, :func:`lines` and
  :func:`position_code` write a game or a position file; :func:`differences` compares them.
* Analysis: :func:`solve` (a :class:`Report` with a :class:`Verdict`) for a :class:`Goal`
  under :class:`Constraints`, and :func:`hint` (an :class:`Advice`).
* Errors: :class:`SpiderError` and its kinds :class:`IllegalMoveError`,
  :class:`NotationError` and :class:`PositionError`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spider_cli.analysis.goals import Verdict
    from spider_cli.analysis.hints import Advice, hint
    from spider_cli.analysis.solver import Report
    from spider_cli.analysis.solver import answer as solve
    from spider_cli.language.notation import parse_command, resolve
    from spider_cli.language.positions import (
        PositionFile,
        differences,
        load_position,
        parse_position_code,
        read_position,
    )
    from spider_cli.rules.cards import Card
    from spider_cli.rules.engine import DEAL, Action, Deal, Game, Move, Remove
    from spider_cli.rules.errors import IllegalMoveError, NotationError, PositionError, SpiderError
    from spider_cli.rules.goals import Constraints, Goal
    from spider_cli.rules.layout import Tableau, grid, lines, markdown, position_code
    from spider_cli.rules.text import move_text

    __version__: str

__all__ = [
    "DEAL",
    "Action",
    "Advice",
    "Card",
    "Constraints",
    "Deal",
    "Game",
    "Goal",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "PositionError",
    "PositionFile",
    "Remove",
    "Report",
    "SpiderError",
    "Tableau",
    "Verdict",
    "differences",
    "grid",
    "hint",
    "lines",
    "load_position",
    "markdown",
    "move_text",
    "parse_command",
    "parse_move",
    "parse_position_code",
    "position_code",
    "read_position",
    "resolve",
    "solve",
]

_HOMES = {
    "Card": "spider_cli.rules.cards",
    "DEAL": "spider_cli.rules.engine",
    "Action": "spider_cli.rules.engine",
    "Deal": "spider_cli.rules.engine",
    "Game": "spider_cli.rules.engine",
    "Move": "spider_cli.rules.engine",
    "Remove": "spider_cli.rules.engine",
    "IllegalMoveError": "spider_cli.rules.errors",
    "NotationError": "spider_cli.rules.errors",
    "PositionError": "spider_cli.rules.errors",
    "SpiderError": "spider_cli.rules.errors",
    "Tableau": "spider_cli.rules.layout",
    "grid": "spider_cli.rules.layout",
    "lines": "spider_cli.rules.layout",
    "markdown": "spider_cli.rules.layout",
    "position_code": "spider_cli.rules.layout",
    "move_text": "spider_cli.rules.text",
    "parse_command": "spider_cli.language.notation",
    "resolve": "spider_cli.language.notation",
    "PositionFile": "spider_cli.language.positions",
    "differences": "spider_cli.language.positions",
    "load_position": "spider_cli.language.positions",
    "parse_position_code": "spider_cli.language.positions",
    "read_position": "spider_cli.language.positions",
    "Constraints": "spider_cli.rules.goals",
    "Goal": "spider_cli.rules.goals",
    "Verdict": "spider_cli.analysis.goals",
    "Report": "spider_cli.analysis.solver",
    "solve": "spider_cli.analysis.solver",
    "Advice": "spider_cli.analysis.hints",
    "hint": "spider_cli.analysis.hints",
}
"""The module each public name is loaded from, on first use."""

_RENAMED = {"solve": "answer"}
"""Public names that differ from their name in their module."""


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use, and keep it here."""
    if name == "__version__":
        value: Any = _version()
    elif name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), _RENAMED.get(name, name))
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, "__version__"})


def _version() -> str:
    """The installed version; "0+unknown" when the package runs from a tree never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("spider-cli")
    except PackageNotFoundError:
        return "0+unknown"


def parse_move(game: Game, text: str) -> Action:
    """The action one line of the notation means in ``game``: a move, ``deal``, a removal, or
    a pile number for its obvious move ("8-6s from 3 to 10", "3 10", "remove", "3").

    Raises :class:`NotationError` when the line does not read as one of those, and
    :class:`IllegalMoveError` when it reads but the game does not allow it.
    """
    from spider_cli.language.commands import TableauCommand
    from spider_cli.language.notation import parse_command, resolve
    from spider_cli.rules.errors import NotationError

    command = parse_command(text)
    if not isinstance(command, TableauCommand):
        what = "an empty line" if command is None else f"{text.strip()!r}"
        raise NotationError(
            f"{what} is not a move: write one as '8-6s from 3 to 10', '3 10', 'deal' or 'remove'"
        )
    return resolve(game, command)
