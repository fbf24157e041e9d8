"""``spider``'s arguments: the subcommands and their options, read by argparse."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from spider_cli.cli.exits import INTERRUPTED, OK, REFUSED, USAGE
from spider_cli.rules.deals import DealSource
from spider_cli.rules.errors import quoted
from spider_cli.rules.goals import Wanted

if TYPE_CHECKING:
    from typing import TypeAlias

    _Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]


class _Version(argparse.Action):
    """``--version``: the installed package's version (looked up only when asked for)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print spider's version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("spider-cli")
        except PackageNotFoundError:
            number = "(not installed)"
        from spider_cli.analysis import native
        from spider_cli.app.words.notes import path_text

        print(f"spider {number}\n{path_text(native.unused())}")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """``spider``'s argument parser; with ``command``, only that subcommand's options are
    built (a start that runs a script need not build the other five)."""
    parser = argparse.ArgumentParser(
        prog="spider",
        description="Spider solitaire for the terminal: play, study and script the game.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    for name, add in _SUBPARSERS.items():
        if command is None or command == name:
            built = add(sub)
            if name == "play":
                parser.epilog = _play_options(built)
    return parser


def _add_play(sub: _Subparsers) -> argparse.ArgumentParser:
    play = sub.add_parser("play", help="play a game interactively (the default)")
    play.add_argument("file", nargs="?", help="a position or game file, or an example's name")
    play.add_argument("--seed", metavar="DEAL", help=_SEED_HELP + " (a random one if not given)")
    play.add_argument(
        "--suits",
        type=int,
        choices=(1, 2, 4),
        metavar="N",
        help="1, 2 or 4 suits (default: 4, or what 'set suits N' keeps at a terminal)",
    )
    play.add_argument(
        "--winnable",
        action="store_true",
        help="the first deal from --seed on (a random one if not given) that a search "
        "seeing every card wins",
    )
    play.add_argument(
        "--difficulty",
        choices=[w.value for w in Wanted if w is not Wanted.WINNABLE],
        metavar="LEVEL",
        help="easy, medium or hard: a winnable deal, ranked by the search's work to win it",
    )
    play.add_argument(
        "--ascii",
        action="store_true",
        help="draw cards with letters and '--' backs, not Unicode symbols",
    )
    play.add_argument(
        "--line",
        action="store_true",
        help="play at a prompt below the output (no full-screen board, no mouse)",
    )
    return play


def _add_run(sub: _Subparsers) -> argparse.ArgumentParser:
    run = sub.add_parser("run", help="run scripts of commands with no terminal")
    run.add_argument("scripts", nargs="+", help="script files ('-' for standard input)")
    run.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    return run


def _add_examples(sub: _Subparsers) -> argparse.ArgumentParser:
    examples = sub.add_parser(
        "examples",
        help="list the manual's worked problems, one line each; with a NAME, its questions",
    )
    examples.add_argument(
        "name", nargs="?", metavar="NAME", help="an example's name: its questions in full"
    )
    return examples


def _add_show(sub: _Subparsers) -> argparse.ArgumentParser:
    show = sub.add_parser(
        "show",
        help="print a position or game file's tableau, or another program's deal",
        epilog="A deal named pysol:N (PySolFC's game N) or kpat:N (KPatience's deal N) is "
        "printed with every card known: face-down cards in brackets, the hand on a 'hand:' "
        "line in dealing order. Such text reads back as a position file.",
    )
    show.add_argument("file", help="a position or game file, an example's name, pysol:N or kpat:N")
    layout = show.add_mutually_exclusive_group()
    layout.add_argument("--lines", action="store_true", help="one line per pile")
    layout.add_argument("--markdown", action="store_true", help="a Markdown table")
    show.add_argument(
        "--full",
        action="store_true",
        help="show the face-down and hand cards the file knows (always, for a named deal)",
    )
    show.add_argument(
        "--suits", type=int, choices=(1, 2, 4), default=4, help="suits of a pysol:N or kpat:N deal"
    )

    return show


def _add_solve(sub: _Subparsers) -> argparse.ArgumentParser:
    solve = sub.add_parser(
        "solve",
        help="answer a goal for a position, or win a numbered deal knowing every card",
        epilog="Examples: spider solve problem-3 remove hearts, no deal; "
        "spider solve --seed 7 --suits 2. Exit status: 0 a line found (or the deal "
        "won), 1 impossible, 3 unknown at the search's limit, 2 bad input.",
    )
    solve.add_argument("file", nargs="?", help="a position or game file, or an example's name")
    solve.add_argument(
        "goal",
        nargs="*",
        help="the goal and constraints, as after 'solve' at the prompt (default: win)",
    )
    solve.add_argument(
        "--seed", metavar="DEAL", help="play this deal with every card known: " + _SEED_HELP
    )
    solve.add_argument(
        "--suits",
        type=int,
        choices=(1, 2, 4),
        default=4,
        metavar="N",
        help="1, 2 or 4 suits: the game of the deal --seed names (default 4)",
    )
    _add_limits(solve, "for --seed: ")

    return solve


def _add_review(sub: _Subparsers) -> argparse.ArgumentParser:
    review = sub.add_parser(
        "review",
        help="where a saved game was lost, and each move's cost in chances",
        epilog="The same review as 'review' at the prompt ('help review' there). Exit status: "
        "0 reviewed, 1 a file or game that cannot be read or has no moves, 2 bad options, "
        "130 stopped by "
        "Ctrl-C (what was found is printed).",
    )
    which = review.add_mutually_exclusive_group(required=True)
    which.add_argument("file", nargs="?", help="a game file ('save' writes one)")
    which.add_argument(
        "--game", type=_positive(int), metavar="N", help="game N of the history ('games')"
    )
    review.add_argument("--json", action="store_true", help="the review as JSON, for scripts")
    review.add_argument("--ascii", action="store_true", help="the chance curve in ASCII")
    review.add_argument(
        "--again", action="store_true", help="made anew, though the history keeps a review"
    )
    return review


def _add_bench(sub: _Subparsers) -> argparse.ArgumentParser:
    from spider_cli.analysis import TURN_LIMIT

    bench = sub.add_parser(
        "bench",
        help="win numbered deals knowing every card: share won, times, positions per second",
    )
    bench.add_argument(
        "--seeds", default="0-99", help="deals: 0-99 (default), pysol:1-1000, kpat:1-100, 17"
    )
    bench.add_argument(
        "--suits",
        type=int,
        choices=(1, 2, 4),
        default=4,
        metavar="N",
        help="1, 2 or 4 suits: the game of the deals (default 4, as play and solve)",
    )
    _add_limits(bench, "for each deal: ")
    bench.add_argument(
        "--jobs",
        type=_positive(int),
        metavar="N",
        help="worker processes (default: every core; fewer where the machine's memory "
        "would not hold their searches)",
    )
    _add_results_options(bench)
    bench.add_argument(
        "--blind",
        action="store_true",
        help="play as a player does: the blind player sees only the face-up cards, no undo",
    )
    bench.add_argument(
        "--budget",
        type=_positive(int),
        metavar="N",
        help="with --blind: positions each of a turn's three searches examines (default "
        f"{TURN_LIMIT.positions:,}, the hint's)",
    )
    bench.add_argument(
        "--level",
        choices=BLIND_LEVELS,
        help="with --blind: how hard the player thinks: plain (its own turn, no lookahead), "
        "quick, strong or expert (its close choices weighed on sampled games), or judge "
        "(its commitments judged by the capped full-information search); default "
        f"{DEFAULT_LEVEL}",
    )
    return bench


_SUBPARSERS: dict[str, Callable[[_Subparsers], argparse.ArgumentParser]] = {
    "play": _add_play,
    "run": _add_run,
    "examples": _add_examples,
    "show": _add_show,
    "solve": _add_solve,
    "review": _add_review,
    "bench": _add_bench,
}
"""Each subcommand's options, in the order ``spider --help`` lists them."""
SUBCOMMANDS = tuple(_SUBPARSERS)


def _add_results_options(bench: argparse.ArgumentParser) -> None:
    """``spider bench``'s results file, summary and cluster (see
    :func:`spider_cli.cli.searches.bench_command`)."""
    bench.add_argument(
        "--db",
        metavar="FILE",
        type=Path,
        help="SQLite file of results, each stored as it finishes; deals already in it are "
        "not played again (default: bench.sqlite in spider's data directory)",
    )
    bench.add_argument(
        "--json", action="store_true", help="print the summary and every deal's result as JSON"
    )
    bench.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the deals on a Dask scheduler's workers (tcp://host:8786); "
        "needs spider-cli[cluster]",
    )


