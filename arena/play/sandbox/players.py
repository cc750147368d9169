"""The referee's stand-ins for sandboxed bots: every bot, Python or program, plays from its own sandbox.

A program bot is its own :class:`ProgramBot` whose program starts confined (:class:`SandboxedProcess`)
and whose build runs confined. A Python bot becomes a :class:`ProgramBot` too: its program is the runner
(:mod:`arena.play.sandbox.runner`), which imports the bot inside the sandbox. Its compile cache (numba's) is
filled once, off the clock, by a ``prepare`` run that alone may write it, and is bound read-only to its games.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import os
import sys
from pathlib import Path
from typing import Any, ClassVar

from arena.core.bot import PREPARE_SECONDS, Bot, BotSpec
from arena.core.failure import BotFailure
from arena.play.sandbox import zygotes
from arena.play.sandbox.build import ensure_built_in_sandbox
from arena.play.sandbox.confine import Confinement, interpreter_paths, require_sandbox
from arena.play.sandbox.limits import SandboxLimits
from arena.play.sandbox.process import SandboxedProcess
from arena.play.sandbox.runner import PREPARED, runner_command
from arena.play.sandbox.wire import RunnerProtocol
from arena.plugins.check_cache import arena_cache_dir
from arena.plugins.programs.bot import ExecBot, ProgramBot
from arena.plugins.programs.manifest import Program
from arena.plugins.programs.process import ProgramProcess
from arena.plugins.programs.protocols import Protocol
from arena.plugins.registry import BotEntry, PluginConfig, Registry, load_registry

RUNNER_STARTUP = 30.0 + PREPARE_SECONDS
"""The start-up budget of a Python bot's runner: Python and the bot's imports, and its ``prepare()``."""


def compile_cache(name: str, version: str) -> Path:
    """The folder holding one bot version's compile cache, its own so no bot can touch another's."""
    return arena_cache_dir() / "compile-cache" / f"{name}-{version}"


def spec_files(params: dict[str, Any]) -> dict[str, str]:
    """The parameters of a bot spec that name existing files or folders (``model=``, ``weights=``), as absolute
    paths: they are bound read-only, and the bot is given them by those paths."""
    found = {}
    for key, value in params.items():
        if isinstance(value, str) and value and "\n" not in value:
            path = Path(value).expanduser()
            if path.exists():
                found[key] = str(path.resolve())
    return found


def _program_paths(program: str | None, directory: str) -> list[str]:
    """What a program's command needs bound besides the system: its folder, and the prefix of ``program``, the
    program as found on PATH outside the system folders (a JDK under /srv, say), never the current directory
    or one holding it. ``None``: the program is in its folder, and a link there leads nowhere outside."""
    paths = [directory]
    if program is None:
        return paths
    for executable in (Path(program).absolute(), Path(program).resolve()):  # a venv's python, and its interpreter
        prefix = executable.parent.parent if executable.parent.name == "bin" else executable.parent
        if executable.exists() and not executable.is_relative_to(directory) and _named_folder(str(prefix)):
            paths.append(str(prefix))
    return paths


def _named_folder(directory: str) -> bool:
    """Whether an ``exec`` spec's folder is one of its own (``dir=``) that may be bound: never the current
    directory or one that holds it (where the database and everything else of the user's lives)."""
    here = Path.cwd().resolve()
    return here != Path(directory) and not here.is_relative_to(directory)


class SandboxedProgram(ProgramBot):
    """A program bot whose program, and its build, run confined."""

    limits: ClassVar[SandboxLimits] = SandboxLimits()
    extra_read_only: ClassVar[tuple[str, ...]] = ()
    extra_env: ClassVar[dict[str, str]] = {}
    protocol_class: ClassVar[type[Protocol] | None] = None
    own_folder: ClassVar[bool] = True
    """Whether the program's folder is bound (read-only): a manifest's is its own; an ``exec`` spec's folder
    only where ``dir=`` names one that neither is nor holds the current directory; a Python bot's working
    directory never."""

    @classmethod
    def prepare(cls) -> None:
        """Build the program in the sandbox (no network, off the clock) if its sources changed."""
        if cls.program is not None and cls.program.build:
            ensure_built_in_sandbox(cls.program, cls.limits)

    def _binds_folder(self, directory: str) -> bool:
        return type(self).own_folder or (isinstance(self, ExecBot) and _named_folder(directory))

    def _protocol(self) -> type[Protocol]:
        return type(self).protocol_class or super()._protocol()

    def _launch(self, argv: list[str], directory: str) -> ProgramProcess:
        assert self.running is not None
        named_first = self.running.command[0]
        found = argv[0]
        on_path = os.sep not in named_first and not (Path(directory) / named_first).is_file()
        if on_path:
            argv = [named_first, *argv[1:]]  # a program on PATH: the sandbox's PATH, its system folders
        organisers = isinstance(self, ExecBot)
        program = found if on_path or organisers else None
        owned = tuple(_program_paths(program, directory)) if self._binds_folder(directory) else ()
        bound = (*owned, *type(self).extra_read_only)
        # an organiser's own command line may hand its program files by their paths; a manifest's words are
        # its author's, and name nothing outside its folder that the sandbox would show
        named = tuple(word for word in argv if Path(word).is_absolute() and Path(word).exists()
                      and not any(Path(word).is_relative_to(path) for path in bound)) if organisers else ()
        confinement = Confinement(type(self).limits, read_only=(*owned, *named, *type(self).extra_read_only),
                                  cwd=directory, env=type(self).extra_env)
        return SandboxedProcess(argv, confinement)


class SandboxedPython(SandboxedProgram):
    """A Python bot's stand-in: each game a child forked by its zygote (:mod:`arena.play.sandbox.zygotes`),
    or, where no zygote can serve it, the runner started in a sandbox of its own."""

    runner_args: ClassVar[dict[str, Any]] = {}

    def _launch(self, argv: list[str], directory: str) -> ProgramProcess:
        if zygotes.enabled():
            confinement = Confinement(type(self).limits, read_only=type(self).extra_read_only, cwd=directory,
                                      env=type(self).extra_env)
            with contextlib.suppress(zygotes.ZygoteUnavailable):
                return zygotes.ZygoteProcess(confinement, type(self).runner_args)
        return super()._launch(argv, directory)

    def act(self, obs: Any) -> Any:
        """The move; on the first, the zygote is asked to import the observation's module for its next games
        (unpickling the observation imports it in each game's bot otherwise: milliseconds of every game)."""
        if self.moves == 0 and isinstance(self.process, zygotes.ZygoteProcess):
            self.process.game.zygote.preload(type(obs).__module__)
        return super().act(obs)


def _python_stand_in(entry: BotEntry, spec: BotSpec, limits: SandboxLimits, version: str) -> type[SandboxedPython]:
    """The stand-in class of a Python bot: its program is the runner, importing the bot inside the sandbox."""
    path, module = _bot_source(entry)
    files = spec_files(dict(spec.params))
    params = {**dict(spec.params), **files}
    cache = compile_cache(entry.name, version)
    bot_files = [path] if path else []
    package = Path(__file__).resolve().parents[2]
    read_only = (*interpreter_paths(), *bot_files, *files.values(), str(cache))
    # a stored version (name@version) plays the class its module defines under the bot's own name
    defined = getattr(entry.cls, "defined_as", None) or entry.name
    args = {"path": path, "module": module, "name": defined, "params": params, "mode": "play"}
    argv = runner_command(sys.executable, str(package.parent), args)
    program = Program(tuple(argv), str(Path.cwd()), "arena-python", startup_timeout=RUNNER_STARTUP)
    env = {"ARENA_COMPILE_CACHE": str(cache), "NUMBA_CACHE_DIR": str(cache), "OPENBLAS_NUM_THREADS": "1",
           "OMP_NUM_THREADS": "1"}
    prepare_args = {**args, "mode": "prepare"}
    prepare_confinement = Confinement(limits, read_only=read_only[:-1], writable=(str(cache),), env=env)

    @classmethod  # type: ignore[misc]
    def prepare(cls: type[SandboxedProgram]) -> None:
        """Fill the bot's compile cache once, in the sandbox, the cache alone writable."""
        if (cache / PREPARED).exists():
            return
        cache.mkdir(parents=True, exist_ok=True)
        cache.chmod(0o777)  # the sandbox's unprivileged user fills it
        try:
            prepare_confinement.run(runner_command(sys.executable, str(package.parent), prepare_args),
                                    timeout=PREPARE_SECONDS)
        except Exception:  # its game will report what goes wrong, naming the bot's line
            return

    attrs = {"name": entry.name, "program": program, "limits": limits, "extra_read_only": read_only,
             "extra_env": env, "protocol_class": RunnerProtocol, "prepare": prepare, "own_folder": False,
             "runner_args": args, "__module__": __name__, "__qualname__": f"SandboxedPython[{entry.name}]"}
    return type(f"SandboxedPython_{entry.name}", (SandboxedPython,), attrs)


def _bot_source(entry: BotEntry) -> tuple[str | None, str | None]:
    """Where the runner finds a Python bot: its module file (a bot directory's), or its importable module."""
    deferred = getattr(entry.load, "__self__", None)
    if entry.loaded is None and deferred is not None:
        return str(Path(deferred.path).resolve()), None
    cls = entry.cls
    confined = getattr(cls, "sandbox_module", None)  # a stand-in: its module is imported only in the sandbox
    if confined is not None:
        return str(confined), None
    module = cls.__module__
    if module.startswith("arena_bots_"):
        return str(Path(inspect.getfile(cls)).resolve()), None
    return None, module


def sandboxed_program(cls: type[ProgramBot], limits: SandboxLimits) -> type[SandboxedProgram]:
    """The program bot class ``cls``, its program (and its build) run confined with ``limits``."""
    attrs = {"limits": limits, "own_folder": not issubclass(cls, ExecBot), "__module__": __name__,
             "__qualname__": f"Sandboxed[{cls.__qualname__}]"}
    return type(f"Sandboxed_{cls.__name__}", (SandboxedProgram, cls), attrs)


class SandboxedBots:
    """Makes the stand-ins for one worker of a sandboxed run (``make_bot`` of :func:`arena.play.referee.play`)."""

    out_of_process = True
    """Every bot it makes plays from a sandbox (so no game of them is swept: see :mod:`arena.play.strays`)."""

    def __init__(self, config: PluginConfig, limits: SandboxLimits, registry: Registry | None = None):
        require_sandbox()
        self.config, self.limits = config, limits
        self.registry = registry
        self.classes: dict[str, type[SandboxedProgram]] = {}

    def __call__(self, spec: BotSpec, seat: int) -> Bot:
        """The stand-in for ``spec`` in ``seat``: a program bot whose program starts confined."""
        if self.registry is None:
            self.registry = load_registry(self.config)
        key = f"{spec}"
        if key not in self.classes:
            entry = self.registry.bot(spec.name)
            if entry.loaded is not None and issubclass(entry.loaded, ProgramBot):
                self.classes[key] = sandboxed_program(entry.loaded, self.limits)
            else:
                version = hashlib.sha256(f"{entry.version}:{spec}".encode()).hexdigest()[:12]
                self.classes[key] = _python_stand_in(entry, spec, self.limits, version)
        cls = self.classes[key]
        try:
            if issubclass(cls, ExecBot):
                return cls(**spec.params)
            return cls() if cls.program is not None and cls.program.protocol == "arena-python" else cls(**spec.params)
        except (TypeError, ValueError) as exc:
            raise BotFailure("crash", f"could not be set up ({exc})") from None

    def close(self) -> None:
        """Stop this process's zygotes (when it plays no more games: nothing else stays running between games)."""
        zygotes.POOL.close()



