"""The ``spider`` command: play, run scripts, show files.

Every subcommand ends with one of the same exit statuses: :data:`OK`, :data:`REFUSED` (a
file, a script's line or the game refused what was asked), :data:`USAGE` (the command line
itself cannot be read, argparse's status), :data:`INTERRUPTED` (Ctrl-C),
:data:`BROKEN_PIPE` and :data:`BUG`. ``spider solve`` answers a question, so its statuses
are grep's: 1 is the answer "impossible", and every error is :data:`USAGE`
(:data:`SOLVE_STATUS`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from spider_cli.app.replies import started_text
from spider_cli.app.session import Session
from spider_cli.language import positions
from spider_cli.language import textfiles as files
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.errors import NotationError, SpiderError
from spider_cli.rules.goals import Wanted

if TYPE_CHECKING:
    from typing import TypeAlias

    _Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

OK = 0
REFUSED = 1
"""The command line reads, but what it asks for is refused: a file that cannot be read or
used, a script's line that does not read or is not a legal move, an unreachable cluster."""
USAGE = 2
"""The command line cannot be read: an unknown option, a missing argument, an option's value
that is not one (``--seed x``), as argparse says for its own errors."""
BUG = 70
"""An internal error (sysexits' EX_SOFTWARE): said in one line, never a traceback."""
INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT)."""
BROKEN_PIPE = 141
"""The reader of the output left (128 + SIGPIPE), as in ``spider show ... | head``."""


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

        print(f"spider {number}\n{native.status()}")
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


def _add_bench(sub: _Subparsers) -> argparse.ArgumentParser:
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
        default=1,
        metavar="N",
        help="1, 2 or 4 suits: the game of the deals (default 1)",
    )
    _add_limits(bench, "for each deal: ")
    bench.add_argument("--jobs", type=int, help="worker processes (default: every core)")
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
        "10,000, the hint's)",
    )
    bench.add_argument(
        "--level",
        choices=BLIND_LEVELS,
        help="with --blind: how hard the player thinks: plain (its own turn, no lookahead), "
        "quick, strong or expert (its close choices weighed on sampled games); default "
        f"{DEFAULT_LEVEL}",
    )
    return bench


_SUBPARSERS: dict[str, Callable[[_Subparsers], argparse.ArgumentParser]] = {
    "play": _add_play,
    "run": _add_run,
    "examples": _add_examples,
    "show": _add_show,
    "solve": _add_solve,
    "bench": _add_bench,
}
"""Each subcommand's options, in the order ``spider --help`` lists them."""
SUBCOMMANDS = tuple(_SUBPARSERS)


def _add_results_options(bench: argparse.ArgumentParser) -> None:
    """``spider bench``'s results file, summary and cluster (see :func:`bench_command`)."""
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


def _deal(text: str | None, suits: int) -> DealSource | None:
    """The deal ``--seed`` names, of the ``suits``-suit game (None if not given)."""
    return None if text is None else DealSource.parse(text, suits)


def _add_limits(parser: argparse.ArgumentParser, which: str) -> None:
    """``--limit`` (positions, the bound that decides) and ``--time-limit`` (an optional
    outer cap on the time) for full-information play."""
    from spider_cli.analysis.goals import PLAY_LIMIT

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

BLIND_LEVELS = ("plain", "quick", "strong", "expert")
"""``bench --blind --level``'s choices (:class:`spider_cli.analysis.chancesearch.Level`)."""

DEFAULT_LEVEL = "quick"
"""The hint's level, so that the bench measures the player that gives advice: no level was
measured stronger than another yet (BENCHMARKS.md), and this one takes 10-20 s a 4-suit
game."""


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
                f"a positive number is needed (at most {largest}), not {text!r}"
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


Interactive = Callable[
    [str | None, int | DealSource | None, int | None, bool, bool, Wanted | None], int
]
"""Plays a game at a terminal: (file or example name, deal number or named deal, suits,
ASCII only, line mode, the kind of deal wanted) to an exit status. The terminal UI passes it in
(:mod:`spider_cli.tui.main`), so that this layer never imports the layer above it."""


