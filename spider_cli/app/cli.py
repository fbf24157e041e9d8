"""The ``spider`` command: play, run scripts, show files."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from spider_cli.app.session import Session
from spider_cli.language import positions
from spider_cli.language import textfiles as files
from spider_cli.rules.errors import NotationError, SpiderError

SUBCOMMANDS = ("run", "show", "play", "examples", "solve", "bench")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spider",
        description="Spider solitaire for the terminal: play, study and script the game.",
        epilog="With no command, 'spider' starts a game ('spider play').",
    )
    sub = parser.add_subparsers(dest="command")
    play = sub.add_parser("play", help="play a game interactively (the default)")
    play.add_argument("file", nargs="?", help="a position or game file, or an example's name")
    play.add_argument("--seed", type=int, help="deal number (a random one if not given)")
    play.add_argument("--suits", type=int, choices=(1, 2, 4), default=4)
    play.add_argument(
        "--ascii",
        action="store_true",
        help="draw cards with letters and '--' backs, not Unicode symbols",
    )
    run = sub.add_parser("run", help="run scripts of commands with no terminal")
    run.add_argument("scripts", nargs="+", help="script files ('-' for standard input)")
    run.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    sub.add_parser("examples", help="list the manual's worked problems, one line each")
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
    solve = sub.add_parser(
        "solve",
        help="answer a goal for a position, or win a numbered deal knowing every card",
        epilog="Examples: spider solve problem-3 remove hearts then clubs, no deal; "
        "spider solve --seed 7 --suits 2. Exit status: 0 a line found (or the deal "
        "won), 1 impossible, 3 unknown at the search's limit, 2 bad input.",
    )
    solve.add_argument("file", nargs="?", help="a position or game file, or an example's name")
    solve.add_argument(
        "goal",
        nargs="*",
        help="the goal and constraints, as after 'solve' at the prompt (default: win)",
    )
    solve.add_argument("--seed", type=int, help="play deal N with every card known")
    solve.add_argument("--suits", type=int, choices=(1, 2, 4), default=4)
    _add_limits(solve, "for --seed: ")
    bench = sub.add_parser(
        "bench",
        help="win numbered deals knowing every card: share won, times, positions per second",
    )
    bench.add_argument("--seeds", default="0-99", help="deal numbers, as 0-99 (default)")
    bench.add_argument("--suits", type=int, choices=(1, 2, 4), default=1)
    _add_limits(bench, "for each deal: ")
    bench.add_argument("--jobs", type=int, help="worker processes (default: every core)")
    bench.add_argument(
        "--blind",
        action="store_true",
        help="play as a player does: the hint policy sees only the face-up cards, no undo",
    )
    bench.add_argument(
        "--budget",
        type=_positive(int),
        metavar="N",
        help="with --blind: positions each hint's look-ahead examines (default 3,000; "
        "its longer search gets 20 times as many)",
    )
    bench.add_argument("--json", action="store_true", help="print the summary as JSON")
    return parser


def _add_limits(parser: argparse.ArgumentParser, which: str) -> None:
    """``--limit`` (positions, the bound that decides) and ``--time-limit`` (an optional
    outer cap on the time) for full-information play."""
    from spider_cli.analysis.autoplay import PLAY_LIMIT

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


def _positive(kind: type[int] | type[float]) -> Callable[[str], int | float]:
    """An argparse type: a number of ``kind`` above zero."""

    def read(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if value <= 0:
            raise argparse.ArgumentTypeError(f"a positive number is needed, not {text!r}")
        return value

    return read


Interactive = Callable[[str | None, int | None, int, bool], int]
"""Plays a game at a terminal: (file or example name, deal number, suits, ASCII only) to an
exit status. The terminal UI passes it in (:mod:`spider_cli.tui.main`), so that this layer
never imports the layer above it."""


def main(argv: list[str] | None = None, interactive: Interactive | None = None) -> int:
    """``spider``'s command line; ``interactive`` plays at a terminal (None: scripts only)."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0] not in SUBCOMMANDS and argv[0] not in ("-h", "--help")):
        argv = ["play", *argv]
    args = build_parser().parse_args(argv)
    try:
        status = dispatch(args, interactive)
        sys.stdout.flush()  # here, so that a reader who left is caught below
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader left (``spider show ... | head``): nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as error:  # a bug: say so in one line rather than a traceback
        print(
            f"spider: internal error ({type(error).__name__}: {error}); please report it",
            file=sys.stderr,
        )
        return 2


