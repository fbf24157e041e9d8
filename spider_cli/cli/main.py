"""The ``spider`` command: play, run scripts, show files (the exit statuses are in
:mod:`spider_cli.cli.exits`, the arguments in :mod:`spider_cli.cli.parser`, ``solve`` and
``bench`` in :mod:`spider_cli.cli.searches`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from spider_cli.app import interrupt
from spider_cli.app.session import Session
from spider_cli.app.storage import ScriptError, locate
from spider_cli.app.words.replies import started_text
from spider_cli.cli.exits import (
    BROKEN_PIPE,
    BUG,
    INTERRUPTED,
    OK,
    REFUSED,
    USAGE,
    error_line,
    load_error,
)
from spider_cli.cli.parser import SUBCOMMANDS, build_parser, deal_of
from spider_cli.cli.searches import bench_command, say_if_slow, solve_command
from spider_cli.language.files import positions
from spider_cli.language.files import textfiles as files
from spider_cli.language.places import in_line
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.errors import SpiderError, quoted
from spider_cli.rules.goals import Wanted

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
        unknown = argv and unknown_command(argv[0])
        if unknown:
            print(f"spider: {unknown}", file=sys.stderr)
            return USAGE
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


def unknown_command(word: str) -> str | None:
    """Why the first word of ``spider WORD ...`` is neither a command nor something to play,
    with the command it is a slip for, if one is close; None when it is (an option, a file, an
    example, a position code). A word with a dot or a slash names a file: one that is missing
    is said by the play that cannot read it."""
    import difflib

    if word.startswith("-") or "." in word or "/" in word or positions.is_position_code(word):
        return None
    try:
        locate(word, Path.cwd())
    except SpiderError:
        close = difflib.get_close_matches(word.lower(), SUBCOMMANDS, n=1, cutoff=0.6)
        hint = f": did you mean 'spider {close[0]}'?" if close else " ('spider --help' lists them)"
        return f"no such command or file {quoted(word)}{hint}"
    return None


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
    if args.command == "review":
        return review_command(args.file, args.game, args.json, args.ascii, args.again)
    try:
        deal = deal_of(args.seed, args.suits or 4)
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
    (exit status 1), or after the command Ctrl-C stopped (:func:`interrupt.scripted`: the
    command keeps what it did, no later line runs; exit status 130)."""
    session = session or Session.new_game(seed=0, clock=time.perf_counter)
    where = names[0] if names else "-"
    with interrupt.scripted() as interrupted:
        try:
            for name in names:
                where = name
                try:
                    if name == "-":
                        text, label, session.base_dir = _standard_input(), "<stdin>", Path.cwd()
                    else:
                        path, _example = locate(name, Path.cwd())
                        text = files.read_text(path, name)
                        label, session.base_dir = name, path.parent
                except SpiderError as error:
                    print(error_line(name, error), file=err)
                    return REFUSED
                for number, line in enumerate(files.script_lines(text), start=1):
                    where = f"{label}:{number}"
                    try:
                        if len(line) > files.MAX_LINE:
                            raise SpiderError(
                                f"the line has {len(line):,} characters; "
                                f"a command has at most {files.MAX_LINE:,}"
                            )
                        reply = session.execute(line)
                    except SpiderError as error:  # said at the word of the line it is about
                        print(error_line(where, in_line(error, line), line), file=err)
                        return REFUSED
                    if reply.text and not quiet:
                        print(reply.text, file=out)
                    if interrupted():  # the command stopped, what it did kept: the end
                        return _stopped(where, err)
                    if reply.quit:
                        return OK
        except KeyboardInterrupt:
            return _stopped(where, err)

    return OK


def _stopped(where: str, err: TextIO) -> int:
    """Say that Ctrl-C ended a script at ``where`` (FILE:LINE); the exit status."""
    print(f"{files.named(where)}: stopped by Ctrl-C: the lines after it are not run", file=err)
    return INTERRUPTED


