"""One seat of an arena game as a Gymnasium environment, every other seat played by an arena bot."""

from __future__ import annotations

from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from arena.core.errors import ArenaError
from arena.rl.aec import declared_spaces
from arena.rl.session import GameSession, agent_name


class ArenaGymEnv(gymnasium.Env):
    """A single-agent view of a :class:`~arena.rl.session.GameSession` whose only learning seat is ``agent``;
    build it with :func:`arena.rl.gym_env`.

    Observations are the float32 planes; the legal-action mask is in ``info["action_mask"]`` and in
    :meth:`action_masks` (the name maskable-PPO implementations look for). A masked-out action loses.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, session: GameSession, render_mode: str | None = None):
        if len(session.learners) != 1:
            free = ", ".join(agent_name(seat) for seat in session.learners)
            raise ArenaError(f"a Gymnasium environment has one learning seat; give opponents for all but one of {free}")
        self.session = session
        self.seat = session.learners[0]
        self.render_mode = render_mode
        observation, action = declared_spaces(session)
        self.observation_space = cast(spaces.Box, observation["observation"])  # declared_spaces makes a Box
        self.action_space: spaces.Discrete = action
        self._mask = np.zeros(action.n, dtype=np.int8)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game; ``seed`` makes it the game arena plays with that seed."""
        super().reset(seed=seed)
        self.session.reset(seed)
        return self._observe(), {"action_mask": self._mask}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the agent's action and the opponents' answers until the agent moves again or the game ends."""
        session = self.session
        before = {self.seat: session.settled(self.seat)}
        session.submit(self.seat, int(action))
        reward = float(session.rewards_since(before).get(self.seat, 0.0))
        rank = session.settled(self.seat)
        observation = self._observe()
        info: dict[str, Any] = {"action_mask": self._mask}
        if rank is not None:
            info["rank"] = rank
            result = session.result
            if result is not None:
                info["reason"] = result.reason
        return observation, reward, rank is not None, rank is None and session.truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans."""
        return self._mask.astype(bool)

    def _observe(self) -> np.ndarray:
        seen = self.session.observe(self.seat)
        self._mask = seen["action_mask"]
        return seen["observation"]

    def render(self) -> str | None:
        """The board as text (``render_mode = "ansi"``)."""
        if self.render_mode == "ansi":
            return self.session.game.render()
        return None
