"""``arena serve`` (a league's web server and its ladder) and ``arena submit`` (send a bot to a league)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from arena.cli.app import app
from arena.cli.common import Address, ExecutorName, err, out, user_errors
from arena.cli.panels import LEAGUE
from arena.league.web import client
from arena.league.web.connections import HEADER_SECONDS, KEEP_ALIVE_SECONDS, ServerLimits
from arena.play.executor_choice import ExecutorChoice


@app.command(rich_help_panel=LEAGUE)
@user_errors
def serve(
    folder: Annotated[Path, typer.Argument(help="The league's folder (made by 'arena league new').",
                                           show_default=False)],
    port: Annotated[int, typer.Option("--port", "-p", help="The port to listen on (0: a free one).")] = 8000,
    host: Annotated[str, typer.Option(
        "--host", help="The address to listen on; 0.0.0.0 opens it to the network (put it behind a TLS proxy).")]
        = "127.0.0.1",
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", help="Worker processes playing the ladder [default: all cores].", show_default=False)]
        = None,
    executor: ExecutorName = None,
    address: Address = None,
    max_connections: Annotated[int | None, typer.Option(
        "--max-connections", help="Connections held at once; beyond them a client gets 503 [default: 2000, fewer "
                                  "if the process may not open enough files].", show_default=False)] = None,
    header_timeout: Annotated[float, typer.Option(
        "--header-timeout", help="Seconds a connection has to send a whole request head, then it is closed.")]
        = HEADER_SECONDS,
    keep_alive: Annotated[int, typer.Option(
        "--keep-alive", help="Seconds an idle connection is kept open after a response.")] = KEEP_ALIVE_SECONDS,
) -> None:
    """Serve a league on the web: the leaderboard, bots, games and replays, team and organiser pages, a JSON API,
    with its ladder playing ranked games until Ctrl-C."""
    from arena.league.web.serve import check_installed
    from arena.league.web.serve import serve as run_server

    check_installed()
    if not (0 <= port <= 65535):
        raise typer.BadParameter("must be 0 to 65535", param_hint="'--port'")
    if workers is not None and workers < 1:
        raise typer.BadParameter("must be at least 1", param_hint="'--workers'")
    if max_connections is not None and max_connections < 1:
        raise typer.BadParameter("must be at least 1", param_hint="'--max-connections'")
    if not 0 < header_timeout <= 3600:
        raise typer.BadParameter("must be more than 0 and at most 3600 seconds", param_hint="'--header-timeout'")
    if not 1 <= keep_alive <= 3600:
        raise typer.BadParameter("must be 1 to 3600 seconds", param_hint="'--keep-alive'")
    limits = ServerLimits(max_connections, header_timeout, keep_alive)

    def ready(url: str) -> None:
        err.print(f"serving {folder} at {url} (Ctrl-C stops)", highlight=False, soft_wrap=True)

    run_server(folder, host, port, ExecutorChoice(executor or "local", address), workers, on_ready=ready,
               limits=limits)


@app.command(rich_help_panel=LEAGUE)
@user_errors
def submit(
    path: Annotated[Path, typer.Argument(help="The bot: a .py file, or a folder with arena-bot.toml.",
                                         show_default=False)],
    server: Annotated[str, typer.Option("--server", help="The league's address, e.g. http://127.0.0.1:8000.",
                                        show_default=False)],
    token: Annotated[str | None, typer.Option(
        "--token", envvar="ARENA_TOKEN", help="Your team's token [default: $ARENA_TOKEN].", show_default=False)]
        = None,
) -> None:
    """Submit a bot to a league: it is built on the server, and the new version is printed."""
    answer = client.submit(path, server, token or "")
    label = f"{answer.get('team')}/{answer.get('bot')} v{answer.get('number')}"
    out.print(f"{label} {answer.get('version')}", highlight=False, soft_wrap=True)
    if answer.get("status") != "ready":
        log = str(answer.get("build_log") or "").rstrip()
        err.print(f"[bold red]error:[/] {label} did not build ({answer.get('status')}); it will not play"
                  + (f"; its build log:\n{escape(log)}" if log else ""), highlight=False, soft_wrap=True)
        raise typer.Exit(1)