def _standard_input() -> str:
    """Standard input as text, at most :data:`files.MAX_FILE_BYTES`, read as a file is."""
    limit = files.MAX_FILE_BYTES
    binary = getattr(sys.stdin, "buffer", None)  # None for a text stream put in its place
    data = binary.read(limit + 1) if binary is not None else sys.stdin.read(limit + 1)
    if len(data) > limit:
        raise SpiderError(f"cannot read the script: {files.too_big(limit)}")
    return data if isinstance(data, str) else files.decode(data, "the script")


def list_examples() -> int:
    """One line per example: its name (for 'load NAME', 'spider NAME' or, for a script,
    'spider run NAME') and its title."""
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

    example = examples.called(name)
    if example is None:
        listed = "'spider examples' lists them"
        print(f"spider: no example called {files.shown(name)} ({listed})", file=sys.stderr)
        return USAGE
    print(f"{example.name}: {example.title}")
    if not example.questions:
        script = example.path.suffix == ".spider"
        plays = f"'spider run {example.name}' runs" if script else f"'spider {example.name}' plays"
        print(f"  (no questions: 'spider show {example.name}' prints it, {plays} it)")
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
    program's numbered deal (``pysol:N``, ``kpat:N``), which is shown with every card known;
    a script's text as it is written.

    ``full`` shows a file's known face-down and hand cards too (a player sees them hidden)."""
    try:
        if DealSource.is_deal_name(name):
            game, full = DealSource.parse(name, suits).game(), True
        else:
            session = Session.new_game(seed=0)
            session.load(name)
            game = session.game
    except ScriptError as script:  # a script is shown as it is written
        print(files.shown(script.text.rstrip("\n"), newlines=True))
        return OK
    except SpiderError as error:
        print(load_error(name, error), file=sys.stderr)
        return REFUSED
    if as_lines:
        print(positions.lines(game, hide=not full))
    elif as_markdown:
        print(positions.markdown(game, hide=not full))
    else:
        print(positions.grid(game, hide=not full))
    return OK


def review_command(
    name: str | None, number: int | None, as_json: bool, ascii: bool, again: bool = False
) -> int:
    """``spider review``: the review of a game file or of game ``number`` of the history,
    printed (as JSON with ``as_json``); progress on standard error at a terminal. A review
    kept in the history is printed as kept, unless ``again``."""
    import json
    import shutil

    from spider_cli.app.files.reviewdata import review_json
    from spider_cli.app.keeping import keep_review
    from spider_cli.app.words.replies import review_text

    session = Session()
    try:
        if number is not None:
            session.open(number)
        else:
            assert name is not None
            loaded = session.load(name)
            if not loaded.game_file:
                raise SpiderError(
                    f"{files.shown(name)} is a position, not a game file: a review needs the "
                    "moves of a game ('save' writes them)"
                )
        if not session.game.moves_made:
            raise SpiderError("the game has no moves yet: there is nothing to review")
    except SpiderError as error:
        if number is not None:
            print(f"spider: game {number}: {error}", file=sys.stderr)
        else:
            print(load_error(name or "-", error), file=sys.stderr)
        return REFUSED
    live = sys.stderr.isatty()

    def progress(text: str) -> None:
        if live:
            sys.stderr.write(f"\r\x1b[Kreviewing: {text}")
            sys.stderr.flush()

    done = session.analysis.review(progress, again)
    if live:
        sys.stderr.write("\r\x1b[K")
    if number is not None and not done.stopped:
        try:
            keep_review(session, number, done)
        except SpiderError as error:
            print(f"spider: the review is not kept in the history: {error}", file=sys.stderr)
    if as_json:
        print(json.dumps(review_json(done), indent=1))
    else:
        columns = shutil.get_terminal_size().columns if sys.stdout.isatty() else 80
        print(review_text(done, session.game, ascii, columns))
    return INTERRUPTED if done.stopped else OK


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
        say_if_slow()
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
                print(load_error(name, error), file=sys.stderr)
                return REFUSED
        return run_scripts(["-"], sys.stdout, sys.stderr, session=session)
    return interactive(name, seed, suits, ascii_only, line_mode, wanted)
