"""Before a tournament: refuse a game a program's protocol cannot express, and build every program once."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from arena.core.bot import BotSpec
from arena.core.errors import ArenaError
from arena.core.failure import BotFailure
from arena.plugins.programs.bot import ProgramBot
from arena.plugins.programs.manifest import Program
from arena.plugins.programs.protocols import protocol_named
from arena.plugins.registry import Registry


def prepare_programs(specs: Sequence[BotSpec], game: str, setups: Sequence[tuple[int, Mapping[str, str]]],
                     registry: Registry, build: Callable[[Program], None] | None = None
                     ) -> tuple[list[BotSpec], list[str]]:
    """The bots that can play, and one line for each program bot left out because its build failed.

    ``setups``: the players and resolved options of each map. A program whose protocol cannot play one of
    them is an :class:`ArenaError` before any game is played. ``build``, if given, builds each program
    instead of its class's ``prepare()`` (a sandboxed run builds in the sandbox).
    """
    playing: list[BotSpec] = []
    skipped: list[str] = []
    for spec in specs:
        cls = registry.bot(spec.name).cls
        if not issubclass(cls, ProgramBot):
            playing.append(spec)
            continue
        protocol = cls.program.protocol if cls.program is not None else str(spec.params.get("protocol", "arena-json"))
        for seats, options in setups:
            try:
                protocol_named(protocol).check_game(game, options, seats)
            except ArenaError as exc:
                raise ArenaError(f"bot {spec.label}: {exc}") from None
        try:
            if build is not None and cls.program is not None:
                build(cls.program)
            else:
                cls.prepare()
        except BotFailure as failure:
            skipped.append(f"bot {spec.label} left out: {failure.detail}")
            continue
        playing.append(spec)
    return playing, skipped
