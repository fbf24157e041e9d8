"""Game files: the manual's SAVE IN FILE, as a script of our own commands.

A game file is plain text. Its first line is :data:`MAGIC`; then come the lines that set up
the start (``new 17 suits 4``, or ``load`` with a position code, after any ``set`` lines),
then every move in notation, each preceded by ``assume`` lines naming the unknown cards it
turned up, so that replaying it is exact. Pending assumptions follow the moves. The current
tableau is appended as ``#`` comments for a person to read, and a game played at the prompt
ends with the time played (``# time played 12:34``), a comment that older versions skip.

This module only reads and writes the text: :func:`read` turns a game file into a
:class:`GameRecord` (how the game began, the settings, and each step with its line number),
and :func:`game_text` writes one from typed data. The session replays a record through its
own methods, so each move is checked by the same rules as at the prompt.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from spider_cli.language.commands import (
    Assume,
    DealCommand,
    Load,
    MoveCommand,
    NewCommand,
    RemoveCommand,
    Set,
)
from spider_cli.language.files import positions
from spider_cli.language.files.deck import plural
from spider_cli.language.notation import parse_command
from spider_cli.language.places import column_of
from spider_cli.language.settings import Settings, setting_value
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.errors import NotationError, Part, SpiderError, caret_line
from spider_cli.rules.text import clock_text
from spider_cli.rules.values import Value, replace

MAGIC = "# spider game file, version 1"
TIME_LINE = re.compile(r"^# time played (?:(\d{1,6}):)?(\d{1,2}):(\d\d)[ \t]*$", re.MULTILINE)
"""The comment with the time played: "# time played 12:34" or "# time played 1:02:03"."""


class DealOrigin(Value):
    """A game that began as deal number ``seed`` of the ``suits``-suit game, its sixth cards
    dealt to the piles ``sixth`` names ("left" or "spread"), numbered as ``source`` numbers
    its deals (ours, PySolFC's or KPatience's, whose layouts ignore ``sixth``)."""

    seed: int
    suits: int = 4
    sixth: str = "left"
    source: Source = Source.OURS

    def __post_init__(self) -> None:
        DealSource(self.source, self.seed, self.suits)  # checks the number: NotationError

    @property
    def deal(self) -> DealSource:
        """The numbered deal this game began as."""
        return DealSource(self.source, self.seed, self.suits)

    @property
    def name(self) -> str:
        """The deal's name as written: "17", "pysol:14934", "kpat:7"."""
        return str(self.deal)


class PositionOrigin(Value):
    """A game that began from a position (a file, an example or a code): its code."""

    code: str


Origin = DealOrigin | PositionOrigin
"""How a game began."""

StepCommand = MoveCommand | DealCommand | RemoveCommand | Set
"""What a game file may do after its start, besides ``assume``."""


class Written(Value):
    """A command as read from a game file, with its line number and text (for errors)."""

    command: StepCommand | Assume
    line: int
    text: str


class Step(Value):
    """A move (or a setting changed) and the ``assume`` lines written just before it."""

    action: Written
    assumptions: tuple[Written, ...] = ()


class GameRecord(Value):
    """A game file as typed data: the start, the settings it began with, every step in
    order, and the assumptions left pending after the last move."""

    origin: Origin
    start: tuple[int, str]
    """The start's line number and text (for errors in the position code)."""
    settings: Settings
    steps: tuple[Step, ...]
    pending: tuple[Written, ...]
    seconds: int | None = None
    """The time played, if the file says (see :data:`TIME_LINE`)."""


class SavedMove(Value):
    """One move to write: its notation, after the unknown cards it turned up, and whether
    autoremove was on as it was played (None: not known)."""

    text: str
    reveals: tuple[Assume, ...] = ()
    autoremove: bool | None = None


_FIRST_LINE = re.compile(r"# spider game file, version ([^\s]{1,20})[ \t\r]*(?:\n|$)")
"""A game file's first line, of any version (:data:`MAGIC` is the one this spider writes)."""


def is_game_file(text: str) -> bool:
    return game_file_version(text) == "1"


def game_file_version(text: str) -> str | None:
    """The version a game file's first line gives ("1" for this spider's), or None for
    text that is not a game file."""
    first = _FIRST_LINE.match(text)
    return None if first is None else first.group(1)


def game_text(
    origin: Origin,
    settings: Settings,
    moves: Iterable[SavedMove],
    pending: Iterable[Assume],
    summary: str,
    tableau: str,
) -> str:
    """The text of a game file: settings, start, moves with their reveals, pending
    assumptions, then ``summary`` and ``tableau`` as comments for a person to read. The
    autoremove rule is written as each move was played under it (a setting is not a move,
    but the file plays the game as it went), then as it stands, if it changed since."""
    moves = list(moves)
    rules = [move.autoremove for move in moves if move.autoremove is not None]
    in_force = rules[0] if rules else settings.autoremove
    lines = [MAGIC]
    if in_force:
        lines.append("set autoremove on")
    if isinstance(origin, DealOrigin):
        if origin.sixth != "left":
            lines.append(f"set sixth {origin.sixth}")
        lines.append(f"new {origin.name} suits {origin.suits}")
    else:
        lines.append(f"load {origin.code}")
    count = 0
    for move in moves:
        if move.autoremove is not None and move.autoremove != in_force:
            in_force = move.autoremove
            lines.append(f"set autoremove {'on' if in_force else 'off'}")
        lines += [_assume_text(a) for a in move.reveals]
        lines.append(move.text)
        count += 1
    if settings.autoremove != in_force:
        lines.append(f"set autoremove {'on' if settings.autoremove else 'off'}")
    lines += [_assume_text(a) for a in pending]
    lines.append("")
    lines.append(f"# position after {plural(count, 'move')} ({summary}):")
    lines += ["# " + row if row else "#" for row in tableau.splitlines()]
    return "\n".join(lines) + "\n"