_SEED_HELP = "N (one of ours), pysol:N (PySolFC's game N) or kpat:N (KPatience's deal N)"


def deal_of(text: str | None, suits: int) -> DealSource | None:
    """The deal ``--seed`` names, of the ``suits``-suit game (None if not given)."""
    return None if text is None else DealSource.parse(text, suits)


def _add_limits(parser: argparse.ArgumentParser, which: str) -> None:
    """``--limit`` (positions, the bound that decides) and ``--time-limit`` (an optional
    outer cap on the time) for full-information play."""
    from spider_cli.analysis import PLAY_LIMIT

    parser.add_argument(
        "--limit",
        type=_positive(int),
        default=PLAY_LIMIT,
        metavar="N",
        help=f"{which}positions to examine before giving up (default {PLAY_LIMIT:,})",
    )
    parser.add_argument(
        "--time-limit",
        type=_positive(float),
        metavar="SECONDS",
        help=f"{which}also stop after this many seconds (default: no time limit)",
    )


LARGEST = 2**63 - 1
"""The largest count an option takes (a 64-bit integer, as SQLite stores it)."""

BLIND_LEVELS = ("plain", "quick", "strong", "expert", "judge")
"""``bench --blind --level``'s choices (:class:`spider_cli.analysis.chance.search.Level`)."""

