"""Every arena game as a PettingZoo AEC environment (agents act one at a time, in the game's own order)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arena.rl.session import GameSession, agent_name


def declare_agents(env: Any, session: GameSession) -> None:
    """Give a PettingZoo environment its agents (one per learning seat), their spaces and seats."""
    env.possible_agents = [agent_name(seat) for seat in session.learners]
    observation, action = declared_spaces(session)
    env.observation_spaces = {agent: observation for agent in env.possible_agents}
    env.action_spaces = {agent: action for agent in env.possible_agents}
    env._seats = {agent_name(seat): seat for seat in session.learners}


def declared_spaces(session: GameSession) -> tuple[spaces.Dict, spaces.Discrete]:
    """The observation space (``observation`` planes and ``action_mask``) and action space of every agent."""
    session_obs = session.observe(0)["observation"]
    count = session.action_count()
    observation = spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, session_obs.shape, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (count,), dtype=np.int8),
    })
    return observation, spaces.Discrete(count)


class ArenaAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types: AECEnv is Any
    """An arena game as a PettingZoo AEC environment; build it with :func:`arena.rl.pettingzoo_env`.

    Agents are ``player_0``, ``player_1``... (seat 0, 1...), the seats opponents don't play. Each agent's
    observation is ``{"observation": float32 planes, "action_mask": int8}``; its action an index into the
    game's numbered actions. Rewards come when a seat's final rank is known: +1 / 0 / -1 by rank (see
    :func:`arena.rl.session.rank_reward`), plus shaping if asked for. A masked-out action loses the game.
    """

    # set by declare_agents
    possible_agents: list[str]
    observation_spaces: dict[str, spaces.Dict]
    action_spaces: dict[str, spaces.Discrete]
    _seats: dict[str, int]

    metadata = {"name": "arena_v1", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, session: GameSession, render_mode: str | None = None):
        super().__init__()
        self.session = session
        self.render_mode = render_mode
        declare_agents(self, session)
        self.metadata = {**self.metadata, "name": f"arena_{session.choice.game_cls.name}_v1"}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` makes it the game arena plays with that seed."""
        self.session.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._settle(dict.fromkeys(self.session.learners))
        self.agent_selection = self._next_agent()
        self._deads_step_first()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's planes and action mask now."""
        return self.session.observe(self._seats[agent])

    def step(self, action: Any) -> None:
        """Take the selected agent's action (``None`` for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        session = self.session
        before = {seat: session.settled(seat) for seat in session.learners}
        if session.submit(self._seats[agent], int(action)):
            self._settle(before)
        else:
            self._clear_rewards()
        self.agent_selection = self._next_agent()
        self._deads_step_first()

    def _settle(self, before: dict[int, int | None]) -> None:
        """Hand out the rewards of the turns just played and end the agents whose game is over."""
        session = self.session
        rewards = session.rewards_since(before)
        self.rewards = {agent: rewards.get(self._seats[agent], 0.0) for agent in self.agents}
        result = session.result
        for agent in self.agents:
            seat = self._seats[agent]
            if session.settled(seat) is not None:
                self.terminations[agent] = True
                self.infos[agent] = {"rank": session.settled(seat)}
                if result is not None:
                    self.infos[agent]["reason"] = result.reason
            elif session.truncated:
                self.truncations[agent] = True
        self._accumulate_rewards()

    def _next_agent(self) -> str:
        """The agent to act now: the first learning seat still to move this turn, else any agent (all done)."""
        waiting = self.session.to_act()
        if waiting:
            return agent_name(waiting[0])
        return self.agents[0] if self.agents else self.agent_selection

    def render(self) -> str | None:
        """The board as text (``render_mode = "ansi"``)."""
        if self.render_mode == "ansi":
            return self.session.game.render()
        return None

    def close(self) -> None:
        """Nothing to release."""
