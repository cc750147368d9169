"""OpenSpiel's own bots for its games: ``openspiel-random`` (``open_spiel.python.bots.uniform_random``) and
``openspiel-mcts`` (``open_spiel.python.algorithms.mcts`` with a random-rollout evaluator).

Both draw from a ``numpy.random.RandomState`` seeded with ``random.Random(f"{seed}:{seat}").getrandbits(32)``
(``self.rng``, seeded from the game's seed and the seat, drawn once), so a game is the same every time and
OpenSpiel's bots given the same ``RandomState`` play the same moves outside arena.
"""

from __future__ import annotations

from typing import Any

from arena.core.bot import Bot
from arena.core.game import MatchInfo
from arena.games.openspiel.observation import OpenSpielObservation


class _LegalOnly:
    """The part of a pyspiel state OpenSpiel's random bot reads, built from an observation (which holds no
    state in games of imperfect information)."""

    def __init__(self, legal: tuple[int, ...]):
        self.legal = list(legal)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids."""
        return self.legal


def bot_random_state(bot: Bot) -> Any:
    """The ``numpy.random.RandomState`` a bot draws from: seeded from its ``rng`` (the game's seed and its seat)."""
    import numpy as np

    return np.random.RandomState(bot.rng.getrandbits(32))


class OpenSpielRandom(Bot):
    """OpenSpiel's uniform random bot: any legal action, each as likely."""

    name = "openspiel-random"

    def start(self, info: MatchInfo) -> None:
        """Make OpenSpiel's bot for this seat."""
        from open_spiel.python.bots.uniform_random import UniformRandomBot

        self.bot = UniformRandomBot(info.seat, bot_random_state(self))

    def act(self, obs: OpenSpielObservation) -> int:
        """A legal action id, drawn uniformly."""
        return int(self.bot.step(_LegalOnly(obs.legal)))


class OpenSpielMcts(Bot):
    """OpenSpiel's Monte Carlo tree search with random rollouts (games of perfect information, one mover a turn)."""

    name = "openspiel-mcts"

    def __init__(self, simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1, solve: bool = True):
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.solve = solve
        self.bot: Any = None

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> None:
        """Simulations and rollouts are at least 1, the exploration constant not negative."""
        for key in ("simulations", "rollouts"):
            if params.get(key, 1) < 1:
                raise ValueError(f"{key} must be at least 1")
        if params.get("uct_c", 0.0) < 0:
            raise ValueError("uct_c must not be negative")

    def start(self, info: MatchInfo) -> None:
        """Seed the search; it is built on the first move, from the game the state belongs to."""
        self.random_state = bot_random_state(self)
        self.bot = None

    def act(self, obs: OpenSpielObservation) -> int:
        """The action OpenSpiel's MCTS picks from the current state."""
        if self.bot is None:
            from open_spiel.python.algorithms import mcts

            evaluator = mcts.RandomRolloutEvaluator(self.rollouts, self.random_state)
            self.bot = mcts.MCTSBot(obs.state.get_game(), self.uct_c, self.simulations, evaluator,
                                    solve=self.solve, random_state=self.random_state)
        return int(self.bot.step(obs.state))

