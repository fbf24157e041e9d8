"""``spider bench --cluster`` at what is not a Dask scheduler: real listeners on loopback
that answer at once with other bytes, or never; a web server; addresses whose host is not
a host name. Each is said in words, exit 1, within the connect limit (made short here)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from spider_cli.app import cluster
from spider_cli.cli.main import main
from spider_cli.rules.errors import SpiderError

LIMIT = 1.0
"""The connect limit in these tests, in seconds (30 in use)."""


@pytest.fixture(autouse=True)
def _short_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", LIMIT)


def listener(answer: Callable[[socket.socket], None]) -> Iterator[str]:
    """A listener on 127.0.0.1 that accepts every connection and gives it to ``answer``,
    kept open until the test ends; yields its tcp:// address."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            held.append(connection)
            answer(connection)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for connection in held:
            connection.close()


def bench_at(address: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """What ``spider bench --cluster ADDRESS`` says, having checked it exits 1 within the
    limit (and a little more for the start)."""
    start = time.monotonic()
    argv = ["bench", "--seeds", "1", "--db", str(tmp_path / "r.sqlite"), "--cluster", address]
    assert main(argv) == 1
    assert time.monotonic() - start < LIMIT + 3
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err
    return err


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
        os.urandom(4096),
        (5).to_bytes(8, "little") + b"hello",  # a short message, framed otherwise
        b"\xff" * 8,  # a length Dask would allocate
    ],
    ids=["http", "random", "short", "huge length"],
)
def test_a_listener_that_answers_otherwise_is_not_a_scheduler(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], answer: bytes
) -> None:
    for address in listener(lambda connection: connection.sendall(answer)):
        err = bench_at(address, tmp_path, capsys)
        assert f"what listens at {address} is not a Dask scheduler" in err


def test_a_listener_that_never_answers_is_given_up_at_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for address in listener(lambda connection: None):
        err = bench_at(address, tmp_path, capsys)
        assert f"at {address}: no answer in {LIMIT:g} s" in err
        assert "not its dashboard's" in err


def test_one_that_answers_then_stops_is_given_up_at_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A length of a greeting, then nothing: the limit holds over the whole greeting."""
    for address in listener(lambda connection: connection.sendall((58).to_bytes(8, "little"))):
        assert "no answer in" in bench_at(address, tmp_path, capsys)


def test_a_web_server_is_given_up_at_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python3 -m http.server`` waits for a request, as Dask's dashboard would not."""
    server = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # Serving HTTP on 127.0.0.1 port N (http://...) ...
        port = int(line.split(" port ")[1].split()[0])
        err = bench_at(f"tcp://127.0.0.1:{port}", tmp_path, capsys)
        assert "no answer in" in err
    finally:
        server.kill()
        server.wait(timeout=10)


@pytest.mark.parametrize(
    "host",
    ["a..b", "..", "a" * 253, ".a", "-a.b", "a-.b", "x" * 64 + ".b"],
    ids=["empty label", "dots", "long label", "leading dot", "-a", "a-", "64"],
)
def test_a_host_that_is_not_a_host_name_is_refused_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], host: str
) -> None:
    err = bench_at(f"tcp://{host}:8786", tmp_path, capsys)
    assert "is not a host name" in err


@pytest.mark.parametrize(
    "host", ["localhost", "localhost.", "a-b.c_d.example", "x" * 63, "a." * 126 + "a"]
)
def test_a_host_name_is_read(host: str) -> None:
    assert cluster.endpoint(f"tcp://{host}:8786") == (host, 8786)


def test_a_host_whose_name_cannot_be_looked_up_is_said_in_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The name lookup's own errors, an OSError or not, are said, never raised."""

    def lookup_fails(*args: object, **kwargs: object) -> socket.socket:
        raise UnicodeError("encoding with 'idna' codec failed")

    monkeypatch.setattr(socket, "create_connection", lookup_fails)
    with pytest.raises(SpiderError, match="cannot reach the Dask scheduler"):
        cluster.reachable("tcp://example:8786")
