"""Commands that list what there is to play with: games, maps, bots and plugins."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
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
from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.tournament.map_catalog import map_summaries


@app.command("games", rich_help_panel=TOOLS)
@user_errors
def games_command(
    family: Annotated[str | None, typer.Argument(
        help="List the games of this family one by one (such as openspiel: the games named openspiel:...).",
        show_default=False)] = None,
    fmt: Format = "table",
    bots_dir: BotsDir = None,
) -> None:
    """List the games the plugins registered; a family of games (named FAMILY:...) is one row unless named."""
    check_output_format(fmt)
    registry = load_registry_reporting(plugin_config(bots_dir))
    families = game_families(registry.games)
    if family is not None and family.rstrip(":") not in families:
        known = ", ".join(sorted(families)) or "none"
        raise ArenaError(f"no family of games {family!r} (families: {known})")
    rows = []
    for name, game in sorted(registry.games.items()):
        members = families.get(name.partition(":")[0], []) if ":" in name else []
        if family is not None and game not in members:
            continue
        if family is None and len(members) > 1:
            if game is members[0]:
                rows.append(_family_row(name.partition(":")[0], members))
            continue
        rows.append([name, _players(game.min_players, game.max_players), ", ".join(game.roles) or "-",
                     ", ".join(f"{k} ({'|'.join(o.choices)})" for k, o in game.options.items()) or "-",
                     " ".join(game.default_maps) or "-", game.description])
    emit_table(["game", "players", "roles", "options", "default maps", "description"], rows, fmt, "Games",
               names=("game",), prose=("roles", "default maps"))


def game_families(games: Mapping[str, type[Game]]) -> dict[str, list[type[Game]]]:
    """The games named ``FAMILY:...`` by family, in name order."""
    families: dict[str, list[type[Game]]] = {}
    for name, game in sorted(games.items()):
        if ":" in name:
            families.setdefault(name.partition(":")[0], []).append(game)
    return families


def games_listing(names: Sequence[str]) -> str:
    """A bot's games for a table: a family's games (``FAMILY:...``) as ``FAMILY:* (N games)`` when there are
    several."""
    counts = Counter(name.partition(":")[0] for name in names if ":" in name)
    shown: list[str] = []
    for name in names:
        family = name.partition(":")[0]
        if ":" in name and counts[family] > 1:
            label = f"{family}:* ({counts[family]} games)"
            if label not in shown:
                shown.append(label)
        else:
            shown.append(name)
    return ", ".join(shown)


def _players(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def _family_row(family: str, members: Sequence[type[Game]]) -> list[str]:
    players = _players(min(game.min_players for game in members), max(game.max_players for game in members))
    return [f"{family}:*", players, "-", "-", "-", f"{len(members)} games: arena games {family} lists them"]


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
        [entry.name, games_listing(entry.games), ", ".join(entry.roles) or "any", entry.version,
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