def dispatch(args: argparse.Namespace, interactive: Interactive | None = None) -> int:
    """Run the subcommand asked for; its exit status."""
    if args.command == "run":
        return run_scripts(args.scripts, sys.stdout, sys.stderr, quiet=args.quiet)
    if args.command == "examples":
        return list_examples()
    if args.command == "solve":
        return solve_command(args)
    if args.command == "bench":
        return bench_command(args)
    if args.command == "show":
        return show_file(args.file, args.lines, args.markdown, args.full, args.suits)
    return play(args.file, args.seed, args.suits, args.ascii, interactive)


def run_scripts(
    names: list[str],
    out: TextIO,
    err: TextIO,
    quiet: bool = False,
    session: Session | None = None,
) -> int:
    """Run each script's lines in one session (deal 0 unless given); stop at the first error
    (exit status 1)."""
    session = session or Session.new_game(seed=0, clock=time.perf_counter)
    for name in names:
        try:
            if name == "-":
                text, label, session.base_dir = _standard_input(), "<stdin>", Path.cwd()
            else:
                path = files.path_of(name, Path.cwd())
                text = files.read_text(path, name)
                label, session.base_dir = name, path.parent
        except SpiderError as error:
            print(files.shown(f"{name}: error: {error}"), file=err)
            return 1
        for number, line in enumerate(script_lines(text), start=1):
            try:
                if len(line) > MAX_LINE:
                    raise SpiderError(
                        f"the line has {len(line):,} characters; a command has at most {MAX_LINE:,}"
                    )
                reply = session.execute(line)
            except SpiderError as error:
                print(_printable(f"{label}:{number}: error: {_reason(error)}"), file=err)
                return 1
            if reply.text and not quiet:
                print(reply.text, file=out)
            if reply.quit:
                return 0
    return 0


MAX_LINE = 10_000
"""The longest line a script may hold (no command comes near it)."""


def script_lines(text: str) -> list[str]:
    """A script's lines, split at line feeds only (a CR before one is dropped): form feeds,
    vertical tabs, NEL and the Unicode line separators stay inside their line, so line
    numbers are the ones an editor shows."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _standard_input() -> str:
    """Standard input as text, at most :data:`files.MAX_FILE_BYTES`."""
    limit = files.MAX_FILE_BYTES
    binary = getattr(sys.stdin, "buffer", None)  # None for a text stream put in its place
    data = binary.read(limit + 1) if binary is not None else sys.stdin.read(limit + 1)
    if len(data) > limit:
        raise SpiderError("the script is far too big (over 16 MB)")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SpiderError(f"the script is not UTF-8 text (byte {error.start + 1})") from None


def _printable(text: str) -> str:
    """An error for the terminal: each line with its control characters shown escaped."""
    return "\n".join(files.shown(line) for line in text.split("\n"))


def _reason(error: SpiderError) -> str:
    if isinstance(error, NotationError):
        where = f"column {error.column}: " if error.column else ""
        return where + error.message + (f"\n{error.context}" if error.context else "")
    return str(error)


def list_examples() -> int:
    """One line per example: its name (for 'load NAME' or 'spider NAME') and its title."""
    from spider_cli.app import examples

    found = examples.catalogue()
    width = max((len(e.name) for e in found), default=0)
    for example in found:
        questions = f"  [{len(example.questions)} questions]" if example.questions else ""
        print(f"{example.name:<{width}}  {example.title}{questions}")
    return 0


def show_file(
    name: str, as_lines: bool, as_markdown: bool, full: bool = False, suits: int = 4
) -> int:
    """``spider show``: the tableau of a position or game file, of an example, or of another
    program's numbered deal (``pysol:N``, ``kpat:N``), which is shown with every card known.

    ``full`` shows a file's known face-down and hand cards too (a player sees them hidden)."""
    from spider_cli.rules.deals import DealSource  # here: PySolFC's shuffles load on demand

    try:
        if DealSource.is_deal_name(name):
            game, full = DealSource.parse(name, suits).game(), True
        else:
            session = Session.new_game(seed=0)
            session.load(name)
            game = session.game
    except SpiderError as error:
        print(_printable(f"{name}: error: {_reason(error)}"), file=sys.stderr)
        return 1
    if as_lines:
        print(positions.lines(game, hide=not full))
    elif as_markdown:
        print(positions.markdown(game, hide=not full))
    else:
        print(positions.grid(game, hide=not full))
    return 0


