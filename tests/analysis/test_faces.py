"""Each face of the analysis (its ``__init__`` and its wings') exports what its ``if
TYPE_CHECKING:`` imports name, no more, and every one of them loads."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from spider_cli import faces

FACES = [
    "spider_cli.analysis",
    "spider_cli.analysis.search",
    "spider_cli.analysis.blind",
    "spider_cli.analysis.solve",
    "spider_cli.analysis.chance",
    "spider_cli.analysis.bench",
]


@pytest.mark.parametrize("name", FACES)
def test_a_face_exports_what_it_imports_and_each_name_loads(name: str) -> None:
    package = importlib.import_module(name)
    table = faces.homes(str(package.__file__))
    assert table and sorted(package.__all__) == sorted(table)
    for exported, (module, inner) in table.items():
        value = getattr(package, exported)
        home = importlib.import_module(module)
        assert value is (
            getattr(home, inner) if module != name else importlib.import_module(f"{name}.{inner}")
        )
    assert set(table) <= set(dir(package))
    with pytest.raises(AttributeError, match="no attribute 'nowhere'"):
        package.nowhere  # noqa: B018


def test_one_module_of_a_wing_loads_without_its_faces_names() -> None:
    """A face loads nothing until a name is asked of it: importing the bench's worker module
    leaves the hints, the review and the solver unloaded."""
    code = (
        "import sys, spider_cli.analysis.bench.workers\n"
        "print(sorted(m for m in sys.modules if m in ('spider_cli.analysis.hints',"
        " 'spider_cli.analysis.review', 'spider_cli.analysis.solve.solver')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
