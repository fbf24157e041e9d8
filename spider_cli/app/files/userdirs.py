"""Where spider keeps a player's files: the journal, the games played, the prompt's history.

The platform's own places (``platformdirs``): the data directory for the journal and the
history of games (what a player would miss if it were deleted), the state directory for the
prompt history. ``SPIDER_HOME`` replaces them all with one directory of the player's choice,
which is also how the tests keep away from the real home directory.

One rule for every file in them, as ssh's StrictModes: the directory is the user's own, not a
symbolic link, and nobody else can write it (nor any directory above it, but for a shared one
with the sticky bit, such as /tmp), or nothing in it is read or written (:func:`check_private`).
Another user who could write there could plant a game to be offered back, read the lines
typed, or swap a file for a link.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from spider_cli.language.files import textfiles as files
from spider_cli.rules.errors import SpiderError

HOME_VARIABLE = "SPIDER_HOME"
APP_NAME = "spider"

PRIVATE_FILE = 0o600
"""The mode of every file spider creates in these directories (never a planted file's)."""


class UntrustedError(SpiderError):
    """A directory of spider's own files that another user could change: spider keeps
    nothing there."""


def _override() -> Path | None:
    value = os.environ.get(HOME_VARIABLE, "").strip()
    return Path(value).expanduser() if value else None


def data_dir() -> Path:
    """The directory of the journal and the history of games (not created here)."""
    import platformdirs  # only when needed: it costs start-up time

    return _override() or Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def state_dir() -> Path:
    """The directory of the prompt's history (not created here)."""
    import platformdirs

    return _override() or Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))


def _writable_by_others(info: os.stat_result) -> bool:
    return bool(info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def _why_not(directory: Path) -> str | None:
    """Why ``directory`` (and the directories above it) cannot be trusted, or None."""
    getuid = getattr(os, "getuid", None)
    me = getuid() if getuid is not None else None
    info = os.lstat(directory)
    if stat.S_ISLNK(info.st_mode):
        return "is a symbolic link"
    if not stat.S_ISDIR(info.st_mode):
        return f"is {files.kind(info.st_mode)}, not a directory"
    if me is None:  # (Windows: no owners nor modes of this kind; its ACLs guard the profile)
        return None
    if info.st_uid != me:
        return "belongs to another user"
    if _writable_by_others(info):
        return "can be written by other users"
    for above in directory.absolute().parents:
        info = os.stat(above)
        if info.st_uid not in (me, 0):
            return f"lies in {files.shown(str(above))}, which belongs to another user"
        if _writable_by_others(info) and not info.st_mode & stat.S_ISVTX:
            return f"lies in {files.shown(str(above))}, which other users can write"
    return None


def check_private(directory: Path) -> None:
    """Create ``directory`` if missing (private to the user), then raise
    :class:`UntrustedError` unless it is the user's own directory that nobody else can write,
    not a symbolic link, in directories that nobody else can change; OSError when it cannot
    be made or looked at."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    why = _why_not(directory)
    if why is not None:
        raise UntrustedError(
            f"{files.shown(str(directory))} {why}: spider keeps none of its files there"
        )
