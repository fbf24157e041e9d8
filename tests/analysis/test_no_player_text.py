"""analysis/ builds no text for a player: it returns typed values, and the application
writes every word a player reads (spider_cli/app/words/, one place per result).

Player text, for this test, is a string put together in analysis/: an f-string, a
concatenation or ``%`` with a string literal, ``"...".join`` or ``"...".format``, or a use
of the rules' words (anything from :mod:`spider_cli.rules.text`, and the card and suit
names of :mod:`spider_cli.rules.cards`: ``card_text``, ``SUIT_NAMES``...). What a
``raise`` or an ``assert`` says is not counted: an error is the application's to catch and
word (or a bug's report), and so is an exception built to be raised (``SomeError(...)``).
The few functions that still build strings are listed in
:data:`ALLOWED`, each with what the string is; a listed function that builds none fails the
test too, so the list only shrinks.

The scan reads the source (its syntax tree), so a plain string literal returned as a result
is not seen: the words of a literal belong in app/words/ as well.
"""

from __future__ import annotations

import ast
from pathlib import Path

import spider_cli

ANALYSIS = Path(spider_cli.__file__).parent / "analysis"

WORDS = frozenset({"card_text", "SUIT_NAMES", "RANK_WORDS", "RANK_NAMES", "SUIT_LETTERS"})
"""The rules' words for cards and suits (from spider_cli.rules.cards)."""

WHOLE_MODULE = "*"

NOTATION = "the line in the manual's notation (Answer.texts), as a solve answer lists it"

ALLOWED: dict[tuple[str, str], str] = {
    ("review.py", "version"): "a key naming the review in stored results",
    ("chance/search.py", "player_key"): "a key naming the player in stored results",
    ("solve/autoplay.py", "search_key"): "a key naming the search in stored results",
    ("solve/solver.py", "<module>"): NOTATION,
    ("solve/solver.py", "_without_detours"): NOTATION,
    ("solve/solver.py", "replay_steps"): NOTATION,
    ("solve/contingencies.py", "<module>"): "the move that turns the card up (Contingency.text)",
    ("solve/contingencies.py", "contingencies"): "the move that turns the card up, in notation",
}
"""(module under analysis/, function or ``*`` for the whole module): what its string is."""


def _builders(tree: ast.Module, names: frozenset[str]) -> list[tuple[int, str, str]]:
    """Where ``tree`` builds a string or uses the rules' words: (line, enclosing function,
    what), outside ``raise`` and ``assert`` statements."""
    found: list[tuple[int, str, str]] = []

    def visit(node: ast.AST, function: str, excused: bool) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        excused = excused or isinstance(node, (ast.Raise, ast.Assert)) or _error(node)
        what = "" if excused else _what(node, names)
        if what:
            found.append((getattr(node, "lineno", 0), function, what))
        for child in ast.iter_child_nodes(node):
            if not (isinstance(node, ast.JoinedStr) and isinstance(child, ast.FormattedValue)):
                visit(child, function, excused)

    visit(tree, "<module>", False)
    return found


def _error(node: ast.AST) -> bool:
    """Is ``node`` an exception built (``SomeError(...)``), to be raised?"""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    return name.endswith(("Error", "Exception"))


def _literal(node: ast.AST) -> bool:
    return isinstance(node, (ast.JoinedStr, ast.Constant)) and (
        isinstance(node, ast.JoinedStr) or isinstance(node.value, str)
    )


def _what(node: ast.AST, names: frozenset[str]) -> str:
    """What ``node`` builds, if it builds player text (else "")."""
    if isinstance(node, ast.JoinedStr):
        return "an f-string"
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, (ast.Add, ast.Mod))
        and (_literal(node.left) or _literal(node.right))
    ):
        return "a string put together"
    if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and _literal(node.value):
        return "a string put together"
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("join", "format")
        and _literal(node.func.value)
    ):
        return f"a string's {node.func.attr}"
    if isinstance(node, ast.Name) and node.id in names:
        return f"the rules' words ({node.id})"
    if isinstance(node, ast.ImportFrom) and node.module == "spider_cli.rules.text":
        return "the rules' text (spider_cli.rules.text)"
    if isinstance(node, ast.Attribute) and node.attr in WORDS:
        return f"the rules' words ({node.attr})"
    return ""


def _imported_words(tree: ast.Module) -> frozenset[str]:
    """The names a module takes from the rules' text, or the rules' card words."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in (
            "spider_cli.rules.text",
            "spider_cli.rules.cards",
        ):
            for alias in node.names:
                if node.module == "spider_cli.rules.text" or alias.name in WORDS:
                    names.add(alias.asname or alias.name)
    return frozenset(names)


def scan(root: Path = ANALYSIS) -> dict[tuple[str, str], list[str]]:
    """Every string analysis/ builds, by (module, function): the lines and what."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = path.relative_to(root).as_posix()
        for line, function, what in _builders(tree, _imported_words(tree)):
            found.setdefault((module, function), []).append(f"{module}:{line}: {what}")
    return found


def _allowed(key: tuple[str, str]) -> bool:
    return key in ALLOWED or (key[0], WHOLE_MODULE) in ALLOWED


def test_analysis_builds_no_player_text() -> None:
    """Outside the allow-list, analysis/ builds no string."""
    found = scan()
    built = [line for key, lines in found.items() if not _allowed(key) for line in lines]
    assert not built, "analysis/ builds player text; the words belong in app/words/:\n" + (
        "\n".join(built)
    )


def test_the_allow_list_is_what_still_builds_text() -> None:
    """Each entry of the allow-list still builds a string (else it is to be struck off)."""
    found = scan()
    modules = {module for module, _function in found}
    stale = [
        key
        for key in ALLOWED
        if (key[1] == WHOLE_MODULE and key[0] not in modules)
        or (key[1] != WHOLE_MODULE and key not in found)
    ]
    assert not stale, stale


def test_the_scan_sees_what_it_looks_for(tmp_path: Path) -> None:
    """The scan finds each kind of player text, and passes over errors and plain data."""
    (tmp_path / "words.py").write_text(
        "from spider_cli.rules.text import move_text\n"
        "from spider_cli.rules.cards import SUIT_NAMES, KING\n"
        "def a(n):\n    return f'{n} moves'\n"
        "def b(n):\n    return 'pile ' + str(n)\n"
        "def c(xs):\n    return '; '.join(xs)\n"
        "def d(s):\n    return SUIT_NAMES[s]\n"
        "def e(game, m):\n    return move_text(game, m)\n"
        "def f(n):\n    text = 'a'\n    text += 'b'\n    return text\n"
        "def g(n):\n    if n < 0:\n        raise ValueError(f'bad {n}')\n"
        "    assert n, f'{n}'\n    return (n, KING, ''.join, KeyError(f'{n}'))\n",
        encoding="utf-8",
    )
    found = scan(tmp_path)
    assert {function for _module, function in found} == {"<module>", *"abcdef"}
