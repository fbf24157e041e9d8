"""spider: a Spider solitaire workbench, and its Python API.

>>> import spider_cli as sp
>>> game = sp.Game.new(17)
>>> action = sp.parse_move(game, "6 1")
>>> sp.move_text(game, action)
'6s from 6 to 1'

The names below load on first use (PEP 562), so ``import spider_cli`` stays cheap: it loads
neither the parser (lark) nor the terminal (prompt_toolkit) nor the solver until a name that
needs them is used. The loader reads their homes from :data:`_PUBLIC`; the ``if
TYPE_CHECKING:`` imports say the same to type checkers.

* The game: :class:`Game`, the actions :class:`Move`, :class:`Deal` (:data:`DEAL`) and
  :class:`Remove` (:data:`Action` is any of them), :class:`Card`.
* The notation: :func:`parse_command` and :func:`resolve` (text to a command to an action),
  :func:`parse_move` (both at once), :func:`move_text` (an action back to text).
* Positions: :func:`read_position`, :func:`load_position`, :func:`parse_position_code` give a
  :class:`PositionFile` (``.to_game()``); :func:`grid`, :func:`markdown`, :func:`lines` and
  :func:`position_code` write a game or a position file; :func:`differences` compares them.
* Analysis: :func:`solve` (a :class:`Report` with a :class:`Verdict`) for a :class:`Goal`
  (of a :class:`GoalKind`) under :class:`Constraints`, and :func:`hint` (an :class:`Advice`;
  its ``level``, a :class:`Level`, says how far it looks ahead over what could turn up, and
  its ``budget``, a :class:`Limit`, how far each of the player's searches looks;
  :func:`advice_text` says it in a player's words).
* Playing: a :class:`Session` runs typed lines (``execute``), starts deals (``new``; a
  :class:`DealSource` names ours, ``pysol:N`` or ``kpat:N``) and loads and saves game files
  (``load``, ``save``).

Piles count from 0 (0..9) in every value here, as list indexes do; only text (the notation,
messages) numbers them 1..10, as a player does.
* Errors: :class:`SpiderError` and its kinds :class:`IllegalMoveError`,
  :class:`NotationError` and :class:`PositionError`.
"""

from __future__ import annotations

import signal as _signal  # (first: Ctrl-C as spider starts, below)


def _at_once(signum: int, frame: object) -> None:
    """Ctrl-C while spider starts, its modules loading: nothing is done yet, so it ends at
    once with Ctrl-C's exit status, never a traceback from the middle of an import."""
    import os

    os._exit(130)


def _starting() -> bool:
    """Whether this import is spider starting: its command (``spider``, whose ``__main__``
    is the console script) or ``python -m spider_cli`` (run as ``-m``: ``sys.argv[0]`` is
    "-m" while the package loads), not a program that imports the package (nor a bench
    worker: its ``__main__`` is multiprocessing's)."""
    import os
    import sys

    if sys.argv[:1] == ["-m"]:
        given = sys.orig_argv
        return "-m" in given and given[given.index("-m") + 1 :][:1] == [__name__]
    script = getattr(sys.modules.get("__main__"), "__file__", None)
    return isinstance(script, str) and os.path.basename(script) == "spider"


def _hold_ctrl_c() -> None:
    """As spider starts, Ctrl-C ends it at once (:func:`_at_once`) until its entry point is
    ready (:func:`spider_cli.tui.main.main`); nothing changes for a program importing the
    package, nor where the handler is not Python's own."""
    if _starting() and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        _signal.signal(_signal.SIGINT, _at_once)


_hold_ctrl_c()

import importlib  # noqa: E402
from typing import TYPE_CHECKING, Any  # noqa: E402

