"""The plugin manager and registry: built-ins, entry points (group ``arena``) and bot directories."""

from __future__ import annotations

import difflib
import functools
import importlib
import importlib.metadata
import inspect
import os
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
from arena.plugins.bot_modules import (
    BotFacts,
    BotModuleError,
    DeferredBot,
    bot_module_paths,
    bots_defined_in,
    import_bot_module,
)
from arena.plugins.calling import HookCall, call_hook, calling_plugin, guard_plugin
from arena.plugins.game_names import names_with_families
from arena.plugins.hookspecs import hookimpl
from arena.plugins.module_check import check_modules, import_time_limit
from arena.plugins.module_probe import ProbeStarter
from arena.plugins.programs.bot import ExecBot, exec_bot_class, manifest_bot
from arena.plugins.programs.manifest import MANIFEST, read_manifest
from arena.plugins.registrars import BotRegistrar, ExecutorFactory, Study, TaskPoolFactory
from arena.plugins.stored import StoredBot, stored_bot_class
from arena.plugins.stored_roots import root_for

BUILTIN_PLUGINS = ("arena.play.executor_plugin", "arena.builtin.tron.plugin", "arena.builtin.catmouse.plugin",
                   "arena.builtin.pawnrace.plugin", "arena.builtin.chess.plugin", "arena.builtin.openspiel.plugin")
ENTRY_POINT_GROUP = "arena"
BOTS_PATH_VARIABLE = "ARENA_BOTS_PATH"


@dataclass(frozen=True)
class BotEntry:
    """A registered bot: its class, source hash and where it was found.

    The class of a bot from a user's bot directory is imported only when it is first needed (:attr:`cls`);
    until then its :class:`BotFacts`, found when its module was checked, answer for it.
    """

    name: str
    loaded: type[Bot] | None = field(compare=False)
    """The bot's class, once imported (:attr:`cls` imports it)."""
    version: str
    source: str
    plugin: str
    facts: BotFacts | None = field(default=None, compare=False)
    load: Callable[[], type[Bot]] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.loaded is None and (self.facts is None or self.load is None):
            raise ValueError("a bot entry needs its class, or its facts and a way to load it")

    @property
    def cls(self) -> type[Bot]:
        """The bot's class, its module imported now if it was not yet."""
        if self.loaded is None:
            assert self.load is not None
            object.__setattr__(self, "loaded", self.load())  # a cache: the entry stays the same bot
        assert self.loaded is not None
        return self.loaded

    @property
    def games(self) -> tuple[str, ...]:
        """The games the bot plays."""
        return self.facts.games if self.facts is not None else self.cls.games

    @property
    def roles(self) -> tuple[str, ...]:
        """The roles the bot plays (empty: any)."""
        return self.facts.roles if self.facts is not None else self.cls.roles

    @property
    def in_default_field(self) -> bool:
        """Whether a tournament given no bots includes this one."""
        return self.facts.in_default_field if self.facts is not None else self.cls.in_default_field

    @property
    def description(self) -> str:
        """The first line of the bot's docstring."""
        return self.facts.description if self.facts is not None else bot_description(self.cls)

    def plays(self, game: str, role: str | None = None) -> bool:
        """Whether the bot plays ``game`` (in ``role``)."""
        if self.facts is not None and not self.facts.own_plays:
            return self.facts.plays(game, role)
        return self.cls.plays(game, role)


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
    stored_dir: str | None = None
    """The root their files are unpacked in (:mod:`arena.plugins.stored_roots`), shared by the workers of the
    process that made it; ``None``, or a root that is gone: each process's own."""
    confined: ProbeStarter | None = field(default=None, compare=False)
    """Under the sandbox: what starts a confined probe of bot modules. The Python modules of bot directories
    and stored versions are then never imported in this process: each is checked by that probe, and its bots
    are registered as stand-ins made from what it reported (:func:`arena.plugins.bot_modules.confined_class`),
    played only through the sandbox's runner. ``None``: they are checked by an unconfined probe and imported
    here when first used."""


