"""The C boundary measured (issue 49, item 5): today's hand-written glue (csrc/module.c)
against cffi's API mode over the same C, on one entry point, the move generator.

``_core.actions(piles, spaces, whole)`` converts the piles and the spaces to the core's
``State`` in C and the moves back to tuples in C. The cffi version binds ``gen_actions``
from csrc/moves.c through a ``cdef`` of core.h's types, and does the same conversions in
Python. Both give the same moves (checked on every position timed). The script builds the
cffi module in a temporary folder (cffi is a benchmark tool here, not a dependency:
``pip install cffi``), then prints, over the same random positions:

- the cost of a call, each way, and their ratio;
- the time to import each module (a fresh interpreter, best of five);
- the lines each way takes for this entry point.

Run: ``python benchmarks/bench_boundary.py [--positions 2000] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from spider_cli.analysis import compact, native
from spider_cli.rules.engine import Game

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"

CDEF = """
#define PILES 10
#define MAX_CARDS 104
#define MAX_ACTIONS 1600
typedef struct { uint8_t len[PILES]; uint8_t c[PILES][MAX_CARDS]; } State;
typedef struct { int8_t kind, src, dst, count; } Action;
int gen_actions(const State *s, const int *spaces, int nspaces, int whole_into_space,
                Action *out);
"""

WRAPPER = '''
def actions(piles, spaces, whole=True):
    """The moves and removals of ``piles`` (ten ``bytes``), as (kind, src, dst, count)."""
    if len(piles) != 10 or len(spaces) > 10:
        raise ValueError("ten piles, at most ten spaces")
    state = ffi.new("State *")
    for i, pile in enumerate(piles):
        if len(pile) > 104:
            raise ValueError("a pile holds at most 104 cards")
        state.len[i] = len(pile)
        ffi.memmove(state.c[i], pile, len(pile))
    for pile in spaces:
        if not 0 <= pile < 10 or piles[pile]:
            raise ValueError("a space is an empty pile, 0 to 9")
    out = ffi.new("Action[]", 1600)
    n = lib.gen_actions(state, list(spaces), len(spaces), whole, out)
    return [(a.kind, a.src, a.dst, a.count) for a in out[0:n]]
'''


def build(folder: Path) -> None:
    """The cffi module ``_boundary`` (API mode) over moves.c, state.c and ceiling.c."""
    import cffi  # type: ignore[import-untyped, import-not-found, unused-ignore]

    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source(
        "_boundary",
        '#include "core.h"',
        sources=[str(CSRC / name) for name in ("moves.c", "state.c", "ceiling.c")],
        include_dirs=[str(CSRC)],
        extra_compile_args=["-O2"],
    )
    ffi.compile(tmpdir=str(folder), verbose=False)
    (folder / "boundary_glue.py").write_text(
        "from _boundary import ffi, lib\n" + WRAPPER, encoding="utf-8"
    )


def positions(count: int, seed: int) -> list[tuple[list[bytes], list[int]]]:
    """Positions met in play: random deals of 1, 2 and 4 suits, a few random moves in."""
    rng = random.Random(seed)
    found: list[tuple[list[bytes], list[int]]] = []
    while len(found) < count:
        game = Game.new(rng.randrange(10**6), rng.choice((1, 2, 4)))
        for _ in range(rng.randrange(60)):
            moves = [a for a in game.legal_moves() if not game.unknown_reveals(a)]
            if not moves:
                break
            game.push(rng.choice(moves))
        piles = compact.encode(game).piles
        found.append((list(piles), [i for i, pile in enumerate(piles) if not pile]))
    return found


def per_call(call: object, cases: list[tuple[list[bytes], list[int]]], rounds: int) -> float:
    """The best time of a call over ``cases``, in microseconds."""
    best = float("inf")
    for _ in range(rounds):
        began = time.perf_counter()
        for piles, spaces in cases:
            call(piles, spaces, True)  # type: ignore[operator]
        best = min(best, time.perf_counter() - began)
    return best / len(cases) * 1e6


def import_ms(statement: str, path: Path | None = None) -> float:
    """The best of five fresh interpreters' time for ``statement``, in milliseconds."""
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    env_path = [str(path)] if path else []
    times = []
    for _ in range(5):
        done = subprocess.run(
            [sys.executable, "-c", f"import sys; sys.path[:0] = {env_path!r}; {code}"],
            capture_output=True,
            text=True,
            check=True,
        )
        times.append(float(done.stdout))
    return min(times) * 1000


def glue_lines() -> int:
    """The lines of ``py_actions`` in csrc/module.c."""
    text = (CSRC / "module.c").read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(text) if line.startswith("static PyObject *py_actions"))
    last = next(i for i in range(first, len(text)) if text[i] == "}")
    return last - first + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=49)
    args = parser.parse_args()
    core = native.backend()
    if not core.compiled:
        sys.exit("the compiled core is not built: nothing to compare")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        build(folder)
        sys.path.insert(0, str(folder))
        import boundary_glue  # type: ignore[import-not-found]

        cases = positions(args.positions, args.seed)
        module = native._load()
        assert module is not None
        for piles, spaces in cases:
            assert boundary_glue.actions(piles, spaces) == module.actions(piles, spaces, True)
        glue = per_call(module.actions, cases, args.rounds)
        cffi_call = per_call(boundary_glue.actions, cases, args.rounds)
        glue_import = import_ms("import spider_cli.analysis._core")
        cffi_import = import_ms("import boundary_glue", folder)
    print(f"{len(cases)} positions, the same moves both ways")
    print(f"a call: glue {glue:.2f} us, cffi {cffi_call:.2f} us (cffi/glue {cffi_call / glue:.2f})")
    print(f"import: glue {glue_import:.2f} ms, cffi {cffi_import:.2f} ms")
    print(
        f"lines for this entry point: glue {glue_lines()} (C), "
        f"cffi {len(CDEF.strip().splitlines())} (cdef) + {len(WRAPPER.strip().splitlines())} "
        "(Python wrapper)"
    )


if __name__ == "__main__":
    main()
