"""A package's face: the names its layer above uses, loaded on first use (PEP 562).

A face writes its names once, as imports under ``if TYPE_CHECKING:`` (which type checkers
read), and hands its ``__getattr__`` and ``__dir__`` to :func:`face`, which reads those same
imports from the face's source. So importing one module of a package (a bench worker's
``spider_cli.analysis.bench.full``) loads that module alone, not every name of every face
above it.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def homes(source: str) -> dict[str, tuple[str, str]]:
    """Each name the face at ``source`` exports: (its module, its name there), as read from
    the face's ``if TYPE_CHECKING:`` imports."""
    tree = ast.parse(Path(source).read_text(encoding="utf-8"))
    found: dict[str, tuple[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module:
                    for alias in statement.names:
                        found[alias.asname or alias.name] = (statement.module, alias.name)
    return found


def face(package: str, source: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of the face ``package`` (its ``__init__`` at
    ``source``)."""
    table = homes(source)

    def getattr_(name: str) -> Any:
        if name not in table:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, inner = table[name]
        if module == package:  # one of the package's own modules
            value: Any = importlib.import_module(f"{package}.{inner}")
        else:
            value = getattr(importlib.import_module(module), inner)
        vars(sys.modules[package])[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(table) | set(vars(sys.modules[package])))

    return getattr_, dir_
