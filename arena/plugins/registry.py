"""The plugin manager and registry: built-ins, entry points (group ``arena``) and bot directories."""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pluggy

from arena.core.bot import Bot, BotSpec, bot_description, make_spec, parse_bot_spec, source_version
from arena.core.errors import ArenaError, BotSpecError, UnknownGameError
from arena.core.game import Game
from arena.core.paths import shipped_bots_dir
from arena.plugins import hookspecs
from arena.plugins.calling import HookCall, call_hook, calling_plugin, guard_plugin
from arena.plugins.hookspecs import hookimpl
from arena.plugins.programs.bot import ExecBot, exec_bot_class, manifest_bot
from arena.plugins.programs.manifest import MANIFEST, read_manifest
from arena.plugins.stored import StoredBot, stored_bot_class

BUILTIN_PLUGINS = ("arena.play.executor_plugin", "arena.games.tron.plugin", "arena.games.catmouse.plugin",
                   "arena.games.pawnrace.plugin")
ENTRY_POINT_GROUP = "arena"
BOTS_PATH_VARIABLE = "ARENA_BOTS_PATH"


@dataclass(frozen=True)
class BotEntry:
    """A registered bot: its class, source hash and where it was found."""

    name: str
    cls: type[Bot]
    version: str
    source: str
    plugin: str

    @property
    def games(self) -> tuple[str, ...]:
        """The games the bot plays."""
        return self.cls.games

    @property
    def description(self) -> str:
        """The first line of the bot's docstring."""
        return bot_description(self.cls)


@dataclass(frozen=True)
class PluginInfo:
    """A loaded plugin, for ``arena plugins``."""

    name: str
    kind: str
    location: str
    hooks: tuple[str, ...]


@dataclass(frozen=True)
class PluginConfig:
    """Where to look for plugins and bots; picklable so worker processes rebuild the same registry."""

    bot_dirs: tuple[str, ...] = ()
    use_cwd_bots: bool = True
    use_env_path: bool = True
    entry_points: bool = True
    extra_plugins: tuple[str, ...] = ()
    build_timeout: float | None = None
    """Seconds every program bot's build may take, over its manifest's ``build_timeout`` (``None``: its own)."""
    startup_timeout: float | None = None
    """Seconds every program bot may take to start and say ready, over its manifest's ``startup_timeout`` and
    the default of ``exec:`` specs (``None``: their own)."""
    stored_bots: tuple[StoredBot, ...] = ()
    """Older versions of bots, from the database, registered as ``name@version`` beside the current ones."""


