"""A player's settings, kept from one ``spider`` to the next: ``settings.spider`` in the data
directory, a script of ``set`` lines (``set autoremove on``, ``set suits 2``).

Only the front ends for a person keep them: a script (``spider run``), a game file and the
Python API start from :class:`~spider_cli.language.settings.Settings`' defaults, so a file
plays the same on every machine. A player's own default differs in one place: complete
suits are removed at once (:data:`PLAYER_DEFAULTS`), as in every other Spider program;
``set autoremove off`` keeps the manual's explicit ``remove``.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from spider_cli.app.files import userdirs
from spider_cli.app.files.atomic import write_atomically
from spider_cli.language.commands import Set
from spider_cli.language.files import textfiles as files
from spider_cli.language.notation import parse_command
from spider_cli.language.settings import SETTING_VALUES, Settings, setting_value
from spider_cli.rules.errors import SpiderError

FILE_NAME = "settings.spider"

PLAYER_DEFAULTS = Settings(autoremove=True)
"""A player's settings before any ``set``: complete suits go at once."""


def path() -> Path:
    """Where the settings are kept."""
    return userdirs.data_dir() / FILE_NAME


def load() -> Settings:
    """The player's settings: the defaults, changed by each readable line of the file (a
    line that does not read is passed over; no file: the defaults)."""
    settings = PLAYER_DEFAULTS
    try:
        userdirs.check_private(path().parent)  # a home others can write holds no settings
        text = files.read_text(path(), FILE_NAME, limit=64 * 1024, follow_links=False)
    except (SpiderError, OSError):
        return settings
    for line in text.splitlines():
        with contextlib.suppress(SpiderError):
            command = parse_command(line)
            if isinstance(command, Set):
                settings = settings.changed(*setting_value(command))
    return settings


def save(settings: Settings) -> None:
    """Keep ``settings`` for the next start; SpiderError in a player's words if they cannot
    be written."""
    lines = [f"set {name} {_word(getattr(settings, name))}" for name in SETTING_VALUES]
    target = path()
    try:
        userdirs.check_private(target.parent)
        write_atomically(
            target,
            "\n".join(["# spider's settings ('set' changes them)", *lines]) + "\n",
            private=True,
        )
    except userdirs.UntrustedError as error:
        raise SpiderError(
            f"the settings are not kept: {error}; they hold until spider ends"
        ) from None
    except OSError as error:
        raise SpiderError(
            f"the settings cannot be kept in {files.shown(str(target))} "
            f"({files.reason(error)}): they hold until spider ends"
        ) from None


def _word(value: bool | int | str) -> str:
    return "on" if value is True else "off" if value is False else str(value)
