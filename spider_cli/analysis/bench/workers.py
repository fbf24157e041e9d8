"""Worker processes for ``spider bench``: tasks played in processes, each with a pipe of its
own, and every worker ended by the parent on every way out.

Not multiprocessing's Pool: its workers share one queue of tasks behind one lock, which
a worker waiting for a task holds, and the pool's end takes that lock. A worker killed
holding it (by the kernel, by the parent's end) or waiting on it for a task that never
comes left ``Pool.terminate`` waiting for ever; and the pool ends its workers after its
threads do, so one could outlive a parent stopped by Ctrl-C. Here nothing is shared: the
parent hands each worker one task at a time on its own pipe, waits on the pipes and on the
processes themselves (a worker that dies is said, never waited for), and on any way out of
:func:`results` (the last result, Ctrl-C, an error, the caller stopping) kills every worker
and waits for each to end before it returns.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.context import SpawnContext, SpawnProcess
from typing import Any

from spider_cli.rules.errors import SpiderError

TASKS_PER_WORKER = 20
"""Tasks a worker plays before a fresh one takes its place (keeps the solver's caches from
growing without end)."""


class WorkerDied(SpiderError):
    """A worker ended without handing back its task's result (killed, out of memory): its
    exit ``status`` (negative: the signal that killed it; None: not known), which the
    application words (the deals finished are kept)."""

    def __init__(self, status: int | None) -> None:
        super().__init__(status)
        self.status = status


Start = Callable[..., None]
"""What a worker runs first, with ``start_args`` (see :func:`results`)."""


def results(
    tasks: Iterable[Any],
    jobs: int,
    worker: Callable[[Any], Any],
    start: Start | None = None,
    start_args: tuple[Any, ...] = (),
) -> Iterator[Any]:
    """``worker(task)`` for each task, in ``jobs`` spawned processes, the results as they
    come; each process runs ``start(*start_args)`` first. An exception ``worker`` raises is
    raised here; a worker that dies raises :class:`WorkerDied`."""
    context = multiprocessing.get_context("spawn")
    pending = iter(tasks)
    crew: dict[Connection, tuple[SpawnProcess, int]] = {}  # a pipe: its worker, tasks given

    def hire(task: Any) -> None:
        pipe, process = _hire(context, worker, start, start_args)
        crew[pipe] = (process, 1)  # (before the task: a way out from here on ends it)
        _give(pipe, process, task)

    try:
        for _ in range(jobs):
            task = next(pending, _NONE)
            if task is _NONE:
                break
            hire(task)
        while crew:
            ready = wait([*crew, *(process.sentinel for process, _ in crew.values())])
            for pipe in [p for p in crew if p in ready]:
                process, given = crew[pipe]
                try:
                    failed, value = pipe.recv()
                except (EOFError, OSError):  # (the worker's end closed as it died)
                    raise WorkerDied(_ended(process)) from None
                if failed:
                    raise value
                yield value
                task = next(pending, _NONE)
                if task is not _NONE and given < TASKS_PER_WORKER:
                    crew[pipe] = (process, given + 1)
                    _give(pipe, process, task)
                    continue
                _retire(pipe, process)
                del crew[pipe]
                if task is not _NONE:
                    hire(task)
            for pipe, (process, _) in crew.items():
                if process.sentinel in ready and not pipe.poll():
                    raise WorkerDied(_ended(process))
    finally:
        for process, _ in crew.values():
            process.kill()
        for pipe, (process, _) in crew.items():
            process.join()
            pipe.close()


_NONE = object()
"""No task left."""


def _hire(
    context: SpawnContext, worker: Callable[[Any], Any], start: Start | None, args: tuple[Any, ...]
) -> tuple[Connection, SpawnProcess]:
    """A new worker process, and the parent's end of its pipe."""
    mine, theirs = context.Pipe()
    process = context.Process(
        target=_serve, args=(theirs, worker, start, args), name="spider bench worker", daemon=True
    )
    process.start()
    theirs.close()
    return mine, process


def _give(pipe: Connection, process: SpawnProcess, task: Any) -> None:
    """Send a worker its task (a worker gone by then is said as one)."""
    try:
        pipe.send(task)
    except OSError:
        raise WorkerDied(_ended(process)) from None


def _retire(pipe: Connection, process: SpawnProcess) -> None:
    """Tell a worker there is no more for it, and wait for it to end (killed if it does not
    within a second: it has nothing left to do)."""
    with contextlib.suppress(OSError):
        pipe.send(None)
    process.join(1.0)
    if process.exitcode is None:
        process.kill()
        process.join()
    pipe.close()


def _ended(process: SpawnProcess) -> int | None:
    """The exit status of a worker that died (None if it is not known within a second)."""
    process.join(1.0)
    return process.exitcode


def _serve(
    pipe: Connection, worker: Callable[[Any], Any], start: Start | None, args: tuple[Any, ...]
) -> None:
    """A worker: ``start``, then each task from the pipe played and its result (or the
    exception) sent back, until the pipe says no more (None) or closes."""
    if start is not None:
        start(*args)
    while True:
        try:
            task = pipe.recv()
        except EOFError:
            return
        if task is None:
            return
        try:
            answer: tuple[bool, Any] = (False, worker(task))
        except Exception as error:  # handed to the parent, which raises it
            answer = (True, error)
        pipe.send(answer)