@dataclass
class Registry:
    """Everything the plugins registered, plus one line for each problem met while loading."""

    games: dict[str, type[Game]] = field(default_factory=dict)
    bots: dict[str, BotEntry] = field(default_factory=dict)
    executors: dict[str, Any] = field(default_factory=dict)
    """Executor factories by name (see :mod:`arena.play.executor_choice`)."""
    task_pools: dict[str, Any] = field(default_factory=dict)
    """Task pool factories by executor name (see :mod:`arena.play.task_pools`)."""
    studies: dict[str, Any] = field(default_factory=dict)
    """Playability studies by game (:class:`arena.learning.playability.PlayabilityStudy`)."""
    plugins: list[PluginInfo] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    manager: pluggy.PluginManager | None = None
    exec_bot: type[ExecBot] = ExecBot
    """The class of ``exec:`` specs, with the start-up budget the configuration gives them."""

    def game(self, name: str) -> type[Game]:
        """The game registered as ``name``, or an error naming the closest known games."""
        if name in self.games:
            return self.games[name]
        raise UnknownGameError(f"unknown game {name!r}{_closest(name, self.games)}")

    def bot(self, name: str) -> BotEntry:
        """The bot registered as ``name`` (or ``exec``, a program named in the spec), or an error naming the
        closest known bots."""
        if name in self.bots:
            return self.bots[name]
        if name == ExecBot.name:
            return BotEntry(ExecBot.name, self.exec_bot, source_version(_source_file(ExecBot), ExecBot),
                            "built-in", "arena")
        raise BotSpecError(f"unknown bot {name!r}{_closest(name, self.bots)}")

    def executor(self, name: str) -> Any:
        """The factory of the executor registered as ``name``, or an error naming the executors there are."""
        if name in self.executors:
            return self.executors[name]
        raise ArenaError(f"unknown executor {name!r}: choose from {', '.join(sorted(self.executors))}")

    def task_pool(self, name: str) -> Any:
        """The task pool factory of the executor registered as ``name``, or an error saying why there is none."""
        if name in self.task_pools:
            return self.task_pools[name]
        self.executor(name)  # an unknown name fails here, naming the executors there are
        raise ArenaError(f"the {name} executor plays games only; experiments run on "
                         f"{', '.join(sorted(self.task_pools))}")

    def study(self, game: str) -> Any:
        """The playability study of ``game``, or an error naming the games that have one."""
        if game in self.studies:
            return self.studies[game]
        raise ArenaError(f"no learner for game {game!r}: playability judges {', '.join(sorted(self.studies))}")

    def spec(self, text: str) -> BotSpec:
        """Parse and check a bot spec string (``name:key=value,...``) against the registered bot."""
        name, raw = parse_bot_spec(text)
        spec = make_spec(self.bot(name).cls, raw, text)
        if spec.alias is not None and (spec.alias in self.bots or spec.alias == ExecBot.name):
            raise BotSpecError(f"bot spec {text!r}: name={spec.alias} is the name of a registered bot; "
                               "choose another")
        return spec

    def version_of(self, spec: BotSpec) -> str:
        """The version of the bot a spec names: its entry's, or the program's a spec parameter names."""
        entry = self.bot(spec.name)
        return entry.cls.spec_version(dict(spec.params)) or entry.version

    def bots_for(self, game: str, role: str | None = None) -> list[BotEntry]:
        """The bots that play ``game`` (in ``role``), in name order."""
        return [entry for name, entry in sorted(self.bots.items()) if entry.cls.plays(game, role)]


def _closest(name: str, known: Iterable[str]) -> str:
    known = sorted(known)
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
    if close:
        return f"; did you mean: {', '.join(close)}?"
    return f"; known: {', '.join(known)}" if known else ""


class BotDirectory:
    """A plugin that registers every bot defined by the ``*.py`` modules of one directory, and a program bot
    for each of its subdirectories holding an ``arena-bot.toml`` manifest."""

    def __init__(self, directory: Path, problems: list[str], config: PluginConfig | None = None):
        self.directory = directory
        self.problems = problems
        self.config = config or PluginConfig()

    @hookimpl
    def register_bots(self, register: Callable[..., None]) -> None:
        """Import each module in the directory and register the bots it defines."""
        for path in sorted(self.directory.glob("*.py")):
            if path.name.startswith("_"):
                continue
            module = self._import(path)
            if module is None:
                continue
            for cls in _bots_defined_in(module):
                register(cls, source=str(path))
        for manifest_path in sorted(self.directory.glob(f"*/{MANIFEST}")):
            try:
                manifest = read_manifest(manifest_path)
            except ArenaError as exc:
                self.problems.append(f"{exc}; skipped")
                continue
            register(manifest_bot(manifest, self.config.build_timeout, self.config.startup_timeout),
                     source=str(manifest_path.parent))

    def _import(self, path: Path) -> Any:
        digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:8]
        module_name = f"arena_bots_{digest}_{path.stem}"
        if module_name in sys.modules:
            return sys.modules[module_name]
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            self.problems.append(f"{path}: cannot be imported as a Python module; skipped")
            return None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except SyntaxError as exc:
            del sys.modules[module_name]
            self.problems.append(f"{path}:{exc.lineno}: syntax error: {exc.msg}; skipped")
            return None
        except BaseException as exc:  # a broken bot module must never take the others down
            del sys.modules[module_name]
            if isinstance(exc, KeyboardInterrupt):
                raise
            self.problems.append(f"{path}: {type(exc).__name__}: {exc}; skipped")
            return None
        return module