@dataclass
class Registry:
    """Everything the plugins registered, plus one line for each problem met while loading."""

    games: dict[str, type[Game]] = field(default_factory=dict)
    bots: dict[str, BotEntry] = field(default_factory=dict)
    executors: dict[str, ExecutorFactory] = field(default_factory=dict)
    """Executor factories by name (see :mod:`arena.play.executor_choice`)."""
    task_pools: dict[str, TaskPoolFactory] = field(default_factory=dict)
    """Task pool factories by executor name (see :mod:`arena.play.task_pools`)."""
    studies: dict[str, Study] = field(default_factory=dict)
    """Playability studies by game (:class:`arena.learning.playability.PlayabilityStudy`)."""
    plugins: list[PluginInfo] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    manager: pluggy.PluginManager | None = None
    exec_bot: type[ExecBot] = ExecBot
    """The class of ``exec:`` specs, with the start-up budget the configuration gives them."""

    def game(self, name: str) -> type[Game]:
        """The game registered as ``name``, or an error naming the closest known games.

        A plugin whose games cannot load (a package missing) may register a stand-in named ``FAMILY:*``: a
        name ``FAMILY:...`` it does not know is then refused with the stand-in's description.
        """
        if name in self.games:
            return self.games[name]
        family = self.games.get(name.partition(":")[0] + ":*") if ":" in name else None
        if family is not None:
            raise UnknownGameError(f"game {name!r}: {family.description}")
        close = close_names(name, self.games)
        hint = f"did you mean: {', '.join(close)}?" if close else f"known: {', '.join(names_with_families(self.games))}"
        raise UnknownGameError(f"unknown game {name!r}; {hint}")

    def bot(self, name: str) -> BotEntry:
        """The bot registered as ``name`` (or ``exec``, a program named in the spec), or an error naming the
        closest known bots."""
        if name in self.bots:
            return self.bots[name]
        if name == ExecBot.name:
            return BotEntry(ExecBot.name, self.exec_bot, source_version(_source_file(ExecBot), ExecBot),
                            "built-in", "arena")
        close = close_names(name, self.bots)
        if close:
            raise BotSpecError(f"unknown bot {name!r}; did you mean: {', '.join(close)}?")
        raise BotSpecError(f"unknown bot {name!r}, nor any close name; a bot of your own is found in ./bots, a "
                           f"--bots-dir DIR or a directory of {BOTS_PATH_VARIABLE} (`arena bots` lists the bots found)")

    def executor(self, name: str) -> ExecutorFactory:
        """The factory of the executor registered as ``name``, or an error naming the executors there are."""
        if name in self.executors:
            return self.executors[name]
        raise ArenaError(f"unknown executor {name!r}: choose from {', '.join(sorted(self.executors))}")

    def task_pool(self, name: str) -> TaskPoolFactory:
        """The task pool factory of the executor registered as ``name``, or an error saying why there is none."""
        if name in self.task_pools:
            return self.task_pools[name]
        self.executor(name)  # an unknown name fails here, naming the executors there are
        raise ArenaError(f"the {name} executor plays games only; experiments run on "
                         f"{', '.join(sorted(self.task_pools))}")

    def study(self, game: str) -> Study:
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
        return [entry for name, entry in sorted(self.bots.items()) if entry.plays(game, role)]


CLOSE_RATIO = 0.8
"""How alike (difflib's ratio) a known name must be to an unknown one to be suggested for it, unless they
differ by a single slip (one letter added, dropped, changed or two swapped), which always counts as close."""


def close_names(name: str, known: Iterable[str]) -> list[str]:
    """The known names close enough to ``name`` to be what was meant, closest first (at most 3)."""
    by_lower = {candidate.lower(): candidate for candidate in sorted(known)}
    if name.lower() in by_lower:
        return [by_lower[name.lower()]]  # only its case differs
    one_slip = (len(name) - 1) / len(name) if name else 1.0
    cutoff = max(0.5, min(CLOSE_RATIO, one_slip))
    return [by_lower[match] for match in difflib.get_close_matches(name.lower(), by_lower, n=3, cutoff=cutoff)]


class BotDirectory:
    """A plugin that registers every bot defined by the ``*.py`` modules of one directory, and a program bot
    for each of its subdirectories holding an ``arena-bot.toml`` manifest.

    A ``checked`` directory (a user's) has its modules tried in a child process first (see
    :mod:`arena.plugins.module_check`): a module that fails, hangs, exits or crashes there is reported and
    skipped, and the others are imported here only when one of their bots is used.
    """

    def __init__(self, directory: Path, problems: list[str], config: PluginConfig | None = None, *,
                 checked: bool = False, import_limit: float | None = None):
        self.directory = directory
        self.problems = problems
        self.config = config or PluginConfig()
        self.checked = checked
        self.import_limit = import_limit

    @hookimpl
    def register_bots(self, register: BotRegistrar) -> None:
        """Register the bots each module of the directory defines, and its program bots."""
        if self.checked:
            self._register_checked(register)
        else:
            self._register_imported(register)
        for manifest_path in sorted(self.directory.glob(f"*/{MANIFEST}")):
            try:
                manifest = read_manifest(manifest_path)
            except ArenaError as exc:
                self.problems.append(f"{exc}; skipped")
                continue
            register(manifest_bot(manifest, self.config.build_timeout, self.config.startup_timeout),
                     source=str(manifest_path.parent))

    def _register_imported(self, register: BotRegistrar) -> None:
        for path in bot_module_paths(self.directory):
            try:
                module = import_bot_module(path)
            except BotModuleError as exc:
                self.problems.append(exc.problem.report(path))
                continue
            for cls in bots_defined_in(module):
                register(cls, source=str(path))

    def _register_checked(self, register: BotRegistrar) -> None:
        limit = self.import_limit if self.import_limit is not None else import_time_limit()
        confined = self.config.confined
        for path, report in check_modules(bot_module_paths(self.directory), limit, starter=confined).items():
            if report.problem is not None:
                self.problems.append(report.problem.report(path))
                continue
            for facts in report.bots:
                register(DeferredBot(path, facts, confined=confined is not None), source=str(path))


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


