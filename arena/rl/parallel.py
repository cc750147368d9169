"""Games whose players move at once (Tron under AI Challenge rules, Snafu) as PettingZoo parallel environments."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from arena.core.errors import ArenaError
from arena.rl.aec import declare_agents
from arena.rl.session import GameSession, agent_name


class ArenaParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo ships no types: ParallelEnv is Any
    """A simultaneous-move arena game as a PettingZoo parallel environment; build it with
    :func:`arena.rl.parallel_env`.

    Every live agent gives an action each step. On a step where only some seats move (a Tron speed run with
    powerups on), the others' actions are ignored and their masks are all zero. Observations, rewards and
    agent names are those of :class:`arena.rl.aec.ArenaAECEnv`.
    """

    # set by declare_agents
    possible_agents: list[str]
    observation_spaces: dict[str, spaces.Dict]
    action_spaces: dict[str, spaces.Discrete]
    _seats: dict[str, int]

    metadata = {"name": "arena_parallel_v1", "render_modes": ["ansi"]}

    def __init__(self, session: GameSession, render_mode: str | None = None):
        if not session.choice.new_game(0).moves_together():
            name = session.choice.game_cls.name
            raise ArenaError(f"in {name} with these options players take turns: use pettingzoo_env() (AEC) instead")
        self.session = session
        self.render_mode = render_mode
        declare_agents(self, session)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start a new game; ``seed`` makes it the game arena plays with that seed."""
        self.session.reset(seed)
        self.agents = list(self.possible_agents)
        return {agent: self.session.observe(self._seats[agent]) for agent in self.agents}, \
            {agent: {} for agent in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, float],
                                                     dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """Play one turn with every live agent's action; agents whose rank is settled are done."""
        session = self.session
        before = {seat: session.settled(seat) for seat in session.learners}
        for seat in session.to_act():
            agent = agent_name(seat)
            if agent not in actions:
                raise ArenaError(f"{agent} must act this turn but no action was given")
            if session.submit(seat, int(actions[agent])):
                break
        rewards_by_seat = session.rewards_since(before)
        observations, rewards, terminations, truncations = {}, {}, {}, {}
        infos: dict[str, dict[str, Any]] = {}
        result = session.result
        for agent in self.agents:
            seat = self._seats[agent]
            observations[agent] = session.observe(seat)
            rewards[agent] = float(rewards_by_seat.get(seat, 0.0))
            rank = session.settled(seat)
            terminations[agent] = rank is not None
            truncations[agent] = rank is None and session.truncated
            infos[agent] = {}
            if rank is not None:
                infos[agent] = {"rank": rank, **({"reason": result.reason} if result is not None else {})}
        self.agents = [agent for agent in self.agents if not (terminations[agent] or truncations[agent])]
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The board as text (``render_mode = "ansi"``)."""
        if self.render_mode == "ansi":
            return self.session.game.render()
        return None

    def close(self) -> None:
        """Nothing to release."""
