"""``--isolate``: every bot plays from its own process and talks to the referee over a pipe.

A bot that corrupts its interpreter, leaks memory or hangs can then harm only its own process. The
referee side is :class:`IsolatedBot`, a stand-in with the ordinary Bot interface: each call is a
message, and each answer must come back within the move's time limit plus the grace, or the bot's
process is killed (and started afresh for its next game). Bot processes live as long as the worker,
one per bot and seat, so a game doesn't pay for starting them.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
from multiprocessing.connection import Connection
from typing import Any

from arena.core.bot import PREPARE_SECONDS, Bot, BotSpec
from arena.core.capped_log import CappedLog
from arena.core.clock import Clock
from arena.core.cputime import process_tree_cpu
from arena.core.exit_status import describe_exit
from arena.core.game import MatchInfo, Result
from arena.play.bot_logs import SeatLogs, seat_logs
from arena.play.bot_traceback import Crash, crash_of
from arena.play.clocks import stop_after
from arena.play.limits import BotFailure, Limits, MoveTimeout, RemoteCrash, apply_memory_limit
from arena.play.strays import StrayWatch, is_swept
from arena.play.worker_start import spawn_safely, worker_started
from arena.plugins.programs.bot import ProgramBot
from arena.plugins.programs.survivors import with_stray_note
from arena.plugins.registry import PluginConfig, Registry, load_registry

START_SECONDS = 60.0 + PREPARE_SECONDS  # a fresh bot process imports arena and the bot's module, and prepares


def _serve(conn: Connection, config: PluginConfig, spec: BotSpec, memory_limit: int | None, parent: int) -> None:
    worker_started(parent)  # spawned: it inherited nothing but its pipe
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    apply_memory_limit(memory_limit)
    with seat_logs(1) as logs:  # what the bot prints or logs in a call goes back with the call's answer
        _answer_calls(conn, config, spec, logs)


def _answer_calls(conn: Connection, config: PluginConfig, spec: BotSpec, logs: SeatLogs) -> None:
    entry = load_registry(config).bot(spec.name)
    unprepared: Crash | None = None  # why prepare() failed, reported at the first start
    logs.enter(0)
    try:
        entry.cls.prepare()
    except BaseException as exc:  # the bot's failure, reported to the referee
        unprepared = crash_of(exc)
    finally:
        logs.leave()
    conn.send(("ready", None, logs.take(0)))
    player: Bot | None = None
    sweeping = is_swept(entry)
    watch: StrayWatch | None = None  # of the game in progress, if it is swept
    clock = None  # the copy of the bot's clock in this process, following the referee's before each move
    while True:
        try:
            kind, payload = conn.recv()
        except EOFError:
            return
        logs.enter(0)
        try:
            if kind == "start" and unprepared is not None:
                answer: tuple[str, Any] = ("crash", (unprepared, " in prepare()"))
            elif kind == "start":
                if watch is not None:  # the last game ended without finish()
                    watch.sweep()
                watch = StrayWatch() if sweeping else None
                player = entry.cls(**spec.params)
                player.rng = payload.rng
                clock = payload.clock
                player.start(payload)
                answer = ("ok", None)
            elif kind == "act":
                assert player is not None and clock is not None
                obs, state = payload
                clock.follow(state)
                clock.begin_move()
                answer = ("action", player.act(obs))
            else:
                assert player is not None
                try:
                    player.finish(payload)
                finally:
                    left_running = watch.sweep() if watch is not None else 0
                    watch = None
                answer = ("ok", left_running)
        except MemoryError:
            answer = ("failure", ("memory", "ran out of memory in its own process (MemoryError)"))
        except BaseException as exc:  # the bot's failure, reported to the referee
            answer = ("crash", (crash_of(exc), None))
        finally:
            logs.leave()
        log = logs.take(0)
        try:
            conn.send((*answer, log))
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send(("failure", ("illegal", f"answered with something that cannot be sent ({exc})"), log))


class BotProcess:
    """One bot's own process and the pipe to it."""

    def __init__(self, spec: BotSpec, config: PluginConfig, limits: Limits):
        self.spec, self.config, self.limits = spec, config, limits
        self.process: Any = None
        self.conn: Connection | None = None
        self.log = CappedLog()
        """What the bot printed or logged in its calls of the game in progress (since :meth:`new_log`)."""

    def new_log(self) -> None:
        """Start the log of a new game."""
        self.log = CappedLog()

    def ensure_running(self) -> None:
        """Start the process if it isn't running, and wait until it is ready to play."""
        if self.process is not None and self.process.is_alive():
            return
        context = multiprocessing.get_context("spawn")
        spawn_safely()
        parent, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, self.config, self.spec, self.limits.memory_limit,
                                                            os.getpid()),
                                       name=f"arena-bot-{self.spec.name}", daemon=True)
        self.process.start()
        child.close()
        self.conn = parent
        try:
            answer: tuple[str, Any, str] = parent.recv() if parent.poll(START_SECONDS) else ("", None, "")
            ready = answer[0] == "ready"
            if ready and answer[2]:
                self.log.write(answer[2])  # what its prepare() wrote
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.kill()
            raise BotFailure("crash", "its own process did not start")

    def call(self, kind: str, payload: Any, seconds: float) -> Any:
        """Send one request and wait up to ``seconds`` for the answer; failures raise for the referee."""
        self.ensure_running()
        assert self.conn is not None
        try:
            self.conn.send((kind, payload))
            if not self.conn.poll(seconds):
                self.kill()
                raise MoveTimeout
            answer, value, log = self.conn.recv()
            if log:
                self.log.write(log)
        except (EOFError, OSError, BrokenPipeError):
            code = self.stop_dead()
            raise BotFailure("crash", f"killed its own process ({code})") from None
        except BaseException:
            self.kill()  # interrupted while the bot was still thinking
            raise
        if answer == "failure":
            raise BotFailure(*value)
        if answer == "crash":
            raise RemoteCrash(*value)
        return value

    def stop_dead(self) -> str:
        """Collect a process that died, and say how it died."""
        self.process.join(5)
        code = describe_exit(self.process.exitcode)
        self.process = None
        return code

    def kill(self) -> None:
        """Kill the process; the next call starts a fresh one."""
        if self.process is not None:
            self.process.kill()
            self.process.join()
            self.process = None

    def close(self) -> None:
        """End the process."""
        if self.conn is not None:
            self.conn.close()
        self.kill()


