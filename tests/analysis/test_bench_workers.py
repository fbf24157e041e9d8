"""``spider bench --jobs N``'s workers (spider_cli/analysis/bench/workers.py, issue 62): the
parent ends every worker before it ends itself, on every way out, and a worker that dies
is said, never waited for. With multiprocessing's Pool a worker could outlive its parent
stopped by Ctrl-C, and a worker killed in the middle of a deal left the bench waiting for
its result for ever."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spider_cli.analysis.bench import workers
from tests.e2e.test_long_numbers_and_signals import _alive, _both_workers

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")


SPIDER = [sys.executable, "-m", "spider_cli"]


def _bench(tmp_path: Path, seeds: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*SPIDER, "bench", "--seeds", seeds, "--suits", "4", "--jobs", "2", "--db", "b.sqlite"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )


def test_ctrl_c_at_any_moment_ends_every_worker_before_the_bench_ends(tmp_path: Path) -> None:
    # The race, in a loop: Ctrl-C at seeded moments, from as the second worker starts to a
    # second into the deals. No worker may be left once the parent has ended: none is
    # given a grace period here.
    moments = random.Random(62).sample([0.0, 0.02, 0.1, 0.3, 0.6, 1.0], 4)
    for moment in moments:
        bench = _bench(tmp_path, "0-400")
        try:
            found = _both_workers(bench.pid)
            time.sleep(moment)
            bench.send_signal(signal.SIGINT)
            _, err = bench.communicate(timeout=60)
            left = [pid for pid in found if _alive(pid)]
            assert (bench.returncode, left) == (130, []), (moment, err)
            assert b"Traceback" not in err, err
        finally:
            if bench.poll() is None:
                bench.kill()


def test_a_worker_killed_in_the_middle_of_a_deal_is_said_and_the_bench_ends(
    tmp_path: Path,
) -> None:
    bench = _bench(tmp_path, "0-11")
    try:
        victim = _both_workers(bench.pid)[0]
        assert bench.stderr is not None
        first = bench.stderr.readline()  # a deal done: both workers are at deals now
        os.kill(victim, signal.SIGKILL)  # as the kernel's out-of-memory killer would
        _, err = bench.communicate(timeout=120)  # (the Pool waited for its result for ever)
        said = first.decode() + err.decode()
        assert bench.returncode == 1, said
        assert "a worker ended before it finished its deal (killed by signal 9)" in said
        assert "Traceback" not in said
    finally:
        if bench.poll() is None:
            bench.kill()


def _raises(task: int) -> int:
    if task == 3:
        raise ValueError("task 3")
    return task


def test_the_workers_give_every_result_and_raise_a_workers_error() -> None:
    many = list(range(workers.TASKS_PER_WORKER * 3 + 1))  # workers replaced on the way
    assert sorted(workers.results(many, 2, abs)) == many
    with pytest.raises(ValueError, match="task 3"):
        list(workers.results(range(6), 2, _raises))
