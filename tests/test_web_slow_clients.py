"""``arena serve`` against clients that hold connections: a thousand sockets that each send half a request head
do not keep it from answering others, and are closed; connections beyond the limit are turned away at once.
A real server in its own process, on a loopback port."""

import os
import re
import resource
import selectors
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from arena.cli.main import app
from arena.league.web.connections import ServerLimits
from tests.cli_runner import CliRunner
from tests.web_server import new_league

runner = CliRunner()

HALF_A_HEAD = b"GET /api/leaderboard HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@pytest.fixture
def league(tmp_path):
    return new_league(tmp_path)


def start_server(folder, *options):
    """``arena serve folder`` on a free loopback port (one worker: the league has no bot to play); its process
    and address."""
    command = [sys.executable, "-m", "arena", "serve", str(folder), "--port", "0", "--workers", "1", *options]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    line = process.stderr.readline()
    found = re.search(r"at http://(127\.0\.0\.1):(\d+) ", line)
    assert found, line + process.stderr.read() if process.poll() is not None else line
    return process, (found[1], int(found[2]))


def stop_server(process):
    process.send_signal(signal.SIGINT)
    try:
        assert process.wait(timeout=60) == 130
    finally:
        process.kill()
        process.wait()


def answered_in(address):
    """Seconds a whole request takes to be answered (200) on a new connection."""
    started = time.monotonic()
    with urllib.request.urlopen(f"http://{address[0]}:{address[1]}/api/leaderboard", timeout=30) as answer:
        assert answer.status == 200 and b'"rows":[]' in answer.read()
    return time.monotonic() - started


def closed_by_server(sockets, deadline):
    """The sockets the server closed (EOF or reset) before ``deadline`` (a ``time.monotonic()``), with what each
    received before."""
    received = {sock: b"" for sock in sockets}
    selector = selectors.DefaultSelector()
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    closed = {}
    while len(closed) < len(sockets) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=max(0.0, deadline - time.monotonic())):
            sock = key.fileobj
            try:
                data = sock.recv(4096)
            except ConnectionResetError:
                data = b""
            if data:
                received[sock] += data
                continue
            selector.unregister(sock)
            closed[sock] = received[sock]
    selector.close()
    return closed


def open_files(count):
    """Let this process open ``count`` more sockets (the soft limit raised to the hard one if need be)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < count + 256:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    assert soft == resource.RLIM_INFINITY or soft >= count + 256, f"this test needs {count + 256} open files"


@pytest.mark.slow
def test_a_thousand_half_sent_request_heads_neither_block_others_nor_stay_open(league):
    open_files(1000)
    process, address = start_server(league.folder, "--header-timeout", "3")
    slow = []
    try:
        opened = time.monotonic()
        for _ in range(1000):
            sock = socket.create_connection(address, timeout=10)
            sock.sendall(HALF_A_HEAD)
            slow.append(sock)
        assert max(answered_in(address) for _ in range(3)) < 1.0  # others are answered meanwhile

        closed = closed_by_server(slow, opened + 30)
        assert len(closed) == 1000, f"{1000 - len(closed)} of the slow connections are still open after 30 s"
        assert set(closed.values()) == {b""}  # closed without an answer: they never asked a whole question
        assert time.monotonic() - opened >= 3  # not before their time (--header-timeout)
        assert answered_in(address) < 1.0
    finally:
        for sock in slow:
            sock.close()
        stop_server(process)


@pytest.mark.slow
def test_connections_beyond_the_limit_are_answered_503_and_closed_at_once(league):
    process, address = start_server(league.folder, "--max-connections", "20", "--header-timeout", "30")
    held = []
    try:
        for _ in range(19):  # the 20th is the one that asks
            held.append(socket.create_connection(address, timeout=10))
        assert answered_in(address) < 1.0
        time.sleep(0.5)  # the server sees that one go
        held.append(socket.create_connection(address, timeout=10))  # the 20th: the limit is reached
        beyond = [socket.create_connection(address, timeout=10) for _ in range(5)]
        held += beyond
        closed = closed_by_server(beyond, time.monotonic() + 5)
        assert len(closed) == 5
        assert all(answer.startswith(b"HTTP/1.1 503 Service Unavailable\r\n") for answer in closed.values())
        for sock in held:
            sock.close()
        held = []
        time.sleep(0.5)  # the server sees them go
        assert answered_in(address) < 1.0
    finally:
        for sock in held:
            sock.close()
        stop_server(process)


@pytest.mark.slow
def test_a_head_trickled_byte_by_byte_or_started_after_a_kept_alive_answer_has_the_same_deadline(league):
    process, address = start_server(league.folder, "--header-timeout", "1", "--keep-alive", "60")
    try:
        kept = socket.create_connection(address, timeout=10)
        kept.sendall(b"GET /api/leaderboard HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(2)  # the answer comes at once; the connection stays open for the next request (keep-alive)
        kept.sendall(HALF_A_HEAD)
        trickler = socket.create_connection(address, timeout=10)
        started = time.monotonic()
        for byte in HALF_A_HEAD[:12]:
            try:
                trickler.sendall(bytes([byte]))
            except OSError:  # closed by the server already
                break
            time.sleep(0.25)
        closed = closed_by_server([kept, trickler], started + 10)
        assert len(closed) == 2 and time.monotonic() - started < 8  # well before the keep-alive's 60 s
        assert closed[kept].startswith(b"HTTP/1.1 200 OK\r\n") and closed[trickler] == b""
        kept.close()
        trickler.close()
    finally:
        stop_server(process)


def test_a_request_heads_deadline_is_ten_seconds_unless_told():
    assert ServerLimits().header_seconds == 10
    help_text = " ".join(runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output.split())
    assert re.search(r"--header-timeout NUMBER Seconds a connection has to send a whole request head, then it is "
                     r"closed\. \[default: 10", help_text), help_text


def test_arena_serve_refuses_limits_it_cannot_keep(league):
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    cases = [(["--max-connections", "0"], "'--max-connections': must be at least 1"),
             (["--header-timeout", "0"], "'--header-timeout': must be more than 0"),
             (["--keep-alive", "0"], "'--keep-alive': must be 1 to 3600 seconds")]
    if hard != resource.RLIM_INFINITY:
        cases.append((["--max-connections", str(hard)], f"--max-connections {hard} needs {hard + 512} open files, "
                                                        f"but this process may open {hard} (ulimit -n)"))
    for options, message in cases:  # the usage mistakes are one line from the arena script, as every other
        result = runner.invoke(app, ["serve", str(league.folder), "--port", "0", *options])
        assert result.exit_code == 2 and message in result.stderr, (options, result.output)
        assert "Traceback" not in result.output
