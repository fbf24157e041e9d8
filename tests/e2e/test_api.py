"""The public Python API (``import spider_cli as sp``): its names, its cost, and the examples
of the documentation's API page (docs/api.md) and of the README, which run here as
doctests."""

from __future__ import annotations

import doctest
import importlib
import importlib.metadata
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spider_cli as sp
from spider_cli.language.commands import Solve
from spider_cli.language.files import positions
from spider_cli.rules import layout

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
API_PAGE = ROOT / "docs" / "api.md"
HEAVY = ("lark", "prompt_toolkit", "spider_cli.analysis.solve.solver", "spider_cli.analysis.hints")


def test_importing_the_package_loads_no_parser_terminal_or_solver() -> None:
    """``import spider_cli`` (and so a bench worker's ``spider_cli.analysis.bench.full``) stays
    light: the public names load on first use."""
    code = (
        "import sys, spider_cli, spider_cli.analysis.bench.full\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('lark', 'prompt_toolkit')"
        " or m.startswith(('spider_cli.analysis.solve.solver', 'spider_cli.analysis.hints',"
        " 'spider_cli.language'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_every_public_name_resolves_to_its_home() -> None:
    table = sp._PUBLIC
    assert set(table) | {"parse_move"} == set(sp.__all__)
    for name in sp.__all__:
        value = getattr(sp, name)
        if name in table:
            module, inner = table[name]
            assert value is getattr(importlib.import_module(module), inner), name
    assert table["solve"] == ("spider_cli.analysis.solve.answers", "solve")
    assert set(sp.__all__) <= set(dir(sp)) and "__version__" in dir(sp)
    with pytest.raises(AttributeError, match="no attribute 'Board'"):
        sp.Board  # noqa: B018


def test_the_loader_and_the_type_checkers_see_the_same_names() -> None:
    """The ``if TYPE_CHECKING:`` imports of the package's ``__init__`` (an ``X as X``, or
    ``name = X`` for an imported X) name exactly the homes the loader's table gives."""
    import ast

    tree = ast.parse(Path(sp.__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If)).body
    imports = [node for node in block if isinstance(node, ast.ImportFrom)]
    homes = {a.asname or a.name: (node.module, a.name) for node in imports for a in node.names}
    seen = {a.name: homes[a.name] for node in imports for a in node.names if a.asname == a.name}
    for node in block:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            names = [target for target in node.targets if isinstance(target, ast.Name)]
            seen |= {target.id: homes[node.value.id] for target in names}
    assert seen == sp._PUBLIC


def test_public_values_have_real_signatures() -> None:
    import inspect

    goal = inspect.signature(sp.Goal)
    assert list(goal.parameters) == ["kind", "pile", "steps", "card"]
    assert goal.parameters["kind"].annotation is sp.GoalKind
    assert goal.parameters["pile"].default is None
    assert "no_deal" in inspect.signature(sp.Constraints).parameters
    assert list(inspect.signature(sp.DealSource).parameters) == ["source", "number", "suits"]


def test_goal_kinds_are_an_enum_and_piles_count_from_zero() -> None:
    command = sp.parse_command("solve turn up a card in pile 6")
    assert isinstance(command, Solve)
    assert command.goal == sp.Goal(sp.GoalKind.TURN_UP, pile=5)  # as Move(src=5, ...): pile 6
    assert sp.Goal("space").kind is sp.GoalKind.SPACE  # a kind's text is taken as the kind
    with pytest.raises(ValueError):
        sp.Goal("fly")


def test_star_import_gives_every_public_name() -> None:
    namespace: dict[str, object] = {}
    exec("from spider_cli import *", namespace)
    assert set(sp.__all__) <= set(namespace)
    assert namespace["Game"] is sp.Game and namespace["solve"] is sp.solve


def test_version_is_the_installed_one() -> None:
    assert sp.__version__ == importlib.metadata.version("spider-cli")


def test_the_writers_live_in_the_rules_and_are_still_named_by_positions() -> None:
    for name in ("grid", "lines", "markdown", "position_code", "CODE_PREFIX"):
        assert getattr(positions, name) is getattr(layout, name)


def test_parse_move_reads_and_resolves_one_line() -> None:
    game = sp.Game.new(17)
    assert sp.parse_move(game, "6s from 6 to 1") == sp.Move(5, 0, 1)
    assert sp.parse_move(game, "6 1") == sp.parse_move(game, "6") == sp.Move(5, 0, 1)
    assert sp.parse_move(game, "deal  # a comment") is sp.DEAL
    with pytest.raises(sp.IllegalMoveError, match="no pile ends with a complete suit"):
        sp.parse_move(game, "remove")
    with pytest.raises(sp.IllegalMoveError, match="pile 3's movable run"):
        sp.parse_move(game, "3 10")
    for line in ("undo", "hint", "", "  # only a comment"):
        with pytest.raises(sp.NotationError, match="is not a move"):
            sp.parse_move(game, line)
    with pytest.raises(sp.NotationError, match="unknown command"):
        sp.parse_move(game, "fly 3 10")


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.integers(0, 200), max_size=30))
def test_parse_move_reads_back_what_move_text_writes(seed: int, choices: list[int]) -> None:
    game = sp.Game.new(seed)
    for choice in choices:
        legal = game.legal_moves()
        if not legal:
            break
        for action in legal:
            assert sp.parse_move(game, sp.move_text(game, action)) == action
        game.push(legal[choice % len(legal)])


