"""Bots that are programs in any language: :class:`ProgramBot` plays one game through one run of the program.

The program starts fresh for every game (in :meth:`ProgramBot.start`, with its start-up budget, never charged
to its clock), gets one turn per :meth:`ProgramBot.act` with a read deadline of what its clock allows the move
(the time limit, or the time left on its clock; three times that under the CPU clock) plus a grace, and is
killed with everything it started when the game ends or on its first fault. Faults are the referee's
failure kinds: no answer in time is a ``timeout``; exiting or closing stdout a ``crash`` (with its exit
status or signal); an answer that is not the protocol's, or a line past the length cap, ``illegal``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import shlex
import shutil
import time
from pathlib import Path
from typing import Any, ClassVar

from arena.core.bot import Bot
from arena.core.clock import CPU_WALL_FACTOR, Clock
from arena.core.cputime import process_tree_cpu
from arena.core.errors import ArenaError
from arena.core.failure import BotFailure
from arena.core.game import MatchInfo, Result
from arena.plugins.programs.build import ensure_built
from arena.plugins.programs.manifest import STARTUP_TIMEOUT, Manifest, Program, directory_version
from arena.plugins.programs.process import ProgramProcess
from arena.plugins.programs.protocols import PENDING, Protocol, protocol_named
from arena.plugins.programs.survivors import with_stray_note
from arena.plugins.programs.uci import check_option

OPTION_PREFIX = "option."
"""The prefix of an ``exec`` spec's program options: ``option.Hash=16``."""
GRACE = 0.05
"""Seconds past the time limit an answer may still arrive: within the referee's own grace, so a program's
timeout is always this one's, with its precise wording."""
MOVE_MARGIN = 0.5
"""Seconds past its own deadline before the referee's alarm may interrupt a program bot's move."""
END_WAIT = 1.0
"""At most how long a program may take to exit after the end of its game."""


