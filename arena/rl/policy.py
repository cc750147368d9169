"""Trained policies as arena bots: :func:`policy_bot` wraps any callable, :class:`MLPPolicy` is a small numpy
network saved as ``.npz`` that the shipped bot ``npz:file=PATH`` plays (numpy only: no learning framework).

A policy maps the array form of an observation (the planes of
:class:`arena.rl.array_form.ArrayForm`) and its action mask to an action index; the bot turns the
index into the game's action with :meth:`~arena.rl.array_form.ArrayForm.array_actions`. Both work from the
observation alone, so a policy bot plays in tournaments, worker processes included, like any other bot.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from arena.core.bot import Bot
from arena.core.errors import ArenaError
from arena.core.game import Game, MatchInfo
from arena.plugins.registry import PluginConfig, load_registry
from arena.rl.array_form import array_form

FORMAT = "arena-mlp/1"
Policy = Callable[[np.ndarray, np.ndarray], int]
"""A policy: ``policy(planes, mask) -> action index``."""

_games: dict[str, type[Game]] = {}


def load_games() -> None:
    """Load the plugins' games once per process, so :func:`game_class` finds them."""
    if not _games:
        _games.update(load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False)).games)


def game_class(game: str | type[Game]) -> type[Game]:
    """The game class of a name (loading the plugins once per process), or the class itself."""
    if not isinstance(game, str):
        return game
    load_games()
    if game not in _games:
        raise ArenaError(f"unknown game {game!r}")
    return _games[game]


def best_legal(scores: np.ndarray, mask: np.ndarray) -> int:
    """The index of the highest score among the legal actions (the lowest index on a tie; any index if none
    is legal)."""
    if not mask.any():
        return int(np.argmax(scores))
    return int(np.argmax(np.where(mask.astype(bool), scores, -np.inf)))


@dataclass
class MLPPolicy:
    """A small fully connected network: the flattened planes, ReLU hidden layers, one score per action.

    ``game`` and ``form`` say which game and array options the network was trained on; ``weights[i]`` has
    shape ``(inputs, outputs)``. Call it as ``policy(planes, mask)`` for the best legal action.
    """

    game: str
    weights: list[np.ndarray]
    biases: list[np.ndarray]
    form: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def initial(cls, game: str, sizes: Sequence[int], rng: np.random.Generator,
                form: Mapping[str, Any] | None = None) -> MLPPolicy:
        """A network with layer sizes ``sizes`` (inputs first, actions last) and small random weights."""
        pairs = itertools.pairwise(sizes)
        weights = [rng.normal(0.0, np.sqrt(2.0 / m), (m, n)).astype(np.float32) for m, n in pairs]
        biases = [np.zeros(n, dtype=np.float32) for n in sizes[1:]]
        return cls(game, weights, biases, dict(form or {}))

    def scores(self, planes: np.ndarray) -> np.ndarray:
        """One score (logit) per action for the planes."""
        x = planes.reshape(-1).astype(np.float32)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0.0)
        return x

    def __call__(self, planes: np.ndarray, mask: np.ndarray) -> int:
        """The best legal action for the planes."""
        return best_legal(self.scores(planes), mask)

    def save(self, path: str | Path) -> None:
        """Write the network as ``.npz``: arrays ``w0``, ``b0``, ... and a JSON ``meta`` (game, form)."""
        arrays: dict[str, Any] = ({f"w{i}": w for i, w in enumerate(self.weights)}
                                  | {f"b{i}": b for i, b in enumerate(self.biases)})
        meta = json.dumps({"format": FORMAT, "game": self.game, "form": self.form, "layers": len(self.weights)})
        with open(path, "wb") as handle:
            np.savez(handle, meta=np.array(meta), **arrays)


