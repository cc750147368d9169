"""Playing a recorded game again: the same game, map, options and seed, with each bot at the version the
record names (the current bot when it is still that version, else the stored one, ``name@version``), to
see whether the bots make the same moves."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from arena.core.bot import parse_bot_spec
from arena.core.clock import PLAIN, TimeControl
from arena.core.errors import ArenaError
from arena.core.maps import parse_map
from arena.play.limits import MoveGuard, alarm_tick
from arena.play.referee import MatchOutcome, MatchSetup, play
from arena.play.strays import swept
from arena.plugins.registry import PluginConfig, Registry
from arena.plugins.stored import VERSION_MARK
from arena.storage.sources import use_stored_versions


@dataclass(frozen=True)
class Rerun:
    """A recorded game played again: the new outcome, and the first way it differs from the record (``""``
    when the moves and the result are the same)."""

    outcome: MatchOutcome
    specs: tuple[str, ...]
    difference: str


def rerun_specs(record: dict[str, Any], registry: Registry) -> list[str]:
    """Each player's bot spec at the version the record names: as recorded when the registered bot is that
    version, else its stored version ``name@version``."""
    texts = []
    for player in record["players"]:
        label, version = str(player["bot"]), str(player.get("version", ""))
        name, _ = parse_bot_spec(label)
        if VERSION_MARK in name:
            texts.append(label)
            continue
        try:
            current = registry.version_of(registry.spec(label))
        except ArenaError:
            current = None
        texts.append(label if current == version else label.replace(name, f"{name}{VERSION_MARK}{version}", 1))
    return texts


def rerun(record: dict[str, Any], registry: Registry, config: PluginConfig, db: Any, time_limit: float | None,
          time_control: TimeControl = PLAIN) -> Rerun:
    """Play a validated record's game again in this process, each bot at its recorded version (stored versions
    come from database ``db``), with ``time_limit`` seconds a move and ``time_control``."""
    texts, config = use_stored_versions(rerun_specs(record, registry), db, registry, config)
    game_cls = registry.game(record["game"])
    game_map = None
    if record.get("map") is not None:
        game_map = parse_map(record["map"]["text"], name=record["map"].get("name", "map"))
    options = {str(key): str(value) for key, value in record["options"].items()}
    setup = MatchSetup(game_cls.name, tuple(registry.spec(text) for text in texts), game_map, options,
                       int(record["seed"]), time_limit, time_control=time_control)
    guard = MoveGuard()
    with guard.installed(alarm_tick(setup.move_seconds())):
        outcome = swept(setup, registry, None, partial(play, setup, registry, guard=guard))
    return Rerun(outcome, tuple(texts), _difference(record, outcome.record(setup)))


def _difference(recorded: dict[str, Any], again: dict[str, Any]) -> str:
    for number, (before, now) in enumerate(zip(recorded["turns"], again["turns"], strict=False), start=1):
        if before != now:
            return f"turn {number}: recorded {_moves(before)}, now {_moves(now)}"
    if len(recorded["turns"]) != len(again["turns"]):
        return f"the record has {len(recorded['turns'])} turns, the game played again {len(again['turns'])}"
    if recorded["result"]["ranks"] != again["result"]["ranks"]:
        return f"ranks: recorded {recorded['result']['ranks']}, now {again['result']['ranks']}"
    return ""


def _moves(turn: dict[str, Any]) -> str:
    return " ".join(f"{int(seat) + 1}:{action}" for seat, action in sorted(turn.items())) or "none"
