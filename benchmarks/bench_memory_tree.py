"""The memory ceiling as a user meets it: the peak resident memory of a whole command's
process tree (the parent and its workers), against ``SPIDER_MEMORY`` (issue 50).

Runs ``spider bench --blind`` on deals at a budget past any ceiling, at each level, for a
number of seconds, sampling the resident memory of every process of the tree five times a
second, and prints the peak of the tree and of its largest process beside the ceiling.

    python benchmarks/bench_memory_tree.py --memory 300M --seconds 90 --jobs 2
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found = [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            children = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
            for child in children:
                found += tree(int(child))
    except OSError:
        pass
    return found


def resident(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def peak(command: list[str], seconds: float, env: dict[str, str]) -> tuple[int, int]:
    """Run ``command`` for at most ``seconds``: the peak bytes of its tree and of its
    largest process."""
    started = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    most_tree = most_one = 0
    end = time.monotonic() + seconds
    while started.poll() is None and time.monotonic() < end:
        sizes = [resident(p) for p in tree(started.pid)]
        most_tree = max(most_tree, sum(sizes))
        most_one = max(most_one, max(sizes))
        time.sleep(0.2)
    if started.poll() is None:
        os.killpg(started.pid, signal.SIGTERM)
        started.wait()
    return most_tree, most_one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memory", default="300M", help="SPIDER_MEMORY for the command")
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seeds", default="0-1")
    parser.add_argument("--levels", nargs="+", default=["plain", "quick", "strong"])
    args = parser.parse_args()
    spider = str(Path(sys.executable).with_name("spider"))
    env = {**os.environ, "SPIDER_MEMORY": args.memory}
    print(f"SPIDER_MEMORY={args.memory}, --jobs {args.jobs}, {args.seconds:.0f} s a level")
    for level in args.levels:
        with tempfile.TemporaryDirectory() as scratch:
            command = [
                spider,
                "bench",
                "--blind",
                "--seeds",
                args.seeds,
                "--suits",
                "4",
                "--budget",
                str(2**63 - 1),
                "--level",
                level,
                "--jobs",
                str(args.jobs),
                "--db",
                str(Path(scratch) / "b.sqlite"),
            ]
            whole, one = peak(command, args.seconds, env)
        print(f"{level:7s} peak of the tree {whole >> 20:5d} MB, of one process {one >> 20:5d} MB")


if __name__ == "__main__":
    main()
