"""What the paper leaves open, as settings of a training run: the network's initial weights (``init``), the
loser's reward (``loss_reward``), the learning rate (``learning_rate``; 0 is the no-learning control), the
network's inputs (``network_inputs``) and the table's key (``key``). Both ``arena train pawnrace-td`` and
``arena playability pawnrace`` build their runs' settings here, so the two commands read the paper alike.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, replace
from typing import Any

from arena.core.errors import ArenaError
from arena.engines.pawnrace.td_model import INPUTS, KEYS
from arena.games.pawnrace.rules import Setup
from arena.learning.pawnrace.initial_weights import parse_init
from arena.learning.pawnrace.td_network import network_settings
from arena.learning.pawnrace.td_table import TdSettings

READINGS = ("init", "loss_reward", "learning_rate", "network_inputs", "key")
"""The settings' names (``--init``, ``--loss-reward``, ``--learning-rate``, ``--network-inputs``, ``--key``)."""

_FIELDS = {"learning_rate": "alpha"}  # the settings' field of a reading, where the names differ


def td_settings(setup: Setup, learner: str, games: int, block: int, seed: int, readings: Mapping[str, Any],
                lam: float = 0.5, greedy: float = 0.9) -> TdSettings:
    """A run's settings: the paper's, with the ``readings`` given (names of :data:`READINGS`; any other, or one
    the learner has no use for, is a one-line error)."""
    if games < 1 or block < 1 or not 0 <= greedy <= 1:
        raise ArenaError("--games and --block must be at least 1, and --greedy between 0 and 1")
    check_readings(learner, readings)
    settings = TdSettings(setup.n, setup.a, setup.pawns, setup.removal, setup.max_moves, games, lam,
                          greedy=greedy, seed=seed, block=block)
    settings = replace(settings, **{_FIELDS.get(name, name): value for name, value in readings.items()})
    if learner == "network":
        return network_settings(settings)
    return replace(settings, init="zero")


def check_resumed(settings: TdSettings, readings: Mapping[str, Any]) -> None:
    """Refuse, in one line, a reading given to a resumed run that differs from the one the run started with."""
    stored = asdict(settings)
    for name, value in readings.items():
        kept = stored[_FIELDS.get(name, name)]
        if kept != value:
            flag = "--" + name.replace("_", "-")
            raise ArenaError(f"the run to resume was started with {flag} {kept}: a resumed run keeps its settings")


def check_readings(learner: str, readings: Mapping[str, Any]) -> None:
    """Refuse, in one line, a reading ``learner`` has no use for or a value outside its choices."""
    for name in readings:
        if name not in READINGS:
            raise ArenaError(f"{name!r} is not a setting of the pawn race's learners: {', '.join(READINGS)}")
    init, inputs, key = readings.get("init"), readings.get("network_inputs"), readings.get("key")
    if init is not None:
        parse_init(init)
    if inputs is not None and inputs not in INPUTS:
        raise ArenaError(f"--network-inputs {inputs!r} is not one of: {', '.join(INPUTS)}")
    if key is not None and key not in KEYS:
        raise ArenaError(f"--key {key!r} is not one of: {', '.join(KEYS)}")
    rate, loss = readings.get("learning_rate"), readings.get("loss_reward")
    if rate is not None and not (math.isfinite(rate) and rate >= 0):
        raise ArenaError(f"--learning-rate must be 0 or more, not {rate}")
    if loss is not None and not math.isfinite(loss):
        raise ArenaError("--loss-reward must be a finite number")
    if learner == "table":
        if init not in (None, "zero"):
            raise ArenaError(f"--init {init} is for the network learner: a table starts at zero")
        if inputs is not None:
            raise ArenaError("--network-inputs is for the network learner, not the table")
    elif key is not None:
        raise ArenaError("--key is for the table learner, not the network")
