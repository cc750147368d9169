"""The referee: plays one game between bots, times every move, and turns any failure into a result.

The referee never trusts a bot. A bot that raises (or calls ``sys.exit``), answers with something that
is not a legal action, or runs out of time (the per-move limit, or its clock: see :mod:`arena.play.clocks`)
loses the game at once, and the result's reason says which seat failed and how.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, cast

import numpy as np

from arena.core.bot import Bot, BotSpec
from arena.core.clock import DEFAULT_TIME_LIMIT as DEFAULT_TIME_LIMIT  # re-exported: where callers look for it
from arena.core.clock import PLAIN, Clock, TimeControl, check_time_limit
from arena.core.errors import ArenaError
from arena.core.failure import Failure
from arena.core.game import DeferredGenerator, Game, MatchInfo, Result, forfeit_ranks, player_name
from arena.core.maps import GameMap
from arena.core.records import build_record
from arena.play.bot_logs import SeatLogs, joined, seat_logs
from arena.play.bot_setup import NoGuard, construct, seat_version, setup_calls
from arena.play.bot_traceback import crash_of
from arena.play.clocks import add_clocks, allowed_time, out_of_time, start_budget
from arena.play.limits import BotFailure, MoveGuard, MoveTimeout, RemoteCrash, alarm_tick
from arena.play.own_stack import SeatStack
from arena.play.seat_timing import SeatTiming
from arena.play.strays import swept
from arena.plugins.calling import HookFailure, call_hook
from arena.plugins.registry import Registry, is_arena_code, load_registry


@dataclass(frozen=True)
class MatchSetup:
    """Everything needed to play one game, in any process: picklable and self-contained."""

    game: str
    bots: tuple[BotSpec, ...]
    game_map: GameMap | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    seed: int = 0
    time_limit: float | None = DEFAULT_TIME_LIMIT
    """Seconds a move may take (``None``: no per-move limit, every move's time comes off the bank)."""
    index: int = 0
    time_control: TimeControl = PLAIN

    def move_seconds(self) -> float:
        """The per-move limit, else the first move's allowance: the budget of ``start()`` and ``finish()``."""
        return start_budget(self.time_limit, self.time_control)


@dataclass(frozen=True)
class MatchOutcome:
    """The result of one game: ranks, reason, every action, each failed seat's :class:`Failure`, thinking time.

    It stays small so worker processes can send it back cheaply; :meth:`record` expands it, with
    the setup it came from, into the full game record.
    """

    index: int
    ranks: tuple[int, ...]
    reason: str
    actions: tuple[dict[int, Any], ...]
    versions: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)
    failures: dict[int, Failure] = field(default_factory=dict)
    think_time: tuple[float, ...] = ()
    duration: float = 0.0
    hook_errors: tuple[str, ...] = ()
    stderr: dict[int, str] = field(default_factory=dict)
    """What each program bot wrote to its stderr in the game (capped), by seat."""
    max_think: tuple[float, ...] = ()
    """Each seat's longest move (in what its clock counts)."""
    clocks: tuple[dict[int, float], ...] = ()
    """Under a time bank: each turn, the bank left to each seat that moved in it."""
    strays: int = 0
    """Processes the game's bots started that outlived it and were killed, not known to be one seat's
    (:mod:`arena.play.strays`; a seat's own are noted in its ``stderr``)."""
    extras: dict[str, Any] = field(default_factory=dict)
    """The fields the game added to its record (:meth:`arena.core.game.Game.record_extras`)."""
    setup: MatchSetup | None = field(default=None, repr=False, compare=False)

    @property
    def turns(self) -> int:
        """How many turns were played."""
        return len(self.actions)

    @property
    def failure_kinds(self) -> dict[int, str]:
        """The kind of each failure by seat (``{1: "crash"}``), as the standings count them."""
        return {seat: failure.kind for seat, failure in self.failures.items()}

    def record(self, setup: MatchSetup | None = None, *, seat_keys: bool = True) -> dict[str, Any]:
        """The JSON-ready game record (``arena-record/1``) of the game ``setup`` described.

        Outcomes from :func:`run_match` carry their setup; tournament outcomes travel without it. Without
        ``seat_keys``, its turns keep seat numbers as keys: only for a record written out as JSON at once (see
        :func:`~arena.core.records.build_record`).
        """
        setup = setup or self.setup
        if setup is None:
            raise ValueError("this outcome carries no setup; pass the MatchSetup it came from")
        record = build_record(
            game=setup.game,
            options=self.options,
            game_map=setup.game_map,
            seed=setup.seed,
            players=[{"seat": seat, "bot": spec.label, "version": self.versions[seat]}
                     for seat, spec in enumerate(setup.bots)],
            turns=self.actions,
            result=Result(self.ranks, self.reason),
            failures=[_failure_entry(seat, failure) for seat, failure in sorted(self.failures.items())],
            think_time=self.think_time,
            seat_keys=seat_keys,
        )
        if self.hook_errors:
            record["hook_errors"] = list(self.hook_errors)
        if self.stderr:
            record["stderr"] = {str(seat): text for seat, text in sorted(self.stderr.items())}
        if self.strays:
            record["strays"] = self.strays
        add_clocks(record, setup.time_limit, setup.time_control, self.max_think, self.clocks)
        for key, value in self.extras.items():
            record.setdefault(key, value)
        return record


