"""One arena game played step by step for learning agents: the engine under every environment in :mod:`arena.rl`.

A :class:`GameSession` builds the game from its name, map, options and seed exactly as the referee does, plays
the seats given to scripted opponents (arena bots, with their time limits), takes the learning seats'
actions as indices into the game's numbered actions, and hands out array observations, action masks and
rewards by rank. It needs numpy only; :mod:`arena.rl.aec`, :mod:`arena.rl.parallel` and :mod:`arena.rl.gym`
wrap it in the PettingZoo and Gymnasium interfaces.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.core.bot import Bot
from arena.core.errors import ArenaError
from arena.core.game import Game, MatchInfo, Result, player_name
from arena.core.maps import GameMap, resolve_map
from arena.play.referee import DEFAULT_TIME_LIMIT, bot_rng
from arena.plugins.registry import Registry, load_registry
from arena.rl.array_form import array_form, shaping_potential


def agent_name(seat: int) -> str:
    """The agent name of a seat: ``player_0`` for seat 0."""
    return f"player_{seat}"


def seat_of(agent: str, num_seats: int) -> int:
    """The seat of an agent name (``player_1`` is seat 1), or a one-line error."""
    prefix, _, number = agent.partition("_")
    if prefix != "player" or not number.isdigit() or int(number) >= num_seats:
        names = ", ".join(agent_name(seat) for seat in range(num_seats))
        raise ArenaError(f"no agent {agent!r} in this game (agents: {names})")
    return int(number)


def rank_reward(ranks: Sequence[int | None], seat: int) -> float:
    """+1 for the best rank alone, -1 for the worst alone, 0 for a tie of all: (seats below - seats above) / (n - 1).

    ``ranks`` may hold ``None`` for seats still playing: they count as above a seat that is already out.
    """
    mine = ranks[seat]
    assert mine is not None
    others = [rank for other, rank in enumerate(ranks) if other != seat]
    above = sum(1 for rank in others if rank is None or rank < mine)
    below = sum(1 for rank in others if rank is not None and rank > mine)
    return (below - above) / max(len(others), 1)


@dataclass(frozen=True)
class GameChoice:
    """A game with its map, resolved options and array form, checked once."""

    game_cls: type[Game]
    game_map: GameMap | None
    options: dict[str, str]
    form: dict[str, Any]
    num_seats: int

    def new_game(self, seed: int) -> Game:
        """A fresh game with ``seed``, as the referee would set it up."""
        return self.game_cls(self.game_map, self.options, np.random.default_rng(seed))


def choose_game(game: str, game_map: GameMap | str | None, options: Mapping[str, str] | None,
                form: Mapping[str, Any], registry: Registry) -> GameChoice:
    """Look up the game, resolve its map (default: its first default map) and options, and check that it has
    an array form that accepts ``form``."""
    game_cls = registry.game(game)
    if game_map is None and game_cls.default_maps:
        game_map = game_cls.default_maps[0]
    if isinstance(game_map, str):
        game_map = resolve_map(game_map)
    if game_map is not None:
        game_cls.check_map(game_map)
    merged = dict(game_map.header) if game_map is not None else {}
    merged.update(options or {})
    resolved = game_cls.resolve_options(merged)
    probe = game_cls(game_map, resolved, np.random.default_rng(0))
    obs = probe.observe(0)
    arrays = array_form(game_cls)
    try:
        arrays.array_observation(obs, **form)
        arrays.array_mask(obs)
        arrays.array_actions(obs)
    except TypeError as exc:
        raise ArenaError(f"game {game!r}: bad array option ({exc})") from None
    return GameChoice(game_cls, game_map, resolved, dict(form), probe.num_seats)


_prepared: set[type[Bot]] = set()  # the bot classes whose prepare() has run in this process


class Opponent:
    """An arena bot playing one seat of a session, with the referee's time limit (checked after each move)."""

    def __init__(self, spec_text: str, seat: int, registry: Registry):
        self.spec = registry.spec(spec_text)
        self.cls = registry.bot(self.spec.name).cls
        self.seat = seat
        self.bot: Bot | None = None

    def start(self, game: Game, choice: GameChoice, seed: int, time_limit: float) -> None:
        """Build a fresh bot for a new game and start it."""
        if not self.cls.plays(choice.game_cls.name, game.role_of(self.seat)):
            raise ArenaError(f"bot {self.spec.name!r} does not play {choice.game_cls.name} as {player_name(self.seat)}")
        if self.cls not in _prepared:
            self.cls.prepare()
            _prepared.add(self.cls)
        self.bot = self.cls(**self.spec.params)
        self.bot.rng = bot_rng(seed, self.seat)
        map_name = choice.game_map.name if choice.game_map is not None else None
        self.bot.start(MatchInfo(choice.game_cls.name, self.seat, game.num_seats, game.role_of(self.seat),
                                 dict(choice.options), map_name, seed, time_limit, self.bot.rng))

    def act(self, game: Game, time_limit: float) -> tuple[Any, str | None]:
        """The bot's action, and why it loses if it failed (raised, overran the time limit, answered illegally)."""
        assert self.bot is not None
        started = time.perf_counter()
        try:
            action = self.bot.act(game.observe(self.seat))
        except Exception as exc:  # a bot's error is its loss, as in a match
            return None, f"raised {type(exc).__name__}: {exc}"
        spent = time.perf_counter() - started
        if spent > time_limit:
            return None, f"took {spent:.3f} s, over the {time_limit:g} s limit"
        if not game.is_legal(self.seat, action):
            return None, f"returned {action!r}, which is not a legal action"
        return action, None

    def finish(self, result: Result) -> None:
        """Tell the bot the result (its errors there cannot change it)."""
        if self.bot is not None:
            with contextlib.suppress(Exception):  # as the referee: a bot failing after the game changes nothing
                self.bot.finish(result)


