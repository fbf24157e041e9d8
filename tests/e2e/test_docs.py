"""The README and the documentation site hold together: the README is short and gives the
commands CI runs, every page of docs/ is in the site's navigation and every page named
there exists, and the changelog's latest release is the package's version."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from spider_cli.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")

PLAY = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/spider"
TEST = "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"


def _nav_pages(text: str) -> list[str]:
    """The Markdown files mkdocs.yml's ``nav`` names, in order."""
    nav = text.split("\nnav:\n", 1)[1]
    return re.findall(r":\s*(\S+\.md)\s*$", nav, re.MULTILINE)


def test_the_readme_is_short_and_says_where_the_documentation_is() -> None:
    assert len(README.splitlines()) <= 200
    assert "mkdocs build --strict" in README and "docs/" in README
    for words in ("spider examples", "spider run", "hint", "solve", "review", "autoremove"):
        assert words in README, words


def test_the_readme_gives_the_two_commands_ci_runs() -> None:
    assert f"\n{PLAY}\n" in README and f"\n{TEST}\n" in README
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # .ci/run creates the environment itself, then runs the rest of the command as written
    assert ".venv/bin/pip install --quiet -e '.[test]' && .venv/bin/python -m pytest" in ci
    assert "mkdocs build --strict" in ci


def test_every_page_is_in_the_navigation_and_every_page_named_exists() -> None:
    named = _nav_pages((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    pages = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md"))
    assert sorted(named) == pages
    assert len(named) == len(set(named))


def test_the_navigation_reader_finds_pages_and_only_pages() -> None:
    text = "site_name: x\nnav:\n  - Home: index.md\n  - Part:\n      - A: a/b.md\n"
    assert _nav_pages(text) == ["index.md", "a/b.md"]


def test_the_latest_release_is_the_package_version_and_unreleased_is_above_it() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.*)$", changelog, re.MULTILINE)
    assert headings[0] == "[Unreleased]"
    release = re.fullmatch(r"\[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})", headings[1])
    assert release is not None, headings[1]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert release[1] == project["version"]


def test_the_readme_review_is_what_review_prints_of_its_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SPIDER_HOME", str(tmp_path))
    shown = README.split("**Review a game.**", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    command = re.search(r"`spider review (\S+\.spider)`", README.split("**Review a game.**", 1)[1])
    assert command is not None
    assert main(["review", str(ROOT / command[1])]) == 0
    printed = capsys.readouterr().out.splitlines()
    lines = [line for line in shown.splitlines() if line.strip() != "..."]
    assert len(lines) >= 4 and all(line in printed for line in lines), lines
