"""The manual's worked problems: every script replays into the manual's next tableau."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from spider_cli.app import examples
from spider_cli.app.session import Session
from spider_cli.cli.main import run_scripts
from spider_cli.language.files.positions import load_position

FOLDER = examples.folder()
SCRIPTS = sorted(FOLDER.glob("*.spider"))
POSITIONS = sorted(FOLDER.glob("*.txt"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_every_script_replays_the_manuals_moves(script) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert (run_scripts([str(script)], out, err), err.getvalue()) == (0, "")
    assert "expect" in script.read_text(), "every script ends by checking a printed tableau"


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.stem)
def test_every_position_file_is_a_legal_position(position) -> None:
    load_position(position).to_game()


def test_the_catalogue_names_every_file() -> None:
    listed = {example.path.name for example in examples.catalogue()}
    on_disk = {p.name for p in SCRIPTS + POSITIONS}
    assert listed == on_disk
    for example in examples.catalogue():
        assert example.title, example.name
        for question in example.questions:
            assert question.answer in ("possible", "impossible"), example.name


def test_an_example_loads_by_name() -> None:
    session = Session.new_game(seed=0)
    session.execute("load problem-3")
    assert session.game.spaces() == [8]


def test_spider_examples_lists_them() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spider_cli", "examples"], capture_output=True, text=True, check=True
    )
    assert "problem-3" in done.stdout
    assert len(done.stdout.splitlines()) == len(examples.catalogue())


def test_spider_examples_counts_the_questions_and_shows_them_by_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from spider_cli.cli.main import main

    assert main(["examples"]) == 0
    listing = capsys.readouterr().out
    assert "[1 questions]" not in listing and "questions]" in listing
    assert main(["examples", "problem-1"]) == 0
    out = capsys.readouterr().out
    first = examples.catalogue()[[e.name for e in examples.catalogue()].index("problem-1")]
    assert out.count("\n   spider solve problem-1 ") == len(first.questions)
    assert "1. What should you do here, without dealing?" in out
    assert "spider solve problem-1 turn up a card, no deal" in out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert main(["examples", "problem-99"]) == 2
    assert "no example called problem-99 ('spider examples' lists them)" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["solve", "bench"])
def test_suits_has_its_help_in_solve_and_bench(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from spider_cli.cli.main import main

    assert main([command, "--help"]) == 0
    assert re.search(r"--suits N +1, 2 or 4 suits", capsys.readouterr().out)
