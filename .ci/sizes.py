"""The sizes the house keeps (issue 49): no C function of the core over 120 lines (counted by
lizard), no module of spider_cli over 700 lines, and (issue 58) no C file of csrc/ over 700
lines either, its sources and its headers, and (issue 58) no folder of the package with more
than 12 modules beside its ``__init__``. The modules already past 700 are held at their
size today until they are split: they may shrink, never grow.

    python .ci/sizes.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FUNCTION_LINES = 120
MODULE_LINES = 700
C_FILE_LINES = 700
FOLDER_MODULES = 12
HELD_FOLDERS: dict[str, int] = {}
"""Folders over :data:`FOLDER_MODULES` today, each held at its count until it is split."""
HELD: dict[str, int] = {}
"""Modules over :data:`MODULE_LINES` today, each held at its size until it is split by job
(none now: a module that grows past the limit is split, not held)."""


def main() -> int:
    problems = []
    lizard = Path(sys.executable).with_name("lizard")
    found = subprocess.run(
        [str(lizard), "csrc", "-L", str(FUNCTION_LINES), "-C", "100000", "-a", "100", "-w"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    problems += [line for line in found.stdout.splitlines() if "warning" in line]
    if found.returncode not in (0, 1) or found.stderr.strip():
        problems.append(f"lizard could not count: {found.stderr.strip()}")
    for path in sorted((ROOT / "spider_cli").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        most = HELD.get(name, MODULE_LINES)
        if lines > most:
            problems.append(f"{name}: {lines} lines, more than {most}")
    for path in sorted((ROOT / "csrc").glob("*.[ch]")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > C_FILE_LINES:
            problems.append(f"csrc/{path.name}: {lines} lines, more than {C_FILE_LINES}")
    for folder in sorted({p.parent for p in (ROOT / "spider_cli").rglob("*.py")}):
        name = folder.relative_to(ROOT).as_posix()
        count = len([p for p in folder.glob("*.py") if p.name != "__init__.py"])
        most = HELD_FOLDERS.get(name, FOLDER_MODULES)
        if count > most:
            problems.append(f"{name}/: {count} modules, more than {most}")
        elif name in HELD_FOLDERS and count <= FOLDER_MODULES:
            problems.append(f"{name}/ holds {count} modules now: take it out of HELD_FOLDERS")
    for name in HELD:
        if (ROOT / name).exists():
            lines = len((ROOT / name).read_text(encoding="utf-8").splitlines())
            if lines <= MODULE_LINES:
                problems.append(f"{name} is {lines} lines now: take it out of HELD")
    for problem in problems:
        print(problem)
    print(f"sizes: {'held' if not problems else f'{len(problems)} over'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