def _failure_entry(seat: int, failure: Failure) -> dict[str, Any]:
    entry: dict[str, Any] = {"seat": seat, "kind": failure.kind, "detail": failure.detail}
    if failure.traceback:
        entry["traceback"] = failure.traceback
    return entry


def bot_rng(seed: int, seat: int) -> random.Random:
    """The random source a bot in ``seat`` gets for a game with ``seed``: the same in every process."""
    return random.Random(f"{seed}:{seat}")


def _failure(exc: BaseException, where: str = "", spent: float | None = None, allowed: str = "the time limit"
             ) -> Failure:
    if isinstance(exc, BotFailure):
        return Failure(exc.kind, exc.detail + (where if exc.where is None else exc.where))
    if isinstance(exc, RemoteCrash):
        crash = exc.crash
        return Failure("crash", crash.detail(where if exc.where is None else exc.where), crash.traceback)
    if isinstance(exc, MoveTimeout):
        after = f"{allowed} and its grace" if spent is None else f"{spent:.2f} s ({allowed} and its grace)"
        return Failure("timeout", f"was still thinking{where} after {after}, and was stopped")
    if isinstance(exc, MemoryError):
        return Failure("memory", f"ran out of memory{where} (MemoryError)")
    crash = crash_of(exc)
    return Failure("crash", crash.detail(where), crash.traceback)


def failure_reason(failures: Mapping[int, Failure], labels: Sequence[str]) -> str:
    """The reason of a game ended by ``failures``: each failed seat, its bot and what it did."""
    return "; ".join(f"{player_name(seat)} ({labels[seat]}) {failure.detail}"
                     for seat, failure in sorted(failures.items()))


@dataclass(frozen=True)
class Refereed:
    """What :func:`referee` saw: the result, every turn's actions, each failed seat's failure, thinking time."""

    result: Result
    turns: list[dict[int, Any]]
    failures: dict[int, Failure]
    think_time: list[float]
    max_think: list[float] = field(default_factory=list)
    clocks: list[dict[int, float]] = field(default_factory=list)


