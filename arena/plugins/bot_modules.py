"""Importing the ``*.py`` modules of a bot directory and finding the bots each defines."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from arena.core.bot import Bot, bot_description
from arena.core.errors import ArenaError


@dataclass(frozen=True)
class ImportProblem:
    """Why a bot module cannot be used: its problem, and the line it points at (a syntax error's)."""

    problem: str
    line: int | None = None

    def describe(self, path: Path | str) -> str:
        """This problem of the module at ``path``: ``path[:line]: problem``."""
        where = f"{path}:{self.line}" if self.line is not None else str(path)
        return f"{where}: {self.problem}"

    def report(self, path: Path | str) -> str:
        """The one line that reports this problem for the module at ``path`` and says it was skipped."""
        return f"{self.describe(path)}; skipped"


@dataclass(frozen=True)
class BotFacts:
    """What the registry needs to list and select a bot without importing its module."""

    name: str
    games: tuple[str, ...]
    roles: tuple[str, ...] = ()
    in_default_field: bool = True
    description: str = ""
    spec_version: str | None = None
    """The class's ``spec_version({})``: its version when that is not its source file's hash."""
    own_plays: bool = False
    """Whether the class overrides :meth:`Bot.plays`, so that only the class itself can answer it."""
    parameters: tuple[tuple[str, Any], ...] = ()
    """The keyword parameters a spec may set, with their defaults (as JSON: other defaults as their text)."""

    def plays(self, game: str, role: str | None = None) -> bool:
        """Whether the bot plays ``game`` (in ``role``), as :meth:`Bot.plays` decides it."""
        if game not in self.games:
            return False
        return role is None or not self.roles or role in self.roles

    def to_json(self) -> dict[str, object]:
        """The facts as a JSON object."""
        return {"name": self.name, "games": list(self.games), "roles": list(self.roles),
                "in_default_field": self.in_default_field, "description": self.description,
                "spec_version": self.spec_version, "own_plays": self.own_plays,
                "parameters": [[key, value] for key, value in self.parameters]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BotFacts:
        """The facts :meth:`to_json` wrote; ``ValueError`` for anything else."""
        try:
            facts = cls(str(data["name"]), _names(data["games"]), _names(data["roles"]),
                        bool(data["in_default_field"]), str(data["description"]),
                        None if data["spec_version"] is None else str(data["spec_version"]), bool(data["own_plays"]),
                        tuple((str(key), _json_default(value)) for key, value in data.get("parameters", [])))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not the facts of a bot: {exc}") from None
        return facts


def facts_of(cls: type[Bot]) -> BotFacts:
    """The facts of a bot class, read from its class attributes."""
    try:
        spec_version = cls.spec_version({})
    except Exception:  # a broken override counts as none
        spec_version = None
    return BotFacts(
        name=str(cls.name), games=_loose_names(cls.games), roles=_loose_names(cls.roles),
        in_default_field=bool(cls.in_default_field), description=bot_description(cls),
        spec_version=None if spec_version is None else str(spec_version),
        own_plays=getattr(cls.plays, "__func__", None) is not vars(Bot)["plays"].__func__,
        parameters=tuple((str(key), _json_default(value)) for key, value in _parameters(cls).items()),
    )


def _parameters(cls: type[Bot]) -> dict[str, Any]:
    try:
        return dict(cls.parameters())
    except Exception:  # a broken override: a spec may then set none
        return {}


def _json_default(value: Any) -> Any:
    """A parameter's default as JSON keeps it: a plain value as itself, anything else as its text."""
    return value if value is None or isinstance(value, (bool, int, float, str)) else str(value)


def _names(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (tuple, list)):
        return tuple(str(item) for item in value)
    raise TypeError(f"expected names, got {value!r}")


def _loose_names(value: object) -> tuple[str, ...]:
    try:
        return _names(value)
    except TypeError:
        return ()


class BotModuleError(Exception):
    """A bot module's import failed; carries the :class:`ImportProblem` to report."""

    def __init__(self, problem: ImportProblem):
        super().__init__(problem.problem)
        self.problem = problem


def bot_module_paths(directory: Path) -> list[Path]:
    """The modules of a bot directory that are scanned for bots: ``*.py`` not starting with ``_``, by name."""
    return [path for path in sorted(directory.glob("*.py")) if not path.name.startswith("_")]


SOURCE_DIGEST = "__arena_source_digest__"
"""The attribute of an imported bot module holding the hash of the source it was imported from."""


def bot_module_name(path: Path) -> str:
    """The name a bot module is imported under: unique per file, so equal file names in two directories
    don't collide."""
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:8]
    return f"arena_bots_{digest}_{path.stem}"


def import_bot_module(path: Path, code_for: Callable[[Path, bytes], CodeType] | None = None) -> ModuleType:
    """Import the bot module at ``path`` (once per process and source), or raise :class:`BotModuleError` saying
    why not. A module whose file has changed since this process imported it is imported again.

    Anything the module raises while it runs, ``SystemExit`` included, is the module's failure; only a
    ``KeyboardInterrupt`` (Ctrl-C) goes through as itself. ``code_for(path, source)``, if given, makes the
    module's code from its source's bytes (a sandboxed bot's reads it from its compile cache).
    """
    module_name = bot_module_name(path)
    try:
        text = path.read_bytes()
        source = hashlib.sha256(text).hexdigest()
    except OSError as exc:
        raise BotModuleError(ImportProblem(f"cannot be read ({exc.strerror or exc})")) from None
    known = sys.modules.get(module_name)
    if known is not None and getattr(known, SOURCE_DIGEST, None) == source:
        return known
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise BotModuleError(ImportProblem("cannot be imported as a Python module"))
    module = importlib.util.module_from_spec(spec)
    setattr(module, SOURCE_DIGEST, source)
    sys.modules[module_name] = module
    try:
        if code_for is None:
            spec.loader.exec_module(module)
        else:
            exec(code_for(path, text), module.__dict__)  # what exec_module does, with this code
    except SyntaxError as exc:
        del sys.modules[module_name]
        raise BotModuleError(ImportProblem(f"syntax error: {exc.msg}", exc.lineno)) from None
    except BaseException as exc:  # a broken bot module must never take the others down
        sys.modules.pop(module_name, None)
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise BotModuleError(ImportProblem(describe_exception(exc))) from None
    return module


def bots_defined_in(module: ModuleType) -> list[type[Bot]]:
    """The named Bot subclasses a module defines itself (not those it imports), in definition order."""
    found = []
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and issubclass(value, Bot)
            and value.__module__ == module.__name__
            and value.name
        ):
            found.append(value)
    return found