if TYPE_CHECKING:  # the public names for type checkers ("X as X": exported); see _PUBLIC
    from spider_cli.analysis.chance.search import Level as Level
    from spider_cli.analysis.hints import Advice as Advice
    from spider_cli.analysis.hints import hint as hint
    from spider_cli.analysis.limits import Limit as Limit
    from spider_cli.analysis.limits import Verdict as Verdict
    from spider_cli.analysis.solve.answers import Report as Report
    from spider_cli.analysis.solve.answers import solve as solve
    from spider_cli.app.session import Session as Session
    from spider_cli.app.words.advice import advice_text as advice_text
    from spider_cli.language.files.positions import PositionFile as PositionFile
    from spider_cli.language.files.positions import differences as differences
    from spider_cli.language.files.positions import load_position as load_position
    from spider_cli.language.files.positions import parse_position_code as parse_position_code
    from spider_cli.language.files.positions import read_position as read_position
    from spider_cli.language.notation import parse_command as parse_command
    from spider_cli.language.notation import resolve as resolve
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

    __version__: str

_HERE = ("parse_move",)
"""Public names defined in this module rather than loaded."""

_PUBLIC: dict[str, tuple[str, str]] = {
    # name: (its module, its name there); the imports above say the same to type checkers
    "Report": ("spider_cli.analysis.solve.answers", "Report"),
    "solve": ("spider_cli.analysis.solve.answers", "solve"),
    "Level": ("spider_cli.analysis.chance.search", "Level"),
    "Verdict": ("spider_cli.analysis.limits", "Verdict"),
    "Limit": ("spider_cli.analysis.limits", "Limit"),
    "Advice": ("spider_cli.analysis.hints", "Advice"),
    "hint": ("spider_cli.analysis.hints", "hint"),
    "Session": ("spider_cli.app.session", "Session"),
    "advice_text": ("spider_cli.app.words.advice", "advice_text"),
    "parse_command": ("spider_cli.language.notation", "parse_command"),
    "resolve": ("spider_cli.language.notation", "resolve"),
    "PositionFile": ("spider_cli.language.files.positions", "PositionFile"),
    "differences": ("spider_cli.language.files.positions", "differences"),
    "load_position": ("spider_cli.language.files.positions", "load_position"),
    "parse_position_code": ("spider_cli.language.files.positions", "parse_position_code"),
    "read_position": ("spider_cli.language.files.positions", "read_position"),
    "Card": ("spider_cli.rules.cards", "Card"),
    "DealSource": ("spider_cli.rules.deals", "DealSource"),
    "Source": ("spider_cli.rules.deals", "Source"),
    "Action": ("spider_cli.rules.engine", "Action"),
    "DEAL": ("spider_cli.rules.engine", "DEAL"),
    "Deal": ("spider_cli.rules.engine", "Deal"),
    "Game": ("spider_cli.rules.engine", "Game"),
    "Move": ("spider_cli.rules.engine", "Move"),
    "Remove": ("spider_cli.rules.engine", "Remove"),
    "IllegalMoveError": ("spider_cli.rules.errors", "IllegalMoveError"),
    "NotationError": ("spider_cli.rules.errors", "NotationError"),
    "PositionError": ("spider_cli.rules.errors", "PositionError"),
    "SpiderError": ("spider_cli.rules.errors", "SpiderError"),
    "Constraints": ("spider_cli.rules.goals", "Constraints"),
    "Goal": ("spider_cli.rules.goals", "Goal"),
    "GoalKind": ("spider_cli.rules.goals", "GoalKind"),
    "Tableau": ("spider_cli.rules.layout", "Tableau"),
    "grid": ("spider_cli.rules.layout", "grid"),
    "lines": ("spider_cli.rules.layout", "lines"),
    "markdown": ("spider_cli.rules.layout", "markdown"),
    "position_code": ("spider_cli.rules.layout", "position_code"),
    "move_text": ("spider_cli.rules.text", "move_text"),
}
"""Each public name's home, loaded on first use (tests/e2e/test_api.py checks that the
``if TYPE_CHECKING:`` imports above name the same ones)."""


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use, and keep it here."""
    if name == "__version__":
        value: Any = _version()
    elif name == "__all__":
        value = sorted([*_PUBLIC, *_HERE])
    elif name in _PUBLIC:
        module, inner = _PUBLIC[name]
        value = getattr(importlib.import_module(module), inner)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC, *_HERE, "__version__"})


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