def _bots_defined_in(module: Any) -> list[type[Bot]]:
    found = []
    for value in vars(module).values():
        if (
            inspect.isclass(value)
            and issubclass(value, Bot)
            and value.__module__ == module.__name__
            and value.name
        ):
            found.append(value)
    return found


def bot_directories(config: PluginConfig) -> list[tuple[Path, str]]:
    """The bot directories to scan, in priority order, each with the label of where it came from."""
    candidates: list[tuple[Path, str]] = [(shipped_bots_dir(), "shipped")]
    if config.use_cwd_bots:
        candidates.append((Path.cwd() / "bots", "./bots"))
    for directory in config.bot_dirs:
        path = Path(directory)
        if not path.is_dir():
            raise ArenaError(f"--bots-dir {directory}: no such directory")
        candidates.append((path, "--bots-dir"))
    if config.use_env_path:
        for directory in filter(None, os.environ.get(BOTS_PATH_VARIABLE, "").split(os.pathsep)):
            candidates.append((Path(directory), BOTS_PATH_VARIABLE))
    seen: set[Path] = set()
    unique = []
    for path, label in candidates:
        resolved = path.resolve()
        if resolved in seen or not path.is_dir():
            continue
        seen.add(resolved)
        unique.append((path, label))
    return unique


def _missing_env_dirs(config: PluginConfig) -> list[str]:
    if not config.use_env_path:
        return []
    entries = filter(None, os.environ.get(BOTS_PATH_VARIABLE, "").split(os.pathsep))
    return [f"{BOTS_PATH_VARIABLE}: {d}: no such directory; skipped" for d in entries if not Path(d).is_dir()]


def load_registry(config: PluginConfig | None = None) -> Registry:
    """Load every plugin (built-ins, entry points, bot directories) and collect games and bots."""
    config = config or PluginConfig()
    registry = Registry(exec_bot=exec_bot_class(config.startup_timeout))
    manager = pluggy.PluginManager("arena")
    manager.add_hookspecs(hookspecs)
    registry.manager = manager

    candidates: list[tuple[Any, str, str, str]] = []
    for module_name in BUILTIN_PLUGINS + config.extra_plugins:
        module = importlib.import_module(module_name)
        candidates.append((module, module_name, "built-in", module_name))
    if config.entry_points:
        for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            try:
                plugin = entry_point.load()
            except Exception as exc:
                registry.problems.append(
                    f"plugin {entry_point.name} ({entry_point.value}): {type(exc).__name__}: {exc}")
                continue
            candidates.append((plugin, entry_point.name, "entry point", entry_point.value))
    registry.problems.extend(_missing_env_dirs(config))
    for directory, label in bot_directories(config):
        candidates.append((BotDirectory(directory, registry.problems, config), f"bots:{directory}", label,
                           str(directory)))

    # Pluggy calls the plugin registered last first; registering in reverse priority order makes the
    # built-in games and shipped bots claim their names before plugins and user directories do.
    loaded = [_register_plugin(manager, *candidate) for candidate in reversed(candidates)]
    for info in reversed(loaded):
        if isinstance(info, PluginInfo):
            registry.plugins.append(info)
        else:
            registry.problems.append(info)

    _collect_games(manager, registry)
    _collect_bots(manager, registry)
    _collect_studies(manager, registry)
    _collect_executors(manager, registry)
    add_stored_bots(registry, config.stored_bots, config)
    return registry


def add_stored_bots(registry: Registry, bots: Iterable[StoredBot], config: PluginConfig) -> None:
    """Register stored versions of bots as ``name@version`` (see :mod:`arena.plugins.stored`)."""
    for bot in bots:
        cls = stored_bot_class(bot, config.build_timeout, config.startup_timeout)
        registry.bots[bot.label] = BotEntry(bot.label, cls, bot.version, f"{bot.label} (stored)", "stored")


