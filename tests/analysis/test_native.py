"""Which path the searches take: the compiled core when it is built and wanted, else the
Python path, said once where a search would be slow."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from spider_cli.analysis import native
from spider_cli.app.words.notes import path_text, slow_note, unused_text
from spider_cli.cli import main as cli


@pytest.fixture
def no_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a machine with no C compiler: the core was never built."""
    monkeypatch.setattr(native, "_module", None)


def test_the_core_is_built_where_ci_runs() -> None:
    if os.environ.get("CI") != "true":
        pytest.skip("only CI, whose machine has a C compiler, must have built the core")
    assert native.built(), "the compiled core did not build: see the pip install output"


def test_spider_pure_and_the_pure_block_keep_the_python_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SPIDER_PURE", raising=False)
    assert native.backend().compiled is native.built()
    with native.pure():
        assert native.backend() is native.PYTHON and not native.wanted()
    monkeypatch.setenv("SPIDER_PURE", "1")
    assert native.backend() is native.PYTHON
    assert native.unused() == native.Unused(native.Reason.TURNED_OFF) or not native.built()
    assert "turned off (SPIDER_PURE)" in path_text(native.Unused(native.Reason.TURNED_OFF))
    assert native.warning() is None  # asked for: nothing to warn of
    monkeypatch.setenv("SPIDER_PURE", "0")
    assert native.wanted()


def test_without_the_core_version_solve_and_bench_say_so_once(
    no_core: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("SPIDER_PURE", raising=False)
    assert native.backend() is native.PYTHON and not native.built()
    assert cli.main(["--version"]) == 0
    assert "not built" in capsys.readouterr().out
    assert cli.main(["solve", "--seed", "3", "--suits", "1", "--limit", "2000"]) in (0, 3)
    captured = capsys.readouterr()
    assert captured.err.count("not built") == 1 and "30 times slower" in captured.err
    assert "not built" not in captured.out  # the answer itself stays the same


def test_with_the_core_nothing_is_said(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if not native.built():
        pytest.skip("the compiled core is not built")
    monkeypatch.delenv("SPIDER_PURE", raising=False)
    assert cli.main(["solve", "--seed", "3", "--suits", "1", "--limit", "2000"]) in (0, 3)
    assert capsys.readouterr().err == ""


def test_start_up_does_not_load_the_core() -> None:
    code = (
        "import sys, spider_cli.cli.main, spider_cli.tui.main, spider_cli.analysis.solve.autoplay;"
        "print('spider_cli.analysis._core' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_core_installed_but_unloadable_is_named_with_its_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A wheel for another machine, or a damaged file: the Python path, and a word why.
    monkeypatch.setattr(native, "_module", None)
    monkeypatch.setattr(native, "_unloadable", "invalid ELF header")
    monkeypatch.delenv("SPIDER_PURE", raising=False)
    assert native.backend() is native.PYTHON
    unloadable = native.Unused(native.Reason.DOES_NOT_LOAD, "invalid ELF header")
    assert native.unused() == unloadable == native.warning() == native.absent()
    assert "installed but does not load (invalid ELF header)" in path_text(native.unused())
    assert slow_note(unloadable) == f"note: {unused_text(unloadable)}"
