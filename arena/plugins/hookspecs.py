"""The hooks a plugin can implement.

A plugin is any module or object with functions marked ``@arena.hookimpl`` whose names match the
specifications below. Built-in games and bots are registered through these same hooks. Third-party
packages declare their plugin module under ``[project.entry-points.arena]``; bot modules dropped into a
bot directory need no hook at all.

Hooks are called through pluggy, so its markers work: ``@hookimpl(tryfirst=True)`` or ``trylast=True``
moves an implementation to the front or the back, and ``@hookimpl(wrapper=True)`` runs a generator
around the other implementations. Otherwise implementations run in load order: built-in games, then
entry-point plugins, then bot directories (shipped bots first). An implementation that raises is
reported in one line naming its plugin, and the others still run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

from arena.plugins.registrars import BotRegistrar, ExecutorRegistrar, GameRegistrar, StudyRegistrar

if TYPE_CHECKING:
    import typer

hookspec = pluggy.HookspecMarker("arena")
hookimpl = pluggy.HookimplMarker("arena")


@hookspec
def register_games(register: GameRegistrar) -> None:
    """Register game rulesets.

    Args:
        register: call ``register(game_class)`` once for each game, where ``game_class`` is a subclass of
            :class:`arena.Game` with a ``name``. A second game with a taken name, or anything that is not a
            named ``Game`` subclass, is reported and skipped.

    Called once when the plugin registry loads, before any bot is registered.
    """


@hookspec
def register_bots(register: BotRegistrar) -> None:
    """Register bots.

    Args:
        register: call ``register(bot_class, source=None)`` once for each bot, where ``bot_class`` is a
            subclass of :class:`arena.Bot` with a ``name`` and ``games``, and ``source`` optionally names the
            file it came from (default: the file that defines the class, whose hash is the bot's version).
            A bot name that is already taken is reported (naming where the bot came from) and skipped; the
            others still load.

    Called once when the plugin registry loads, after every game is registered.
    """


@hookspec
def register_executors(register: ExecutorRegistrar) -> None:
    """Register executors: engines that play a command's games (``--executor NAME``).

    Args:
        register: call ``register(name, factory)`` once for each executor. ``factory(workers, config, limits,
            registry, address)`` returns an object with ``run(setups)`` (yield each game's
            :class:`arena.play.referee.MatchOutcome` as it ends, every game exactly once) and
            ``close(terminate=False)``; see :mod:`arena.play.executor_choice`. ``workers`` is ``None`` for the
            executor's default; ``address`` is ``--address`` (a cluster), or ``None``. A taken name is
            reported and skipped. Optionally ``register(name, factory, tasks=task_factory)``:
            ``task_factory(workers, address)`` returns a task pool (a :class:`concurrent.futures.Executor` with
            a ``size``; see :mod:`arena.play.task_pools`) on which experiments run their repetitions.

    Called once when the plugin registry loads. ``local`` and ``ray`` are built in.
    """


@hookspec
def register_studies(register: StudyRegistrar) -> None:
    """Register playability studies: self-play learners that ``arena playability GAME`` trains to judge a
    game's design.

    Args:
        register: call ``register(study)`` once for each study, where ``study`` is an instance of
            :class:`arena.learning.playability.PlayabilityStudy` naming a registered ``game``. A second study
            of the same game is reported and skipped.

    Called once when the plugin registry loads, after every game and bot is registered.
    """


@hookspec
def register_commands(app: typer.Typer) -> None:
    """Add commands to the ``arena`` command line.

    Args:
        app: the ``typer.Typer`` application of the ``arena`` command; add commands with
            ``app.command("name")(function)`` or groups with ``app.add_typer``. ``arena --help`` lists a
            command under the panel it names as typer's ``rich_help_panel`` does (``Play``, ``Results``,
            ``League``, ``Research``, ``Tools``, or one of its own); one that names none under ``Plugins``.

    Called once when the command line starts, before arguments are parsed, unless the arguments name a
    built-in command (``arena tournament ...``, ``arena check bot ...``): that loads no plugin command.
    A plugin's own command, ``arena --help`` and a built-in group named alone (``arena check``) load them
    all. An implementation that raises is reported as a warning and the command line still starts.
    """


@hookspec
def match_finished(record: dict[str, Any]) -> None:
    """Observe a finished match.

    Args:
        record: the match's game record (format ``arena-record/1``: game, map, options, seed, bots and
            versions, every turn's actions, ranks, reason, failures). Every implementation gets the same
            dict: read it, do not change it.

    The lifecycle of a match, for plugins that follow it: the referee builds the game from its map,
    options and seed (``Game.__init__``); calls each bot's ``start(info)``; then, turn by turn, asks the
    seats in ``Game.to_act()`` for an action with ``Bot.act(obs)``, checks it, times it, and applies the
    turn; a bot that raises, times out or answers illegally loses at once. When the game has a result
    the referee calls each bot's ``finish(result)`` and then this hook, in the process that played the
    game (a worker process in a tournament). An implementation that raises is reported in the
    record's ``hook_errors`` and the match stands.
    """
