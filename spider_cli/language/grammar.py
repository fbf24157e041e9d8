"""The Lark grammars of spider, shipped inside the package, and the one way to build them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lark
from lark import Lark


def load(name: str, *, cache: bool = True, **options: Any) -> Lark:
    """A strict LALR parser, with line and column positions, for the grammar file ``name``.

    ``cache`` keeps the built parser in a file (strict mode's checks cost ~150 ms at every
    start otherwise), in the player's own cache directory: lark's default is a file of a
    predictable name in the shared temporary directory, which it unpickles, so another user
    could plant one there. Lark checks the grammar's digest stored in the file and rebuilds a
    stale one. Without a usable directory the parser is built afresh. A parser loaded from
    the cache lacks some of the grammar's details, so tools that inspect the grammar itself
    (hypothesis' ``from_lark``) ask for ``cache=False``.
    """
    where: str | bool = False
    if cache:
        directory = _cache_dir()
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass
        else:
            where = str(directory / f"{Path(name).stem}-lark-{lark.__version__}.cache")
    return Lark.open_from_package(
        "spider_cli.grammar",
        name,
        parser="lalr",
        strict=True,
        propagate_positions=True,
        cache=where,
        **options,
    )


def _cache_dir() -> Path:
    """The player's cache directory (``SPIDER_HOME`` overrides it, as for the other files)."""
    import os

    import platformdirs

    home = os.environ.get("SPIDER_HOME", "").strip()
    return (
        Path(home).expanduser()
        if home
        else Path(platformdirs.user_cache_dir("spider", appauthor=False))
    )
