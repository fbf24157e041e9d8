"""The one reader of the benchmarks' JSON-lines files (``tune_weights.py``'s log and games,
``fit_value.py``'s self-play): one JSON object a line, appended as the work goes.

A stop (Ctrl-C, a kill, a full disk) can leave the last line half written: a reader that
goes on appending (``cut=True``) cuts it from the file first, so the next line does not
join it; one that only reads leaves the file as it is (a run may be writing it) and skips
it. Any other line that cannot be read (not JSON, not an object, a key missing, a NUL,
bytes that are not UTF-8) is damage no stop explains: the script ends saying which line,
never guessing around it.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def read(path: Path, keys: Iterable[str] = (), cut: bool = False) -> list[dict[str, Any]]:
    """The objects of the file at ``path`` ([] if there is none), each holding ``keys``;
    its half-written last line cut from the file (``cut``) or skipped; SystemExit in
    words for a damaged line."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as error:
        sys.exit(f"{path}: cannot be read ({error.strerror or error})")
    whole = data[: data.rfind(b"\n") + 1]
    if whole != data:
        if cut:
            _cut(path, whole)
        print(f"{path}: its last line was half written (a stop): left out", file=sys.stderr)
    wanted = tuple(keys)
    return [_entry(path, number, line, wanted) for number, line in _lines(whole)]


def _lines(data: bytes) -> Iterable[tuple[int, bytes]]:
    """The lines of ``data`` that hold something, numbered from 1 as an editor numbers them."""
    for number, line in enumerate(data.split(b"\n")[:-1], 1):
        if line.strip():
            yield number, line


def _entry(path: Path, number: int, line: bytes, keys: tuple[str, ...]) -> dict[str, Any]:
    def damaged(why: str) -> SystemExit:
        return SystemExit(f"{path}: line {number} is damaged ({why}); mend or remove it")

    if b"\0" in line:
        raise damaged("it holds a NUL byte")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise damaged("it is not UTF-8 text") from None
    try:
        entry = json.loads(text)
    except json.JSONDecodeError as error:
        raise damaged(f"not JSON: {error.msg} at character {error.pos + 1}") from None
    if not isinstance(entry, dict):
        raise damaged("not a JSON object")
    missing = [key for key in keys if key not in entry]
    if missing:
        raise damaged(f"it has no {', '.join(repr(key) for key in missing)}")
    return entry


def _cut(path: Path, whole: bytes) -> None:
    """The file replaced by its whole lines (a new file renamed over it: a link at the path
    is replaced, not written through)."""
    cut = path.with_name(path.name + ".cut")
    cut.write_bytes(whole)
    os.replace(cut, path)


def append(path: Path, entry: dict[str, Any]) -> None:
    """One line more, on disk before this returns (a stop loses at most the line being
    written, which :func:`read` cuts)."""
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")
        out.flush()
        os.fsync(out.fileno())
