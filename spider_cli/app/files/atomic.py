"""Replacing a file so that a crash or a full disk never leaves half of it behind."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
from pathlib import Path

from spider_cli.language.files import textfiles as files
from spider_cli.language.files.textfiles import NotAFileError

_TEMPORARY = re.compile(r"\..+\.[0-9a-f]{8}\.tmp")
"""The name of a temporary file of :func:`write_atomically`: ``.NAME.<8 hex digits>.tmp``."""


class LinkRefusedError(NotAFileError):
    """The file to write is a symbolic link: it is never written through nor replaced."""


def refuse_unless_file(path: str | os.PathLike[str]) -> None:
    """Raise :class:`~spider_cli.language.files.textfiles.NotAFileError` unless ``path`` is a
    regular file or nothing at all (a link is not followed), before a file is written there."""
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return
    if stat.S_ISREG(mode):
        return
    name = files.shown(os.fspath(path))
    if stat.S_ISLNK(mode):
        target = files.shown(os.readlink(path))
        raise LinkRefusedError(
            f"{name} is a symbolic link to {target}: spider does not write through links"
        )
    raise NotAFileError(
        f"{name} is {files.kind(mode)}, not a regular file: spider replaces only regular files"
    )


def write_atomically(path: str | os.PathLike[str], text: str, private: bool = False) -> None:
    """Replace the file at ``path`` with ``text`` (UTF-8): afterwards it holds all of it or,
    if anything failed, exactly what it held before.

    The text goes to a temporary file in the same directory (so the final rename stays on one
    file system), is flushed to disk with fsync, and then takes the file's place with
    :func:`os.replace`, which is atomic. A new file gets the usual permissions (umask); an
    existing one keeps its mode, unless ``private`` (spider's own files): then the file is
    the user's alone, whatever mode a file planted there had. Only a regular file is
    replaced: never a symbolic link (nor what it points to), a pipe, a socket, a device or a
    directory (see :func:`refuse_unless_file`).
    Errors are :class:`OSError`, as from :func:`open`. Temporary files of this name that a
    spider killed mid-write left beside it are deleted (:func:`remove_stale_temporaries`),
    wherever the file is: the journal's directory or the player's own folder.
    """
    target = os.path.abspath(os.fspath(path))
    directory, name = os.path.split(target)
    refuse_unless_file(path)
    while True:
        temporary = os.path.join(directory, f".{name}.{os.urandom(4).hex()}.tmp")
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        if private:
            os.chmod(temporary, 0o600)
        else:
            with contextlib.suppress(FileNotFoundError):
                os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_directory(directory)
    remove_stale_temporaries(directory, name=name)


def move_aside(source: str | os.PathLike[str], destination: str | os.PathLike[str]) -> bool:
    """Rename the regular file ``source`` to ``destination`` (a damaged file, a game given
    up), replacing only a regular file there; whether it was moved (never an error)."""
    try:
        if not stat.S_ISREG(os.lstat(source).st_mode):
            return False
        refuse_unless_file(destination)
        os.replace(source, destination)
    except (OSError, ValueError):
        return False
    return True


def _sync_directory(directory: str) -> None:
    """Flush the directory entry of the rename to disk, where the platform allows it."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temporaries(
    directory: str | os.PathLike[str], before: float | None = None, name: str | None = None
) -> int:
    """Delete temporary files of :func:`write_atomically` in ``directory`` (of the file
    ``name`` only, if given) last changed before ``before`` (default: when this process
    started), left by a crash or a kill; how many.

    Only regular files with our naming pattern are touched; links and others' files stay.
    """
    if before is None:
        before = _process_start()
    removed = 0
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return 0
    for entry in entries:
        if not _TEMPORARY.fullmatch(entry.name):
            continue
        if name is not None and entry.name[1 : -len(".12345678.tmp")] != name:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and info.st_mtime < before:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


def _process_start() -> float:
    """When this process started (its /proc entry's time where there is one, else now)."""
    try:
        return Path(f"/proc/{os.getpid()}").stat().st_mtime
    except OSError:
        return time.time()