def referee(
    game: Game,
    bots: Sequence[Bot],
    infos: Sequence[MatchInfo],
    time_limit: float,
    labels: Sequence[str],
    on_turn: Callable[[Game, Mapping[int, Any]], None] | None = None,
    guard: MoveGuard | NoGuard | None = None,
    logs: SeatLogs | None = None,
) -> Refereed:
    """Drive ``game`` to its end with ``bots``; return its result, turns, failures and thinking times.

    Every call into a bot runs under ``guard`` (see :mod:`arena.play.limits`), so a bot that overruns is
    interrupted; any exception a bot raises, ``SystemExit`` included, is its own failure. Each move is
    timed and charged by the bot's clock (``infos[seat].clock``); ``time_limit`` is the budget of
    ``start()`` and ``finish()``. With ``logs``, what each bot prints or logs in its calls goes to its seat's log.
    """
    guard = guard or NoGuard()
    enter, leave = (logs.enter, logs.leave) if logs is not None else (_no_log, _no_log_left)
    failures: dict[int, Failure] = {}
    think = [0.0] * game.num_seats
    longest = [0.0] * game.num_seats
    if len(infos) != len(bots):
        raise ValueError(f"{len(bots)} bots but {len(infos)} seats' match infos")
    # Loops over seats by index here and in play(): zip(..., strict=True) parses keywords, costly once a game.
    clocks = [info.clock for info in infos]
    banked = False
    for clock in clocks:
        if clock.bank is not None:
            banked = True
    left: list[dict[int, float]] = []
    for seat, player in enumerate(bots):
        info = infos[seat]
        player.rng = info.rng
        for call, where, seconds in setup_calls(player, info, time_limit):
            guard.begin(seat, seconds)
            enter(seat)
            try:
                call()
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # SystemExit from a bot is its failure, not ours
                failures[seat] = _failure(exc, where)
                break
            finally:
                leave()
                guard.end()

    turns: list[dict[int, Any]] = []
    begin, end, run, perf_counter = guard.begin, guard.end, guard.run, time.perf_counter
    seats = [SeatTiming(player, clocks[seat]) for seat, player in enumerate(bots)]
    observe, is_legal, to_act, apply, append_turn = game.observe, game.is_legal, game.to_act, game.apply, turns.append
    while not failures and game.result is None:
        actions: dict[int, Any] = {}
        for seat in to_act():
            obs = observe(seat)
            timing = seats[seat]
            seat_clock = timing.clock
            plain = timing.plain
            if plain:  # the clock's reading at the start of the move starts the guard too
                started = wall_started = seat_clock.begin_move()
            else:
                begin(seat, timing.move_budget(bots[seat]))
                started = seat_clock.begin_move()
                if not timing.own_reading:
                    started = timing.reading()
                wall_started = perf_counter() if timing.cpu else started
            enter(seat)
            try:
                if plain:  # begin(), the call, end() in one
                    action = run(seat, timing.budget, started, timing.call, obs, timing.rng)  # type: ignore[arg-type]
                elif timing.rng is None:
                    action = timing.call(obs)
                else:
                    action = timing.call(obs, timing.rng)
            except KeyboardInterrupt:
                leave()
                end()
                raise
            except BaseException as exc:
                leave()
                end()
                spent = max(0.0, timing.reading() - started)  # a process that died reads as no CPU time at all
                think[seat] += spent
                longest[seat] = max(longest[seat], spent)
                failures[seat] = _failure(exc, _on_move(turns), perf_counter() - wall_started,
                                          allowed_time(seat_clock))
                continue
            leave()
            if plain:
                spent = perf_counter() - started
            else:
                end()
                spent = timing.reading() - started
            think[seat] += spent
            if spent > longest[seat]:
                longest[seat] = spent
            if not seat_clock.end_move(spent):
                failures[seat] = out_of_time(seat_clock, spent, _on_move(turns))
            elif not is_legal(seat, action):
                failures[seat] = Failure("illegal", f"returned {_short(action)}{_on_move(turns)}, which is not a "
                                                    "legal action")
            else:
                actions[seat] = action
        if failures:
            break
        apply(actions)
        append_turn(actions)
        if banked:
            left.append({seat: round(clocks[seat].bank or 0.0, 3) for seat in actions})
        if on_turn is not None:
            on_turn(game, actions)

    if failures:
        result = game.forfeit(sorted(failures), failure_reason(failures, labels))
    else:
        finished = game.result
        assert finished is not None
        result = finished
    for seat, player in enumerate(bots):
        if seat in failures and failures[seat].kind in ("memory", "timeout"):
            continue  # a bot that hogged memory or time gets no further call
        if type(player).finish is Bot.finish:
            continue  # nothing to call: Bot's finish() does nothing
        guard.begin(seat, time_limit)
        enter(seat)
        try:
            player.finish(result)
        except KeyboardInterrupt:
            raise
        except BaseException:  # a bot failing after the game cannot change its result
            pass
        finally:
            leave()
            guard.end()
    return Refereed(result, turns, failures, think, longest, left)


