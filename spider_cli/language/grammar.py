"""The Lark grammars of spider and their parsers, shipped inside the package as data.

``grammar/NAME.lark`` is the grammar; ``grammar/NAME.json`` holds the LALR tables lark builds
from it, in lark's own serialization written as JSON: data, never code, so nothing is ever
unpickled, and no cache is kept in the player's directories. :func:`load` reads the tables
(a few milliseconds) into lark's parser; :mod:`spider_cli.language.lalr` reads them with no
lark import, which is how the lines of a script are read. :func:`build` makes the parser
from the grammar with lark's strict checks (the grammar has no conflicts, and no two
terminals a parser state accepts can match the same text), which needs ``interegular`` and
~100 ms. ``python -m spider_cli.language.grammar`` rebuilds the tables after a grammar
changes; the tests check that every table file matches its grammar.
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from lark import Lark

_FOLDER = Path(cast(str, importlib.import_module("spider_cli.grammar").__file__)).parent
"""Where the grammar files and their tables are: the package ``spider_cli.grammar`` (the
top-level grammar/ folder in a checkout). importlib.resources would cost ~2 ms more at every
start."""

GRAMMARS: dict[str, dict[str, Any]] = {
    "commands.lark": {"maybe_placeholders": False},
    "commands.lark#question": {"maybe_placeholders": False, "start": "question"},
    "position.lark": {},
}
"""Each parser: a grammar file (``#RULE`` for a start rule other than ``start``), and the
options it is built with beyond the common ones."""

_COMMON = {"parser": "lalr", "propagate_positions": True}
"""The options every grammar is built with."""


def load(name: str, **options: Any) -> Lark:
    """The LALR parser of the grammar file ``name``, from its tables (grammar/NAME.json).

    ``options`` are those lark allows when loading a parser: ``transformer`` (to build the
    result while parsing, with no tree) and ``propagate_positions`` (True by default: the
    tree's nodes then know their line and column).
    """
    return from_tables(tables(name), **options)


def from_tables(tables: dict[str, Any], **options: Any) -> Lark:
    """The parser of decoded tables (see :func:`load`), loaded as lark's own standalone
    parsers load theirs (``Lark._load_from_dict``): no pickle."""
    from lark import Lark

    options = {"propagate_positions": True, **options}
    parser = Lark._load_from_dict(  # type: ignore[no-untyped-call]
        tables["data"], tables["memo"], **options
    )
    return cast(Lark, parser)


def build(name: str) -> Lark:
    """The parser built from the grammar itself, with lark's strict checks.

    For the tables' generator and the tests (hypothesis' ``from_lark`` needs the grammar's
    details, which the tables lack).
    """
    from lark import Lark

    return Lark(_source(name), strict=True, **_COMMON, **GRAMMARS[name])


def digest(name: str) -> str:
    """What the tables of ``name`` are made from: its text and its build options."""
    import hashlib

    made_from = _source(name) + json.dumps({**_COMMON, **GRAMMARS[name]}, sort_keys=True)
    return hashlib.sha256(made_from.encode()).hexdigest()


def tables_text(name: str) -> str:
    """The JSON text of the tables of ``name``, built from the grammar (see :func:`build`).

    Only the options that differ from lark's defaults are kept, so that other lark versions
    of the same serialization read them.
    """
    from lark.grammar import Rule
    from lark.lark import LarkOptions
    from lark.lexer import TerminalDef

    data, memo = build(name).memo_serialize([TerminalDef, Rule])
    defaults = LarkOptions._defaults
    data["options"] = {k: v for k, v in data["options"].items() if defaults.get(k, v) != v}
    made = {"grammar": name, "sha256": digest(name), "data": data, "memo": memo}
    return json.dumps(made, separators=(",", ":")) + "\n"


def start_rule(name: str) -> str:
    """The rule a parser of ``name`` starts from ("start" unless the name says ``#RULE``)."""
    return name.partition("#")[2] or "start"


def tables_path(name: str) -> Path:
    """Where the tables of ``name`` are kept: next to the grammar ("commands.json", and
    "commands-question.json" for the start rule ``question``)."""
    file, _, start = name.partition("#")
    return _FOLDER / (Path(file).stem + (f"-{start}" if start else "") + ".json")


@cache
def tables(name: str) -> dict[str, Any]:
    """The stored tables of ``name``, decoded for lark (shared: not to be changed)."""
    return decode(tables_path(name).read_text(encoding="utf-8"))


@cache
def stored(name: str) -> dict[str, Any]:
    """The stored tables of ``name`` as JSON reads them, with text keys (shared: not to be
    changed). :mod:`spider_cli.language.lalr` reads these: :func:`decode` takes longer
    than the JSON itself."""
    tables: dict[str, Any] = json.loads(tables_path(name).read_text(encoding="utf-8"))
    return tables


def decode(text: str) -> dict[str, Any]:
    """Tables from their JSON text, with the integer keys JSON made text integers again."""
    tables: dict[str, Any] = json.loads(text)
    tables["memo"] = {int(key): value for key, value in tables["memo"].items()}
    table = tables["data"]["parser"]["parser"]
    table["tokens"] = {int(key): value for key, value in table["tokens"].items()}
    table["states"] = {
        int(state): {int(token): action for token, action in actions.items()}
        for state, actions in table["states"].items()
    }
    return tables


def _source(name: str) -> str:
    if name not in GRAMMARS:
        raise ValueError(f"no grammar {name!r}")
    return (_FOLDER / name.partition("#")[0]).read_text(encoding="utf-8")


def main() -> None:
    """Write the tables of every grammar (run after changing a grammar file)."""
    for name in GRAMMARS:
        path = tables_path(name)
        path.write_text(tables_text(name), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
