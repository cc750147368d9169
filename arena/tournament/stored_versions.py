"""Tournaments that name stored bot versions (``name@version``): the definition spelled out, and the config."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from arena.plugins.registry import PluginConfig, Registry
from arena.storage.sources import use_stored_versions
from arena.tournament.definition import TournamentDefinition


def with_stored_versions(definition: TournamentDefinition, db: str | Path | None, registry: Registry,
                         config: PluginConfig) -> tuple[TournamentDefinition, PluginConfig]:
    """``definition`` with each stored version it names (``-b``, ``--gauntlet``) spelled out in full and
    registered in ``registry``, and the configuration that loads them in worker processes too."""
    gauntlet = [definition.gauntlet] if definition.gauntlet else []
    texts, config = use_stored_versions([*definition.bots, *gauntlet], db, registry, config)
    bots = tuple(texts[:len(definition.bots)])
    return replace(definition, bots=bots, gauntlet=texts[-1] if gauntlet else None), config
