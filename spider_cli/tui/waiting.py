"""A prompt_toolkit application waiting for keys, ended by a signal from inside its loop.

A signal handler that raises runs between any two steps of the event loop, and an exception
raised there can lose a callback that a task waits for: the loop then never finishes
shutting down (:mod:`spider_cli.app.interrupt`). :func:`running` keeps the signal instead,
and has the loop end the application with it, so the application's own clean-up runs and
its ``run()`` raises the signal's exception.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from prompt_toolkit.application import Application

from spider_cli.app import interrupt


class _Ended(Exception):
    """The application ended by a signal: an ordinary exception, so that its task finishes
    as any other (a SystemExit or KeyboardInterrupt would escape the loop as it shuts down)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(error)
        self.error = error


def _end(app: Application[Any], error: BaseException) -> None:
    """End ``app`` (in its loop) because of ``error``, unless it is ending already."""
    if app.is_running and app.future is not None and not app.future.done():
        app.exit(exception=_Ended(error))


T = TypeVar("T")


def running(app: Application[Any], run: Callable[..., T]) -> T:
    """``run(pre_run=...)`` (the application's ``run``, or a prompt's), with signals kept
    out of its event loop: one that comes while it waits ends it, and this raises it."""

    def wake(error: BaseException) -> None:
        loop = app.loop
        if loop is not None:  # not yet running: pre_run finds it kept
            loop.call_soon_threadsafe(_end, app, error)

    def pre_run() -> None:
        if interrupt.HELD.pending is not None:
            _end(app, interrupt.HELD.pending)

    with interrupt.waiting(wake):
        try:
            return run(pre_run=pre_run)
        except _Ended as ended:  # the signal kept (if a command has not taken it meanwhile)
            raise (interrupt.HELD.take() or ended.error) from None
