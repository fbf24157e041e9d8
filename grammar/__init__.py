"""The Lark grammars of spider, shipped inside the package, and the one way to build them."""

from __future__ import annotations

from typing import Any

from lark import Lark


def load(name: str, *, cache: bool = True, **options: Any) -> Lark:
    """A strict LALR parser, with line and column positions, for the grammar file ``name``.

    ``cache`` keeps the built parser in a file (strict mode's checks cost ~150 ms at every
    start otherwise). A parser loaded from that cache lacks some of the grammar's details, so
    tools that inspect the grammar itself (hypothesis' ``from_lark``) ask for ``cache=False``.
    """
    return Lark.open_from_package(
        "spider_cli.grammar", name, parser="lalr", strict=True, propagate_positions=True,
        cache=cache, **options,
    )