DEFAULT_LEVEL = "quick"
"""The hint's level, so that the bench measures the player that gives advice: no level was
measured stronger than another yet at 4 suits (BENCHMARKS.md)."""


def _positive(
    kind: type[int] | type[float], largest: int = LARGEST
) -> Callable[[str], int | float]:
    """An argparse type: a number of ``kind`` above zero, finite, at most ``largest``."""

    def read(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not 0 < value <= largest:  # (not NaN either)
            raise argparse.ArgumentTypeError(
                f"a positive number is needed (at most {largest}), not {quoted(text)}"
            )
        return value

    return read


def _play_options(play: argparse.ArgumentParser) -> str:
    """The play options, for ``spider --help``: 'spider' with no command plays."""
    lines = ["With no command, 'spider' plays: spider [FILE] [--seed N] [--suits 1|2|4] ..."]
    for action in play._actions:
        if action.help and action.help != argparse.SUPPRESS and action.dest != "help":
            name = ", ".join(action.option_strings) or action.dest.upper()
            if action.option_strings and action.nargs != 0:
                metavar = action.metavar
                name += " " + (metavar if isinstance(metavar, str) else action.dest.upper())
            lines.append(f"  {name:<14}  {action.help}")
    lines.append("'spider COMMAND --help' tells more about a command.")
    lines.append(
        f"Exit status: {OK} done, {REFUSED} refused (a file, a script's line, an illegal "
        f"move),\n{USAGE} a command line that cannot be read, {INTERRUPTED} Ctrl-C "
        "('spider solve --help' tells its own)."
    )
    return "\n".join(lines)