class IsolatedBot(Bot):
    """The referee's stand-in for a bot that runs in its own :class:`BotProcess`."""

    def __init__(self, process: BotProcess):
        self.bot_process = process
        self.time_limit = 1.0
        self.clock = Clock(time_limit=1.0)
        self.startup_failure: BotFailure | None = None
        self.left_running = 0
        process.new_log()  # of this game
        try:
            process.ensure_running()  # before the game, so starting up never counts against a move
        except BotFailure as failure:
            self.startup_failure = failure

    def start(self, info: MatchInfo) -> None:
        """Start the bot's game in its process."""
        if self.startup_failure is not None:
            raise self.startup_failure
        self.time_limit = info.time_limit
        self.clock = info.clock
        self.bot_process.call("start", info, info.time_limit + self.bot_process.limits.grace)

    def act(self, obs: Any) -> Any:
        """Ask the bot's process for a move (its copy of the clock follows this one first)."""
        waited = stop_after(self.clock) + self.bot_process.limits.grace
        return self.bot_process.call("act", (obs, self.clock.state()), waited)

    def cpu_seconds(self) -> float | None:
        """CPU seconds of the bot's own process (``0.0`` when it is not running)."""
        process = self.bot_process.process
        return process_tree_cpu(process.pid) if process is not None and process.pid else 0.0

    def finish(self, result: Result) -> None:
        """Tell the bot's process how the game ended; note how many processes the bot left running, killed there."""
        self.left_running = self.bot_process.call("finish", result, self.time_limit + self.bot_process.limits.grace)

    @property
    def stderr_log(self) -> str:
        """What the bot printed or logged in its calls of this game, with a note of the processes it left running."""
        log = self.bot_process.log.text()
        return with_stray_note(log, self.left_running) if self.left_running else log


class IsolatedBots:
    """Makes the stand-ins for one worker, keeping a process per bot and seat alive across games."""

    out_of_process = True
    """Every bot it makes plays from a process of its own, which sweeps its games itself (:mod:`arena.play.strays`)."""

    def __init__(self, config: PluginConfig, limits: Limits):
        self.config, self.limits = config, limits
        self.processes: dict[tuple[str, int], BotProcess] = {}
        self.registry: Registry | None = None

    def __call__(self, spec: BotSpec, seat: int) -> Bot:
        """The stand-in for ``spec`` in ``seat`` (a program bot itself: its program has its own process)."""
        if self.registry is None:
            self.registry = load_registry(self.config)
        cls = self.registry.bot(spec.name).cls
        if issubclass(cls, ProgramBot):
            return cls(**spec.params)
        key = (spec.label, seat)
        if key not in self.processes:
            self.processes[key] = BotProcess(spec, self.config, self.limits)
        return IsolatedBot(self.processes[key])

    def close(self) -> None:
        """End every bot process."""
        for process in self.processes.values():
            process.close()