def bot_directory_plugin(directory: Path) -> str:
    """The plugin name a bot directory's bots are registered under (their :attr:`BotEntry.plugin`)."""
    return f"bots:{directory}"


@functools.cache
def _arena_plugins() -> frozenset[str]:
    return frozenset({bot_directory_plugin(shipped_bots_dir()), *BUILTIN_PLUGINS, "arena"})


def is_arena_code(entry: BotEntry) -> bool:
    """Whether a bot is the arena's own code (a shipped bot, a built-in plugin's), not a user's or a plugin's."""
    return entry.plugin in _arena_plugins()


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
    directories = bot_directories(config)
    import_limit = import_time_limit() if any(label != "shipped" for _, label in directories) else None
    for directory, label in directories:
        plugin = BotDirectory(directory, registry.problems, config, checked=label != "shipped",
                              import_limit=import_limit)
        candidates.append((plugin, bot_directory_plugin(directory), label, str(directory)))

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
    bots = tuple(bots)
    root = root_for(config.stored_dir) if bots else None
    for bot in bots:
        cls = stored_bot_class(bot, config.build_timeout, config.startup_timeout, config.confined, root)
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
    def register(cls: object) -> None:  # checked: a plugin may pass anything
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
    def register(cls: object, source: str | None = None) -> None:  # checked: a plugin may pass anything
        plugin_name = calling_plugin()
        if isinstance(cls, DeferredBot):
            register_deferred(cls, plugin_name)
            return
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

    def register_deferred(deferred: DeferredBot, plugin_name: str) -> None:
        facts, where = deferred.facts, str(deferred.path)
        if not facts.games:
            registry.problems.append(f"{where}: bot {facts.name!r} declares no games; skipped")
        elif facts.name in registry.bots:
            taken = registry.bots[facts.name].source
            registry.problems.append(f"{where}: bot name {facts.name!r} is already taken by {taken}; skipped")
        else:
            version = facts.spec_version or source_version(deferred.path)
            registry.bots[facts.name] = BotEntry(facts.name, None, version, where, plugin_name, facts, deferred.load)

    _report(call_hook(manager, "register_bots", register=register), registry)


def _collect_executors(manager: pluggy.PluginManager, registry: Registry) -> None:
    def register(name: str, factory: ExecutorFactory, tasks: TaskPoolFactory | None = None) -> None:
        if name in registry.executors:
            registry.problems.append(f"plugin {calling_plugin()}: executor name {name!r} is already taken; skipped")
            return
        registry.executors[name] = factory
        if tasks is not None:
            registry.task_pools[name] = tasks

    _report(call_hook(manager, "register_executors", register=register), registry)


def _collect_studies(manager: pluggy.PluginManager, registry: Registry) -> None:
    def register(study: Study) -> None:
        game = getattr(study, "game", None)  # a plugin's object is checked, whatever its annotations say
        if game not in registry.games:
            registry.problems.append(f"plugin {calling_plugin()}: a playability study of unknown game {game!r}; "
                                     "skipped")
        elif game in registry.studies:
            registry.problems.append(f"plugin {calling_plugin()}: a second playability study of {game!r}; skipped")
        else:
            registry.studies[study.game] = study

    _report(call_hook(manager, "register_studies", register=register), registry)


def _report(call: HookCall, registry: Registry) -> None:
    registry.problems.extend(str(failure) for failure in call.failures)


def _source_file(obj: object) -> str | None:
    try:
        # A plugin may register anything; what has no source file raises TypeError, answered below.
        return inspect.getsourcefile(obj)  # type: ignore[arg-type]
    except (TypeError, OSError):
        return None

