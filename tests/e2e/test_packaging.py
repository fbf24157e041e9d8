"""The wheel ships every package of spider_cli: ``pyproject.toml`` names its packages one by
one, so a new wing that is not listed would install without its modules (and ``spider`` would
not start from the wheel, as ``.ci/wheel`` alone would show, a minute later)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_of_the_tree_is_in_the_wheels_list() -> None:
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "spider_cli").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found <= listed, f"not in pyproject.toml's packages: {sorted(found - listed)}"
    assert {"spider_cli.grammar", "spider_cli.example_files"} <= listed
