import numpy as np
import pytest

from arena.learning.tron.snafu.automaton import Automaton
from arena.learning.tron.snafu.index import MatchIndex, indexed_best, scan_best
from arena.learning.tron.snafu.strategy import PAPER_STRATEGIES
from arena.learning.tron.snafu.table import Table


def unit(vector):
    norm = np.linalg.norm(vector)
    return vector / norm if norm > 0 else np.zeros_like(vector)


def by_scan(table, query):
    return scan_best(table.units, 0, table.size, unit(query), -1, -np.inf)


@pytest.mark.parametrize(("dim", "size", "seed"), [(2, 300, 0), (4, 3000, 1), (5, 1000, 2), (8, 5000, 3)])
def test_the_index_finds_exactly_what_a_scan_finds_ties_included(dim, size, seed):
    # Coarse values in [-2, 2] repeat directions often (ties, duplicates, zero vectors), the hard cases.
    rng = np.random.default_rng(seed)
    table = Table(dim)
    for state in rng.integers(-4, 5, size=(size, dim)) / 2:
        table.row(state)
    queries = np.vstack([rng.integers(-4, 5, size=(400, dim)) / 2, rng.normal(size=(100, dim)),
                         table.states[: min(100, table.size)]])
    for query in queries:
        assert indexed_best(table.units, table.size, table.match_tree(), unit(query), -1) == by_scan(table, query)


def test_entries_added_after_the_tree_are_scanned_until_it_is_rebuilt():
    rng = np.random.default_rng(7)
    table = Table(3)
    for state in rng.normal(size=(2000, 3)):
        table.row(state)
    assert table.match_tree()[0] == 2000  # the tree holds every entry
    tail = rng.normal(size=(MatchIndex.TAIL_MIN, 3))
    for state in tail:
        table.row(state)
    assert table.match_tree()[0] == 2000  # a short tail is scanned, not indexed
    for query in np.vstack([tail, rng.normal(size=(200, 3))]):
        assert indexed_best(table.units, table.size, table.match_tree(), unit(query), -1) == by_scan(table, query)
    table.row(rng.normal(size=3))
    assert table.match_tree()[0] == table.size == 2000 + MatchIndex.TAIL_MIN + 1  # rebuilt past the limit


def test_an_empty_table_matches_nothing():
    table = Table(4)
    assert indexed_best(table.units, 0, table.match_tree(), unit(np.ones(4)), -1) == (-1, 0.0)


def test_a_learned_table_answers_every_state_of_its_games_as_a_scan_does():
    automaton = Automaton(PAPER_STRATEGIES[5])
    automaton.play(15, 15, 200, seed=3)
    table = automaton.table
    assert table.size > 4000
    for query in table.states[: table.size : 7]:
        assert indexed_best(table.units, table.size, table.match_tree(), unit(query), -1) == by_scan(table, query)


def test_of_many_entries_with_the_same_direction_the_earliest_is_found():
    # (3, -4) times powers of two all have the unit vector (0.6, -0.8) exactly, the lowest y of the table: the
    # tree's first split puts the earliest of them in a node of their own, whose bound equals the best
    # similarity exactly and which is searched after a node holding later ones.
    angles = np.linspace(-0.9, 0.9, 300)
    table = Table(2)
    for angle in angles:
        table.row(np.array([np.cos(angle), np.sin(angle)]))
    first = table.size
    for power in range(-200, 200):
        table.row(np.array([3.0, -4.0]) * 2.0 ** power)
    assert table.match_tree()[0] == table.size  # the tree holds them all
    best = indexed_best(table.units, table.size, table.match_tree(), unit(np.array([3.0, -4.0])), -1)
    assert best == by_scan(table, np.array([3.0, -4.0]))
    assert best[0] == first


def test_any_hint_gives_the_same_answer():
    rng = np.random.default_rng(5)
    table = Table(4)
    for state in rng.integers(-3, 4, size=(3000, 4)) / 2:
        table.row(state)
    indexed = table.size
    assert table.match_tree()[0] == indexed
    for state in rng.normal(size=(200, 4)):  # a tail past the tree, where hints land too
        table.row(state)
    assert table.match_tree()[0] == indexed
    for query in rng.integers(-3, 4, size=(300, 4)) / 2:
        expected = by_scan(table, query)
        for hint in (-1, 0, expected[0], expected[0] - 1, table.size - 1, indexed + 50, int(rng.integers(table.size))):
            assert indexed_best(table.units, table.size, table.match_tree(), unit(query), hint) == expected


def test_a_hint_past_the_tree_does_not_hide_an_earlier_entry_of_the_same_direction():
    rng = np.random.default_rng(9)
    table = Table(3)
    for state in rng.normal(size=(1000, 3)):
        table.row(state)
    assert table.match_tree()[0] == 1000
    for power in range(6):  # the tail: one direction, six entries (exact multiples: exactly one unit vector)
        table.row(np.array([3.0, -4.0, 12.0]) * 2.0 ** power)
    for hint in range(1000, 1006):
        assert indexed_best(table.units, table.size, table.match_tree(), unit(np.array([3.0, -4.0, 12.0])),
                            hint)[0] == 1000