def main(argv: list[str] | None = None, interactive: Interactive | None = None) -> int:
    """``spider``'s command line; ``interactive`` plays at a terminal (None: scripts only)."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0] not in SUBCOMMANDS and argv[0] not in ("-h", "--help", "--version")):
        argv = ["play", *argv]
    try:
        args = build_parser(argv[0] if argv[0] in SUBCOMMANDS else None).parse_args(argv)
    except SystemExit as done:  # --help, --version (0) or argparse's error (USAGE)
        return done.code if isinstance(done.code, int) else USAGE
    try:
        status = dispatch(args, interactive)
        sys.stdout.flush()  # here, so that a reader who left is caught below
        return status
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:  # the reader left (``spider show ... | head``): nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
    except Exception as error:  # a bug: say so in one line rather than a traceback
        print(
            f"spider: internal error ({type(error).__name__}: {error}); please report it",
            file=sys.stderr,
        )
        return BUG


def dispatch(args: argparse.Namespace, interactive: Interactive | None = None) -> int:
    """Run the subcommand asked for; its exit status."""
    if args.command == "run":
        return run_scripts(args.scripts, sys.stdout, sys.stderr, quiet=args.quiet)
    if args.command == "examples":
        return list_examples() if args.name is None else example_questions(args.name)
    if args.command == "bench":
        return bench_command(args)
    if args.command == "show":
        return show_file(args.file, args.lines, args.markdown, args.full, args.suits)
    try:
        deal = _deal(args.seed, args.suits or 4)
    except SpiderError as error:
        print(f"spider: --seed: {error}", file=sys.stderr)
        return USAGE
    if args.command == "solve":
        return solve_command(args, deal)
    seed = deal.number if deal is not None and deal.source is Source.OURS else deal
    wanted = Wanted(args.difficulty) if args.difficulty else None
    wanted = wanted or (Wanted.WINNABLE if args.winnable else None)
    if wanted is not None and args.file is not None:
        print(f"spider: --{wanted.value} chooses a deal: it cannot go with a file", file=sys.stderr)
        return USAGE
    return play(args.file, seed, args.suits, args.ascii, interactive, args.line, wanted)


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
            print(_error(name, error), file=err)
            return REFUSED
        for number, line in enumerate(script_lines(text), start=1):
            try:
                if len(line) > MAX_LINE:
                    raise SpiderError(
                        f"the line has {len(line):,} characters; a command has at most {MAX_LINE:,}"
                    )
                reply = session.execute(line)
            except SpiderError as error:
                print(_error(f"{label}:{number}", error), file=err)
                return REFUSED
            if reply.text and not quiet:
                print(reply.text, file=out)
            if reply.quit:
                return OK
    return OK


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
    """Standard input as text, at most :data:`files.MAX_FILE_BYTES`, read as a file is."""
    limit = files.MAX_FILE_BYTES
    binary = getattr(sys.stdin, "buffer", None)  # None for a text stream put in its place
    data = binary.read(limit + 1) if binary is not None else sys.stdin.read(limit + 1)
    if len(data) > limit:
        raise SpiderError(f"cannot read the script: {files.too_big(limit)}")
    return data if isinstance(data, str) else files.decode(data, "the script")


def _error(where: str, error: SpiderError) -> str:
    """``WHERE: error: REASON`` for the terminal: the control characters of both shown
    escaped, so that a newline in a file's name cannot start a line of its own."""
    return f"{files.shown(where)}: error: {files.shown(_reason(error), newlines=True)}"


def _reason(error: SpiderError) -> str:
    if isinstance(error, NotationError):
        where = f"character {error.column}: " if error.column else ""
        return where + error.message + (f"\n{error.context}" if error.context else "")
    return str(error)


def _load_error(name: str, error: SpiderError) -> str:
    """Why the file ``name`` did not load, as ``NAME:LINE: error: character C: reason`` where
    the error has a place in the file (the form of ``spider run``'s errors)."""
    line = f":{error.line}" if isinstance(error, NotationError) and error.line else ""
    return _error(f"{name}{line}", error)


def list_examples() -> int:
    """One line per example: its name (for 'load NAME' or 'spider NAME') and its title."""
    from spider_cli.app import examples

    found = examples.catalogue()
    width = max((len(e.name) for e in found), default=0)
    for example in found:
        count = len(example.questions)
        questions = f"  [{count} question{'s' if count != 1 else ''}]" if count else ""
        print(f"{example.name:<{width}}  {example.title}{questions}")
    return OK


def example_questions(name: str) -> int:
    """An example's questions: each as the manual asks it, the ``spider solve`` line that
    asks it here, and the manual's answer and why."""
    import textwrap

    from spider_cli.app import examples

    wanted = name.lower().removesuffix(".txt").removesuffix(".spider")
    found = [e for e in examples.catalogue() if wanted in (e.name.lower(), e.path.stem.lower())]
    if not found:
        listed = "'spider examples' lists them"
        print(f"spider: no example called {files.shown(name)} ({listed})", file=sys.stderr)
        return USAGE
    example = found[0]
    print(f"{example.name}: {example.title}")
    if not example.questions:
        print("  (no questions: 'spider show NAME' prints it, 'spider NAME' plays it)")
    for n, question in enumerate(example.questions, 1):
        goal = ", ".join(part for part in (question.solve, question.constraints) if part)
        print(f"\n{n}. {question.ask}")
        print(f"   spider solve {example.name} {goal}")
        why = f"the manual: {question.answer}. {question.explanation}".strip()
        print(textwrap.fill(why, 80, initial_indent="   ", subsequent_indent="   "))
    return OK


