"""Where spider keeps a player's files: the journal, the games played, the prompt's history.

The platform's own places (``platformdirs``): the data directory for the journal and the
history of games (what a player would miss if it were deleted), the state directory for the
prompt history. ``SPIDER_HOME`` replaces them all with one directory of the player's choice,
which is also how the tests keep away from the real home directory.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

HOME_VARIABLE = "SPIDER_HOME"
APP_NAME = "spider"


def _override() -> Path | None:
    value = os.environ.get(HOME_VARIABLE, "").strip()
    return Path(value).expanduser() if value else None


def data_dir() -> Path:
    """The directory of the journal and the history of games (not created here)."""
    return _override() or Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def state_dir() -> Path:
    """The directory of the prompt's history (not created here)."""
    return _override() or Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))
