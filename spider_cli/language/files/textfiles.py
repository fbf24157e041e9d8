"""The files a player names: where a name points, and reading one safely.

Every way a path can fail (no such user in ``~name``, a NUL byte, a name too long, a loop of
links, no permission, a FIFO or a device where a file should be) becomes a
:class:`~spider_cli.rules.errors.SpiderError` in a player's words, never a traceback. Only
regular files are read, and never more than a limit, so a named pipe cannot block the game
and ``/dev/zero`` cannot fill the memory: every file spider reads or appends to is opened by
:func:`open_regular`. :func:`shown` is the one way text from outside (names, lines of files)
is printed: with its control characters escaped.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from spider_cli.rules.errors import SpiderError, printable

NOT_FOUND = "no such file or directory"

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest file spider reads, and so the largest game file it writes (a game of 100,000
moves is well under it)."""


def path_of(name: str | os.PathLike[str], base: Path) -> Path:
    """The path a name means: ``~`` expanded, relative to ``base``; links are not resolved
    (writing checks the final name itself, see :mod:`spider_cli.app.files.atomic`)."""
    text = os.fspath(name)
    if "\0" in text:
        raise SpiderError(f"{named(text)}: a file name cannot hold a NUL character")
    if not text.strip():
        raise SpiderError("a file name is needed")
    try:
        path = Path(text).expanduser()
    except RuntimeError:  # ~user for a user this machine does not have
        user = text[1:].split("/", 1)[0]
        raise SpiderError(f"{named(text)}: there is no user called {shown(user)}") from None
    return path if path.is_absolute() else base / path


def missing(path: Path) -> str | None:
    """None when something is at ``path``, else why not in a player's words."""
    try:
        os.stat(path)
    except (OSError, ValueError) as error:
        return reason(error)
    return None


class NotAFileError(OSError):
    """What is at a path is not a regular file (a pipe, a socket, a device, a directory, a
    link): spider reads and writes regular files only. No errno: its message is the whole
    reason."""


def open_regular(path: Path, flags: int, follow_links: bool = True) -> int:
    """A descriptor of the regular file at ``path``, opened with ``flags`` (a new file is
    private to its user): never blocking on a named pipe, never taking a terminal; a final
    symbolic link is refused unless ``follow_links``. OSError otherwise, as from
    :func:`os.open` (:class:`NotAFileError` for what is not a regular file)."""
    flags |= getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotAFileError(f"it is not a regular file (it is {kind(mode)})")
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_text(
    path: Path, shown_as: str, limit: int | None = None, follow_links: bool = True
) -> str:
    """The UTF-8 text of the regular file at ``path`` (``shown_as`` names it in errors), at
    most ``limit`` bytes (default :data:`MAX_FILE_BYTES`); a byte-order mark is dropped.
    Files of spider's own (the journal, the statistics, the prompt's history) are read
    without following a final link (``follow_links`` False)."""
    limit = MAX_FILE_BYTES if limit is None else limit
    try:
        fd = open_regular(path, os.O_RDONLY, follow_links)
    except (OSError, ValueError) as error:
        raise SpiderError(f"cannot read {named(shown_as)}: {reason(error)}") from None
    try:
        data = _read_up_to(fd, limit + 1)
    except OSError as error:
        raise SpiderError(f"cannot read {named(shown_as)}: {reason(error)}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise SpiderError(f"cannot read {named(shown_as)}: {too_big(limit)}")
    return decode(data, shown_as)


def too_big(limit: int) -> str:
    """Why a file over ``limit`` bytes is refused."""
    return f"it is over {size_text(limit)}, far too big for a spider file"


def size_text(size: int) -> str:
    """A size in a player's words: "16 MB", "65,536 bytes"."""
    if size >= 1024 * 1024:
        return f"{size // (1024 * 1024)} MB"
    return f"{size:,} bytes"


def unreadable(text: str) -> str | None:
    """Why spider could not read ``text`` back from a file it writes (None: it can), in
    words that follow "the game file would be"."""
    if len(text.encode("utf-8")) <= MAX_FILE_BYTES:
        return None
    return f"over {size_text(MAX_FILE_BYTES)}, more than spider reads back"


def decode(data: bytes, shown_as: str) -> str:
    """UTF-8 text, without a byte-order mark (some editors begin a file with one: it would
    spoil the first line); SpiderError names the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        raise SpiderError(
            f"cannot read {named(shown_as)}: it is not UTF-8 text (byte {error.start + 1} is "
            f"{data[error.start]:#04x})"
        ) from None


def kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in a player's words ("a named pipe")."""
    kinds = (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
    )
    return next((words for test, words in kinds if test(mode)), "a special file")


def _read_up_to(fd: int, count: int) -> bytes:
    chunks = []
    left = count
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def reason(error: OSError | ValueError) -> str:
    """Why a path failed, in a player's words."""
    if isinstance(error, ValueError):
        return "the name cannot be used as a file name"
    words = {
        errno.ENAMETOOLONG: "the name is too long for this system",
        errno.ELOOP: "it is a loop of symbolic links (or a link spider will not follow)",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.ENOENT: NOT_FOUND,
        errno.ENOTDIR: "a part of the path is not a directory",
        errno.EISDIR: "it is a directory",
        errno.ENOSPC: "the disk is full",
        errno.EROFS: "the file system is read-only",
    }
    return words.get(error.errno or 0) or error.strerror or str(error)


CLIPPED = 20
"""The most characters of a word from a file that a message repeats (a number of 5,000
digits is said by its first digits and its length)."""


def clipped(text: str, most: int = CLIPPED) -> str:
    """``text`` safe to print (:func:`shown`) and short: a longer one is cut, saying how
    long it was."""
    text = shown(text)
    return text if len(text) <= most else f"{text[: most - 8]}… ({len(text):,} characters)"


def shown(text: str, newlines: bool = False) -> str:
    """Text from outside (a file's name, a line of a file), safe to print: its control
    characters (terminal escapes) shown escaped, line feeds too unless ``newlines`` keeps
    them (a message of several lines)."""
    if newlines:
        return "\n".join(printable(line) for line in text.split("\n"))
    return printable(text)


def named(name: str) -> str:
    """A name from outside (a file's, a deal's) as a message says it: :func:`shown`, and
    one longer than :data:`LONGEST_NAMED` cut, saying how long it was (a name thousands of
    characters long is not worth printing whole)."""
    if len(name) > LONGEST_NAMED:
        name = f"{name[: LONGEST_NAMED // 2]}… ({len(name):,} characters)"
    return shown(name)


LONGEST_NAMED = 200
"""The longest name :func:`named` says whole."""


MAX_LINE = 10_000
"""The longest line a script may hold (no command comes near it)."""


def script_lines(text: str) -> list[str]:
    """A script's lines, split at line feeds only (a CR before one is dropped): form feeds,
    vertical tabs, NEL and the Unicode line separators stay inside their line, so line
    numbers are the ones an editor shows."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
