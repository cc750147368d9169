"""The final's brackets and tiebreaks as pure functions: the matches of a 3- and a 5-bot double elimination
(byes for the top seeds, the losers' bracket, the grand final and its reset), and the round robin's tiebreaks
applied in order, each deciding once."""

from arena.league.brackets import BYE, DOUBLE, SINGLE, champion, layout, resolve, seed_order, standing
from arena.league.tiebreaks import Standing, order, pairwise


def play_out(fmt, seeds, upsets):
    """Decide every match wave by wave: the better seed wins unless the match's id is in ``upsets``; returns
    the matches as (id, a, b, status, winner) and the final states."""
    winners = {}
    while True:
        states = resolve(layout(fmt, len(seeds)), seeds, winners)
        ready = [s for s in states if s.status == "ready"]
        if not ready:
            return [(s.spec.id, s.a, s.b, s.status, s.winner) for s in states], states
        for s in ready:
            better, worse = sorted((s.a, s.b), key=seeds.index)
            winners[s.spec.id] = worse if s.spec.id in upsets else better


def test_seeds_meet_the_last_seeds_and_the_top_two_meet_last():
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_three_bots_double_elimination_seed_one_has_a_bye_and_the_reset_is_played():
    matches, states = play_out(DOUBLE, [30, 20, 10], upsets={"GF"})
    assert matches == [
        ("W1-1", 30, BYE, "bye", 30),
        ("W1-2", 20, 10, "decided", 20),
        ("W2-1", 30, 20, "decided", 30),
        ("L1-1", BYE, 10, "bye", 10),
        ("L2-1", 10, 20, "decided", 20),
        ("GF", 30, 20, "decided", 20),  # the losers' champion wins: both have lost once
        ("GF2", 20, 30, "decided", 30),
    ]
    assert champion(states) == 30
    far = standing(states, DOUBLE)
    assert sorted(far, key=lambda v: -far[v]) == [30, 20, 10]


def test_five_bots_double_elimination_exact_bracket():
    matches, states = play_out(DOUBLE, [1, 2, 3, 4, 5], upsets={"W1-2", "W2-2", "L3-1"})
    assert matches == [
        ("W1-1", 1, BYE, "bye", 1),
        ("W1-2", 4, 5, "decided", 5),
        ("W1-3", 2, BYE, "bye", 2),
        ("W1-4", 3, BYE, "bye", 3),
        ("W2-1", 1, 5, "decided", 1),
        ("W2-2", 2, 3, "decided", 3),
        ("W3-1", 1, 3, "decided", 1),
        ("L1-1", BYE, 4, "bye", 4),
        ("L1-2", BYE, BYE, "bye", BYE),
        ("L2-1", 4, 2, "decided", 2),  # the second round's losers drop in reverse order
        ("L2-2", BYE, 5, "bye", 5),
        ("L3-1", 2, 5, "decided", 5),
        ("L4-1", 5, 3, "decided", 3),
        ("GF", 1, 3, "decided", 1),
        ("GF2", None, None, "not needed", None),  # the winners' champion won: no reset
    ]
    assert champion(states) == 1
    far = standing(states, DOUBLE)
    assert [far[v] for v in (1, 3, 5, 2, 4)] == [9, 6, 4, 3, 2]


def test_single_elimination_of_five_puts_the_losers_out_by_round():
    matches, states = play_out(SINGLE, [1, 2, 3, 4, 5], upsets=set())
    assert [m for m in matches if m[3] == "decided"] == [
        ("W1-2", 4, 5, "decided", 4), ("W2-1", 1, 4, "decided", 1), ("W2-2", 2, 3, "decided", 2),
        ("W3-1", 1, 2, "decided", 1)]
    far = standing(states, SINGLE)
    assert (far[1], far[2], far[3], far[4], far[5]) == (5, 3, 2, 2, 1)


def test_each_tiebreak_decides_once_in_order():
    # a: 4 points, b c d: 3 points each (d wins the head to head among them), e f: 2 points, e with the
    # better Sonneborn-Berger; g h: 1 point (g more wins), i j: 0.5 (i the better rating), k l: level, seed.
    against = {("b", "c"): 1.0, ("c", "b"): 0.0, ("d", "b"): 1.0, ("b", "d"): 0.0, ("d", "c"): 1.0,
               ("c", "d"): 0.0, ("e", "a"): 1.0, ("a", "e"): 0.0, ("f", "k"): 1.0, ("k", "f"): 0.0}
    rows = [Standing("a", 4, 4, 20.0, 1), Standing("b", 3, 3, 20.0, 2), Standing("c", 3, 3, 20.0, 3),
            Standing("d", 3, 3, 20.0, 4), Standing("e", 2, 2, 20.0, 5), Standing("f", 2, 2, 20.0, 6),
            Standing("g", 1, 1, 20.0, 7), Standing("h", 1, 0, 20.0, 8), Standing("i", 0.5, 0, 3.0, 9),
            Standing("j", 0.5, 0, 2.0, 10), Standing("k", 0, 0, 1.0, 11), Standing("l", 0, 0, 1.0, 12)]
    ranked = [(s.bot, rule) for s, rule in order(rows, against)]
    assert ranked == [("a", "score"), ("d", "head-to-head"), ("b", "head-to-head"), ("c", "score"),
                      ("e", "Sonneborn-Berger"), ("f", "score"), ("g", "wins"), ("h", "score"),
                      ("i", "TrueSkill"), ("j", "score"), ("k", "seed"), ("l", "")]


def test_points_between_players_are_pairwise_by_rank():
    assert pairwise((1, 2), (1, 2)) == {(1, 2): 1.0, (2, 1): 0.0}
    assert pairwise((1, 2, 3), (1, 1, 2)) == {(1, 2): 0.5, (1, 3): 1.0, (2, 1): 0.5, (2, 3): 1.0,
                                               (3, 1): 0.0, (3, 2): 0.0}
