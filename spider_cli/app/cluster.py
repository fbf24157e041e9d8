"""``spider bench --cluster ADDRESS``: deals played by the workers of a Dask scheduler.

Each deal is one task running the run's worker (:func:`spider_cli.analysis.bench.full.solve_deal`,
or :func:`spider_cli.analysis.bench.blind.play_deal` for ``--blind``), as a local run's worker
process does, so a deal's result is the same wherever it is played (the search is
bounded by positions; only the seconds differ). Results come back as they finish, to be
stored at once. Needs the optional ``distributed`` (``pip install 'spider-cli[cluster]'``),
and spider installed on every worker.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

from spider_cli.analysis import DealResult, Mapper
from spider_cli.rules.errors import SpiderError, quoted

CONNECT_SECONDS = 30
"""How long to wait for the scheduler to answer (connect and greeting) before giving up."""

GREETING_BYTES = 1 << 16
"""The most a scheduler's greeting may take: its handshake is a small map (under a hundred
bytes); a length past this is something else talking, not read (Dask would allocate it)."""

_ADDRESS = re.compile(r"tcp://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]{1,253}):(?P<port>\d{1,5})")
"""A scheduler's address as Dask's TCP writes it: tcp://HOST:PORT (an IPv6 host in [])."""

_LABEL = re.compile(r"[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?")
"""One label of a host name (between its dots): 1 to 63 characters, no '-' at either end."""


def endpoint(address: str) -> tuple[str, int]:
    """The host and port of a scheduler's address ``tcp://HOST:PORT``; SpiderError, in a
    player's words, for anything else (checked before Dask is asked, which would fail on
    some with an error of its own, and before the socket's name lookup, which fails on an
    empty or long label with an error that is not an OSError)."""
    match = _ADDRESS.fullmatch(address.strip())
    if match is None:
        raise SpiderError(
            f"--cluster takes a Dask scheduler's address, tcp://HOST:PORT (as "
            f"tcp://127.0.0.1:8786), not {quoted(address)}"
        )
    host = match["host"]
    if not host.startswith("[") and not all(
        _LABEL.fullmatch(label) for label in host.removesuffix(".").split(".")
    ):
        raise SpiderError(
            f"--cluster: {quoted(host)} is not a host name (each part between dots is 1 to "
            "63 letters, digits or '-')"
        )
    port = int(match["port"])
    if not 1 <= port <= 65_535:
        raise SpiderError(f"--cluster: a port is 1 to 65535, not {port}")
    return host.strip("[]"), port


def reachable(address: str, seconds: float | None = None) -> None:
    """Check that a Dask scheduler answers at the address within ``seconds``
    (:data:`CONNECT_SECONDS` by default), connecting and reading its greeting here, bounded
    in time and size: a refused connection is said at once, not after Dask's timeout, and
    something else listening (a dashboard, a web server, anything that answers otherwise or
    not at all) is said in words, where Dask's own handshake would wait for ever or allocate
    whatever length the first bytes spell."""
    host, port = endpoint(address)
    seconds = CONNECT_SECONDS if seconds is None else seconds
    deadline = time.monotonic() + seconds
    try:
        with socket.create_connection((host, port), timeout=seconds) as connection:
            greeting = _greeting(connection, deadline)
    except ConnectionRefusedError:
        raise SpiderError(
            f"cannot reach the Dask scheduler at {address}: nothing listens there "
            "(connection refused)"
        ) from None
    except TimeoutError:
        raise SpiderError(
            f"cannot reach the Dask scheduler at {address}: no answer in {seconds:g} s "
            "(is it the scheduler's port, not its dashboard's?)"
        ) from None
    except (OSError, UnicodeError) as error:  # (an unknown host, an unreachable network)
        raise SpiderError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    if not _is_handshake(greeting):
        raise SpiderError(
            f"what listens at {address} is not a Dask scheduler (it does not answer as "
            "one; is it the scheduler's port, not its dashboard's?)"
        )


def _greeting(connection: socket.socket, deadline: float) -> bytes:
    """The first message a Dask scheduler sends on a new connection, as it sends it (an
    8-byte length, then that many bytes), read by ``deadline``; b"" if the length is not
    one of a greeting, or the other side closes first (TimeoutError at the deadline)."""
    head = _read(connection, 8, deadline)
    if len(head) < 8:
        return b""
    length = int.from_bytes(head, "little")
    if not 8 <= length <= GREETING_BYTES:
        return b""
    return _read(connection, length, deadline)


def _read(connection: socket.socket, count: int, deadline: float) -> bytes:
    """Up to ``count`` bytes, fewer if the other side closes first; TimeoutError at
    ``deadline``."""
    data = bytearray()
    while len(data) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        connection.settimeout(left)
        chunk = connection.recv(count - len(data))
        if not chunk:
            break
        data += chunk
    return bytes(data)


def _is_handshake(message: bytes) -> bool:
    """Whether ``message`` is framed as Dask's messages are (a count of frames, their
    lengths, the frames, adding up) and its first frame is a msgpack map, as a scheduler's
    handshake is."""
    if len(message) < 8:
        return False
    frames = int.from_bytes(message[:8], "little")
    if not 1 <= frames <= 16 or len(message) < 8 * (1 + frames):
        return False
    lengths = [
        int.from_bytes(message[8 * at : 8 * at + 8], "little") for at in range(1, frames + 1)
    ]
    if 8 * (1 + frames) + sum(lengths) != len(message) or lengths[0] == 0:
        return False
    first = message[8 * (1 + frames)]
    return 0x80 <= first <= 0x8F or first in (0xDE, 0xDF)  # fixmap, map 16, map 32


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