_START = re.compile(r"^(?:new (\S{1,40}) suits ([124])|load \S)", re.MULTILINE)


def start_of(text: str) -> str | None:
    """How the game of a game file's text began, in a player's words ("deal 21, 4 suits",
    "a position"), or None when it does not say."""
    found = _START.search(text)
    if found is None:
        return None
    if found.group(1) is None:
        return "a position"
    suits = found.group(2)
    return f"deal {found.group(1)}, {suits} suit{'s' if suits != '1' else ''}"


def time_line(seconds: float) -> str:
    """The comment that says how long the game has been played (whole seconds)."""
    return f"# time played {clock_text(seconds)}\n"


def time_played(text: str) -> int | None:
    """The seconds a game file's last time line says, or None without one."""
    found = list(TIME_LINE.finditer(text))
    if not found:
        return None
    hours, minutes, secs = found[-1].groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(secs)


def without_time(text: str) -> str:
    """A game file's text without its time lines (to tell whether the game changed)."""
    return "".join(line for line in text.splitlines(True) if not TIME_LINE.match(line))


def command_lines(text: str) -> list[str]:
    """A game file's commands (its settings, start, moves and ``assume`` lines) without the
    comments and blank lines: what two game files of one game have in common."""
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def _assume_text(assume: Assume) -> str:
    return f"assume {assume.pile} {assume.card}"


def read(text: str) -> GameRecord:
    """Read a game file; errors (NotationError) name the line and the column."""
    settings = Settings()
    origin: Origin | None = None
    start = (0, "")
    steps: list[Step] = []
    assumptions: list[Written] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        with at_line(number, line):
            command = parse_command(line)
            if command is None:
                continue
            if isinstance(command, NewCommand | Load):
                if origin is not None:
                    raise SpiderError("a game file has only one start ('new' or 'load')")
                origin = _origin(command, settings)
                start = (number, line)
            elif isinstance(command, Set) and origin is None:
                name, value = setting_value(command)
                settings = settings.changed(name, value)
            elif origin is None:
                raise SpiderError("the game file does not say how the game starts")
            elif isinstance(command, Assume):
                assumptions.append(Written(command, number, line))
            elif isinstance(command, MoveCommand | DealCommand | RemoveCommand | Set):
                steps.append(Step(Written(command, number, line), tuple(assumptions)))
                assumptions = []
            else:
                raise SpiderError("a game file holds only its start, moves, 'assume' and 'set'")
    if origin is None:
        raise NotationError("the game file does not say how the game starts", 1, 1, "")
    record = GameRecord(origin, start, settings, tuple(steps), tuple(assumptions))
    return replace(record, seconds=time_played(text))


def _origin(command: NewCommand | Load, settings: Settings) -> Origin:
    if isinstance(command, NewCommand) and command.wanted is not None:
        number = "N" if command.seed is None else command.seed
        raise SpiderError(
            f"a game file names its deal by number: 'new {number}', not 'new {number} "
            f"{command.wanted}' (the deal that picks could change with the search)",
            part=Part.WANTED,
        )
    if isinstance(command, NewCommand) and command.seed is not None:
        try:
            return DealOrigin(command.seed, command.suits or 4, settings.sixth, command.source)
        except SpiderError as error:  # a number beyond the deals of its kind
            raise SpiderError(str(error), part=Part.SEED) from None
    if isinstance(command, Load) and positions.is_position_code(command.path):
        return PositionOrigin(command.path)
    part = Part.FILE if isinstance(command, Load) else None
    raise SpiderError("a game file starts from a deal number or a position code", part=part)


@contextmanager
def at_line(number: int, line: str, within: Part | None = None) -> Iterator[None]:
    """Report a SpiderError raised inside as an error in the game file at line ``number``,
    with a caret under the word it is about (its :class:`Part`), else under the command.

    ``within``: the errors are about the text of that part of the line (a position code),
    and their columns count from its start."""
    try:
        yield
    except SpiderError as error:
        notation = error if isinstance(error, NotationError) else None
        if notation and notation.column and within is None:  # the line does not read
            column, context = notation.column, notation.context
        elif notation and notation.column:  # a place in the text of part ``within``
            column = column_of(line, within, inside=True) + notation.column - 1
            context = caret_line(line, column)
        else:
            column = column_of(line, error.part or within)
            context = caret_line(line, column)
        message = notation.message if notation else str(error)
        raise NotationError(f"in the game file: {message}", number, column, context) from None
