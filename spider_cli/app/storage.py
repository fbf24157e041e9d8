"""A session's game to and from files: load, save, expect, and game files resumed.

Each function takes the :class:`~spider_cli.app.session.Session` it acts on; the session's
methods of the same names delegate here, so the session holds the game and its commands and
this module what files mean to it. A game file is replayed through the session's own
methods (:func:`resume`), so a file goes through the same rules as the moves typed; its
errors name the file's line. Every failure is a SpiderError in a player's words.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TYPE_CHECKING

from spider_cli.app.atomic import write_atomically
from spider_cli.app.replies import status_text
from spider_cli.app.results import Loaded, LoadKind, Matched, Opened, Saved
from spider_cli.language import commands as cmd
from spider_cli.language import gamefiles, positions
from spider_cli.language import textfiles as files
from spider_cli.language.commands import setting_value
from spider_cli.language.gamefiles import DealOrigin, PositionOrigin
from spider_cli.language.notation import parse_command
from spider_cli.rules.cards import Card
from spider_cli.rules.errors import NotationError, SpiderError
from spider_cli.rules.values import replace

if TYPE_CHECKING:
    from spider_cli.app.session import Session

__all__ = [
    "expect",
    "game_file",
    "is_script",
    "load",
    "open_game",
    "resume",
    "save",
    "would_replace",
]


def load(session: Session, source: str | Path) -> Loaded:
    """Read a position code, a position or game file (relative to ``base_dir``), or one
    of the manual's examples by name, into ``session``."""
    name = str(source)
    if positions.is_position_code(name):
        game = positions.parse_position_code(name).to_game()
        origin = PositionOrigin(positions.position_code(game))
        session._begin(game, origin, "position code")
        return Loaded(LoadKind.POSITION_CODE, name, None, origin)
    path, example = _find(session, name)
    text = files.read_text(path, name)
    kind = LoadKind.EXAMPLE if example else None
    if gamefiles.is_game_file(text):
        resume(session, gamefiles.read(text), path.parent, path.name)
        moves = session.game.moves_made
        kind = kind or LoadKind.GAME_FILE
        return Loaded(kind, path.name, path, session.origin, game_file=True, moves=moves)
    try:
        game = positions.read_position(text).to_game()
    except NotationError as error:
        if is_script(text):
            raise SpiderError(
                f"{files.shown(path.name)} is a script of commands, not a position or game "
                f"file: scripts are run ('spider run {files.shown(name)}'), not shown or "
                "loaded"
            ) from None
        raise NotationError(
            f"{files.shown(path.name)}: {error.message}",
            error.line,
            error.column,
            error.context,
        ) from None
    origin = PositionOrigin(positions.position_code(game))
    session._begin(game, origin, path.name)
    return Loaded(kind or LoadKind.POSITION_FILE, path.name, path, origin)


def _path(session: Session, name: str | Path) -> Path:
    return files.path_of(name, session.base_dir)


def _find(session: Session, name: str) -> tuple[Path, bool]:
    """The file a name means: a file (relative to ``base_dir``), else an example's."""
    path = _path(session, name)
    problem = files.missing(path)
    if problem is None:
        return path, False
    from spider_cli.app import examples  # the manual's worked problems, by name

    found = examples.find(name)
    if found is not None:
        return found, True
    if problem == files.NOT_FOUND:
        problem = "no such file or example"
    raise SpiderError(f"cannot read {files.shown(name)}: {problem}")


def resume(session: Session, record: gamefiles.GameRecord, base_dir: Path, name: str) -> None:
    """Replay a game file through a fresh session's methods, then let ``session`` take over
    its game (``name``: the file's, for a game that began as a position); errors name the
    line of the file."""
    other = type(session)(settings=record.settings, base_dir=base_dir)
    origin = record.origin
    with gamefiles.at_line(*record.start):
        other._begin(other._start_of(origin), origin, name)
    for step in record.steps:
        for written in step.assumptions:
            _replay(other, written)
        _replay(other, step.action)
    for written in record.pending:
        _replay(other, written)
    session.settings = replace(other.settings, suits=session.settings.suits)  # the player's
    start = origin.name if isinstance(origin, DealOrigin) else name
    session._begin(other.game, other.origin, start, record.seconds or 0)
    session.changed = False