def show_file(
    name: str, as_lines: bool, as_markdown: bool, full: bool = False, suits: int = 4
) -> int:
    """``spider show``: the tableau of a position or game file, of an example, or of another
    program's numbered deal (``pysol:N``, ``kpat:N``), which is shown with every card known.

    ``full`` shows a file's known face-down and hand cards too (a player sees them hidden)."""
    try:
        if DealSource.is_deal_name(name):
            game, full = DealSource.parse(name, suits).game(), True
        else:
            session = Session.new_game(seed=0)
            session.load(name)
            game = session.game
    except SpiderError as error:
        print(_load_error(name, error), file=sys.stderr)
        return REFUSED
    if as_lines:
        print(positions.lines(game, hide=not full))
    elif as_markdown:
        print(positions.markdown(game, hide=not full))
    else:
        print(positions.grid(game, hide=not full))
    return OK


def play(
    name: str | None,
    seed: int | DealSource | None,
    suits: int | None,
    ascii_only: bool = False,
    interactive: Interactive | None = None,
    line_mode: bool = False,
    wanted: Wanted | None = None,
) -> int:
    """The interactive game; with standard input that is not a terminal (or no interactive
    UI), a script: no prompt, plain output (deal 0 unless one is named, or the first
    deal from it of the kind ``wanted``, said on standard error)."""
    if wanted is not None:
        _say_if_slow()
    if interactive is None or not sys.stdin.isatty():
        try:
            session = Session(clock=time.perf_counter)
            started = session.new(seed or 0, suits or 4, wanted)
        except SpiderError as error:
            print(f"spider: {error}", file=sys.stderr)
            return REFUSED
        session.changed = False
        if wanted is not None:
            print(f"spider: {started_text(started)}", file=sys.stderr)
        if name is not None:
            try:
                session.load(name)
            except SpiderError as error:
                print(_load_error(name, error), file=sys.stderr)
                return REFUSED
        return run_scripts(["-"], sys.stdout, sys.stderr, session=session)
    return interactive(name, seed, suits, ascii_only, line_mode, wanted)


def _say_if_slow() -> None:
    """Say once, before a long search, that the compiled core is missing or that
    ``SPIDER_MEMORY`` makes no sense (on standard error, so that the answer on standard
    output stays the same)."""
    from spider_cli.analysis import memory, native

    for note in (native.warning(), memory.problem()):
        if note:
            print(note if note.startswith("note:") else f"note: {note}", file=sys.stderr)


SOLVE_STATUS = {"possible": 0, "impossible": 1, "unknown": 3}
"""``spider solve``'s exit status by verdict, for scripts; any error is :data:`USAGE` (2),
as grep's, since 1 is an answer here."""


def solve_command(args: argparse.Namespace, deal: DealSource | None = None) -> int:
    """``spider solve``: a numbered deal (``deal``, from ``--seed``) played with every card
    known, or a goal for a file.

    The exit status tells the verdict (:data:`SOLVE_STATUS`): a deal not won within the
    limits is "unknown", not "impossible", unless the complete search proved it unwinnable.
    Searches are timed by ``time.perf_counter``, which stops them only at a time asked for
    ("within N seconds", ``--time-limit``)."""
    _say_if_slow()
    if deal is not None:
        from spider_cli.analysis.autoplay import play as play_deal

        result = play_deal(
            deal.game(), args.limit, clock=time.perf_counter, seconds=args.time_limit
        )
        print(f"deal {deal}, {deal.suits} suit{'s' if deal.suits != 1 else ''}: " + result.text())
        verdict = "possible" if result.won else "impossible" if result.proved else "unknown"
        return SOLVE_STATUS[verdict]
    if args.file is None:
        print("spider solve: give a position file (and a goal), or --seed N", file=sys.stderr)
        return USAGE
    from spider_cli.language.notation import parse_question

    session = Session.new_game(seed=0, clock=time.perf_counter)
    try:
        session.load(args.file)
        question = parse_question(" ".join(args.goal) or "win")
        report = session.solve(question.goal, question.constraints, question.each_reveal)
    except SpiderError as error:
        print(_error(args.file, error), file=sys.stderr)
        return USAGE
    print(report.text)
    return SOLVE_STATUS[report.status]


