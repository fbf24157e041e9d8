"""The ``spider`` command: play, run scripts, show files."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from spider_cli.app.session import Session
from spider_cli.language import positions
from spider_cli.rules.errors import NotationError, SpiderError

SUBCOMMANDS = ("run", "show", "play", "examples", "solve", "bench")


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
        print(f"spider {number}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spider",
        description="Spider solitaire for the terminal: play, study and script the game.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    play = sub.add_parser("play", help="play a game interactively (the default)")
    play.add_argument("file", nargs="?", help="a position or game file, or an example's name")
    play.add_argument(
        "--seed", type=int, metavar="N", help="deal number (a random one if not given)"
    )
    play.add_argument(
        "--suits",
        type=int,
        choices=(1, 2, 4),
        default=4,
        metavar="N",
        help="1, 2 or 4 suits (default 4)",
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
    parser.epilog = _play_options(play)
    run = sub.add_parser("run", help="run scripts of commands with no terminal")
    run.add_argument("scripts", nargs="+", help="script files ('-' for standard input)")
    run.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    sub.add_parser("examples", help="list the manual's worked problems, one line each")
    show = sub.add_parser("show", help="print a position or game file's tableau")
    show.add_argument("file")
    layout = show.add_mutually_exclusive_group()
    layout.add_argument("--lines", action="store_true", help="one line per pile")
    layout.add_argument("--markdown", action="store_true", help="a Markdown table")
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
    solve.add_argument(
        "--time-limit", type=float, default=10.0, help="seconds for --seed (default 10)"
    )
    bench = sub.add_parser(
        "bench",
        help="win numbered deals knowing every card: share won, times, positions per second",
    )
    bench.add_argument("--seeds", default="0-99", help="deal numbers, as 0-99 (default)")
    bench.add_argument("--suits", type=int, choices=(1, 2, 4), default=1)
    bench.add_argument(
        "--time-limit", type=float, default=10.0, help="seconds for each deal (default 10)"
    )
    bench.add_argument("--jobs", type=int, help="worker processes (default: every core)")
    return parser


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
    return "\n".join(lines)


Interactive = Callable[[str | None, int | None, int, bool, bool], int]
"""Plays a game at a terminal: (file or example name, deal number, suits, ASCII only, line
mode) to an exit status. The terminal UI passes it in (:mod:`spider_cli.tui.main`), so that
this layer never imports the layer above it."""


def main(argv: list[str] | None = None, interactive: Interactive | None = None) -> int:
    """``spider``'s command line; ``interactive`` plays at a terminal (None: scripts only)."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0] not in SUBCOMMANDS and argv[0] not in ("-h", "--help", "--version")):
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
        return show_file(args.file, args.lines, args.markdown)
    return play(args.file, args.seed, args.suits, args.ascii, interactive, args.line)


def run_scripts(
    names: list[str],
    out: TextIO,
    err: TextIO,
    quiet: bool = False,
    session: Session | None = None,
) -> int:
    """Run each script's lines in one session (deal 0 unless given); stop at the first error
    (exit status 1)."""
    session = session or Session.new_game(seed=0)
    for name in names:
        if name == "-":
            text, label, session.base_dir = sys.stdin.read(), "<stdin>", Path.cwd()
        else:
            path = Path(name)
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                reason = getattr(error, "strerror", None) or "not a readable text file"
                print(f"{name}: error: cannot read the script: {reason}", file=err)
                return 1
            label, session.base_dir = name, path.resolve().parent
        for number, line in enumerate(text.splitlines(), start=1):
            try:
                reply = session.execute(line)
            except SpiderError as error:
                print(f"{label}:{number}: error: {_reason(error)}", file=err)
                return 1
            if reply.text and not quiet:
                print(reply.text, file=out)
            if reply.quit:
                return 0
    return 0


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


def show_file(name: str, as_lines: bool, as_markdown: bool) -> int:
    """``spider show``: the tableau of a position or game file, or of an example."""
    session = Session.new_game(seed=0)
    try:
        session.load(name)
    except SpiderError as error:
        print(f"{name}: error: {_reason(error)}", file=sys.stderr)
        return 1
    game = session.game
    if as_lines:
        print(positions.lines(game, hide=True))
    elif as_markdown:
        print(positions.markdown(game, hide=True))
    else:
        print(positions.grid(game, hide=True))
    return 0


def play(
    name: str | None,
    seed: int | None,
    suits: int,
    ascii_only: bool = False,
    interactive: Interactive | None = None,
    line_mode: bool = False,
) -> int:
    """The interactive game; with standard input that is not a terminal (or no interactive
    UI), a script: no prompt, plain output."""
    if interactive is None or not sys.stdin.isatty():
        session = Session.new_game(seed=seed or 0, suits=suits)
        if name is not None:
            try:
                session.load(name)
            except SpiderError as error:
                print(f"{name}: error: {_reason(error)}", file=sys.stderr)
                return 1
        return run_scripts(["-"], sys.stdout, sys.stderr, session=session)
    return interactive(name, seed, suits, ascii_only, line_mode)


SOLVE_STATUS = {"possible": 0, "impossible": 1, "unknown": 3}
"""``spider solve``'s exit status by verdict, for scripts (2 is bad input, as for grep)."""


def solve_command(args: argparse.Namespace) -> int:
    """``spider solve``: a numbered deal played with every card known, or a goal for a file.

    The exit status tells the verdict (:data:`SOLVE_STATUS`): a deal not won within the
    time is "unknown", not "impossible"."""
    if args.seed is not None:
        from spider_cli.analysis.autoplay import play as play_deal
        from spider_cli.rules.engine import Game

        result = play_deal(Game.new(args.seed, args.suits), time_limit=args.time_limit)
        print(
            f"deal {args.seed}, {args.suits} suit{'s' if args.suits != 1 else ''}: " + result.text()
        )
        return SOLVE_STATUS["possible" if result.won else "unknown"]
    if args.file is None:
        print("spider solve: give a position file (and a goal), or --seed N", file=sys.stderr)
        return 2
    from spider_cli.analysis import solver
    from spider_cli.language.commands import Solve
    from spider_cli.language.notation import parse_command

    session = Session.new_game(seed=0)
    try:
        session.load(args.file)
        command = parse_command(f"solve {' '.join(args.goal) or 'win'}")
        assert isinstance(command, Solve)
        report = solver.answer(
            session.analysed(), command.goal, command.constraints, command.each_reveal
        )
    except SpiderError as error:
        print(f"{args.file}: error: {_reason(error)}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"{args.file}: error: {error}", file=sys.stderr)
        return 2
    print(report.text)
    return SOLVE_STATUS[report.status]


def bench_command(args: argparse.Namespace) -> int:
    """``spider bench``: full-information play over a range of deals, on every core."""
    from spider_cli.analysis import bench

    try:
        seeds = bench.parse_seeds(args.seeds)
    except ValueError as error:
        print(f"spider bench: {error}", file=sys.stderr)
        return 2
    summary, _results = bench.run(seeds, args.suits, args.time_limit, args.jobs)
    print(summary.text(args.time_limit))
    return 0
