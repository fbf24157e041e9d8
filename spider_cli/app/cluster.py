"""``spider bench --cluster ADDRESS``: deals played by the workers of a Dask scheduler.

Each deal is one task running the run's worker (:func:`spider_cli.analysis.bench.solve_deal`,
or :func:`spider_cli.analysis.blind.play_deal` for ``--blind``), as a local run's worker
process does, so a deal's result is the same wherever it is played (the search is
bounded by positions; only the seconds differ). Results come back as they finish, to be
stored at once. Needs the optional ``distributed`` (``pip install 'spider-cli[cluster]'``),
and spider installed on every worker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from spider_cli.analysis.bench import DealResult, Mapper
from spider_cli.rules.errors import SpiderError

CONNECT_SECONDS = 30
"""How long to wait for the scheduler to answer before giving up."""


def dask_mapper(address: str) -> Mapper:
    """Plays tasks on the Dask scheduler at ``address`` ("tcp://host:8786"); its workers
    decide how many run at once."""
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
        try:
            client = distributed.Client(address, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as error:
            raise SpiderError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        with client:
            futures = client.map(worker, tasks, pure=False)
            for future in distributed.as_completed(futures):
                result: DealResult = future.result()
                future.release()
                yield result

    return results