def _no_log(seat: int) -> None:
    """No log to write to: output goes where it goes."""


def _no_log_left() -> None:
    """No log to leave."""


def _on_move(turns: Sequence[Any]) -> str:
    return f" on move {len(turns) + 1}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_RESOLVED: dict[tuple[type[Game], tuple[tuple[str, str], ...]], dict[str, str]] = {}
"""Options resolved in this process, by game and options given: a tournament's games repeat a few sets."""
_RESOLVED_KEPT = 256


def _resolved_options(game_cls: type[Game], given: Mapping[str, str]) -> dict[str, str]:
    """``game_cls.resolve_options(given)``, worked out once per process for each game and options (a copy)."""
    key = (game_cls, tuple(given.items()))
    try:
        found = _RESOLVED.get(key)
    except TypeError:  # an unhashable value: not kept
        return game_cls.resolve_options(given)
    if found is None:
        found = game_cls.resolve_options(given)
        if len(_RESOLVED) >= _RESOLVED_KEPT:
            _RESOLVED.clear()
        _RESOLVED[key] = found
    return dict(found)


def _game_rng(game_cls: type[Game], seed: int) -> np.random.Generator:
    """The game's ``np.random.default_rng(seed)``, put off until it draws for a game that allows it."""
    if game_cls.deferred_rng:  # such a game takes either (Game.__init__ names only the Generator)
        return cast(np.random.Generator, DeferredGenerator(seed))
    return np.random.default_rng(seed)


def play(setup: MatchSetup, registry: Registry, on_turn: Callable[[Game, Mapping[int, Any]], None] | None = None,
         guard: MoveGuard | None = None, make_bot: Callable[[BotSpec, int], Bot] | None = None) -> MatchOutcome:
    """Play the game described by ``setup`` with bots from ``registry``, every bot call under ``guard``.

    ``make_bot(spec, seat)``, if given, builds the bots (``--isolate`` gives stand-ins for bot processes).
    """
    started = time.perf_counter()
    game_cls = registry.game(setup.game)
    options = _resolved_options(game_cls, setup.options)
    game = game_cls(setup.game_map, options, _game_rng(game_cls, setup.seed))
    if len(setup.bots) != game.num_seats:
        raise ArenaError(f"{setup.game} on this map has {game.num_seats} seats but {len(setup.bots)} bots were given")
    entries = [registry.bot(spec.name) for spec in setup.bots]
    with seat_logs(len(setup.bots)) as logs:
        bots, stacks, refereed = _construct_and_referee(setup, registry, game, entries, logs, on_turn, guard,
                                                        make_bot)
    captured = logs.texts()
    stderr = {seat: text for seat, player in enumerate(bots)
              if (text := joined(captured.get(seat, ""), getattr(player, "stderr_log", "")))}
    outcome = MatchOutcome(
        index=setup.index,
        ranks=refereed.result.ranks,
        reason=refereed.result.reason,
        actions=tuple(refereed.turns),
        versions=tuple([seat_version(registry, spec, bots[seat], stacks[seat])
                        for seat, spec in enumerate(setup.bots)]),
        options=options,
        failures=refereed.failures,
        think_time=tuple(refereed.think_time),
        duration=time.perf_counter() - started,
        stderr=stderr,
        max_think=tuple(refereed.max_think),
        clocks=tuple(refereed.clocks),
        extras=game.record_extras(),
    )
    if registry.manager is not None and registry.manager.hook.match_finished.get_hookimpls():
        call = call_hook(registry.manager, "match_finished", record=outcome.record(setup))
        if call.failures:
            outcome = replace(outcome, hook_errors=tuple(_hook_error(failure) for failure in call.failures))
    return outcome


