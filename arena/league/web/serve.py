"""``arena serve``: the league's web server under uvicorn, with the league's ladder playing in the background.

The ladder starts when the server has started and stops when it stops: Ctrl-C (or SIGTERM) ends the
server's requests, then the ladder (the games in hand are abandoned and played again by the next server, as
after a ``kill -9``), then the database connections.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from arena.core.errors import ArenaError
from arena.league.ladder_lock import LadderLock
from arena.league.web.connections import ServerLimits, open_files_for
from arena.play.executor_choice import ExecutorChoice

EXTRA_HINT = "the web server needs the league extra: pip install 'bot-arena[league]'"


def check_installed() -> None:
    """An :class:`ArenaError` saying what to install if FastAPI, uvicorn or python-multipart is missing."""
    try:
        import fastapi  # noqa: F401
        import multipart  # type: ignore[import-untyped]  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise ArenaError(EXTRA_HINT) from None


def ladder_running(folder: Path, executor: ExecutorChoice, workers: int | None,
                   lock: LadderLock | None = None) -> Callable[[], AbstractContextManager[object]]:
    """What the application enters while it runs: the league's ladder (holding ``lock``, if given), started and
    then stopped."""
    from arena.league.ladder_loop import LeagueLadder

    @contextmanager
    def running() -> Iterator[LeagueLadder]:
        ladder = LeagueLadder(folder, executor=executor, workers=workers, lock=lock)
        ladder.start()
        try:
            yield ladder
        finally:
            ladder.stop()

    return running


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (port 0: a free one), or an :class:`ArenaError` saying why not."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise ArenaError(f"cannot listen on {host!r}: {exc.strerror}") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise ArenaError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def address_of(sock: socket.socket) -> str:
    """``http://host:port`` of a listening socket."""
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def serve(folder: Path, host: str, port: int, executor: ExecutorChoice, workers: int | None,
          on_ready: Callable[[str], None] = print, ladder: bool = True, limits: ServerLimits | None = None) -> None:
    """Serve the league in ``folder`` on ``host:port`` (port 0: a free one) until interrupted; ``on_ready`` gets
    the address once the server listens. Without ``ladder`` no games are played (the pages and the API only),
    and the folder's ladder lock is not taken: another process may play the ladder beside it."""
    if not ladder:
        _serve(folder, host, port, executor, workers, on_ready, None, limits)
        return
    check_installed()
    with LadderLock.take(folder, "arena serve") as lock:  # before listening: a second server says whose it is

        def ready(address: str) -> None:
            lock.note(address)
            on_ready(address)

        _serve(folder, host, port, executor, workers, ready, lock, limits)


def _serve(folder: Path, host: str, port: int, executor: ExecutorChoice, workers: int | None,
           on_ready: Callable[[str], None], lock: LadderLock | None, limits: ServerLimits | None) -> None:
    check_installed()
    import uvicorn

    from arena.league.web.app import create_app
    from arena.league.web.guarded_h11 import uvicorn_options
    from arena.plugins.registry import PluginConfig, load_registry

    limits = open_files_for(limits or ServerLimits())

    load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False)).executor(executor.name)  # a known one
    app = create_app(folder, ladder_running(folder, executor, workers, lock)) if lock else create_app(folder)
    sock = listen(host, port)
    address = address_of(sock)
    config = uvicorn.Config(app, log_level="warning", access_log=False, proxy_headers=True, server_header=False,
                            lifespan="on", **uvicorn_options(limits))
    server = uvicorn.Server(config)
    original_startup = server.startup

    async def startup(sockets: list[socket.socket] | None = None) -> None:
        await original_startup(sockets)
        if server.started:
            on_ready(address)

    server.startup = startup  # type: ignore[method-assign]
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    if not server.started:
        raise ArenaError(f"the server did not start on {address}; its log above says why")
