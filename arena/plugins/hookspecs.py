"""The hooks a plugin can implement.

A plugin is any module or object with functions marked ``@arena.hookimpl`` whose names match the
specifications below. Built-in games and bots are registered through these same hooks. Third-party
packages declare their plugin module under ``[project.entry-points.arena]``; bot modules dropped into a
bot directory need no hook at all.
"""

from __future__ import annotations

from typing import Any

import pluggy

hookspec = pluggy.HookspecMarker("arena")
hookimpl = pluggy.HookimplMarker("arena")


@hookspec
def register_games(register: Any) -> None:
    """Register game rulesets: call ``register(GameSubclass)`` once for each.

    Called once when the plugin registry loads, before any bot is registered. A game's ``name`` must be
    unique; a second game with a taken name is reported and skipped.
    """


@hookspec
def register_bots(register: Any) -> None:
    """Register bots: call ``register(BotSubclass)`` once for each.

    Called once when the plugin registry loads, after every game is registered. A bot name that is
    already taken is reported (naming where the bot came from) and skipped; the others still load.
    """


@hookspec
def register_commands(app: Any) -> None:
    """Add commands to the ``arena`` command line: ``app`` is the ``typer.Typer`` application.

    Called once when the command line starts, before arguments are parsed.
    """


@hookspec
def match_finished(record: dict[str, Any]) -> None:
    """Observe a finished match: ``record`` is its game record (``arena-record/1``).

    The lifecycle of a match, for plugins that follow it: the referee builds the game from its map,
    options and seed (``Game.__init__``); calls each bot's ``start(info)``; then, turn by turn, asks the
    seats in ``Game.to_act()`` for an action with ``Bot.act(obs)``, checks it, times it, and applies the
    turn; a bot that raises, times out or answers illegally loses at once. When the game has a result
    the referee calls each bot's ``finish(result)`` and then this hook, in the process that played the
    game (a worker process in a tournament). Implementations must not raise; an exception is reported
    in the record's ``hook_errors`` and the match stands.
    """
