"""Every test, and every process a test starts, keeps its user files (journal, statistics,
history) in a temporary directory rather than the real home directory;
tests that look at those files point ``SPIDER_HOME`` at their own directory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def _spider_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    before = os.environ.get("SPIDER_HOME")
    os.environ["SPIDER_HOME"] = str(tmp_path_factory.mktemp("spider-home"))
    yield
    if before is None:
        del os.environ["SPIDER_HOME"]
    else:
        os.environ["SPIDER_HOME"] = before


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A SPIDER_HOME of the test's own (returned), with the test's directory as the working
    directory."""
    monkeypatch.setenv("SPIDER_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "home"


BOTH_PATHS = {
    "test_solver",
    "test_hints",
    "test_counting",
    "test_blind_player",
    "test_blind_bench",
    "test_firstmoves",
    "test_examples",
    "test_memory",
    "test_blind_bounded",
    "test_search_version",
    "test_autoplay_second_stage",
    "test_seams",
}
"""The analysis tests: each runs on the compiled core and again on the Python path (once,
on the Python path, where the core is not built). Not test_detours: the passes it tests are
Python alone, whichever path found the lines they straighten."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.module.__name__.rpartition(".")[2] in BOTH_PATHS:
        metafunc.fixturenames.append("search_path")
        from spider_cli.analysis import native

        paths = ["core", "python"] if native.built() else ["python"]
        metafunc.parametrize("search_path", paths, indirect=True)


@pytest.fixture(autouse=True)
def _on_search_path(request: pytest.FixtureRequest) -> None:
    """Puts every test of a BOTH_PATHS module on its path, whether or not the test names
    ``search_path`` among its arguments (an appended fixture name alone is not enough for
    pytest to set the fixture up)."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and "search_path" in callspec.params:
        request.getfixturevalue("search_path")


@pytest.fixture
def search_path(request: pytest.FixtureRequest) -> Iterator[str]:
    """Which path the searches of the test take: "core" or "python" (SPIDER_PURE is set
    too, for the processes the test starts)."""
    from spider_cli.analysis import native

    if request.param == "core":
        before = os.environ.pop("SPIDER_PURE", None)
        yield "core"
        if before is not None:
            os.environ["SPIDER_PURE"] = before
        return
    before = os.environ.get("SPIDER_PURE")
    os.environ["SPIDER_PURE"] = "1"
    with native.pure():
        yield "python"
    if before is None:
        del os.environ["SPIDER_PURE"]
    else:
        os.environ["SPIDER_PURE"] = before
