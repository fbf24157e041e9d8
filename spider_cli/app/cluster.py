"""``spider bench --cluster ADDRESS``: deals played by the workers of a Dask scheduler.

Each deal is one task running the run's worker (:func:`spider_cli.analysis.bench.solve_deal`,
or :func:`spider_cli.analysis.blind.play_deal` for ``--blind``), as a local run's worker
process does, so a deal's result is the same wherever it is played (the search is
bounded by positions; only the seconds differ). Results come back as they finish, to be
stored at once. Needs the optional ``distributed`` (``pip install 'spider-cli[cluster]'``),
and spider installed on every worker.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Iterator
from typing import Any

from spider_cli.analysis.bench import DealResult, Mapper
from spider_cli.rules.errors import SpiderError, quoted

CONNECT_SECONDS = 30
"""How long to wait for the scheduler to answer before giving up."""


_ADDRESS = re.compile(r"tcp://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]{1,253}):(?P<port>\d{1,5})")
"""A scheduler's address as Dask's TCP writes it: tcp://HOST:PORT (an IPv6 host in [])."""


def endpoint(address: str) -> tuple[str, int]:
    """The host and port of a scheduler's address ``tcp://HOST:PORT``; SpiderError, in a
    player's words, for anything else (checked before Dask is asked, which would fail on
    some with an error of its own)."""
    match = _ADDRESS.fullmatch(address.strip())
    if match is None:
        raise SpiderError(
            f"--cluster takes a Dask scheduler's address, tcp://HOST:PORT (as "
            f"tcp://127.0.0.1:8786), not {quoted(address)}"
        )
    port = int(match["port"])
    if not 1 <= port <= 65_535:
        raise SpiderError(f"--cluster: a port is 1 to 65535, not {port}")
    return match["host"].strip("[]"), port


def reachable(address: str, seconds: float = CONNECT_SECONDS) -> None:
    """Check that something listens at the scheduler's address: a refused connection is said
    at once, not after Dask's timeout."""
    host, port = endpoint(address)
    try:
        with socket.create_connection((host, port), timeout=seconds):
            pass
    except ConnectionRefusedError:
        raise SpiderError(
            f"cannot reach the Dask scheduler at {address}: nothing listens there "
            "(connection refused)"
        ) from None
    except OSError as error:  # (TimeoutError, an unknown host, an unreachable network)
        raise SpiderError(f"cannot reach the Dask scheduler at {address}: {error}") from None


def dask_mapper(address: str) -> Mapper:
    """Plays tasks on the Dask scheduler at ``address`` ("tcp://host:8786"); its workers
    decide how many run at once."""
    endpoint(address)  # a bad address is refused before anything else
    try:
        import distributed
    except ImportError:
        raise SpiderError(
            "--cluster needs Dask's 'distributed': pip install 'spider-cli[cluster]'"
        ) from None

    def results(
        tasks: list[Any], jobs: int, worker: Callable[[Any], DealResult]
    ) -> Iterator[DealResult]:
        if not tasks:
            return
        reachable(address)
        try:
            client = distributed.Client(address, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, ValueError) as error:
            raise SpiderError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        with client:
            futures = client.map(worker, tasks, pure=False)
            for future in distributed.as_completed(futures):
                result: DealResult = future.result()
                future.release()
                yield result

    return results
