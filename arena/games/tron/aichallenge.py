"""Import games recorded by the Google AI Challenge 2010 (Tron) referee as arena records.

The input is the map in the challenge's own format (a line ``W H``, then ``H`` rows of ``#``, space,
``1``, ``2``), followed by the players' moves as ``N``/``E``/``S``/``W`` letters, either

* two lines, the first with player 1's moves and the second with player 2's (``NNEE...``), or
* one line per turn with both players' moves (``N S`` or ``NS``),

and optionally a last line with the referee's verdict: ``winner 1``, ``winner 2`` or ``draw``. With a
verdict, the record carries it, so ``arena replay --check`` compares the challenge's referee with arena's
rules; without one, the imported record carries the result arena's rules give.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Result
from arena.core.maps import parse_map
from arena.core.records import build_record

_VERDICT = re.compile(r"^\s*(winner\s+([12])|draw)\s*$", re.IGNORECASE)
_MOVES = re.compile(r"^[NESW]+$")
_TURN = re.compile(r"^([NESW])\s*([NESW])$")


def parse_aic(text: str, where: str) -> tuple[str, list[dict[int, str]], tuple[int, int] | None]:
    """Split an AI Challenge game into its map text, its turns, and the recorded ranks (if given)."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    size = re.match(r"^\s*(\d+)\s+(\d+)\s*$", lines[0]) if lines else None
    if not size:
        raise ArenaError(f"{where}:1: expected the map size 'W H' on the first line")
    height = int(size.group(2))
    if len(lines) < height + 1:
        raise ArenaError(f"{where}: the map declares {height} rows but the file has {len(lines) - 1} lines")
    map_text = "\n".join(lines[: height + 1]) + "\n"
    rest = [(number, line.strip()) for number, line in enumerate(lines[height + 1:], start=height + 2) if line.strip()]
    ranks = None
    if rest and _VERDICT.match(rest[-1][1]):
        verdict = _VERDICT.match(rest.pop()[1])
        assert verdict is not None
        ranks = (1, 1) if verdict.group(2) is None else ((1, 2) if verdict.group(2) == "1" else (2, 1))
    if len(rest) == 2 and all(_MOVES.match(line) for _, line in rest):
        first, second = rest[0][1], rest[1][1]
        if len(first) != len(second):
            raise ArenaError(f"{where}:{rest[1][0]}: player 2 has {len(second)} moves but player 1 has {len(first)}")
        turns = [{0: a, 1: b} for a, b in zip(first, second, strict=True)]
    else:
        turns = []
        for number, line in rest:
            match = _TURN.match(line)
            if not match:
                raise ArenaError(f"{where}:{number}: expected two moves among N, E, S, W (like 'N S'), got {line!r}")
            turns.append({0: match.group(1), 1: match.group(2)})
    return map_text, turns, ranks


def import_aic(path: str | Path, registry: Any) -> dict[str, Any]:
    """Read one AI Challenge game file and return its arena record."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"{path}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    map_text, turns, ranks = parse_aic(text, str(path))
    game_map = parse_map(map_text, name=path.stem, path=str(path))
    game_cls = registry.game("tron")
    game_cls.check_map(game_map)
    options = game_cls.resolve_options({})
    if ranks is None:
        game = game_cls(game_map, options, np.random.default_rng(0))
        for index, actions in enumerate(turns):
            if game.result is not None:
                raise ArenaError(f"{path}: the game ends after turn {index} by arena's rules, but the file has "
                                 f"{len(turns)} turns; add the referee's verdict to compare")
            game.apply(actions)
        if game.result is None:
            raise ArenaError(f"{path}: the game is not over after its {len(turns)} turns")
        result = game.result
    else:
        result = Result(ranks, "recorded by the AI Challenge 2010 referee")
    players = [{"seat": 0, "bot": "aichallenge-player-1", "version": "imported"},
               {"seat": 1, "bot": "aichallenge-player-2", "version": "imported"}]
    return build_record(game="tron", options=options, game_map=game_map, seed=0, players=players, turns=turns,
                        result=result)
