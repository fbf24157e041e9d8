"""The typed lines kept across runs (the prompt's history file, in the state directory)."""

from __future__ import annotations

import contextlib
import datetime
import os
from collections.abc import Iterable
from pathlib import Path

from prompt_toolkit.history import History, InMemoryHistory

from spider_cli.app.files.atomic import write_atomically
from spider_cli.app.files.userdirs import UntrustedError, check_private, state_dir
from spider_cli.language.files import textfiles as files
from spider_cli.rules.errors import SpiderError

HISTORY_FILE = "history"
HISTORY_KEEP = 5_000
"""Entries the history file keeps: at start-up a longer file loses its oldest entries."""


class FileHistory(History):
    """The prompt's history file, in prompt_toolkit's format (an entry is a ``# <time>``
    line, then its lines each after a ``+``). Read and appended only where it is a regular
    file of its own: a symbolic link (in a shared directory, another user's), a named pipe
    or a device at its name is left alone, and a history that cannot be read or written is
    not an error (the prompt keeps this run's lines in memory)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__()

    def load_history_strings(self) -> Iterable[str]:
        try:
            text = files.read_text(self.path, HISTORY_FILE, follow_links=False)
        except SpiderError:
            return []
        entries = text.split("\n# ")[1:]
        lines = (entry.split("\n")[1:] for entry in entries)
        strings = ["\n".join(line[1:] for line in entry if line.startswith("+")) for entry in lines]
        return reversed(strings)

    def store_string(self, string: str) -> None:
        lines = "".join(f"+{line}\n" for line in string.split("\n"))
        entry = f"\n# {datetime.datetime.now()}\n{lines}".encode("utf-8", errors="replace")
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
        with contextlib.suppress(OSError):
            fd = files.open_regular(self.path, flags, follow_links=False)
            with os.fdopen(fd, "ab") as file:
                file.write(entry)


def open_history(directory: Path | None = None) -> History:
    """The history kept across runs in the state directory (in memory if it cannot be)."""
    directory = directory or state_dir()
    try:
        check_private(directory)  # another user's lines, or ours read by others: neither
    except (UntrustedError, OSError):
        return InMemoryHistory()
    path = directory / HISTORY_FILE
    _trim_history(path)
    return FileHistory(path)


def _trim_history(path: Path, keep: int = HISTORY_KEEP) -> None:
    """Cut the history file down to its last ``keep`` entries (it grows by one a command).

    A file too short to need it is not read. Never an error."""
    try:
        if path.lstat().st_size < keep * 16:
            return
        text = files.read_text(path, HISTORY_FILE, follow_links=False)
        entries = text.split("\n# ")[1:]
        if len(entries) > keep:
            write_atomically(
                path, "".join(f"\n# {entry}" for entry in entries[-keep:]), private=True
            )
    except (OSError, SpiderError):
        return
