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
