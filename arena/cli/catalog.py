"""Commands that list what there is to play with: games, maps, bots and plugins."""

from __future__ import annotations

from typing import Annotated

import typer

from arena.cli.app import app
from arena.cli.common import (
    BotsDir,
    Format,
    check_output_format,
    emit_table,
    err,
    load_registry_reporting,
    plugin_config,
    short_path,
    user_errors,
    warn,
)
from arena.cli.panels import TOOLS
from arena.tournament.map_catalog import map_summaries


@app.command("games", rich_help_panel=TOOLS)
@user_errors
def games_command(fmt: Format = "table", bots_dir: BotsDir = None) -> None:
    """List the games the plugins registered."""
    check_output_format(fmt)
    registry = load_registry_reporting(plugin_config(bots_dir))
    rows = []
    for name, game in sorted(registry.games.items()):
        players = str(game.min_players) if game.min_players == game.max_players else \
            f"{game.min_players}-{game.max_players}"
        options = ", ".join(f"{k} ({'|'.join(o.choices)})" for k, o in game.options.items())
        rows.append([name, players, ", ".join(game.roles) or "-", options or "-", " ".join(game.default_maps) or "-",
                     game.description])
    emit_table(["game", "players", "roles", "options", "default maps", "description"], rows, fmt, "Games",
               names=("game",), prose=("roles", "default maps"))


@app.command("maps", rich_help_panel=TOOLS)
@user_errors
def maps_command(
    game: Annotated[str | None, typer.Option(help="Only maps for this game.", show_default=False)] = None,
    fmt: Format = "table",
) -> None:
    """List the maps a name finds (./maps first, then the shipped maps): game, size, players and title."""
    check_output_format(fmt)
    registry = load_registry_reporting(plugin_config(None))
    summaries, problems = map_summaries(registry, game)
    for problem in problems:
        warn(problem)
    rows = [[m.name, m.game, f"{m.width}x{m.height}", str(m.players), m.title or "-",
             "shipped" if m.shipped else short_path(m.path)] for m in summaries]
    emit_table(["map", "game", "size (WxH)", "players", "title", "from"], rows, fmt, "Maps", names=("map", "game"))


@app.command("bots", rich_help_panel=TOOLS)
@user_errors
def bots_command(
    game: Annotated[str | None, typer.Option(help="Only bots that play this game.")] = None,
    fmt: Format = "table",
    bots_dir: BotsDir = None,
) -> None:
    """List the bots found: name, games, roles, version (hash of the source) and where each was found."""
    check_output_format(fmt)
    registry = load_registry_reporting(plugin_config(bots_dir))
    if game is not None:
        registry.game(game)
    rows = [
        [entry.name, ", ".join(entry.games), ", ".join(entry.roles) or "any", entry.version,
         short_path(entry.source), entry.description]
        for name, entry in sorted(registry.bots.items())
        if game is None or entry.plays(game)
    ]
    emit_table(["bot", "games", "roles", "version", "found in", "description"], rows, fmt, "Bots",
               names=("bot", "version"), prose=("games", "roles"))
    if fmt == "table":
        err.print(TRUST_NOTE, style="dim", highlight=False)


TRUST_NOTE = ("Bots are trusted code: without --sandbox a bot runs with your rights (your files, the network, "
              "the database). Play other people's bots with --sandbox.")


@app.command("plugins", rich_help_panel=TOOLS)
@user_errors
def plugins_command(fmt: Format = "table", bots_dir: BotsDir = None) -> None:
    """List the loaded plugins: built-ins, entry points (group "arena") and bot directories."""
    check_output_format(fmt)
    registry = load_registry_reporting(plugin_config(bots_dir))
    rows = [[p.name, p.kind, p.location, ", ".join(p.hooks)] for p in registry.plugins]
    emit_table(["plugin", "kind", "location", "hooks"], rows, fmt, "Plugins", names=("plugin", "kind"))