class GameSession:
    """A game in progress with learning seats and opponent seats (see the module's documentation)."""

    def __init__(self, game: str, game_map: GameMap | str | None = None, options: Mapping[str, str] | None = None,
                 opponents: Mapping[str, str] | None = None, *, shaping: float = 0.0,
                 time_limit: float = DEFAULT_TIME_LIMIT, max_turns: int | None = None,
                 registry: Registry | None = None, **form: Any):
        registry = registry or load_registry()
        self.choice = choose_game(game, game_map, options, form, registry)
        seats = self.choice.num_seats
        self.opponents = {seat_of(agent, seats): Opponent(spec, seat_of(agent, seats), registry)
                          for agent, spec in (opponents or {}).items()}
        self.learners = tuple(seat for seat in range(seats) if seat not in self.opponents)
        if not self.learners:
            raise ArenaError("every seat has an opponent bot: leave at least one seat to the learning agent")
        self.shaping_weight = shaping
        self.time_limit = time_limit
        self.max_turns = max_turns
        self._seeds = np.random.default_rng()
        self.game: Game = self.choice.new_game(0)
        self.seed = 0
        self.forfeit: Result | None = None
        self.turns = 0
        self.truncated = False
        self._pending: dict[int, Any] = {}
        self._potential: dict[int, float] = {}

    @property
    def num_seats(self) -> int:
        """How many seats the game has (learning and opponent)."""
        return self.choice.num_seats

    def reset(self, seed: int | None = None) -> None:
        """Start a new game: with ``seed``, the game the referee plays with that seed; without, the next seed
        of the last one given (or a random one)."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            self.seed = int(seed)
        else:
            self.seed = int(self._seeds.integers(2**31))
        self.game = self.choice.new_game(self.seed)
        self.forfeit = None
        self.turns = 0
        self.truncated = False
        self._pending = {}
        for opponent in self.opponents.values():
            opponent.start(self.game, self.choice, self.seed, self.time_limit)
        self._potential = {seat: self._shaping(seat) for seat in self.learners}
        self._play_opponents()

    @property
    def result(self) -> Result | None:
        """The game's result, a forfeit's included, or ``None`` while it goes on."""
        return self.forfeit or self.game.result

    @property
    def over(self) -> bool:
        """Whether the game has ended (or was cut off at ``max_turns``)."""
        return self.result is not None or self.truncated

    def to_act(self) -> list[int]:
        """The learning seats that must still give an action this turn."""
        if self.over:
            return []
        return [seat for seat in self.game.to_act() if seat in self.learners and seat not in self._pending]

    def settled(self, seat: int) -> int | None:
        """The seat's final rank if it is known."""
        result = self.result
        if result is not None:
            return result.ranks[seat]
        return self.game.settled_rank(seat)

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """The seat's array observation and action mask, as ``{"observation": ..., "action_mask": ...}``."""
        obs = self.game.observe(seat)
        cls = array_form(self.choice.game_cls)
        mask = cls.array_mask(obs) if seat in self.game.to_act() and not self.over else \
            np.zeros(len(cls.array_actions(obs)), dtype=np.int8)
        return {"observation": cls.array_observation(obs, **self.choice.form), "action_mask": mask}

    def action_count(self) -> int:
        """How many numbered actions the game has for each seat."""
        return len(array_form(self.choice.game_cls).array_actions(self.game.observe(0)))

    def submit(self, seat: int, index: int) -> bool:
        """Take the learning seat's action index; once every seat acting this turn has one, play the turn and
        the opponents' turns after it. Returns whether a turn was played. An illegal index loses the game."""
        actions = array_form(self.choice.game_cls).array_actions(self.game.observe(seat))
        index = int(index)
        action = actions[index] if 0 <= index < len(actions) else None
        if action is None or not self.game.is_legal(seat, action):
            self.forfeit = self.game.forfeit([seat], f"{player_name(seat)} played action {index}, which is not legal")
            self._end()
            return True
        self._pending[seat] = action
        if self.to_act():
            return False
        self._play_turn()
        self._play_opponents()
        return True

    def rewards_since(self, before: Mapping[int, int | None]) -> dict[int, float]:
        """Each learning seat's reward for the turns just played: its rank reward once its rank is settled
        (given the ranks ``before``), plus shaping."""
        ranks = [self.settled(seat) for seat in range(self.num_seats)]
        rewards = {}
        for seat in self.learners:
            if before.get(seat) is not None:
                continue  # rewarded already
            reward = rank_reward(ranks, seat) if ranks[seat] is not None else 0.0
            if self.shaping_weight:
                potential = 0.0 if ranks[seat] is not None or self.over else self._shaping(seat)
                reward += self.shaping_weight * (potential - self._potential[seat])
                self._potential[seat] = potential
            rewards[seat] = reward
        return rewards

    def _shaping(self, seat: int) -> float:
        return shaping_potential(self.game, seat) if self.shaping_weight else 0.0

    def _play_turn(self) -> None:
        game = self.game
        for seat in game.to_act():
            if seat in self.opponents:
                action, failure = self.opponents[seat].act(game, self.time_limit)
                if failure is not None:
                    label = self.opponents[seat].spec.label
                    self.forfeit = game.forfeit([seat], f"{player_name(seat)} ({label}) {failure}")
                    self._end()
                    return
                self._pending[seat] = action
        game.apply(self._pending)
        self._pending = {}
        self.turns += 1
        if game.result is not None:
            self._end()
        elif self.max_turns is not None and self.turns >= self.max_turns:
            self.truncated = True

    def _play_opponents(self) -> None:
        """Play turns on which no learning seat acts (only opponents move)."""
        while not self.over and not any(seat in self.learners for seat in self.game.to_act()):
            self._play_turn()

    def _end(self) -> None:
        result = self.result
        assert result is not None
        for opponent in self.opponents.values():
            opponent.finish(result)
