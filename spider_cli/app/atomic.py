"""Replacing a file so that a crash or a full disk never leaves half of it behind."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Replace the file at ``path`` with ``text`` (UTF-8): afterwards it holds all of it or,
    if anything failed, exactly what it held before.

    The text goes to a temporary file in the same directory (so the final rename stays on one
    file system), is flushed to disk with fsync, and then takes the file's place with
    :func:`os.replace`, which is atomic. A new file gets the usual permissions (umask); an
    existing one keeps its mode. Errors are :class:`OSError`, as from :func:`open`.
    """
    target = os.path.abspath(os.fspath(path))
    directory, name = os.path.split(target)
    while True:
        temporary = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
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
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_directory(directory)


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
