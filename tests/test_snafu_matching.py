import numpy as np
import pytest

from arena.engines.tron.snafu.strategy import PAPER_STRATEGIES
from arena.engines.tron.snafu.table import NO_MATCH, Table, decision, decisive_entries, is_beaten
from arena.learning.tron.snafu.automaton import Automaton


def unit(vector):
    norm = np.linalg.norm(vector)
    return vector / norm if norm > 0 else np.zeros_like(vector)


def by_scan(table, query):
    """The rule as written: the first entry of highest similarity, by computing every similarity (summed
    over the coordinates in the library's order, one rounding per operation, so equal means equal)."""
    if table.size == 0:
        return -1, 0.0
    units, direction = table.units[: table.size], unit(query)
    similarities = np.zeros(table.size)
    for i in range(table.dim):
        similarities = similarities + units[:, i] * direction[i]
    best = int(np.argmax(similarities))  # the first of the highest
    return best, float(similarities[best])


def by_rule(table, query, c, t):
    best, similarity = by_scan(table, query)
    return NO_MATCH if best < 0 else decision(table.scores[best], similarity, c, t)


@pytest.mark.parametrize(("c", "t"), [(0.5, 3), (0.5, 0), (0.9, 2), (0.0, 5)])
def test_choices_through_the_decisive_entries_equal_the_rule_applied_to_every_entry(c, t):
    # Coarse values repeat directions often (exact ties between entries, zero vectors): the hard cases.
    rng = np.random.default_rng(int(10 * c + t))
    table = Table(4)
    for state in rng.integers(-4, 5, size=(2500, 4)) / 2:
        table.row(state)
    table.scores[: table.size] = rng.integers(-6, 7, size=(table.size, 3))
    choices = set()
    for query in np.vstack([rng.integers(-4, 5, size=(400, 4)) / 2, rng.normal(size=(100, 4))]):
        expected = by_rule(table, query, c, t)
        assert table.choose(query, c, t) == expected
        choices.add(expected)
    assert NO_MATCH in choices and len(choices) > 1  # both outcomes of the rule were exercised


def test_decisive_entries_are_those_whose_best_decision_beats_both_others_by_more_than_t():
    scores = np.array([[4, 0, 0], [3, 0, 0], [0, -5, 5], [2, 2, -9], [0, 0, 0], [-1, -9, -9]], dtype=np.int64)
    assert decisive_entries(scores, 6, 3.0).tolist() == [0, 2, 5]
    assert decisive_entries(scores, 6, 0.0).tolist() == [0, 1, 2, 5]
    assert decisive_entries(scores, 4, 3.0).tolist() == [0, 2]  # only the first size entries


def test_an_entry_is_beaten_only_by_a_more_similar_or_an_earlier_as_similar_one():
    rng = np.random.default_rng(9)
    table = Table(3)
    for state in rng.normal(size=(300, 3)):
        table.row(state)
    for power in range(6):  # one direction, six entries (exact multiples: exactly one unit vector)
        table.row(np.array([3.0, -4.0, 12.0]) * 2.0 ** power)
    query = unit(np.array([3.0, -4.0, 12.0]))
    best, similarity = by_scan(table, query)
    assert best == 300
    assert not is_beaten(table.units, table.size, query, best, similarity)
    for later in range(301, 306):  # as similar, but later: beaten by the first of them
        assert is_beaten(table.units, table.size, query, later, similarity)
    for other in rng.choice(300, 50, replace=False):
        other_similarity = float(sum(table.units[other, i] * query[i] for i in range(3)))
        assert is_beaten(table.units, table.size, query, int(other), other_similarity)


def test_a_learned_table_chooses_as_the_rule_for_states_of_its_games():
    strategy = PAPER_STRATEGIES[1]  # PR t=3: its tables hold many decisive entries
    automaton = Automaton(strategy)
    automaton.play(15, 15, 300, seed=3)
    table = automaton.table
    assert len(decisive_entries(table.scores, table.size, strategy.t)) > 100
    choices = []
    for query in table.states[: table.size : 5]:
        choices.append(table.choose(query, strategy.c, strategy.t))
        assert choices[-1] == by_rule(table, query, strategy.c, strategy.t)
    assert len(set(choices)) == 4  # straight, right, left and no match all occur