def open_game(session: Session, number: int) -> Opened:
    """Bring game ``number`` of the history back as it was left, from its game file."""
    entry = session.games_log().entry(number)
    try:
        record = gamefiles.read(entry.game_file)
    except NotationError as error:
        raise SpiderError(f"game {number} of the history cannot be read: {error}") from None
    try:
        resume(session, record, session.base_dir, entry.deal)
    except NotationError as error:
        raise SpiderError(f"game {number} of the history cannot be replayed: {error}") from None
    return Opened(number, entry.deal, entry.result, session.game.moves_made, session.origin)


def _replay(session: Session, written: gamefiles.Written) -> None:
    """One step of a game file, through the session's methods; errors name its line."""
    with gamefiles.at_line(written.line, written.text):
        match written.command:
            case cmd.Assume(pile=pile, card=card):
                session.assume(pile - 1, card)
            case cmd.Set() as command:
                session.change_setting(*setting_value(command))
            case cmd.DealCommand():
                session.deal()
            case cmd.RemoveCommand(suit=suit, pile=pile):
                session.remove(None if pile is None else pile - 1, suit)
            case cmd.MoveCommand() as command:
                session.move(command)


def game_file(session: Session) -> str:
    """The game file of the session's game: its start, moves, reveals and pending
    assumptions (and the time played, if the session keeps it)."""
    game = session.game
    moves = [
        gamefiles.SavedMove(e.text, tuple(cmd.Assume(p + 1, c) for p, c in e.reveals))
        for e in session.history()
    ]
    pending = [cmd.Assume(p + 1, Card(c)) for p, queue in enumerate(game.assumed) for c in queue]
    text = gamefiles.game_text(
        session.origin,
        session.settings,
        moves,
        pending,
        status_text(session.status()),
        positions.grid(game, hide=True),
    )
    if session.timer is None:
        return text
    return text + gamefiles.time_line(session.timer.seconds())


def save(session: Session, name: str | Path, replace: bool = False) -> Saved:
    """Write the game file to ``name`` (relative to ``base_dir``), atomically. A file that
    exists is replaced only with ``replace`` (without, SpiderError: a script must say
    ``save!``; a front end asks the player first, see :meth:`Session.prepare`)."""
    path = _path(session, name)
    if not replace and would_replace(session, name) is not None:
        shown = files.shown(str(name))
        raise SpiderError(f"{shown} exists: 'save! {shown}' replaces it")
    text = game_file(session)
    too_long = files.unreadable(text)
    if too_long:
        shown = files.shown(str(name))
        raise SpiderError(f"cannot save {shown}: the game file would be {too_long}")
    try:
        write_atomically(path, text)
    except (OSError, ValueError) as error:
        raise SpiderError(f"cannot save {files.shown(str(name))}: {files.reason(error)}") from None
    session.changed = False
    return Saved(str(name), path)


def would_replace(session: Session, name: str | Path) -> Path | None:
    """The file that saving as ``name`` would replace (a file, not a link: a link is never
    written through), or None (also for a name no file can have: saving says why)."""
    try:
        path = _path(session, name)
        regular = stat.S_ISREG(path.lstat().st_mode)
    except (SpiderError, OSError, ValueError):
        return None
    return path if regular else None


def expect(session: Session, name: str | Path) -> Matched:
    """Check that the session's position is the one in a position file; SpiderError lists
    the differences."""
    path, _example = _find(session, str(name))
    expected = positions.read_position(files.read_text(path, str(name)))
    differences = positions.differences(session.game, expected)
    if differences:
        raise SpiderError(
            f"the position is not the one in {files.shown(str(name))}:\n"
            + "\n".join(f"  {d}" for d in differences)
        )
    return Matched(str(name))


def is_script(text: str) -> bool:
    """Whether a text is a script: every line a command or a comment, one at least."""
    commands = 0
    for line in text.split("\n"):
        try:
            commands += parse_command(line) is not None
        except SpiderError:
            return False
    return commands > 0