def _register_plugin(manager: pluggy.PluginManager, plugin: Any, name: str, kind: str,
                     location: str) -> PluginInfo | str:
    """Register one plugin: its :class:`PluginInfo`, or the one-line problem that kept it out."""
    try:
        manager.register(plugin, name=name)
        for caller in manager.get_hookcallers(plugin) or []:
            if caller.spec is None:
                raise pluggy.PluginValidationError(plugin, f"unknown hook {caller.name!r}")
    except (pluggy.PluginValidationError, ValueError) as exc:
        if manager.is_registered(plugin):
            manager.unregister(plugin)
        return f"plugin {name} ({location}): {exc}; skipped"
    guard_plugin(manager, plugin)
    hooks = tuple(sorted(caller.name for caller in manager.get_hookcallers(plugin) or []))
    return PluginInfo(name, kind, location, hooks)


def _collect_games(manager: pluggy.PluginManager, registry: Registry) -> None:
    def register(cls: type[Game]) -> None:
        plugin_name = calling_plugin()
        name = getattr(cls, "name", None)
        if not (inspect.isclass(cls) and issubclass(cls, Game) and name):
            registry.problems.append(f"plugin {plugin_name}: {cls!r} is not a named Game subclass; skipped")
        elif name in registry.games:
            registry.problems.append(f"plugin {plugin_name}: game name {name!r} is already taken; skipped")
        else:
            registry.games[name] = cls

    _report(call_hook(manager, "register_games", register=register), registry)


def _collect_bots(manager: pluggy.PluginManager, registry: Registry) -> None:
    def register(cls: type[Bot], source: str | None = None) -> None:
        plugin_name = calling_plugin()
        where = source or _source_file(cls) or plugin_name
        if not (inspect.isclass(cls) and issubclass(cls, Bot) and cls.name):
            registry.problems.append(f"{where}: {cls!r} is not a named Bot subclass; skipped")
            return
        if not cls.games:
            registry.problems.append(f"{where}: bot {cls.name!r} declares no games; skipped")
            return
        if cls.name in registry.bots:
            taken = registry.bots[cls.name].source
            registry.problems.append(f"{where}: bot name {cls.name!r} is already taken by {taken}; skipped")
            return
        version = cls.spec_version({}) or source_version(source or _source_file(cls), cls)
        registry.bots[cls.name] = BotEntry(cls.name, cls, version, where, plugin_name)

    _report(call_hook(manager, "register_bots", register=register), registry)


def _collect_executors(manager: pluggy.PluginManager, registry: Registry) -> None:
    def register(name: str, factory: Any, tasks: Any = None) -> None:
        if name in registry.executors:
            registry.problems.append(f"plugin {calling_plugin()}: executor name {name!r} is already taken; skipped")
            return
        registry.executors[name] = factory
        if tasks is not None:
            registry.task_pools[name] = tasks

    _report(call_hook(manager, "register_executors", register=register), registry)


def _collect_studies(manager: pluggy.PluginManager, registry: Registry) -> None:
    def register(study: Any) -> None:
        game = getattr(study, "game", None)
        if game not in registry.games:
            registry.problems.append(f"plugin {calling_plugin()}: a playability study of unknown game {game!r}; "
                                     "skipped")
        elif game in registry.studies:
            registry.problems.append(f"plugin {calling_plugin()}: a second playability study of {game!r}; skipped")
        else:
            registry.studies[game] = study

    _report(call_hook(manager, "register_studies", register=register), registry)


def _report(call: HookCall, registry: Registry) -> None:
    registry.problems.extend(str(failure) for failure in call.failures)


def _source_file(cls: type) -> str | None:
    try:
        return inspect.getsourcefile(cls)
    except (TypeError, OSError):
        return None