def play(
    name: str | None,
    seed: int | None,
    suits: int,
    ascii_only: bool = False,
    interactive: Interactive | None = None,
) -> int:
    """The interactive game; with standard input that is not a terminal (or no interactive
    UI), a script: no prompt, plain output."""
    if interactive is None or not sys.stdin.isatty():
        session = Session.new_game(seed=seed or 0, suits=suits, clock=time.perf_counter)
        if name is not None:
            try:
                session.load(name)
            except SpiderError as error:
                print(_printable(f"{name}: error: {_reason(error)}"), file=sys.stderr)
                return 1
        return run_scripts(["-"], sys.stdout, sys.stderr, session=session)
    return interactive(name, seed, suits, ascii_only)


SOLVE_STATUS = {"possible": 0, "impossible": 1, "unknown": 3}
"""``spider solve``'s exit status by verdict, for scripts (2 is bad input, as for grep)."""


def solve_command(args: argparse.Namespace) -> int:
    """``spider solve``: a numbered deal played with every card known, or a goal for a file.

    The exit status tells the verdict (:data:`SOLVE_STATUS`): a deal not won within the
    limits is "unknown", not "impossible". Searches are timed by ``time.perf_counter``,
    which stops them only at a time asked for ("within N seconds", ``--time-limit``)."""
    if args.seed is not None:
        from spider_cli.analysis.autoplay import play as play_deal
        from spider_cli.rules.engine import Game

        result = play_deal(
            Game.new(args.seed, args.suits),
            args.limit,
            clock=time.perf_counter,
            seconds=args.time_limit,
        )
        print(
            f"deal {args.seed}, {args.suits} suit{'s' if args.suits != 1 else ''}: " + result.text()
        )
        return SOLVE_STATUS["possible" if result.won else "unknown"]
    if args.file is None:
        print("spider solve: give a position file (and a goal), or --seed N", file=sys.stderr)
        return 2
    from spider_cli.language.notation import parse_question

    session = Session.new_game(seed=0, clock=time.perf_counter)
    try:
        session.load(args.file)
        question = parse_question(" ".join(args.goal) or "win")
        report = session.solve(question.goal, question.constraints, question.each_reveal)
    except SpiderError as error:
        print(f"{args.file}: error: {_reason(error)}", file=sys.stderr)
        return 2
    print(report.text)
    return SOLVE_STATUS[report.status]


def bench_command(args: argparse.Namespace) -> int:
    """``spider bench``: full-information play over a range of deals, on every core."""
    from spider_cli.analysis import bench

    try:
        seeds = bench.parse_seeds(args.seeds)
    except SpiderError as error:
        print(f"spider bench: {error}", file=sys.stderr)
        return 2
    if args.blind:
        from spider_cli.analysis import blind, hints

        budget = args.budget or hints.BUDGET
        summary, results = blind.run(seeds, args.suits, budget, args.jobs)
        what = f"blind, {budget:,} positions a hint"
    else:
        budget = args.limit
        summary, results = bench.run(seeds, args.suits, args.limit, args.time_limit, args.jobs)
        what = f"with every card known, at most {args.limit:,} positions each"
    if args.json:
        from spider_cli.analysis.blind import summary_json

        print(summary_json(summary, results, args.seeds, args.blind, budget))
    elif args.blind:
        print(blind.summary_text(summary, results, what))
    else:
        print(summary.text(args.limit, args.time_limit))
    return 0
