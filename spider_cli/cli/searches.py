"""``spider solve`` and ``spider bench``: the searches run from the command line."""

from __future__ import annotations

import argparse
import json
import sys
import time

from spider_cli.analysis import Verdict
from spider_cli.app.session import Session
from spider_cli.cli.exits import OK, REFUSED, USAGE, error_line, load_error
from spider_cli.cli.parser import DEFAULT_LEVEL
from spider_cli.language.files import textfiles as files
from spider_cli.rules.deals import DealSource
from spider_cli.rules.errors import SpiderError


def say_if_slow() -> None:
    """Say once, before a long search, that the compiled core is missing or that
    ``SPIDER_MEMORY`` makes no sense (on standard error, so that the answer on standard
    output stays the same)."""
    from spider_cli.analysis import memory, native
    from spider_cli.app.words.notes import memory_note, slow_note

    slow, problem = native.warning(), memory.problem()
    if slow is not None:
        print(slow_note(slow), file=sys.stderr)
    if problem is not None:
        print(memory_note(problem), file=sys.stderr)


SOLVE_STATUS = {Verdict.POSSIBLE: 0, Verdict.IMPOSSIBLE: 1, Verdict.UNKNOWN: 3}
"""``spider solve``'s exit status by verdict, for scripts; any error is :data:`USAGE` (2),
as grep's, since 1 is an answer here."""


def solve_command(args: argparse.Namespace, deal: DealSource | None = None) -> int:
    """``spider solve``: a numbered deal (``deal``, from ``--seed``) played with every card
    known, or a goal for a file.

    The exit status tells the verdict (:data:`SOLVE_STATUS`): a deal not won within the
    limits is "unknown", not "impossible", unless the complete search proved it unwinnable.
    Searches are timed by ``time.perf_counter``, which stops them only at a time asked for
    ("within N seconds", ``--time-limit``)."""
    say_if_slow()
    if deal is not None:
        from spider_cli.analysis import Limit
        from spider_cli.analysis import play as play_deal
        from spider_cli.app.words.findings import play_text

        limit = Limit.of(args.limit, args.time_limit, time.perf_counter)
        result = play_deal(deal.game(), limit)
        said = play_text(result)
        print(f"deal {deal}, {deal.suits} suit{'s' if deal.suits != 1 else ''}: {said}")
        if result.won:
            return SOLVE_STATUS[Verdict.POSSIBLE]
        return SOLVE_STATUS[Verdict.IMPOSSIBLE if result.proved else Verdict.UNKNOWN]
    if args.file is None:
        print("spider solve: give a position file (and a goal), or --seed N", file=sys.stderr)
        return USAGE
    from spider_cli.language.notation import parse_question

    session = Session.new_game(seed=0, clock=time.perf_counter)
    try:
        session.load(args.file)
    except SpiderError as error:
        print(load_error(args.file, error), file=sys.stderr)
        return USAGE
    asked = " ".join(args.goal) or "win"
    try:
        question = parse_question(asked)
        report = session.analysis.solve(question.goal, question.constraints, question.each_reveal)
    except SpiderError as error:
        print(error_line("spider solve", error, asked), file=sys.stderr)
        return USAGE
    from spider_cli.app.words.findings import report_text

    print(report_text(report))
    return SOLVE_STATUS[report.status]


def bench_command(args: argparse.Namespace) -> int:
    """``spider bench``: full-information play over a range of deals, on every core or a
    Dask cluster, each result stored as it finishes (see :mod:`spider_cli.app.files.benchdb`).
    Ended by SIGTERM or SIGHUP (``kill``), it stops its workers and says so, the results
    finished kept (the workers, left running, wrote tracebacks as they found it gone)."""
    from spider_cli.app import interrupt

    try:
        with interrupt.terminating():
            return _bench(args)
    except interrupt.Terminated as ended:
        print(f"spider bench: ended by {ended.name}; the deals finished are kept", file=sys.stderr)
        return 128 + ended.signum


def _bench(args: argparse.Namespace) -> int:
    from spider_cli.analysis.bench import full as bench
    from spider_cli.analysis.solve import autoplay
    from spider_cli.app.files import benchdb
    from spider_cli.app.words.bench import known_report, summary_json
    from spider_cli.cli.progressbar import ProgressBar

    say_if_slow()
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
                ProgressBar(sys.stderr),
                done=done,
                record=lambda result: store.add(result, args.limit, args.time_limit, search),
                mapper=mapper,
            )
    except SpiderError as error:  # the results file, the cluster or a worker
        print(f"spider bench: {_bench_error(error)}", file=sys.stderr)
        return REFUSED
    if args.json:
        limits = bench.Limits(positions_per_deal=args.limit, seconds_per_deal=args.time_limit)
        data = summary_json(
            summary, results, args.seeds, bench.BenchMode.KNOWN, limits, earlier=len(done)
        )
        print(json.dumps(data, indent=1))
    else:
        print(_fitted(known_report(summary, args.limit, args.time_limit)))
    return OK


def _bench_error(error: SpiderError) -> str:
    """What a bench that failed says: a worker that died in words, else the error's own."""
    from spider_cli.analysis.bench.workers import WorkerDied
    from spider_cli.app.words.bench import died_text

    said = died_text(error) if isinstance(error, WorkerDied) else str(error)
    return files.shown(said, newlines=True)


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
    the blind player through a player's view (:mod:`spider_cli.analysis.bench.blind`), each game
    stored as it finishes under the player's key (:func:`chancesearch.player_key`)."""
    from spider_cli.analysis import TURN_LIMIT, Limit, memory, native
    from spider_cli.analysis.bench import blind
    from spider_cli.analysis.bench import full as bench
    from spider_cli.analysis.chance import search as chancesearch
    from spider_cli.app.files import benchdb
    from spider_cli.app.words.bench import blind_report, summary_json
    from spider_cli.cli.progressbar import ProgressBar

    budget = args.budget or TURN_LIMIT.positions
    most = memory.blind_positions(native.backend().compiled)
    if budget > most:  # each search would stop there: say so, use it
        budget = most
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
                Limit(budget),
                args.jobs,
                ProgressBar(sys.stderr),
                level=level,
                done=done,
                record=lambda result: store.add_blind(result, player),
                mapper=mapper,
            )
    except SpiderError as error:  # the results file, the cluster or a worker
        print(f"spider bench: {_bench_error(error)}", file=sys.stderr)
        return REFUSED
    if args.json:
        limits = bench.Limits(
            positions_per_search=budget, moves_per_deal=blind.MAX_MOVES, level=level.value
        )
        data = summary_json(
            summary, results, args.seeds, bench.BenchMode.BLIND, limits, earlier=len(done)
        )
        print(json.dumps(data, indent=1))
    else:
        print(_fitted(blind_report(summary, results, level, budget)))
    return OK
