"""``check_bot``: a bot plays real games through the referee, with its hard limits, in every seat and role it
can take, and must finish them without crashing, timing out or answering illegally."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from arena.core.bot import Bot, BotSpec
from arena.core.clock import TimeControl
from arena.core.errors import ArenaError
from arena.core.failure import Failure
from arena.core.game import Game
from arena.play.referee import DEFAULT_TIME_LIMIT, run_match
from arena.play.sandbox.limits import SandboxLimits
from arena.play.sandbox.players import SandboxedBots
from arena.play.sandbox.wire import RunnerProtocol
from arena.plugins.programs.bot import ProgramBot
from arena.plugins.registry import PluginConfig, Registry, load_registry
from arena.testing.report import ConformanceReport
from arena.tournament.single_game import common_game, seat_by_role

_MEASUREMENT = re.compile(r"\d+\.\d+")


def check_bot(spec: str, game: str | None = None, *, maps: Sequence[str] | None = None, games: int = 2,
              seed: int = 0, time_limit: float | None = DEFAULT_TIME_LIMIT, opponent: str | None = None,
              registry: Registry | None = None, transcript: list[str] | None = None,
              time_control: TimeControl | None = None, sandbox: SandboxLimits | None = None) -> ConformanceReport:
    """Check the bot ``spec`` (``name:key=value,...``) by playing ``games`` games per map and seat.

    ``game``: the game to play (default: the one it plays, preferring the game whose maps need no
    header); ``maps``: default the game's ``default_maps``. The first failure seen a second time ends the
    check: the games left would only repeat it. ``opponent``: a bot spec; by default a bot
    with ``random`` in its name that plays the game (quick and never stuck), else the first by name,
    in the other role where the game has roles. ``time_control``: a time bank, first-move budget or CPU
    clock beside (or, with ``time_limit=None``, instead of) the per-move limit. ``transcript``: a list that
    gets every line exchanged with a program bot (``>`` sent to it, ``<`` its answers), each game headed by
    where it was played.
    ``sandbox``: play every bot confined, with these limits (see :mod:`arena.play.sandbox`).
    """
    registry = registry or load_registry()
    confined = SandboxedBots(PluginConfig(), sandbox, registry) if sandbox is not None else None
    report = ConformanceReport(f"bot {spec!r}")
    try:
        bot_spec = registry.spec(spec)
        game_class = registry.game(game) if game else common_game([bot_spec], registry)
    except ArenaError as exc:
        report.failed("spec", str(exc))
        return report
    entry = registry.bot(bot_spec.name)
    if not entry.cls.plays(game_class.name):
        report.failed("spec", f"bot {bot_spec.name!r} does not play {game_class.name} (it plays "
                              f"{', '.join(entry.games)})")
        return report
    report.passed("spec", f"{bot_spec.label} (version {entry.version}, {entry.source}) plays {game_class.name}")
    try:
        opponents = _opponents(registry, game_class, bot_spec, opponent)
    except ArenaError as exc:
        report.failed("opponent", str(exc))
        return report
    if not opponents:
        report.failed("opponent", f"no other bot plays {game_class.name} to play against")
        return report
    played = 0
    seen: set[tuple[str, str]] = set()  # the failures met so far, as _same_failure puts them
    for map_name, first, index in _games(maps or game_class.default_maps, games):
        rival = _opponent(opponents, game_class, bot_spec, first, registry)
        if rival is None:
            continue
        pair = [bot_spec, rival] if first else [rival, bot_spec]
        watched: list[Bot] = []
        try:
            seated = seat_by_role(game_class, pair, registry)
            outcome = run_match(game_class.name, seated, game_map=map_name, seed=seed * 1000 + index,
                                time_limit=time_limit, registry=registry, time_control=time_control,
                                make_bot=_watching(registry, bot_spec, watched, confined))
        except ArenaError as exc:
            report.failed("play", f"{map_name}: {exc}")
            continue
        seat = seated.index(bot_spec)
        failure = outcome.failures.get(seat)
        where = f"{map_name}, player {seat + 1} against {rival.label}, seed {seed * 1000 + index}"
        if transcript is not None:
            transcript.append(f"game on {where}:")
            transcript.extend(f"  {way} {line}" for bot in watched for way, line in getattr(bot, "exchanged", ()))
        if failure is None:
            played += 1
            continue
        if _same_failure(failure) in seen:
            report.failed("stopped", f"{where}: the same {failure.kind} again, so the other games were not played"
                                     + _hint(failure, watched))
            break
        seen.add(_same_failure(failure))
        detail = f"{where}: {failure.kind}: {failure.detail}"
        stderr = outcome.stderr.get(seat, "").rstrip()
        detail += f"\n{failure.traceback}" if failure.traceback else ""
        detail += f"\nits stderr:\n{stderr}" if stderr else ""
        report.failed(failure.kind, detail)
    if played:
        report.passed("play", f"{played} games without a crash, timeout or illegal answer "
                              f"({_timing_text(time_limit, time_control)})")
    return report


def _games(maps: Sequence[str], games: int) -> list[tuple[str, bool, int]]:
    """The games a check plays, in order: each map, with the bot first then second, ``games`` times."""
    return [(map_name, first, index) for map_name in maps for first in (True, False) for index in range(games)]


def _same_failure(failure: Failure) -> tuple[str, str]:
    """A failure with its measurements (``took 0.213 s``) blanked out: equal for the same failure again."""
    return failure.kind, _MEASUREMENT.sub("#", failure.detail)


def _hint(failure: Failure, watched: list[Bot]) -> str:
    """Why a program may time out at once: it wrote its answer into an output buffer it never flushed."""
    program = next((bot for bot in watched if isinstance(bot, ProgramBot)), None)
    if failure.kind != "timeout" or program is None or any(way == "<" for way, _ in program.exchanged):
        return ""
    return ("; it never wrote a whole line: its output may be buffered, so flush stdout after every line "
            "(print(..., flush=True) or python3 -u in Python, fflush(stdout) in C, std::endl in C++)")


def _watching(registry: Registry, checked: BotSpec, watched: list[Bot],
              confined: Callable[[BotSpec, int], Bot] | None = None) -> Callable[..., Bot]:
    """Builds the bots of a game as the referee would (through ``confined``, the sandbox's stand-ins, if
    given), keeping the checked one (a program's exchanges recorded) to read after the game."""

    def make(spec: BotSpec, seat: int) -> Bot:
        try:
            player = confined(spec, seat) if confined is not None else registry.bot(spec.name).cls(**spec.params)
        except Exception as exc:  # the referee's rule: a constructor that raises is the bot's crash
            raise ArenaError(f"bot {spec.label} could not be made: {type(exc).__name__}: {exc}") from None
        if spec == checked:
            if isinstance(player, ProgramBot) and player._protocol().name != RunnerProtocol.name:
                # only a program has exchanges to record (a sandboxed Python bot's are the arena's own)
                player.transcribe = True
            watched.append(player)
        return player

    return make


def _opponents(registry: Registry, game_class: type[Game], bot_spec: BotSpec, given: str | None) -> list[BotSpec]:
    """The opponents to try, best first: the one given, or random bots, then every other bot by name."""
    if given is not None:
        return [registry.spec(given)]
    others = [entry for entry in registry.bots_for(game_class.name)
              if entry.name != bot_spec.name and entry.in_default_field]
    others.sort(key=lambda entry: ("random" not in entry.name, entry.name))
    return [BotSpec(entry.name) for entry in others]


def _opponent(opponents: list[BotSpec], game_class: type[Game], bot_spec: BotSpec, first: bool,
              registry: Registry) -> BotSpec | None:
    """The first opponent that can sit beside the bot with this seating (in the other role, for roles)."""
    for candidate in opponents:
        pair = [bot_spec, candidate] if first else [candidate, bot_spec]
        try:
            seated = seat_by_role(game_class, pair, registry)
        except ArenaError:
            continue
        if not game_class.roles or seated == tuple(pair):
            return candidate
    return None


def _timing_text(time_limit: float | None, control: TimeControl | None) -> str:
    """``1 s a move``, with the time control after it when there is one."""
    parts = [] if time_limit is None else [f"{time_limit:g} s a move"]
    if control is not None and not control.is_plain:
        parts.append(control.describe())
    return ", ".join(parts)
