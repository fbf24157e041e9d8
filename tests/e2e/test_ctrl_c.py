"""Ctrl-C in a script and as spider starts (issue 62): a script ends after the command a
Ctrl-C stopped (that command keeps what it did: ``auto`` its moves, ``review`` what it had
found), no later line runs, and the exit status is 130; a Ctrl-C while spider's modules
load ends it with 130 too, never a traceback. Each spider here is a real process sent a
real SIGINT, timed from a line it writes (never a fixed sleep from its start): Python's own
start, before spider's first line, is not spider's to handle."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SPIDER = [sys.executable, "-X", "importtime", "-m", "spider_cli"]
"""spider, saying on standard error as each module is loaded (``-X importtime``): the
line of the ``spider_cli`` package says spider's own code has begun."""

SCRIPT = Path(sys.executable).with_name("spider")
"""The console script, where the package is installed beside this Python."""


def _wait_for_package(stream: object, seconds: float = 120) -> None:
    """Read ``-X importtime``'s lines from ``stream`` until the one of the package itself
    (its code has run: spider's handling of Ctrl-C is in place), at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline, "the package never loaded"
        line = stream.readline()  # type: ignore[attr-defined]
        assert line, "ended before the package loaded"
        if line.startswith("import time:") and line.rsplit("|", 1)[-1].strip() == "spider_cli":
            return


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "SPIDER_HOME": str(home), "PYTHONUNBUFFERED": "1"}


def _start(command: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        command,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(cwd / "home"),
    )


def _wait_for(stream: object, marker: str, seconds: float = 120) -> str:
    """Read ``stream`` line by line until one holds ``marker`` (at most ``seconds``: a
    guard for a loaded machine, not a measure); what was read."""
    deadline = time.monotonic() + seconds
    seen = ""
    while marker not in seen:
        assert time.monotonic() < deadline, f"never said {marker!r}: {seen[-500:]}"
        line = stream.readline()  # type: ignore[attr-defined]
        assert line, f"ended before saying {marker!r}: {seen[-500:]}"
        seen += line
    return seen


def _interrupted(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    """SIGINT now; the exit status, and the rest of standard output and standard error
    (``-X importtime``'s lines left out)."""
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    said = "".join(line for line in err.splitlines(True) if not line.startswith("import time:"))
    return process.returncode, out, said


TWENTY_MOVES = (
    "# spider game file, version 1\nnew 0\n4s from 5 to 7\n3h from 8 to 5\n"
    + "3h from 5 to 7\n3h from 7 to 5\n" * 9
)


def test_ctrl_c_during_auto_ends_the_script_and_the_save_after_it_never_runs(
    tmp_path: Path,
) -> None:
    # The probe's case: a 20-move game file replaced by the 6 moves auto had played.
    kept = tmp_path / "mine.spider"
    kept.write_text(TWENTY_MOVES)
    (tmp_path / "play.txt").write_text("new 5\nauto 40\nsave! mine.spider\n")
    spider = _start([*SPIDER, "run", "play.txt"], tmp_path)
    assert spider.stdout is not None
    before = _wait_for(spider.stdout, "deal 5, 4 suits")  # auto begins now
    time.sleep(0.2)  # (past the line's end: its hints take seconds)
    status, out, err = _interrupted(spider)
    assert status == 130, (before + out, err)
    assert kept.read_text() == TWENTY_MOVES
    assert "auto stops: stopped by Ctrl-C" in out  # the moves it played kept, as ever
    assert "saved to" not in out and "Traceback" not in err
    assert "play.txt:2: stopped by Ctrl-C: the lines after it are not run" in err
    assert not list(tmp_path.glob(".*.tmp"))


def test_ctrl_c_during_a_review_in_a_script_ends_the_script(tmp_path: Path) -> None:
    # The second review begins once auto has said it stopped: every module a review needs
    # is loaded by then, so the Ctrl-C lands in the review's searches, which keep what they
    # found, and the script must end there.
    # Deal 927 is lost with every card known, so each review's first search runs to its
    # limit (seconds on any machine; a won deal's can end before the Ctrl-C comes).
    lines = ["new 927", "auto 6", "review", "deal", "auto 2", "review", "save! reviewed.spider"]
    (tmp_path / "review.txt").write_text("\n".join(lines) + "\n")
    spider = _start([*SPIDER, "run", "review.txt"], tmp_path)
    assert spider.stdout is not None
    before = _wait_for(spider.stdout, "No move marked")  # the first review's last line
    before += _wait_for(spider.stdout, "auto stops:")
    time.sleep(0.3)  # (past the line's end: its searches take seconds)
    status, out, err = _interrupted(spider)
    assert status == 130, (before + out, err)
    assert not (tmp_path / "reviewed.spider").exists()
    assert "review.txt:6: stopped by Ctrl-C" in err and "Traceback" not in err
    assert "saved to" not in out and "the review holds what it had found" in out


MOMENTS = (0.0, 0.003, 0.01, 0.03, 0.08, 0.2)
"""When the Ctrl-C comes, in seconds after spider's package began loading."""


def _entries() -> list[list[str]]:
    """``python -m spider_cli``, and the ``spider`` command where it is installed."""
    found = [SPIDER]
    if SCRIPT.is_file():
        found.append([sys.executable, "-X", "importtime", str(SCRIPT)])
    return found


@pytest.mark.parametrize(
    "entry", range(len(_entries())), ids=["python -m", "spider"][: len(_entries())]
)
def test_ctrl_c_as_spider_starts_ends_it_with_130_and_no_traceback(
    tmp_path: Path, entry: int
) -> None:
    game = tmp_path / "game.spider"
    game.write_text("# spider game file, version 1\nnew 0\n4s from 5 to 7\n3h from 8 to 5\n")
    (tmp_path / "play.txt").write_text("new 5\nauto 3\nsave! out.spider\n")
    commands = [["show", "game.spider"], ["review", "game.spider"], ["run", "play.txt"]]
    ended = []
    for n, moment in enumerate(MOMENTS):
        args = commands[n % len(commands)]
        spider = _start([*_entries()[entry], *args], tmp_path)
        assert spider.stderr is not None
        _wait_for_package(spider.stderr)
        time.sleep(moment)
        status, _out, err = _interrupted(spider)
        ended.append((args[0], moment, status))
        assert status in (0, 130), (ended, err)
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, (ended, err)
    assert any(status == 130 for _, _, status in ended), ended