class ProgramBot(Bot):
    """A bot played by an external program speaking a line protocol over stdin and stdout."""

    program: ClassVar[Program | None] = None
    version: ClassVar[str | None] = None
    """A manifest bot's version: the hash of its directory's source files (not what its build makes)."""

    def __init__(self) -> None:
        self.running: Program | None = type(self).program
        self.process: ProgramProcess | None = None
        self.protocol: Protocol | None = None
        self.time_limit = 1.0
        self.clock = Clock(time_limit=1.0)
        self.cpu_read = 0.0
        self.moves = 0
        self.stderr_log = ""
        """The program's stderr in this game (capped), kept with the game's record."""
        self.exchanged: list[tuple[str, str]] = []
        """Every line sent (``>``) and received (``<``), when :attr:`transcribe` is on."""
        self.transcribe = False

    @classmethod
    def prepare(cls) -> None:
        """Build the program if it has a build step and its files changed since the last build (its version,
        the hash of its sources, stays what it was unless the build rewrote a file that was there before)."""
        if cls.program is not None:
            ensure_built(cls.program)
            cls.version = directory_version(Path(cls.program.directory))

    @classmethod
    def prepare_budget(cls) -> float:
        """The build's own budget."""
        return cls.program.build_timeout if cls.program is not None else super().prepare_budget()

    @classmethod
    def spec_version(cls, params: dict[str, Any]) -> str | None:
        """The hash of the bot directory's source files."""
        return cls.version

    def move_budget(self, time_limit: float) -> float:
        """The program's own deadline (the time limit and :data:`GRACE`) comes first, by a margin."""
        return time_limit + GRACE + MOVE_MARGIN

    def startup_budget(self, time_limit: float) -> float:
        """Starting the program and its ready answer have their own budget."""
        return self.running.startup_timeout + MOVE_MARGIN if self.running is not None else time_limit

    def start(self, info: MatchInfo) -> None:
        """Start the program, send the start message and wait for it to say ready."""
        program = self.running
        assert program is not None
        protocol_class = self._protocol()
        try:
            protocol_class.check_game(info.game, info.options, info.num_seats)
        except ArenaError as exc:
            raise BotFailure("crash", f"cannot play this game: {exc}") from None
        self.protocol = protocol_class(dict(program.options))
        self.time_limit = info.time_limit
        self.clock = info.clock
        self.process = self._launch(_resolved(program), program.directory)
        begun = time.monotonic()
        opening = self.protocol.start(info)
        try:
            if opening is not None:
                self._send(opening, begun + program.startup_timeout)
            while self.protocol.says_ready:
                line = self._receive(begun + program.startup_timeout)
                if line is None:
                    raise BotFailure("timeout", f"did not say ready within {program.startup_timeout:g} s of "
                                                "starting, and was killed")
                reply = self.protocol.ready(line)
                if reply is None:
                    break
                if reply:
                    self._send(reply, begun + program.startup_timeout)
        except BaseException:
            self._stop()
            raise

    def _protocol(self) -> type[Protocol]:
        """The protocol class this bot's program speaks."""
        assert self.running is not None
        return protocol_named(self.running.protocol)

    def _launch(self, argv: list[str], directory: str) -> ProgramProcess:
        """Start one run of the program (the sandbox starts it confined)."""
        return ProgramProcess(argv, directory)

    def act(self, obs: Any) -> Any:
        """Send the turn and read the answer line by the move's deadline."""
        assert self.process is not None and self.protocol is not None
        self.moves += 1
        allowance = self.clock.allowance
        waited = allowance * CPU_WALL_FACTOR if self.clock.kind == "cpu" else allowance
        deadline = time.monotonic() + waited + GRACE
        try:
            early = self.process.unread()
            if early and not self.protocol.speaks_unasked:
                raise BotFailure("illegal", f"wrote {early[:60].decode('utf-8', 'replace')!r} to stdout when no "
                                            "answer was due")
            self._send(self.protocol.turn(obs, self.moves, allowance), deadline)
            action = PENDING
            while action is PENDING:
                line = self._receive(deadline)
                if line is None:
                    allowed = "the time limit" if self.clock.control.is_plain else "its time"
                    raise BotFailure("timeout", f"did not answer within {waited + GRACE:.2f} s ({allowed} and its "
                                                f"grace){self.protocol.silence_note()}, and was killed")
                action = self.protocol.action(line, obs)
            return action
        except BaseException:
            self._stop()
            raise

    def cpu_seconds(self) -> float | None:
        """CPU seconds of the program and everything it started (once it is gone, the last reading)."""
        if self.process is not None and not self.process.killed:
            self.cpu_read = process_tree_cpu(self.process.pid)
        return self.cpu_read

    def finish(self, result: Result) -> None:
        """Send the end message, close the program's input and make sure it and its children are gone."""
        if self.process is None or self.protocol is None:
            return
        try:
            closing = self.protocol.end(result, 0)
            if closing is not None and not self.process.killed:
                self._send(closing, time.monotonic() + min(END_WAIT, self.time_limit))
        except BotFailure:
            pass  # it may have exited already: the game is over either way
        finally:
            if not self.process.killed:
                self.process.close(min(END_WAIT, self.time_limit))
            self._stop()

    def _send(self, data: bytes, deadline: float) -> None:
        assert self.process is not None
        if self.transcribe:
            self.exchanged.extend((">", line) for line in data.decode().splitlines())
        self.process.send(data, deadline)

    def _receive(self, deadline: float) -> bytes | None:
        assert self.process is not None
        line = self.process.receive(deadline)
        if self.transcribe and line is not None:
            self.exchanged.append(("<", line.decode("utf-8", "replace")))
        return line

    def _stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.stderr_log = self.process.stderr_text()
            if self.process.survivors:
                self.stderr_log = with_stray_note(self.stderr_log, self.process.survivors)


def _resolved(program: Program) -> list[str]:
    """The command, its program found in the bot's directory first (``./bot``, ``bot.sh``) and then on PATH."""
    argv = list(program.command)
    local = Path(program.directory) / argv[0]
    if os.sep in argv[0] or local.is_file():
        argv[0] = str(local)
    else:
        argv[0] = shutil.which(argv[0]) or argv[0]
    return argv


def manifest_bot(manifest: Manifest, build_timeout: float | None = None,
                 startup_timeout: float | None = None) -> type[ProgramBot]:
    """The :class:`ProgramBot` subclass a manifest describes, named as it says; ``build_timeout`` and
    ``startup_timeout``, when given (the command line's), replace the manifest's budgets."""
    program = manifest.program
    if build_timeout is not None:
        program = dataclasses.replace(program, build_timeout=build_timeout)
    if startup_timeout is not None:
        program = dataclasses.replace(program, startup_timeout=startup_timeout)
    attrs = {
        "name": manifest.name,
        "games": manifest.games,
        "roles": manifest.roles,
        "program": program,
        "__doc__": manifest.description or f"A program in {manifest.program.directory} ({manifest.program.protocol})",
        "__module__": __name__,
        "__qualname__": f"ProgramBot[{manifest.name}]",
        "version": directory_version(Path(manifest.program.directory)),
    }
    return type(f"ProgramBot_{manifest.name}", (ProgramBot,), attrs)


