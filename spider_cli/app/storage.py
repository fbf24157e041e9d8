"""A session's game to and from files: load, save, expect, and game files resumed.

A :class:`Files` belongs to one :class:`~spider_cli.app.session.Session` (its ``files``)
and reads the game through :class:`Desk`, what it needs to see of the session, so that
this module does not import the session's. It never changes the session: a file read is
returned as a :class:`Began`, which the session takes over (``Session.load``, ``open``). A
game file is replayed move by move through the same rules as the moves typed, on a game of
its own, so the game in progress stays as it was if the file fails; its errors name the
file's line. Every failure is a SpiderError in a player's words.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from spider_cli.app.files.atomic import write_atomically
from spider_cli.app.results import Loaded, LoadKind, Matched, Opened, Saved
from spider_cli.app.words.replies import status_text
from spider_cli.language import commands as cmd
from spider_cli.language import gamefiles
from spider_cli.language.files import positions
from spider_cli.language.files import textfiles as files
from spider_cli.language.gamefiles import DealOrigin, Origin, PositionOrigin
from spider_cli.language.notation import parse_command, resolve
from spider_cli.language.settings import Settings, setting_value
from spider_cli.rules.cards import Card
from spider_cli.rules.deals import Source
from spider_cli.rules.engine import Action, Deal, Game
from spider_cli.rules.errors import IllegalMoveError, NotationError, Part, SpiderError
from spider_cli.rules.placing import removal
from spider_cli.rules.values import Value, replace

if TYPE_CHECKING:
    from spider_cli.app.files.gamelog import GameLog
    from spider_cli.app.results import Recorded, Status
    from spider_cli.app.timer import Timer

__all__ = ["Began", "Desk", "Files", "is_script", "start_of"]


class Desk(Protocol):
    """What the files see of the session they belong to (they never change it)."""

    @property
    def game(self) -> Game: ...
    @property
    def origin(self) -> Origin: ...
    @property
    def settings(self) -> Settings: ...
    @property
    def base_dir(self) -> Path: ...
    @property
    def timer(self) -> Timer | None: ...

    def history(self) -> list[Recorded]: ...

    def status(self) -> Status: ...

    def games_log(self) -> GameLog: ...


class Began(Value):
    """A game a file began, for the session to take over: the game, how it began, its name
    in a word, the time already played in it, the settings a game file carries (None: the
    session keeps its own), and whether it is as a saved file left it (nothing to save)."""

    game: Game
    origin: Origin
    name: str
    seconds: float = 0.0
    settings: Settings | None = None
    saved: bool = False


def start_of(origin: Origin) -> Game:
    """The game at the start ``origin`` names: a numbered deal, or a position."""
    if isinstance(origin, DealOrigin) and origin.source is Source.OURS:
        return Game.new(origin.seed, origin.suits, origin.sixth)
    if isinstance(origin, DealOrigin):
        return origin.deal.game()
    return positions.parse_position_code(origin.code).to_game()


def locate(name: str, base: Path) -> tuple[Path, bool]:
    """The file a name given to any command means: a file (relative to ``base``), else one
    of the manual's examples (True); SpiderError in a player's words when it is neither.
    Every command that takes a file or an example's name (``spider run``, ``spider show``,
    ``spider NAME``, ``load``, ``expect``) finds it here, so all take the same names."""
    path = files.path_of(name, base)
    problem = files.missing(path)
    if problem is None:
        return path, False
    from spider_cli.app import examples  # (only then: a script of moves starts fast)

    found = examples.find(name)
    if found is not None:
        return found, True
    if problem == files.NOT_FOUND:
        problem = "no such file or example"
    raise SpiderError(f"cannot read {files.named(name)}: {problem}")


class ScriptError(SpiderError):
    """A file (or example) that is a script of commands, not a position or game file:
    ``load`` cannot play it, ``run`` (or ``spider run``) runs it, ``spider show`` prints
    its ``text``."""

    def __init__(self, name: str, path: Path, text: str) -> None:
        shown = files.shown(name)
        super().__init__(
            f"{files.shown(path.name)} is a script of commands, not a position or game file: "
            f"'run {shown}' runs it in this game, 'spider run {shown}' from the shell "
            f"('spider show {shown}' prints it)"
        )
        self.path = path
        self.text = text


class Files:
    """One session's game files (see the module)."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def load(self, source: str | Path) -> tuple[Began, Loaded]:
        """Read a position code, a position or game file (relative to ``base_dir``), or one
        of the manual's examples by name: the game it begins, and what was loaded."""
        name = str(source)
        if positions.is_position_code(name):
            try:
                game = positions.parse_position_code(name).to_game()
            except SpiderError as error:  # about the code: a word of the line that loads it
                error.part = Part.FILE
                raise
            origin = PositionOrigin(positions.position_code(game))
            return Began(game, origin, "position code"), Loaded(
                LoadKind.POSITION_CODE, name, None, origin
            )
        path, example = self._find(name)
        text = files.read_text(path, name)
        kind = LoadKind.EXAMPLE if example else None
        if gamefiles.is_game_file(text):
            try:
                began = self.resume(gamefiles.read(text), path.name)
            except NotationError as error:  # said at its place in the file, which it names
                raise NotationError(
                    error.message, error.line, error.column, error.context, file=path.name
                ) from None
            moves = began.game.moves_made
            kind = kind or LoadKind.GAME_FILE
            return began, Loaded(kind, path.name, path, began.origin, game_file=True, moves=moves)
        version = gamefiles.game_file_version(text)
        if version is not None:
            raise SpiderError(
                f"{files.shown(path.name)} is a game file of version {files.shown(version)}, "
                "which this spider cannot read: it reads version 1 (a newer spider wrote it?)"
            )
        try:
            game = positions.read_game(text)
        except NotationError as error:
            if is_script(text):
                raise ScriptError(name, path, text) from None
            raise NotationError(
                error.message, error.line, error.column, error.context, file=path.name
            ) from None
        origin = PositionOrigin(positions.position_code(game))
        return Began(game, origin, path.name), Loaded(
            kind or LoadKind.POSITION_FILE, path.name, path, origin
        )

    def _path(self, name: str | Path) -> Path:
        return files.path_of(name, self.desk.base_dir)

    def _find(self, name: str) -> tuple[Path, bool]:
        """The file a name means: a file (relative to ``base_dir``), else an example's."""
        return locate(name, self.desk.base_dir)

    def resume(self, record: gamefiles.GameRecord, name: str) -> Began:
        """Replay a game file on a game of its own (``name``: the file's, for a game that
        began as a position); errors name the line of the file."""
        origin = record.origin
        within = Part.SEED if isinstance(origin, DealOrigin) else Part.FILE  # a position code
        with gamefiles.at_line(*record.start, within=within):
            game = start_of(origin)
        settings = record.settings
        game.autoremove = settings.autoremove
        for step in record.steps:
            for written in step.assumptions:
                settings = _replay(game, settings, written)
            settings = _replay(game, settings, step.action)
        for written in record.pending:
            settings = _replay(game, settings, written)
        settings = replace(settings, suits=self.desk.settings.suits)  # the player's
        start = origin.name if isinstance(origin, DealOrigin) else name
        return Began(game, origin, start, record.seconds or 0, settings, saved=True)

    def open(self, number: int) -> tuple[Began, Opened]:
        """Game ``number`` of the history as it was left, from its game file."""
        entry = self.desk.games_log().entry(number)
        try:
            record = gamefiles.read(entry.game_file)
        except NotationError as error:
            raise SpiderError(f"game {number} of the history cannot be read: {error}") from None
        try:
            began = self.resume(record, entry.deal)
        except NotationError as error:
            raise SpiderError(f"game {number} of the history cannot be replayed: {error}") from None
        opened = Opened(number, entry.deal, entry.result, began.game.moves_made, began.origin)
        return began, opened

    def game_file(self) -> str:
        """The game file of the session's game: its start, moves, reveals and pending
        assumptions (and the time played, if the session keeps it)."""
        desk = self.desk
        game = desk.game
        moves = [
            gamefiles.SavedMove(e.text, tuple(cmd.Assume(p + 1, c) for p, c in e.reveals), rule)
            for e, rule in zip(desk.history(), game.rules(), strict=True)
        ]
        pending = [
            cmd.Assume(p + 1, Card(c)) for p, queue in enumerate(game.assumed) for c in queue
        ]
        text = gamefiles.game_text(
            desk.origin,
            desk.settings,
            moves,
            pending,
            status_text(desk.status()),
            positions.grid(game, hide=True),
        )
        if desk.timer is None:
            return text
        return text + gamefiles.time_line(desk.timer.seconds())

    def save(self, name: str | Path, replace: bool = False) -> Saved:
        """Write the game file to ``name`` (relative to ``base_dir``), atomically. A file
        that exists is replaced only with ``replace`` (without, SpiderError: a script must
        say ``save!``; a front end asks the player first, see
        :attr:`~spider_cli.app.interpreter.Prepared.replaces`). The session marks its game
        saved (``Session.save``)."""
        path = self._path(name)
        if not replace and self.would_replace(name) is not None:
            shown = files.shown(str(name))
            raise SpiderError(f"{shown} exists: 'save! {shown}' replaces it")
        text = self.game_file()
        too_long = files.unreadable(text)
        if too_long:
            shown = files.shown(str(name))
            raise SpiderError(f"cannot save {shown}: the game file would be {too_long}")
        try:
            write_atomically(path, text)
        except (OSError, ValueError) as error:
            shown = files.shown(str(name))
            raise SpiderError(f"cannot save {shown}: {files.reason(error)}") from None
        return Saved(str(name), path)

    def would_replace(self, name: str | Path) -> Path | None:
        """The file that saving as ``name`` would replace (a file, not a link: a link is
        never written through), or None (also for a name no file can have: saving says
        why)."""
        try:
            path = self._path(name)
            regular = stat.S_ISREG(path.lstat().st_mode)
        except (SpiderError, OSError, ValueError):
            return None
        return path if regular else None

    def expect(self, name: str | Path) -> Matched:
        """Check that the session's position is the one in a position file; SpiderError
        lists the differences."""
        path, _example = self._find(str(name))
        text = files.read_text(path, str(name))
        if gamefiles.game_file_version(text) is not None:
            raise SpiderError(
                f"{files.shown(str(name))} is a game file (a deal and its moves), not a "
                "position: expect compares the table with a position file (load plays a "
                "game file)"
            )
        try:
            expected = positions.read_position(text)
        except NotationError as error:  # said at its place in the file, which it names
            raise NotationError(
                error.message, error.line, error.column, error.context, file=path.name
            ) from None
        differences = positions.differences(self.desk.game, expected)
        if differences:
            raise SpiderError(
                f"the position is not the one in {files.shown(str(name))}:\n"
                + "\n".join(f"  {d}" for d in differences)
            )
        return Matched(str(name))


def _replay(game: Game, settings: Settings, written: gamefiles.Written) -> Settings:
    """One step of a game file played on ``game`` as the same command typed would be (its
    errors name its line); the settings after it."""
    with gamefiles.at_line(written.line, written.text):
        match written.command:
            case cmd.Assume(pile=pile, card=card):
                game.assume(pile - 1, card)
            case cmd.Set() as command:
                name, value = setting_value(command)
                settings = settings.changed(name, value)
                if name == "autoremove":
                    game.autoremove = bool(value)
            case cmd.DealCommand():
                _play(game, Deal())
            case cmd.RemoveCommand(suit=suit, pile=pile):
                _play(game, removal(game, None if pile is None else pile - 1, suit))
            case cmd.MoveCommand() as command:
                _play(game, resolve(game, command))
    return settings


def _play(game: Game, action: Action) -> None:
    refused = game.refusal(action)
    if refused:
        raise IllegalMoveError(refused[0], part=refused[1])
    game.push(action)


def is_script(text: str) -> bool:
    """Whether a text is a script: every line a command or a comment, one at least."""
    commands = 0
    for line in text.split("\n"):
        try:
            commands += parse_command(line) is not None
        except SpiderError:
            return False
    return commands > 0
