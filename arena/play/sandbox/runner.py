"""The runner a Python bot plays through inside its sandbox: it imports the bot and answers the referee.

Started as ``python -I -B -c BOOT ARGS`` (see :func:`runner_command`); ``ARGS`` is a JSON object naming the
bot (its module file or importable module, its name), its parameters, and ``mode``: ``play`` (one game over
stdin and stdout) or ``prepare`` (run the class's ``prepare()`` once, filling its compile cache, and exit).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from arena.core.bot import Bot
from arena.play.sandbox.wire_format import crash_message, line, unpack

if TYPE_CHECKING:
    import importlib.abc

PREPARED = "prepared-with-bytecode"
"""The file a successful ``prepare`` run leaves in the compile cache (named anew when a run leaves more there,
so the caches that earlier versions of the arena prepared are prepared again)."""


def runner_command(python: str, package_parent: str, args: dict[str, Any]) -> list[str]:
    """The command that starts the runner with ``python``, finding the arena package under ``package_parent``."""
    boot = (f"import sys; sys.path.insert(0, {package_parent!r}); "
            "from arena.play.sandbox.runner import main; main()")
    return [python, "-I", "-B", "-c", boot, json.dumps(args)]


def load_bot(args: dict[str, Any]) -> type[Bot]:
    """The bot's class: from its module file (a bot directory's) or its importable module."""
    name = args["name"]
    if args.get("path"):
        from arena.plugins.bot_modules import bots_defined_in, import_bot_module

        cache = os.environ.get("ARENA_COMPILE_CACHE")
        code_for = None
        if cache:  # the bytecode its prepare run kept, which only that run writes
            from functools import partial

            from arena.play.sandbox.bytecode import cached_code

            code_for = partial(cached_code, cache=cache, write=args.get("mode") == "prepare")
        classes = bots_defined_in(import_bot_module(Path(args["path"]), code_for))
    else:
        import inspect

        module = importlib.import_module(args["module"])
        classes = [value for value in vars(module).values()
                   if inspect.isclass(value) and issubclass(value, Bot) and value.name]
    for cls in classes:
        if cls.name == name:
            return cls
    raise LookupError(f"no bot named {name!r} in {args.get('path') or args.get('module')}")


def _crash_of(exc: BaseException) -> Any:
    """The crash report of ``exc`` (its module imported only when a bot fails)."""
    from arena.play.bot_traceback import crash_of

    return crash_of(exc)


def _send(out: Any, message: dict[str, Any]) -> None:
    out.write(line(message))
    out.flush()


def _log_to_stderr(logging: Any) -> None:
    """What the bot logs with no logging set up of its own goes to its log (stderr) as in the referee's process:
    ``WARNING:name:message``, from warnings up; a bot's own ``logging.basicConfig()`` still takes over."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    logging.lastResort = handler


class _SetUpWhenImported:
    """Loads :mod:`logging` the usual way, then sets up its last resort (:func:`_log_to_stderr`)."""

    def __init__(self, loader: Any):
        self.loader = loader

    def create_module(self, spec: Any) -> ModuleType | None:
        return cast("ModuleType | None", self.loader.create_module(spec))

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        _log_to_stderr(module)


class _LoggingFinder:
    """Sets the bot's logging up when the bot first imports :mod:`logging`: a bot that never logs does not pay
    for importing it (a few milliseconds of every game's start)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "logging":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec("logging")
        if spec is not None and spec.loader is not None:
            spec.loader = cast("importlib.abc.Loader", _SetUpWhenImported(spec.loader))
        return spec


def _set_up_logging() -> None:
    if "logging" in sys.modules:
        _log_to_stderr(sys.modules["logging"])
    else:
        sys.meta_path.insert(0, cast("importlib.abc.MetaPathFinder", _LoggingFinder()))


def main(args: dict[str, Any] | None = None) -> None:
    """Play one game (or prepare) as the referee's lines say; ``args`` are the runner's (by default, its last
    command-line argument's JSON)."""
    if args is None:
        args = json.loads(sys.argv[-1])
    out = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)  # the bot's prints go to stderr, never into the protocol
    sys.stdout = sys.stderr  # in order with its stderr and logging, line by line, kept if it is killed
    _set_up_logging()
    unprepared: tuple[Any, str] | None = None
    try:
        cls = load_bot(args)
        cls.prepare()
    except BaseException as exc:  # the bot's failure, reported at the start of its game
        if args.get("mode") == "prepare":
            raise
        unprepared = (_crash_of(exc), " in prepare()")
    if args.get("mode") == "prepare":
        Path(os.environ["ARENA_COMPILE_CACHE"], PREPARED).write_text("ok\n")
        return
    player: Bot | None = None
    clock = None  # the bot's copy of its clock (in the match info), following the referee's before each move
    for raw in sys.stdin.buffer:
        message = json.loads(raw)
        kind = message.get("type")
        try:
            if kind == "start":
                if unprepared is not None:
                    _send(out, crash_message(*unprepared))
                    continue
                info = unpack(message["info"])
                where = " in __init__()"
                player = cls(**args.get("params", {}))
                player.rng = info.rng
                clock = info.clock
                where = " in start()"
                player.start(info)
                _send(out, {"type": "ready"})
            elif kind == "turn":
                assert player is not None
                where = ""
                if clock is not None and isinstance(message.get("clock"), list):
                    bank, moves = message["clock"]
                    clock.follow((bank, moves))
                    clock.begin_move()
                action = player.act(unpack(message["obs"]))
                try:
                    _send(out, {"action": action})
                except (TypeError, ValueError) as exc:
                    _send(out, {"type": "failure", "kind": "illegal",
                                "detail": f"returned {action!r:.60}, which cannot be sent as JSON ({exc})"})
            elif kind == "end" and player is not None:
                where = " in finish()"
                player.finish(unpack(message["result"]))
        except MemoryError:
            _send(out, {"type": "failure", "kind": "memory", "detail": f"ran out of memory{where} (MemoryError)"})
        except BaseException as exc:  # the bot's failure, reported to the referee
            if kind != "end":
                _send(out, crash_message(_crash_of(exc), where or None))