def test_a_game_prints_as_its_grid_and_reprs_as_its_code() -> None:
    game = sp.Game.new(5, suits=2)
    assert str(game) + "\n" == sp.grid(game)
    assert sp.read_position(str(game)).to_game().key() == game.key()
    assert repr(game) == f"<Game {sp.position_code(game)}>"
    game.push(game.legal_moves()[0])
    assert repr(game) == f"<Game {sp.position_code(game)} after 1 move>"
    game.push(game.legal_moves()[0])
    assert repr(game).endswith(" after 2 moves>")


def test_a_game_and_its_position_file_are_written_alike() -> None:
    game = sp.Game.new(3)
    game.push(sp.DEAL)
    for hide in (False, True):
        text = sp.lines(game, hide=hide)
        position = sp.read_position(text)
        for write in (sp.grid, sp.markdown, sp.lines, sp.position_code):
            assert write(position) == write(position.to_game()) == write(game, hide=hide)


# ---------------------------------------------------------------------------------------------
# Doctests: the Python examples of the API page and the README, and any in the docstrings


def _page_doctests(text: str, page: Path = API_PAGE) -> list[doctest.DocTest]:
    """Each ```python block of a Markdown page as a doctest, sharing one namespace, with its
    line number in the file."""
    parser = doctest.DocTestParser()
    globs: dict[str, object] = {}
    tests = []
    for match in re.finditer(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
        lineno = text.count("\n", 0, match.start(1))
        test = parser.get_doctest(match[1], globs, page.name, str(page), lineno)
        test.globs = globs  # get_doctest copies them
        tests.append(test)
    return tests


def _run(tests: list[doctest.DocTest]) -> tuple[int, int, str]:
    """(failures, examples tried, the report) of running doctests in order."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in tests:
        runner.run(test, out=report.append, clear_globs=False)
    return runner.failures, runner.tries, "".join(report)


def test_the_api_page_python_examples_run() -> None:
    failures, tries, report = _run(_page_doctests(API_PAGE.read_text(encoding="utf-8")))
    assert tries >= 10
    assert failures == 0, report


def test_the_readme_python_example_runs() -> None:
    failures, tries, report = _run(_page_doctests(README.read_text(encoding="utf-8"), README))
    assert tries >= 3
    assert failures == 0, report


def test_a_wrong_api_page_example_fails() -> None:
    text = API_PAGE.read_text(encoding="utf-8").replace("'6s from 6 to 1')", "'6s from 6 to 2')")
    failures, _tries, report = _run(_page_doctests(text))
    assert failures == 1 and "6s from 6 to 2" in report


def test_the_docstring_examples_run() -> None:
    finder = doctest.DocTestFinder()
    tests = []
    for module in pkgutil.walk_packages(sp.__path__, "spider_cli."):
        if module.name != "spider_cli.__main__":  # importing it would start the program
            tests += finder.find(importlib.import_module(module.name))
    tests += finder.find(sp)
    failures, tries, report = _run(tests)
    assert tries >= 4
    assert failures == 0, report