def _construct_and_referee(setup: MatchSetup, registry: Registry, game: Game, entries: Sequence[Any],
                           logs: SeatLogs, on_turn: Callable[[Game, Mapping[int, Any]], None] | None,
                           guard: MoveGuard | None, make_bot: Callable[[BotSpec, int], Bot] | None
                           ) -> tuple[list[Bot], list[SeatStack | None], Refereed]:
    """Build the game's bots (each constructor a call into its bot, logged as one) and referee the game."""
    move_seconds = setup.move_seconds()
    stacks: list[SeatStack | None] = [None] * len(entries)
    if make_bot is not None:
        bots = [make_bot(spec, seat) for seat, spec in enumerate(setup.bots)]
    else:
        stacks = [None if is_arena_code(entry) else SeatStack.for_seat(seat)
                  for seat, entry in enumerate(entries)]
        bots = []
        for seat, spec in enumerate(setup.bots):
            with logs.calling(seat):
                bots.append(construct(entries[seat], spec, seat, move_seconds, guard, stacks[seat]))
    labels = [spec.label for spec in setup.bots]
    infos = [
        MatchInfo(setup.game, seat, game.num_seats, game.role_of(seat), dict(setup.options),
                  setup.game_map.name if setup.game_map else None, setup.seed, move_seconds,
                  bot_rng(setup.seed, seat), Clock(setup.time_control, setup.time_limit))
        for seat in range(game.num_seats)
    ]
    for info in infos:
        info.clocks = tuple(other.clock for other in infos)
    return bots, stacks, referee(game, bots, infos, move_seconds, labels, on_turn, guard, logs)


def forfeit_outcome(setup: MatchSetup, registry: Registry, seat: int | None, failure: Failure) -> MatchOutcome:
    """The outcome of a game that could not finish because the bot in ``seat`` failed (``None``: no one).

    Used when the process playing the game died or ran out of memory outside any bot call.
    """
    seats = len(setup.bots)
    versions = tuple(registry.version_of(spec) for spec in setup.bots)
    options = registry.game(setup.game).resolve_options(setup.options)
    if seat is None:
        return MatchOutcome(setup.index, (1,) * seats, f"game abandoned: {failure.detail}", (), versions, options)
    failures = {seat: failure}
    reason = failure_reason(failures, [spec.label for spec in setup.bots])
    return MatchOutcome(setup.index, forfeit_ranks(seats, [seat]), reason, (), versions, options, failures,
                        tuple(0.0 for _ in range(seats)))


def _hook_error(failure: HookFailure) -> str:
    return f"{failure.plugin or failure.hook}: {failure.error}"


def run_match(
    game: str,
    bots: Sequence[str | BotSpec],
    *,
    game_map: GameMap | str | None = None,
    options: Mapping[str, str] | None = None,
    seed: int = 0,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    registry: Registry | None = None,
    make_bot: Callable[[BotSpec, int], Bot] | None = None,
    time_control: TimeControl | None = None,
) -> MatchOutcome:
    """Play one game from Python: ``run_match("tron", ["random", "floodfill"], game_map="empty_room")``.

    ``make_bot(spec, seat)``, if given, builds the bots (to watch one, say). ``time_control`` adds a time
    bank, a first-move budget or the CPU clock (see :mod:`arena.core.clock`); ``time_limit=None`` with a
    bank times every move off the bank alone.
    """
    from arena.core.maps import resolve_map

    registry = registry or load_registry()
    if isinstance(game_map, str):
        game_map = resolve_map(game_map)
    specs = tuple(spec if isinstance(spec, BotSpec) else registry.spec(spec) for spec in bots)
    merged = dict(game_map.header) if game_map else {}
    merged.update(options or {})
    if game_map is not None:
        registry.game(game).check_map(game_map)
    control = time_control or TimeControl()
    check_time_limit(time_limit, control)
    setup = MatchSetup(game, specs, game_map, merged, seed, time_limit, time_control=control)
    guard = MoveGuard()
    with guard.installed(alarm_tick(setup.move_seconds())):
        outcome = swept(setup, registry, make_bot, partial(play, setup, registry, guard=guard, make_bot=make_bot))
    return replace(outcome, setup=setup)


def replay_position(setup: MatchSetup, outcome: MatchOutcome, registry: Registry) -> Game:
    """The game of ``setup`` after replaying every action of ``outcome`` (for showing the final position)."""
    game_cls = registry.game(setup.game)
    game = game_cls(setup.game_map, game_cls.resolve_options(setup.options), np.random.default_rng(setup.seed))
    for actions in outcome.actions:
        game.apply(actions)
    return game
