"""The fourth round of hardening: numbers of thousands of digits in another program's deal
name are refused in a player's words, by their length, never echoed back whole, wherever
the name comes (a script, ``spider show``, ``--seed``, ``load``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spider_cli.app.session import Session
from spider_cli.app.words.findings import answer_summary
from spider_cli.language.files.textfiles import LONGEST_NAMED, named
from spider_cli.rules.errors import NotationError, SpiderError

HUGE = "7" * 4_400  # past Python's limit of 4,300 digits for int()


@pytest.mark.parametrize("source", ["pysol", "kpat"])
def test_a_deal_number_of_thousands_of_digits_is_refused_by_its_length(source: str) -> None:
    with pytest.raises(NotationError, match="at most 20 digits, not 4,400") as caught:
        Session.new_game(seed=0).execute(f"new {source}:{HUGE}")
    assert HUGE not in str(caught.value)
    with pytest.raises(SpiderError) as loaded:
        Session.new_game(seed=0).execute(f"load {source}:{HUGE}")
    assert HUGE not in str(loaded.value)
    assert f"({len(source) + 1 + len(HUGE):,} characters)" in str(loaded.value)


@pytest.mark.parametrize(
    "args",
    [
        ["show", f"pysol:{HUGE}"],
        ["--seed", f"kpat:{HUGE}"],
        ["run", "-"],
        ["solve", "--seed", f"pysol:{HUGE}"],
    ],
)
def test_no_start_ends_in_an_internal_error(args: list[str], tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spider_cli", *args],
        input=f"new pysol:{HUGE}\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert done.returncode in (1, 2), done.stderr
    assert "internal error" not in done.stderr and HUGE not in done.stderr


def test_a_long_name_is_said_cut() -> None:
    assert named("x" * LONGEST_NAMED) == "x" * LONGEST_NAMED
    cut = named("x" * 5_000)
    assert len(cut) < LONGEST_NAMED and cut.endswith("(5,000 characters)")


def test_one_position_reachable_is_said_in_the_singular() -> None:
    from spider_cli.analysis.solve.solver import Answer, Verdict

    one = answer_summary(Answer(Verdict.IMPOSSIBLE, positions=1, reachable=1))
    assert "the one position reachable" in one and "1 positions" not in one
    assert "1 position examined" in one
    many = answer_summary(Answer(Verdict.IMPOSSIBLE, positions=9, reachable=9))
    assert "the 9 positions reachable" in many


def test_ctrl_c_while_a_reply_is_drawn_keeps_the_game_and_the_prompt(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Once ended spider with exit 130 and no word: the drawing was outside the command's
    # handling of Ctrl-C.
    from spider_cli.tui.player import Player
    from tests.helpers import drive, said

    real = Player._show
    calls: list[int] = []

    def interrupted(self: Player, *args: object) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt
        real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Player, "_show", interrupted)
    status, repl = drive("4h from 1 to 8\r7 3\rquit\rn\r")
    assert status == 0
    assert "the reply was cut short; the game is kept" in said(repl)
    assert [e.text for e in repl.session.history()] == ["4h from 1 to 8", "8d from 7 to 3"]


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _both_workers(parent: int) -> list[int]:
    """The bench's two worker processes, once both run (waited for at most a minute: a cap
    for a loaded machine, not a measure)."""
    workers: list[int] = []
    for _ in range(600):
        workers = [
            pid
            for pid in _children(parent)
            if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
        ]
        if len(workers) == 2:
            break
        time.sleep(0.1)
    assert len(workers) == 2
    return workers


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_the_bench_workers_end_with_their_parent(tmp_path: Path, signum: int) -> None:
    bench = subprocess.Popen(
        [sys.executable, "-m", "spider_cli", *"bench --seeds 0-400 --suits 4 --jobs 2".split()],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    try:
        workers = _both_workers(bench.pid)
        time.sleep(0.5)  # at work on their deals
        bench.send_signal(signum)
        bench.wait(timeout=60)
        time.sleep(1.0)
        assert [pid for pid in workers if _alive(pid)] == []
    finally:
        if bench.poll() is None:
            bench.kill()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
def test_a_signal_to_the_whole_group_ends_the_bench_cleanly(tmp_path: Path, signum: int) -> None:
    """A terminal closed (or a kill of the process group) signals every process of the group:
    the bench still ends, says so in a line, and leaves no worker and no traceback (its
    workers hear only the parent; the resource tracker ignores the hangup)."""
    bench = subprocess.Popen(
        [sys.executable, "-m", "spider_cli", *"bench --seeds 0-400 --suits 4 --jobs 2".split()],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        start_new_session=True,
    )
    try:
        workers = _both_workers(bench.pid)
        time.sleep(0.5)
        os.killpg(bench.pid, signum)
        _, err = bench.communicate(timeout=60)
        time.sleep(1.0)
        assert [pid for pid in workers if _alive(pid)] == []
        said = err.decode(errors="replace")
        assert "Traceback" not in said and "ended by SIG" in said, said
    finally:
        if bench.poll() is None:
            bench.kill()


def test_the_blind_benchs_workers_share_the_memory_ceiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of ``--jobs N`` workers of the blind bench keeps to an N-th of ``SPIDER_MEMORY``
    less what the parent and the resource tracker hold (the ceiling is the whole command's:
    at 300M, 2 jobs, 4 suits, the workers' shares of 150 MB gave 324 MB in all); the solver
    bench's keep the whole ceiling each."""
    from spider_cli.analysis import memory
    from spider_cli.analysis.bench import full

    monkeypatch.setenv("SPIDER_MEMORY", "300M")
    asked = ["SPIDER_MEMORY"] * 4
    shared = list(full.local_results(asked, 2, os.getenv, shared=True))  # type: ignore[arg-type]
    assert shared == [str(((300 << 20) - memory.PARENT_BYTES) // 2)] * 4
    assert 2 * memory.parse(shared[0]) + memory.PARENT_BYTES <= 300 << 20
    whole = list(full.local_results(asked, 2, os.getenv))  # type: ignore[arg-type]
    assert whole == ["300M"] * 4


def test_the_bench_ends_after_its_pool_has_replaced_workers() -> None:
    """The pool retires a worker every 20 tasks and starts its replacement from a thread of
    its own. The workers once asked the kernel to kill them when their parent ended, which
    the kernel reads as "when the thread that started them ends": as the pool ended, a
    replacement waiting on the queue was killed holding the queue's lock, and the bench
    waited for it for ever after its last deal. Ten pools of 100 tasks must each end."""
    code = (
        "from spider_cli.analysis.bench.full import local_results\n"
        "for _ in range(10):\n"
        "    assert sorted(local_results(list(range(-100, 0)), 2, worker=abs)) == "
        "list(range(1, 101))\n"
        "print('ended')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0 and done.stdout == "ended\n", done.stderr