def bench_command(args: argparse.Namespace) -> int:
    """``spider bench``: full-information play over a range of deals, on every core or a
    Dask cluster, each result stored as it finishes (see :mod:`spider_cli.app.benchdb`)."""
    from spider_cli.analysis import autoplay, bench
    from spider_cli.app import benchdb

    _say_if_slow()
    try:
        deals = bench.parse_deals(args.seeds, args.suits)
    except SpiderError as error:  # the command line asks for what cannot be
        print(f"spider bench: {files.shown(str(error), newlines=True)}", file=sys.stderr)
        return USAGE
    if args.blind:
        return _blind_bench(args, deals)
    try:
        mapper = None
        if args.cluster is not None:
            from spider_cli.app.cluster import dask_mapper

            mapper = dask_mapper(args.cluster)
        with benchdb.Store(args.db or benchdb.default_path()) as store:
            search = autoplay.search_key(args.limit)
            done = store.results(deals, args.limit, args.time_limit, search)
            for notice in store.notices:
                print(f"spider bench: warning: {notice}", file=sys.stderr)
            summary, results = bench.run(
                deals,
                args.suits,
                args.limit,
                args.time_limit,
                args.jobs,
                done=done,
                record=lambda result: store.add(result, args.limit, args.time_limit, search),
                mapper=mapper,
            )
    except SpiderError as error:  # the results file or the cluster
        print(f"spider bench: {files.shown(str(error), newlines=True)}", file=sys.stderr)
        return REFUSED
    if args.json:
        limits = bench.Limits(positions_per_deal=args.limit, seconds_per_deal=args.time_limit)
        data = bench.summary_json(
            summary, results, args.seeds, bench.BenchMode.KNOWN, limits, earlier=len(done)
        )
        print(json.dumps(data, indent=1))
    else:
        print(_fitted(summary.text(args.limit, args.time_limit)))
    return OK


def _fitted(report: str, width: int = 80) -> str:
    """A report's lines broken between words to fit ``width`` columns (a terminal wraps
    them mid-word otherwise), the rest of a line indented."""
    import textwrap

    return "\n".join(
        textwrap.fill(line, width, subsequent_indent="  ", break_on_hyphens=False)
        for line in report.splitlines()
    )


def _blind_bench(args: argparse.Namespace, deals: list[DealSource]) -> int:
    """``spider bench --blind``: numbered deals (ours, PySolFC's or KPatience's) played by
    the blind player through a player's view (:mod:`spider_cli.analysis.blind`), each game
    stored as it finishes under the player's key (:func:`chancesearch.player_key`)."""
    from spider_cli.analysis import bench, blind, chancesearch, hints, memory
    from spider_cli.app import benchdb

    budget = args.budget or hints.BUDGET
    if budget > memory.blind_positions():  # each search would stop there: say so, use it
        budget = memory.blind_positions()
        print(
            f"spider bench: note: each search stops at the memory ceiling of {budget:,} "
            f"positions (about {memory.ceiling() >> 20:,} MB; {memory.VARIABLE} sets it)",
            file=sys.stderr,
        )
    level = chancesearch.Level(args.level or DEFAULT_LEVEL)
    player = (
        f"{chancesearch.player_key(level, budget, args.suits)}, {blind.MAX_MOVES} moves at most"
    )
    try:
        mapper = None
        if args.cluster is not None:
            from spider_cli.app.cluster import dask_mapper

            mapper = dask_mapper(args.cluster)
        with benchdb.Store(args.db or benchdb.default_path()) as store:
            done = store.blind_results(deals, player)
            for notice in store.notices:
                print(f"spider bench: warning: {notice}", file=sys.stderr)
            summary, results = blind.run(
                deals,
                args.suits,
                budget,
                args.jobs,
                level=level,
                done=done,
                record=lambda result: store.add_blind(result, player),
                mapper=mapper,
            )
    except SpiderError as error:  # the results file or the cluster
        print(f"spider bench: {files.shown(str(error), newlines=True)}", file=sys.stderr)
        return REFUSED
    if args.json:
        limits = bench.Limits(
            positions_per_search=budget, moves_per_deal=blind.MAX_MOVES, level=level.value
        )
        data = bench.summary_json(
            summary, results, args.seeds, bench.BenchMode.BLIND, limits, earlier=len(done)
        )
        print(json.dumps(data, indent=1))
    else:
        what = f"blind, {level.value} level, {budget:,} positions a search"
        print(_fitted(blind.summary_text(summary, results, what)))
    return OK
