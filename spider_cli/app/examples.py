"""The manual's worked problems, shipped with the program and opened by name.

The files live in the top-level ``examples/`` folder, installed as the package
``spider_cli.example_files``; ``examples/index.toml`` lists them with their questions.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path


@dataclass(frozen=True)
class Asked:
    """A question the manual asks about a position, and its answer (for the solver)."""

    ask: str
    solve: str
    constraints: str
    answer: str
    explanation: str


@dataclass(frozen=True)
class Example:
    """One example: a position file or a script, with a one-line title."""

    name: str
    title: str
    path: Path
    questions: tuple[Asked, ...] = field(default=())


def folder() -> Path:
    """Where the example files are (inside the installed package, or the source tree)."""
    return Path(str(resources.files("spider_cli.example_files")))


@cache
def catalogue() -> tuple[Example, ...]:
    """Every example listed in ``index.toml``, in its order."""
    base = folder()
    try:
        data = tomllib.loads((base / "index.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return ()
    found = []
    for entry in data.get("example", []):
        file = entry.get("file") or entry.get("script")
        questions = tuple(
            Asked(
                q.get("ask", ""),
                q.get("solve", ""),
                q.get("constraints", ""),
                q.get("answer", ""),
                q.get("explanation", ""),
            )
            for q in entry.get("question", [])
        )
        found.append(Example(entry["name"], entry.get("title", ""), base / file, questions))
    return tuple(found)


def find(name: str) -> Path | None:
    """The file of the example called ``name`` (also found by its file's name, or by its
    file's stem when ``name`` has no suffix), or None."""
    wanted = name.lower()
    for example in catalogue():
        path = example.path
        if wanted in (example.name.lower(), path.name.lower()):
            return path
        if "." not in wanted and path.stem.lower() == wanted:
            return path
    return None


def called(name: str) -> Example | None:
    """The example :func:`find` finds for ``name``, or None."""
    path = find(name)
    return next((e for e in catalogue() if e.path == path), None) if path else None
