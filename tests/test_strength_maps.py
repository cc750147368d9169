"""The strength maps of ``experiments/maps``: fair to both seats and playable, so a score on them measures the bots."""

from pathlib import Path

import numpy as np
import pytest

from arena.core.maps import load_map
from arena.games.tron.game import TronGame

MAPS = sorted((Path(__file__).parent.parent / "experiments" / "maps").glob("*/*.txt"))

APART = {"corridors_30"}
"""Maps where the heads never meet: corridors_30's two middle walls have gaps that don't line up, so each
player fills its own half from the first move (a test of the space-filling search alone)."""


def reachable(rows, start):
    """The cells a head at ``start`` can reach."""
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt not in seen and rows[nxt[1]][nxt[0]] != "#":
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_every_set_of_strength_maps_is_found():
    assert {path.parent.name for path in MAPS} == {"tuning", "heldout", "fresh"}
    assert len(MAPS) == 18


@pytest.mark.parametrize("path", MAPS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_a_strength_map_is_point_symmetric_closed_and_both_heads_can_meet(path):
    game_map = load_map(path)
    rows, width, height = game_map.rows, game_map.width, game_map.height
    heads = {char: (x, y) for x, y, char in game_map.cells() if char in "12"}
    assert set(heads) == {"1", "2"}
    (x1, y1), (x2, y2) = heads["1"], heads["2"]
    assert (x2, y2) == (width - 1 - x1, height - 1 - y1)  # the seats mirror each other
    for x, y, char in game_map.cells():
        assert (char == "#") == (rows[height - 1 - y][width - 1 - x] == "#"), (x, y)
        if x in (0, width - 1) or y in (0, height - 1):
            assert char == "#", (x, y)
    assert (heads["2"] in reachable(rows, heads["1"])) == (path.stem not in APART)  # one region: they fight
    TronGame(game_map, {}, np.random.default_rng(0))  # and the game takes it