class ExecBot(ProgramBot):
    """A program named in the bot spec: exec:command=./mybot,protocol=aic2010,name=mybot.

    ``option.NAME=VALUE`` parameters are options for the program, given by its protocol at the start (UCI's
    ``setoption``): ``exec:command=/usr/games/stockfish,protocol=uci,name=sf,option.Skill Level=5``.
    """

    name = "exec"
    games = ("any game",)
    in_default_field = False
    default_startup_timeout: ClassVar[float] = STARTUP_TIMEOUT
    """The start-up budget of a spec that sets no ``startup_timeout`` (the command line's, or the default)."""

    parameter_prefixes = (OPTION_PREFIX,)

    def __init__(self, command: str = "", protocol: str = "arena-json", name: str = "", dir: str = "",
                 startup_timeout: float | None = None, **options: Any):
        super().__init__()
        startup = type(self).default_startup_timeout if startup_timeout is None else float(startup_timeout)
        self.running = Program(tuple(shlex.split(command)), str(Path(dir or ".").resolve()), protocol,
                               startup_timeout=startup, options=engine_options(options))

    @classmethod
    def plays(cls, game: str, role: str | None = None) -> bool:
        """Any game: the protocol refuses, before the game, one it cannot express."""
        return True

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> None:
        """A command is needed, and the protocol must be known."""
        if not shlex.split(str(params.get("command", ""))):
            raise ValueError("exec needs command=PROGRAM (e.g. exec:command=./mybot,protocol=aic2010)")
        protocol = protocol_named(str(params.get("protocol", "arena-json")))
        options = engine_options(params)
        if options and not protocol.takes_options:
            raise ValueError(f"the {protocol.name} protocol takes no option.NAME=VALUE parameters")
        for option, value in options:
            check_option(option, value)
        startup = params.get("startup_timeout")
        if startup is not None and (isinstance(startup, bool) or not isinstance(startup, int | float)
                                    or startup <= 0):
            raise ValueError("startup_timeout must be a positive number of seconds")
        label = str(params.get("name", ""))
        if label and (not label.strip() or any(mark in label for mark in ":,=") or label != label.strip()):
            raise ValueError(f"name={label} must be a name without spaces at its ends, ':', ',' or '='")

    @classmethod
    def spec_label(cls, params: dict[str, Any]) -> str | None:
        """The ``name=`` the spec gives, which names the bot in standings, records and the database."""
        return str(params.get("name") or "") or None

    @classmethod
    def spec_version(cls, params: dict[str, Any]) -> str | None:
        """A hash of the command and of every file it names (the program, its script)."""
        directory = Path(str(params.get("dir") or ".")).resolve()
        argv = shlex.split(str(params.get("command", "")))
        digest = hashlib.sha256(" ".join(argv).encode() + str(params.get("protocol", "")).encode())
        for index, word in enumerate(argv):
            path = directory / word
            if index == 0 and not path.is_file():
                path = Path(shutil.which(word) or path)
            if path.is_file():
                with contextlib.suppress(OSError):
                    digest.update(path.read_bytes())
        return digest.hexdigest()[:8]


def engine_options(params: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The ``option.NAME=VALUE`` parameters of a spec, as ``(NAME, VALUE)`` in the order given."""
    return tuple((key[len(OPTION_PREFIX):], str(value)) for key, value in params.items()
                 if key.startswith(OPTION_PREFIX))


def exec_bot_class(startup_timeout: float | None) -> type[ExecBot]:
    """:class:`ExecBot`, or a subclass whose specs without ``startup_timeout`` get ``startup_timeout``."""
    if startup_timeout is None:
        return ExecBot
    attrs = {"default_startup_timeout": float(startup_timeout), "__doc__": ExecBot.__doc__,
             "__module__": __name__, "__qualname__": "ExecBot"}
    return type("ExecBot", (ExecBot,), attrs)
