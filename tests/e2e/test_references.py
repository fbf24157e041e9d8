"""What the package's docstrings and the grammars' comments point to exists: every name in a
Sphinx role (``:func:`x```, ``:class:`x```, ...), every ``spider_cli.x.y`` or ``module.name``
in double backquotes, and every path of the repository (``csrc/beam.c``,
``spider_cli/analysis/hints.py``). A rename that leaves a docstring behind fails here."""

from __future__ import annotations

import ast
import builtins
import importlib
import importlib.util
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest

import spider_cli

ROOT = Path(__file__).resolve().parents[2]

ROLE = re.compile(r":(?:func|class|meth|data|attr|mod|exc|obj):`~?([A-Za-z_][\w.]*)`")
"""A Sphinx role's target: ``:func:`name```, ``:meth:`~Class.name```."""
DOTTED = re.compile(r"``([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)``")
"""A dotted name in double backquotes: ``autoplay.PORTFOLIO``, ``spider_cli.app.session``."""
PATH = re.compile(
    r"(?<![\w/.])((?:spider_cli|csrc|benchmarks|tests|grammar|examples|docs)/[\w/.*-]*\w)"
)
"""A path of the repository, quoted or not: spider_cli/analysis/hints.py, csrc/beam.c."""
FILE_ENDINGS = {"py", "json", "jsonl", "lark", "spider", "txt", "toml", "md", "sqlite", "csv"}
"""Dotted words that are file names (``value.json``, ``settings.spider``), not names."""
MADE = ("benchmarks/results/td-", "benchmarks/results/selfplay-", "benchmarks/results/versus-")
"""Files the benchmarks write and git ignores (.gitignore): named, never kept."""


def _modules() -> dict[str, ModuleType]:
    found = {"spider_cli": spider_cli}
    for info in pkgutil.walk_packages(spider_cli.__path__, "spider_cli."):
        if info.name != "spider_cli.__main__":  # importing it would start the program
            module = importlib.import_module(info.name)
            if str(module.__file__).endswith(".py"):  # not the compiled core
                found[info.name] = module
    return found


MODULES = _modules()
BY_BASENAME: dict[str, list[ModuleType]] = {}
for _name, _module in MODULES.items():
    BY_BASENAME.setdefault(_name.rsplit(".", 1)[-1], []).append(_module)


def _strings(module: ModuleType) -> list[str]:
    """The module's docstrings: of the module, its classes and functions, and the bare
    strings that document its attributes."""
    source = Path(str(module.__file__)).read_text(encoding="utf-8")
    return [
        node.value.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ]


def _has(owner: object, name: str) -> bool:
    """Whether ``owner`` has ``name``: an attribute, a field declared by annotation, or an
    attribute its methods set (``self.name = ...``)."""
    if hasattr(owner, name):
        return True
    if inspect.isclass(owner):
        for klass in owner.__mro__:
            if name in getattr(klass, "__annotations__", {}):
                return True
            try:
                if re.search(rf"\bself\.{name}\b", inspect.getsource(klass)):
                    return True
            except (OSError, TypeError):
                continue
    return False


def _follow(start: object, rest: list[str]) -> bool:
    here = start
    for part in rest:
        if not _has(here, part):
            return False
        here = getattr(here, part, None)
        if here is None:  # a field declared but not set on the class: nothing to follow
            return part == rest[-1]
    return True


def _starts(module: ModuleType, first: str, dotted: bool = True) -> list[object]:
    """What the first part of a name can be, seen from ``module`` (a name alone only in the
    module itself or the public API, as Sphinx resolves it)."""
    starts: list[object] = []
    if first in vars(module):
        starts.append(vars(module)[first])
    starts += BY_BASENAME.get(first, [])
    if first == "spider_cli":
        starts.append(spider_cli)
    if first in getattr(spider_cli, "_PUBLIC", {}) or first in getattr(spider_cli, "_HERE", ()):
        starts.append(getattr(spider_cli, first))
    if not starts and dotted:  # ``GameLog.continued``: a class another module defines
        starts += [vars(m)[first] for m in MODULES.values() if first in vars(m)][:1]
    if not starts and hasattr(builtins, first):
        starts.append(getattr(builtins, first))
    if not starts and first != "spider_cli" and importlib.util.find_spec(first) is not None:
        starts.append(importlib.import_module(first))  # another library: ``dataclasses.replace``
    return starts


