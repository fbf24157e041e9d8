"""spider: a Spider solitaire workbench, and its Python API.

>>> import spider_cli as sp
>>> game = sp.Game.new(17)
>>> action = sp.parse_move(game, "6 1")
>>> sp.move_text(game, action)
'6s from 6 to 1'

The names below load on first use (PEP 562), so ``import spider_cli`` stays cheap: it loads
neither the parser (lark) nor the terminal (prompt_toolkit) nor the solver until a name that
needs them is used. Their one table is the ``if TYPE_CHECKING:`` block of imports below:
type checkers read it, and so does the loader (:func:`_table`).

* The game: :class:`Game`, the actions :class:`Move`, :class:`Deal` (:data:`DEAL`) and
  :class:`Remove` (:data:`Action` is any of them), :class:`Card`.
* The notation: :func:`parse_command` and :func:`resolve` (text to a command to an action),
  :func:`parse_move` (both at once), :func:`move_text` (an action back to text).
* Positions: :func:`read_position`, :func:`load_position`, :func:`parse_position_code` give a
  :class:`PositionFile` (``.to_game()``); :func:`grid`, :func:`markdown`, :func:`lines` and
  :func:`position_code` write a game or a position file; :func:`differences` compares them.
* Analysis: :func:`solve` (a :class:`Report` with a :class:`Verdict`) for a :class:`Goal`
  (of a :class:`GoalKind`) under :class:`Constraints`, and :func:`hint` (an :class:`Advice`;
  its ``level``, a :class:`Level`, says how far it looks ahead over what could turn up).
* Playing: a :class:`Session` runs typed lines (``execute``), starts deals (``new``; a
  :class:`DealSource` names ours, ``pysol:N`` or ``kpat:N``) and loads and saves game files
  (``load``, ``save``).

Piles count from 0 (0..9) in every value here, as list indexes do; only text (the notation,
messages) numbers them 1..10, as a player does.
* Errors: :class:`SpiderError` and its kinds :class:`IllegalMoveError`,
  :class:`NotationError` and :class:`PositionError`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the table of public names (see _table); "X as X" marks a name exported
    from spider_cli.analysis.answers import Report as Report
    from spider_cli.analysis.answers import answer
    from spider_cli.analysis.chancesearch import Level as Level
    from spider_cli.analysis.goals import Verdict as Verdict
    from spider_cli.analysis.hints import Advice as Advice
    from spider_cli.analysis.hints import hint as hint
    from spider_cli.app.session import Session as Session
    from spider_cli.language.notation import parse_command as parse_command
    from spider_cli.language.notation import resolve as resolve
    from spider_cli.language.positions import PositionFile as PositionFile
    from spider_cli.language.positions import differences as differences
    from spider_cli.language.positions import load_position as load_position
    from spider_cli.language.positions import parse_position_code as parse_position_code
    from spider_cli.language.positions import read_position as read_position
    from spider_cli.rules.cards import Card as Card
    from spider_cli.rules.deals import DealSource as DealSource
    from spider_cli.rules.deals import Source as Source
    from spider_cli.rules.engine import DEAL as DEAL
    from spider_cli.rules.engine import Action as Action
    from spider_cli.rules.engine import Deal as Deal
    from spider_cli.rules.engine import Game as Game
    from spider_cli.rules.engine import Move as Move
    from spider_cli.rules.engine import Remove as Remove
    from spider_cli.rules.errors import IllegalMoveError as IllegalMoveError
    from spider_cli.rules.errors import NotationError as NotationError
    from spider_cli.rules.errors import PositionError as PositionError
    from spider_cli.rules.errors import SpiderError as SpiderError
    from spider_cli.rules.goals import Constraints as Constraints
    from spider_cli.rules.goals import Goal as Goal
    from spider_cli.rules.goals import GoalKind as GoalKind
    from spider_cli.rules.layout import Tableau as Tableau
    from spider_cli.rules.layout import grid as grid
    from spider_cli.rules.layout import lines as lines
    from spider_cli.rules.layout import markdown as markdown
    from spider_cli.rules.layout import position_code as position_code
    from spider_cli.rules.text import move_text as move_text

    solve = answer  # the search's answer to a goal, under the name a user looks for

    __version__: str

_HERE = ("parse_move",)
"""Public names defined in this module rather than loaded."""

_loaded: dict[str, tuple[str, str]] | None = None


def _table() -> dict[str, tuple[str, str]]:
    """Each public name's module and its name there, read once from the ``if TYPE_CHECKING:``
    block of this file (an import ``X as X``, or ``name = X`` for an imported X): the one list
    of public names, for type checkers and for the loader."""
    global _loaded
    if _loaded is None:
        import ast
        from pathlib import Path

        tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
        block = next(node for node in tree.body if isinstance(node, ast.If)).body
        imported = {
            alias.asname or alias.name: (node.module or "", alias.name)
            for node in block
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        table = {
            alias.name: imported[alias.name]
            for node in block
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
            if alias.asname == alias.name
        }
        for node in block:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
                for target in node.targets:
                    assert isinstance(target, ast.Name)
                    table[target.id] = imported[node.value.id]
        _loaded = table
    return _loaded


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use, and keep it here."""
    if name == "__version__":
        value: Any = _version()
    elif name == "__all__":
        value = sorted([*_table(), *_HERE])
    elif name in _table():
        module, inner = _table()[name]
        value = getattr(importlib.import_module(module), inner)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_table(), *_HERE, "__version__"})


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
    from spider_cli.rules.errors import NotationError, quoted

    command = parse_command(text)
    if not isinstance(command, TableauCommand):
        what = "an empty line" if command is None else quoted(text.strip())
        raise NotationError(
            f"{what} is not a move: write one as '8-6s from 3 to 10', '3 10', 'deal' or 'remove'"
        )
    return resolve(game, command)
