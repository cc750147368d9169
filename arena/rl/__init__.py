"""Arena games for reinforcement learning: PettingZoo and Gymnasium environments, and trained policies as bots.

- :func:`pettingzoo_env`: any game with an array form (:class:`arena.rl.array_form.ArrayForm`) as a
  PettingZoo AEC environment; :func:`parallel_env` a game whose players move at once as a parallel one;
  :func:`gym_env` one seat as a Gymnasium environment, the others played by arena bots.
- :func:`policy_bot`: a bot class from any callable (planes, mask) -> action index; :class:`MLPPolicy` a small
  numpy network saved as ``.npz``, which the shipped bot ``npz:file=agent.npz`` plays in tournaments.

The environments need the ``rl`` extra (``pip install 'bot-arena[rl]'``: pettingzoo and gymnasium); the
policies need numpy only. ``import arena`` imports neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from arena.core.maps import GameMap
from arena.play.referee import DEFAULT_TIME_LIMIT
from arena.plugins.registry import Registry
from arena.rl.policy import MLPPolicy, load_policy, policy_bot
from arena.rl.session import GameSession

if TYPE_CHECKING:
    from arena.rl.aec import ArenaAECEnv
    from arena.rl.gym import ArenaGymEnv
    from arena.rl.parallel import ArenaParallelEnv

__all__ = ["GameSession", "MLPPolicy", "gym_env", "load_policy", "parallel_env", "pettingzoo_env", "policy_bot"]


def _session(game: str, game_map: GameMap | str | None, options: Mapping[str, str] | None,
             opponents: Mapping[str, str] | None, settings: dict[str, Any]) -> GameSession:
    return GameSession(game, game_map, options, opponents, **settings)


def pettingzoo_env(game: str, map: GameMap | str | None = None, options: Mapping[str, str] | None = None,
                   opponents: Mapping[str, str] | None = None, *, shaping: float = 0.0,
                   time_limit: float = DEFAULT_TIME_LIMIT, max_turns: int | None = None,
                   render_mode: str | None = None, registry: Registry | None = None, **form: Any) -> ArenaAECEnv:
    """A PettingZoo AEC environment of ``game`` on ``map`` (default: the game's first default map).

    ``opponents`` maps agent names to bot specs (``{"player_1": "floodfill"}``): those seats are played by
    arena bots and are not agents. ``shaping`` weighs the game's shaping potential (0: rewards by rank only);
    ``max_turns`` truncates long games; ``form`` holds the game's array options (Tron: ``centered=True``).
    """
    from arena.rl.aec import ArenaAECEnv

    settings = {"shaping": shaping, "time_limit": time_limit, "max_turns": max_turns, "registry": registry, **form}
    return ArenaAECEnv(_session(game, map, options, opponents, settings), render_mode)


def parallel_env(game: str, map: GameMap | str | None = None, options: Mapping[str, str] | None = None,
                 opponents: Mapping[str, str] | None = None, *, shaping: float = 0.0,
                 time_limit: float = DEFAULT_TIME_LIMIT, max_turns: int | None = None,
                 render_mode: str | None = None, registry: Registry | None = None, **form: Any) -> ArenaParallelEnv:
    """A PettingZoo parallel environment of a game whose players move at once (Tron's AI Challenge rules,
    Snafu); the arguments are those of :func:`pettingzoo_env`."""
    from arena.rl.parallel import ArenaParallelEnv

    settings = {"shaping": shaping, "time_limit": time_limit, "max_turns": max_turns, "registry": registry, **form}
    return ArenaParallelEnv(_session(game, map, options, opponents, settings), render_mode)


def gym_env(game: str, map: GameMap | str | None = None, options: Mapping[str, str] | None = None,
            opponents: Mapping[str, str] | None = None, *, shaping: float = 0.0,
            time_limit: float = DEFAULT_TIME_LIMIT, max_turns: int | None = None,
            render_mode: str | None = None, registry: Registry | None = None, **form: Any) -> ArenaGymEnv:
    """A Gymnasium environment of the one seat ``opponents`` leaves free (``{"player_1": "floodfill"}``
    trains seat 0); the other arguments are those of :func:`pettingzoo_env`."""
    from arena.rl.gym import ArenaGymEnv

    settings = {"shaping": shaping, "time_limit": time_limit, "max_turns": max_turns, "registry": registry, **form}
    return ArenaGymEnv(_session(game, map, options, opponents, settings), render_mode)