def describe_exception(exc: BaseException) -> str:
    """``Type: message`` of an exception, on one line (its first)."""
    try:
        message = str(exc).strip()
    except Exception:  # an exception whose message itself fails
        message = ""
    first_line = message.splitlines()[0] if message else ""
    return f"{type(exc).__name__}: {first_line}" if first_line else type(exc).__name__


def confined_class(facts: BotFacts, path: Path, defined_as: str | None = None) -> type[Bot]:
    """A stand-in class for a bot whose module is imported only inside the sandbox, made from its facts
    without importing it: it answers for the bot's name, games, roles, parameters and version, and refuses
    to play in this process. ``sandbox_module`` names the module file the sandbox's runner imports, and
    ``defined_as`` the name the module gives the bot (when it plays under another: a stored version's)."""
    parameters = dict(facts.parameters)

    def refuse(self: Bot, **params: Any) -> None:
        raise ArenaError(f"bot {facts.name!r} ({path}) plays only inside the sandbox")

    def act(self: Bot, obs: Any) -> Any:
        raise ArenaError(f"bot {facts.name!r} ({path}) plays only inside the sandbox")

    attrs: dict[str, Any] = {
        "name": facts.name, "games": facts.games, "roles": facts.roles, "in_default_field": facts.in_default_field,
        "__doc__": facts.description, "__init__": refuse, "act": act,
        "parameters": classmethod(lambda cls: dict(parameters)),
        "spec_version": classmethod(lambda cls, params: facts.spec_version),
        "sandbox_module": str(path.resolve()), "defined_as": defined_as or facts.name,
        "__module__": __name__, "__qualname__": f"Confined[{facts.name}]",
    }
    return type(f"Confined_{facts.name}", (Bot,), attrs)


@dataclass(frozen=True)
class DeferredBot:
    """A bot of a checked module, registered by its facts; :meth:`load` imports its class (or, ``confined``,
    gives a stand-in made from its facts, its module imported only inside the sandbox)."""

    path: Path
    facts: BotFacts
    confined: bool = False

    def load(self) -> type[Bot]:
        """Import the bot's module and return its class, or raise an :class:`ArenaError` saying why not."""
        if self.confined:
            return confined_class(self.facts, self.path)
        try:
            module = import_bot_module(self.path)
        except BotModuleError as exc:
            raise ArenaError(f"bot {self.facts.name!r}: {exc.problem.describe(self.path)}") from None
        for cls in bots_defined_in(module):
            if cls.name == self.facts.name:
                return cls
        raise ArenaError(f"bot {self.facts.name!r}: {self.path} no longer defines it; run the command again")
