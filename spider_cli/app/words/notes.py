"""The notes said before a long search, and the path the searches take, in a player's words:
why the compiled core is not in use (:class:`~spider_cli.analysis.native.Unused`: at the
first slow search, in the welcome, in ``spider --version``) and what is wrong with
``SPIDER_MEMORY`` (:class:`~spider_cli.analysis.memory.Problem`)."""

from __future__ import annotations

from spider_cli.analysis.memory import VARIABLE as MEMORY_VARIABLE
from spider_cli.analysis.memory import Problem, Wrong
from spider_cli.analysis.native import Reason, Unused

NOT_BUILT = Unused(Reason.NOT_BUILT)
"""The core left out at install time, as the welcome says it."""

_SLOWER = "searches run in pure Python, about 30 times slower"


def unused_text(unused: Unused) -> str:
    """Why the searches run on the Python path, and what that costs."""
    match unused.reason:
        case Reason.NOT_BUILT:
            return (
                f"the compiled search core is not built (no C compiler at install time?): "
                f"{_SLOWER}, and a hint does not look ahead over what could turn up "
                "('hint deeper' does)"
            )
        case Reason.DOES_NOT_LOAD:
            return (
                f"the compiled search core is installed but does not load ({unused.detail}): "
                f"{_SLOWER}"
            )
        case Reason.TURNED_OFF:
            return f"the compiled search core is turned off (SPIDER_PURE): {_SLOWER}"


def path_text(unused: Unused | None) -> str:
    """Which path the searches take (``spider --version``): the core, or why not."""
    return "compiled search core: in use" if unused is None else unused_text(unused)


def slow_note(unused: Unused) -> str:
    """The note before a search that will run slowly, said once."""
    return f"note: {unused_text(unused)}"


def memory_note(problem: Problem) -> str:
    """The note that ``SPIDER_MEMORY`` makes no sense, and what is used instead."""
    match problem.wrong:
        case Wrong.NOT_A_SIZE:
            return (
                f"note: {MEMORY_VARIABLE} should be a size such as 2G or 512M, not "
                f"{problem.setting!r}; using a quarter of the machine's memory"
            )