CORE = "spider_cli.analysis._core"
"""The compiled core's module, which an installation without a C compiler does not have."""


def resolves(module: ModuleType, name: str) -> bool:
    """Whether ``name`` (``Game.push``, ``chances.CHECK_LIMIT``, ``spider_cli.rules.goals``,
    or a method of a class of the module) names something that exists, seen from
    ``module``."""
    parts = name.split(".")
    if parts[0] == "spider_cli":
        if name == "spider_cli.example_files":  # the examples' package: data, no module
            return importlib.util.find_spec(name) is not None
        if name == CORE:  # the compiled core: named where it is built, or where it is not
            return (ROOT / "csrc" / "module.c").exists()
        for cut in range(len(parts), 0, -1):
            if ".".join(parts[:cut]) in MODULES:
                return _follow(MODULES[".".join(parts[:cut])], parts[cut:])
        return False
    if any(_follow(start, parts[1:]) for start in _starts(module, parts[0], len(parts) > 1)):
        return True
    # A method or attribute named alone (":meth:`run`"): of a class the module defines.
    classes = [v for v in vars(module).values() if inspect.isclass(v)]
    return len(parts) == 1 and any(_has(klass, name) for klass in classes)


def _missing_names() -> list[str]:
    missing = []
    for qualified, module in MODULES.items():
        for text in _strings(module):
            names = set(ROLE.findall(text))
            for dotted in DOTTED.findall(text):
                first, *rest = dotted.split(".")
                named = first == "spider_cli" or _starts(module, first)
                if named and not FILE_ENDINGS.intersection(rest):
                    names.add(dotted)
            missing += [f"{qualified}: {n}" for n in sorted(names) if not resolves(module, n)]
    return missing


def _missing_paths(texts: dict[str, str]) -> list[str]:
    missing = []
    for where, text in texts.items():
        for path in sorted(set(PATH.findall(text))):
            if "*" in path or path.startswith(MADE) or re.search(r"[A-Z]{3}", path):
                continue
            if not (ROOT / path).exists():
                missing.append(f"{where}: {path}")
    return missing


def test_every_name_the_docstrings_point_to_exists() -> None:
    assert _missing_names() == []


def test_every_path_the_docstrings_and_grammars_name_exists() -> None:
    texts = {name: "\n".join(_strings(module)) for name, module in MODULES.items()}
    for grammar in sorted((ROOT / "grammar").glob("*.lark")):
        comments = re.findall(r"//(.*)", grammar.read_text(encoding="utf-8"))
        texts[f"grammar/{grammar.name}"] = "\n".join(comments)
    assert _missing_paths(texts) == []


@pytest.mark.parametrize(
    ("name", "exists"),
    [
        ("Game.push", True),
        ("Game.obvious", False),
        ("odds.CHECK_LIMIT", True),
        ("chances.NO_SUCH_LIMIT", False),
        ("spider_cli.app.handlers", True),
        ("spider_cli.app.nowhere", False),
        ("deadline", False),
    ],
)
def test_the_check_tells_a_name_that_exists_from_one_that_does_not(name: str, exists: bool) -> None:
    assert resolves(MODULES["spider_cli.tui.board"], name) is exists


def test_the_check_tells_a_path_that_exists_from_one_that_does_not() -> None:
    text = "see spider_cli/language/reader.py and spider_cli/hints.py, csrc/beam.c"
    assert _missing_paths({"here": text}) == ["here: spider_cli/hints.py"]