def load_policy(path: str | Path) -> MLPPolicy:
    """Read a network saved by :meth:`MLPPolicy.save`, or raise a one-line :class:`ArenaError`."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                raise ArenaError(f"{path}: not an arena policy (format {meta.get('format')!r}, expected {FORMAT})")
            layers = int(meta["layers"])
            weights = [data[f"w{i}"].astype(np.float32) for i in range(layers)]
            biases = [data[f"b{i}"].astype(np.float32) for i in range(layers)]
    except ArenaError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ArenaError(f"{path}: cannot read the policy ({type(exc).__name__}: {exc})") from None
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        if w.ndim != 2 or b.shape != (w.shape[1],) or (i and w.shape[0] != weights[i - 1].shape[1]):
            raise ArenaError(f"{path}: layer {i} has mismatched shapes {w.shape} and {b.shape}")
    return MLPPolicy(str(meta["game"]), weights, biases, dict(meta.get("form") or {}))


class PolicyBot(Bot):
    """A bot that plays a policy on the array form of its observations (see :func:`policy_bot`)."""

    game: ClassVar[str | type[Game]]
    form: ClassVar[dict[str, Any]] = {}
    policy: ClassVar[Policy]

    @classmethod
    def prepare(cls) -> None:
        """Load the games' array forms before the first move (it takes a moment)."""
        load_games()

    def chosen(self, obs: Any, policy: Policy, game: type[Game], form: Mapping[str, Any]) -> Any:
        """The game action ``policy`` picks for ``obs``."""
        arrays = array_form(game)
        index = int(policy(arrays.array_observation(obs, **form), arrays.array_mask(obs)))
        actions = arrays.array_actions(obs)
        if not 0 <= index < len(actions):
            raise ArenaError(f"the policy chose action {index}, but there are {len(actions)}")
        return actions[index]

    def act(self, obs: Any) -> Any:
        """The policy's action for the observation."""
        return self.chosen(obs, type(self).policy, game_class(self.game), self.form)


def policy_bot(name: str, game: str | type[Game], policy: Policy, form: Mapping[str, Any] | None = None,
               roles: Sequence[str] = ()) -> type[PolicyBot]:
    """A bot class named ``name`` that plays ``game`` with ``policy(planes, mask) -> action index``.

    ``form`` holds the array options the policy expects (Tron: ``{"centered": True}``). The class belongs to
    the module that calls this, so ``MyAgent = policy_bot(...)`` in a bot file registers it like any bot.
    """
    game_name = game if isinstance(game, str) else game.name
    attrs = {"name": name, "games": (game_name,), "roles": tuple(roles), "game": game, "form": dict(form or {}),
             "policy": staticmethod(policy), "__doc__": f"{name}: a trained policy for {game_name}.",
             "__module__": sys._getframe(1).f_globals.get("__name__", __name__)}
    return type(name.replace("-", "_").replace(".", "_"), (PolicyBot,), attrs)


_loaded: dict[tuple[str, int], MLPPolicy] = {}


def cached_policy(path: str | Path) -> MLPPolicy:
    """:func:`load_policy`, read once per process for each version of the file."""
    resolved = Path(path).resolve()
    try:
        key = (str(resolved), resolved.stat().st_mtime_ns)
    except OSError as exc:
        raise ArenaError(f"{path}: cannot read the policy ({exc.strerror})") from None
    if key not in _loaded:
        _loaded[key] = load_policy(resolved)
    return _loaded[key]


class SavedPolicyBot(PolicyBot):
    """A bot that plays a network saved with :meth:`MLPPolicy.save`: ``NAME:file=agent.npz``."""

    in_default_field = False

    def __init__(self, file: str = ""):
        self.file = file
        self.network = cached_policy(file)

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> None:
        """The file must be given and hold a network."""
        if not params.get("file"):
            raise ArenaError("give the policy file: file=PATH.npz")
        cached_policy(params["file"])

    def start(self, info: MatchInfo) -> None:
        """Refuse a game the network was not trained for."""
        if info.game != self.network.game:
            raise ArenaError(f"{self.file} was trained for {self.network.game}, not {info.game}")

    def act(self, obs: Any) -> Any:
        """The network's best legal action."""
        return self.chosen(obs, self.network, game_class(self.network.game), self.network.form)
