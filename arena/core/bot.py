"""The Bot base class, the ``@bot`` decorator, and bot spec strings (``name:key=value,key=value``)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from arena.core.errors import ArenaError, BotSpecError
from arena.core.game import MatchInfo, Result
from arena.core.numbers import finite_number

PREPARE_SECONDS = 60.0
"""How long :meth:`Bot.prepare` may take."""


class Bot:
    """A player. Subclass it, set ``name`` and ``games``, and implement :meth:`act`.

    One instance plays one game: the referee calls :meth:`start`, then :meth:`act` once per turn the bot
    must move, then :meth:`finish`. Parameters from a bot spec (``mybot:depth=3``) arrive as keyword
    arguments to ``__init__``. ``self.rng`` is a ``random.Random`` seeded from the game's seed and the
    bot's seat, set before :meth:`start`, so a bot that draws all its randomness from it is reproducible.
    """

    name: ClassVar[str] = ""
    games: ClassVar[tuple[str, ...]] = ()
    roles: ClassVar[tuple[str, ...]] = ()
    in_default_field: ClassVar[bool] = True
    """Whether a tournament or ladder given no bots includes this one; ``False`` for a bot that needs a
    parameter (a trained model, say) to play at all."""
    parameter_prefixes: ClassVar[tuple[str, ...]] = ()
    """Prefixes of open parameters: a spec key starting with one (``option.Hash``) is accepted as text,
    beside the constructor's named parameters (which then takes ``**kwargs``)."""
    rng: random.Random

    @classmethod
    def prepare(cls) -> None:
        """Get ready to play: called once per process, before the bot's first game, off the move clock.

        For work too slow for ``start`` or a move, done once: loading a model, compiling code. It has
        :data:`PREPARE_SECONDS`; raising or overrunning them loses that game, as a failing ``start`` does.
        """

    @classmethod
    def prepare_budget(cls) -> float:
        """Seconds :meth:`prepare` may take (:data:`PREPARE_SECONDS`; a program's build has its own)."""
        return PREPARE_SECONDS

    @classmethod
    def spec_version(cls, params: dict[str, Any]) -> str | None:
        """The version of the bot these spec parameters name, when it is not its source file's hash (a
        program's); ``None`` for the default."""
        return None

    @classmethod
    def spec_label(cls, params: dict[str, Any]) -> str | None:
        """The name these spec parameters give the bot in tables, records and the database, when it is not
        the spec string itself (a program named with ``name=``); ``None`` for the default."""
        return None

    def startup_budget(self, time_limit: float) -> float:
        """Seconds :meth:`start` may take: the move's time limit (a program starting up has its own budget)."""
        return time_limit

    def move_budget(self, time_limit: float) -> float:
        """Seconds after which the referee interrupts a move: the time limit (a program bot keeps its own
        deadline, and asks for a margin past it so that its own, precise, timeout comes first)."""
        return time_limit

    def cpu_seconds(self) -> float | None:
        """CPU seconds this bot's own processes have used so far, for a bot that plays outside the referee's
        thread (a program, a bot in its own process); ``None`` (the default) for one that plays in it, whose
        moves the CPU clock measures in the thread that calls it."""
        return None

    def start(self, info: MatchInfo) -> None:
        """Called once before the first move with the seat, rules, time limit and clock (``info.clock``)."""

    def act(self, obs: Any) -> Any:
        """Return this turn's action for the observation ``obs``."""
        raise NotImplementedError(f"bot {self.name!r} does not implement act()")

    def finish(self, result: Result) -> None:
        """Called once after the game with its result (learning bots update here)."""

    @classmethod
    def plays(cls, game: str, role: str | None = None) -> bool:
        """Whether this bot plays ``game`` (in ``role``, for games with roles)."""
        if game not in cls.games:
            return False
        return role is None or not cls.roles or role in cls.roles

    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """The keyword parameters a bot spec may set, with their defaults."""
        return _keyword_parameters(cls.__init__, skip=1)

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> None:
        """Refuse parameters that cannot work, before any game is played (the default accepts all).

        Called when a bot spec is checked, with the parameters already converted to their defaults'
        types. Raise ``ValueError`` (or an :class:`~arena.core.errors.ArenaError`) with a one-line reason,
        e.g. for a model file that can't be read; the spec is then refused with that reason.
        """


class FunctionBot(Bot):
    """A bot made from a function ``policy(obs, rng, **params) -> action`` by :func:`bot`."""

    policy: ClassVar[Callable[..., Any]]

    def __init__(self, **params: Any):
        self.params = params

    def act(self, obs: Any) -> Any:
        """Call the policy function with the observation, the bot's rng and its parameters."""
        if self.params:
            return self.policy(obs, self.rng, **self.params)
        return self.policy(obs, self.rng)

    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """The policy function's keyword parameters after ``obs`` and ``rng``."""
        return _keyword_parameters(cls.policy, skip=2)


def _keyword_parameters(function: Callable[..., Any], skip: int) -> dict[str, Any]:
    if function is object.__init__:
        return {}
    import inspect  # here, not at the top: a sandboxed bot's every game imports this module

    params = list(inspect.signature(function).parameters.values())[skip:]
    return {
        p.name: (None if p.default is inspect.Parameter.empty else p.default)
        for p in params
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }


def bot(
    function: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    game: str | None = None,
    games: tuple[str, ...] | list[str] = (),
    roles: tuple[str, ...] | list[str] = (),
) -> Any:
    """Turn a function ``f(obs, rng, **params) -> action`` into a :class:`Bot` subclass.

    Use as ``@bot(game="tron")``; the bot's name defaults to the function's name and its description
    to the function's docstring. The policy stays callable as ``TheBot.policy(obs, rng)``.
    """

    def wrap(policy: Callable[..., Any]) -> type[FunctionBot]:
        played = tuple(games) + ((game,) if game else ())
        attrs = {
            "name": name or policy.__name__,
            "games": played,
            "roles": tuple(roles),
            "policy": staticmethod(policy),
            "__doc__": policy.__doc__,
            "__module__": policy.__module__,
            "__qualname__": policy.__qualname__,
        }
        return type(policy.__name__, (FunctionBot,), attrs)

    return wrap(function) if function is not None else wrap


def bot_description(cls: type[Bot]) -> str:
    """The first line of the bot's docstring, or an empty string."""
    import inspect

    doc = inspect.getdoc(cls) if cls.__doc__ else ""
    return (doc or "").strip().splitlines()[0] if doc else ""


def source_version(path: str | Path | None, obj: object = None) -> str:
    """A short hash of a bot's source: its module file, or the object's own source if it has no file."""
    import hashlib
    import inspect

    data = b""
    if path is not None:
        try:
            data = Path(path).read_bytes()
        except OSError:
            data = b""
    if not data and obj is not None:
        try:
            # anything without source raises TypeError, answered below
            data = inspect.getsource(obj).encode()  # type: ignore[arg-type]
        except (OSError, TypeError):
            data = repr(obj).encode()
    return hashlib.sha256(data).hexdigest()[:8]


_SPEC = re.compile(r"^\s*([A-Za-z_][\w.-]*(?:@[0-9A-Za-z]+)?)\s*(?::(.*))?$")
"""``name``, or ``name@version`` (a stored version of the bot), then ``:key=value,...``."""


@dataclass(frozen=True)
class BotSpec:
    """A bot name with parameters, as written ``name:key=value,key=value``."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)
    alias: str | None = None
    """The name the bot's class gives these parameters (:meth:`Bot.spec_label`), if any."""

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.params.items())

    @property
    def label(self) -> str:
        """How the bot is named in tables, records and the database: its alias, else the spec string itself."""
        return self.alias or str(self)


def _coerce(value: str, default: Any) -> Any:
    if isinstance(default, bool):
        lowered = value.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got {value!r}")
    if isinstance(default, int):
        return int(value)
    if isinstance(default, float):
        return finite_number(value)
    if default is None:
        for convert in (int, finite_number):
            try:
                return convert(value)
            except ValueError:
                pass  # NaN and infinity too stay text: a number given as a parameter is finite
    return value


def parse_bot_spec(text: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,...`` into the name and raw string parameters."""
    match = _SPEC.match(text)
    if not match:
        raise BotSpecError(f"bot spec {text!r} doesn't parse; expected name, name@version "
                           "or either with :key=value,key=value")
    name, rest = match.group(1), match.group(2)
    params: dict[str, str] = {}
    if rest is not None and rest.strip():
        for item in rest.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise BotSpecError(f"bot spec {text!r}: {item.strip()!r} is not key=value")
            if key.strip() in params:
                raise BotSpecError(f"bot spec {text!r}: parameter {key.strip()!r} is given twice")
            params[key.strip()] = value.strip()
    return name, params


def make_spec(cls: type[Bot], raw: dict[str, str], text: str) -> BotSpec:
    """Check raw parameters against the bot's signature and convert them to the defaults' types."""
    accepted = cls.parameters()
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if cls.parameter_prefixes and key.startswith(cls.parameter_prefixes) and key not in accepted:
            params[key] = value  # an open parameter (a program's option.NAME): kept as text
            continue
        if key not in accepted:
            known = ", ".join(accepted) or "none"
            raise BotSpecError(f"bot spec {text!r}: bot {cls.name!r} has no parameter {key!r} (parameters: {known})")
        try:
            params[key] = _coerce(value, accepted[key])
        except ValueError as exc:
            raise BotSpecError(f"bot spec {text!r}: parameter {key}: {exc}") from None
    try:
        cls.check_parameters(params)
    except (ValueError, ArenaError) as exc:
        raise BotSpecError(f"bot spec {text!r}: {exc}") from None
    return BotSpec(cls.name, params, cls.spec_label(params))


def split_bot_list(values: list[str]) -> list[str]:
    """Split ``--bots a,b:x=1,y=2,c`` into spec strings: a piece with ``=`` but no ``:`` belongs to the
    spec before it, so parameters may contain commas."""
    specs: list[str] = []
    for value in values:
        for piece in value.split(","):
            piece = piece.strip()
            if not piece:
                continue
            if "=" in piece and ":" not in piece and specs and ":" in specs[-1]:
                specs[-1] += "," + piece
            else:
                specs.append(piece)
    return specs
