"""Issue 57's seams between the commands: a name means the same file to every command, the
games left waiting are named right and never overwritten, and the smaller points (each
said in a player's words through the real command line or the real prompt)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spider_cli.app import examples


def spider(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``spider ARGS`` in a process of its own, standard input not a terminal."""
    return subprocess.run(
        [sys.executable, "-m", "spider_cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


# ---------------------------------------------------------------------------------------------
# Examples by name, everywhere


def test_an_example_script_runs_and_shows_by_its_name(tmp_path: Path) -> None:
    listed = spider("examples", cwd=tmp_path)
    assert listed.stdout.startswith("intro-deal") and "\nintro-1-moves " in listed.stdout
    run = spider("run", "intro-1-moves", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.rstrip().endswith("position matches intro-1.txt")
    shown = spider("show", "intro-1-moves", cwd=tmp_path)
    assert shown.returncode == 0
    assert shown.stdout == examples.find("intro-1-moves").read_text()  # type: ignore[union-attr]
    # the same names in every message: each says what the others do
    said = spider("examples", "intro-1-moves", cwd=tmp_path).stdout
    assert "'spider show intro-1-moves' prints it, 'spider run intro-1-moves' runs it" in said
    loaded = spider(stdin="load intro-1-moves\n", cwd=tmp_path)
    assert loaded.returncode == 1
    assert "'spider run intro-1-moves' runs it ('spider show intro-1-moves' prints it)" in (
        loaded.stderr
    )


def test_a_file_name_with_its_suffix_is_that_file_not_another_example(tmp_path: Path) -> None:
    """intro-1.spider is the script; intro-1.txt (the example intro-1) is a position."""
    assert examples.find("intro-1.spider") == examples.find("intro-1-moves")
    assert examples.find("intro-1") == examples.find("intro-1.txt") != examples.find("intro-1-moves")
    run = spider("run", "intro-1.spider", cwd=tmp_path)
    assert run.returncode == 0 and "position matches intro-1.txt" in run.stdout, run.stderr


def test_a_file_of_that_name_comes_before_the_example(tmp_path: Path) -> None:
    (tmp_path / "intro-1-moves").write_text("new 5\n4h from 1 to 8\n")
    run = spider("run", "intro-1-moves", cwd=tmp_path)
    assert run.returncode == 0 and "pile 1 turns up Kd" in run.stdout, run.stderr
    missing = spider("run", "no-such-example", cwd=tmp_path)
    assert missing.returncode == 1
    assert missing.stderr == (
        "no-such-example: error: cannot read no-such-example: no such file or example\n"
    )
