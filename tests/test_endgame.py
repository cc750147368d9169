"""The exact space-filling solver, checked against plain enumeration of every path, and the bots' filling
search checked against it."""

import random

from arena.engines.tron.endgame import longest_path
from arena.engines.tron.search import Position, Searcher, free_bits
from tests.tron_positions import observe


def every_path_longest(free, head, stride):
    """The longest path by trying every path, no pruning at all."""
    best = 0
    for step in (-stride, 1, stride, -1):
        if free >> head + step & 1:
            best = max(best, 1 + every_path_longest(free & ~(1 << head + step), head + step, stride))
    return best


def random_region(rng, width, height, walls):
    """Rows of a ``width`` x ``height`` board with ``walls`` random walls, head 1 in a corner and head 2
    walled off in a one-cell pocket below a full row of walls."""
    cells = [["."] * width for _ in range(height)]
    for _ in range(walls):
        cells[rng.randrange(height)][rng.randrange(width)] = "#"
    cells[0][0] = "1"
    return ["".join(row) for row in cells] + ["#" * width, "2" + "#" * (width - 1)]


SEPARATED = [
    # (rows, longest path of head 1): corridors, rooms and dead ends, hand-checked
    (["1....",
      "####.",
      ".....",
      "#####",
      "2####"], 10),  # along the corridor, down, and back along the bottom row
    (["..#..",
      ".1...",
      "..#..",
      "#####",
      "2####"], 7),  # through the door and round the 2x3 room on the right; the left side is lost
    (["1...",
      "....",
      "....",
      "####",
      "2###"], 11),  # a full 4x3 room: every cell
    ([".1.",
      "...",
      "...",
      "###",
      "2##"], 7),  # parity: 5 of the 8 free cells have the colour the first move lands on, 3 the head's
]


def random_regions(seed, count):
    """``count`` random 5 x 4 regions (:func:`random_region`, up to five walls): rows, observation, free cells
    and head 1's cell."""
    rng = random.Random(seed)
    for _ in range(count):
        rows = random_region(rng, 5, 4, rng.randrange(0, 6))
        obs = observe(rows)
        yield rows, obs, free_bits(obs.cells), obs.heads[0]


def test_longest_path_on_hand_made_positions():
    for rows, expected in SEPARATED:
        obs = observe(rows)
        free, head = free_bits(obs.cells), obs.heads[0]
        assert not Position.from_observation(obs).in_contact()
        assert every_path_longest(free, head, obs.stride) == expected
        assert longest_path(free, head, obs.stride) == (expected, True)


def test_longest_path_equals_every_path_on_random_regions():
    for rows, obs, free, head in random_regions(seed=24, count=60):
        length, exact = longest_path(free, head, obs.stride)
        assert exact
        assert length == every_path_longest(free, head, obs.stride), rows


def test_longest_path_under_a_node_limit_is_a_lower_bound():
    obs = observe(["1.......",
                   "........",
                   "........",
                   "........",
                   "########",
                   "2#######"])
    free, head = free_bits(obs.cells), obs.heads[0]
    assert longest_path(free, head, obs.stride) == (31, True)  # 32 cells, a Hamiltonian path from the corner
    length, exact = longest_path(free, head, obs.stride, node_limit=3)
    assert not exact and 0 < length < 31


def test_the_fill_search_finds_the_longest_path_in_small_regions():
    for rows, obs, free, head in random_regions(seed=5, count=25):
        search = Searcher(obs.stride, len(obs.cells), evaluation="chamber")
        step, value, _ = search.fill_root(free, head, max_depth=40)
        expected, _ = longest_path(free, head, obs.stride)
        if not expected:
            continue
        # The move keeps the longest path open; its value (not searched when it is the only move) is exact.
        assert 1 + longest_path(free & ~(1 << head + step), head + step, obs.stride)[0] == expected, rows
        moves = sum(free >> head + d & 1 for d in search.steps)
        assert value == (expected if moves > 1 else 0), rows
