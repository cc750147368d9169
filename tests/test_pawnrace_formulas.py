"""The pawn race's TD(lambda) updates against the paper's formulas (Kalles and Kanellopoulos 2001, sections
3.1 and 3.2), worked out by hand on short episodes: the numbers below come from the formulas, not from running
the code. The compiled network learner is checked move for move against ``SideLearner`` in
``test_pawnrace_network.py``."""

import math

import numpy as np
import pytest

from arena.engines.pawnrace.td_model import Network, position_key, unmoved
from arena.games.pawnrace.rules import Position, legal_moves, move_name, play
from arena.learning.pawnrace.network_reference import SideLearner
from arena.learning.pawnrace.td_table import TableLearner, TdSettings, TdTableTrainer


class ScriptedTrainer(TdTableTrainer):
    """The table learners, each move given instead of chosen: the learning is the trainer's own."""

    def __init__(self, settings, moves):
        super().__init__(settings)
        self.script = iter(moves)

    def choose(self, side, position):
        setup = self.settings.setup
        wanted = next(self.script)
        move = next(m for m in legal_moves(setup, position) if move_name(m) == wanted)
        after = play(setup, position, move)
        value = 0.0 if after.over else self.tables[side].get(position_key(unmoved(after), self.settings.key), 0.0)
        return move, after, value


def test_the_tabular_update_on_the_shortest_game_matches_the_papers_formulas_by_hand():
    # 5 x 5, a = 2, one pawn: white wins in 4 moves. gamma = 1, lambda = 0.5; alpha = 0.1 (the paper's 0.001
    # would give the same arithmetic with smaller numbers). Rewards: -1 a move, +50 the winner's last move,
    # -50 the loser's. V(s) += alpha * e(s) * (r + V(s') - V(s)), e = 1 for the state just left (replacing),
    # else e *= gamma * lambda.
    white_moves, black_moves = ["base-c2", "c2-c3", "c3-d3", "d3-d4"], ["base-e3", "e3-e2", "e2-e1"]
    script = [move for pair in zip(white_moves, [*black_moves, None], strict=True) for move in pair if move]
    trainer = ScriptedTrainer(TdSettings(n=5, a=2, pawns=1, alpha=0.1, games=1), script)
    w1, w2, w3 = "c2||0,1|b", "c3|e3|0,0|b", "d3|e2|0,0|b"  # the positions white's first three moves leave
    b1, b2, b3 = "c2|e3|0,0|w", "c3|e2|0,0|w", "d3|e1|0,0|w"
    trainer.tables[0][w2] = 10.0  # one state valued before the game, so V(s') is not always 0
    assert trainer.play_game() == (0, 7)
    # white: move 1 leaves w1 (e(w1) = 1).
    # move 2: r = -1, V(w2) = 10: delta = -1 + 10 - 0 = 9; V(w1) = 0 + 0.1*1*9 = 0.9; e(w1) = 0.5, e(w2) = 1.
    # move 3: r = -1, V(w3) = 0: delta = -1 + 0 - 10 = -11; V(w1) = 0.9 + 0.1*0.5*(-11) = 0.35,
    #         V(w2) = 10 + 0.1*1*(-11) = 8.9; e(w1) = 0.25, e(w2) = 0.5, e(w3) = 1.
    # move 4 wins: r = +50, final: delta = 50 - V(w3) = 50; V(w1) = 0.35 + 0.1*0.25*50 = 1.6,
    #         V(w2) = 8.9 + 0.1*0.5*50 = 11.4, V(w3) = 0 + 0.1*1*50 = 5.
    assert trainer.tables[0] == pytest.approx({w1: 1.6, w2: 11.4, w3: 5.0}, abs=1e-12)
    # black: move 1 leaves b1. move 2: delta = -1 + 0 - 0 = -1; V(b1) = -0.1; e(b1) = 0.5, e(b2) = 1.
    # move 3: delta = -1 + 0 - V(b2) = -1; V(b1) = -0.1 + 0.1*0.5*(-1) = -0.15, V(b2) = -0.1;
    #         e(b1) = 0.25, e(b2) = 0.5, e(b3) = 1.
    # white's win: black's last move led to defeat, r = -50: delta = -50 - V(b3) = -50;
    #         V(b1) = -0.15 + 0.1*0.25*(-50) = -1.4, V(b2) = -0.1 + 0.1*0.5*(-50) = -2.6, V(b3) = -5.
    assert trainer.tables[1] == pytest.approx({b1: -1.4, b2: -2.6, b3: -5.0}, abs=1e-12)


def test_the_paper_key_forgets_the_waiting_pawns_and_the_trainer_uses_it():
    pawns = (frozenset({(2, 2)}), frozenset({(4, 2)}))
    one, two = Position(pawns, (1, 0), 1), Position(pawns, (0, 2), 1)
    assert position_key(one) == "c3|e3|1,0|b" and position_key(two) == "c3|e3|0,2|b"
    assert position_key(one, "paper") == position_key(two, "paper") == "c3|e3|b"
    trainer = ScriptedTrainer(TdSettings(n=5, a=2, pawns=1, alpha=0.1, games=1, key="paper"),
                              ["base-c2", "base-e3", "c2-c3", "e3-e2", "c3-d3", "e2-e1", "d3-d4"])
    trainer.play_game()
    assert sorted(trainer.tables[0]) == ["c2||b", "c3|e3|b", "d3|e2|b"]


def test_a_revisited_state_has_its_trace_replaced_not_accumulated():
    settings = TdSettings(alpha=0.1)  # gamma 1, lambda 0.5
    learner = TableLearner({})
    learner.visit("A")
    learner.learn(settings, -1.0, 0.0)  # delta = -1 + 0 - V(A)=0 = -1: V(A) = 0.1*1*(-1) = -0.1; e(A) -> 0.5
    learner.visit("B")
    learner.learn(settings, -1.0, learner.table["A"])
    # the move returned to A: delta = -1 + V(A)=-0.1 - V(B)=0 = -1.1: V(A) = -0.1 + 0.1*0.5*(-1.1) = -0.155,
    # V(B) = 0.1*1*(-1.1) = -0.11; e(A) -> 0.25, e(B) -> 0.5
    assert learner.table == pytest.approx({"A": -0.155, "B": -0.11}, abs=1e-12)
    learner.visit("A")
    assert learner.traces == {"A": 1.0, "B": 0.5}  # replacing: 1, where accumulating would give 0.25 + 1
    learner.learn(settings, 50.0, 0.0)
    # delta = 50 - V(A) = 50.155: V(A) = -0.155 + 0.1*1*50.155 = 4.8605, V(B) = -0.11 + 0.1*0.5*50.155 = 2.39775
    assert learner.table == pytest.approx({"A": 4.8605, "B": 2.39775}, abs=1e-12)


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def test_the_network_update_and_each_weights_eligibility_match_the_papers_formulas_by_hand():
    # A network of two inputs, one hidden unit and the output: V(x) = s(w2 h + b2), h = s(w1 . x + b1), s the
    # sigmoid. gamma = 0.95, lambda = 0.5, alpha = 0.1. The paper: theta += alpha delta e, delta = r + gamma V(s')
    # - V(s), e = gamma lambda e + grad V(s), e_0 = 0. Its rewards: "+1 for victory, -1 for defeat and 0
    # otherwise" (our default gives a defeat 0, --loss-reward -1 the paper's -1); this side wins: reward 1.
    network = Network(2, weights={"w1": [[0.5], [-0.5]], "b1": [0.0], "w2": [1.0], "b2": 0.0})
    learner = SideLearner(network, gamma=0.95, lam=0.5, alpha=0.1)
    x1, x2 = np.array([1.0, 0.0]), np.array([0.0, 1.0])

    # Move 1 leaves x1. No earlier state: no update. e = grad V(x1) at the initial weights:
    h1 = sigmoid(0.5)                         # 0.622459
    v1 = sigmoid(1.0 * h1 + 0.0)              # 0.650778
    d1 = v1 * (1 - v1)                        # dV/d(output sum) = 0.227266
    g1 = {"w2": d1 * h1,                      # 0.141464
          "b2": d1,                           # 0.227266
          "b1": d1 * 1.0 * h1 * (1 - h1),     # dV/dh * dh/d(hidden sum) = 0.053408
          }
    g1["w1"] = [g1["b1"] * 1.0, g1["b1"] * 0.0]  # times each input: x1 = (1, 0)
    learner.reached(x1)
    _assert_traces(learner, g1)
    assert (network.w1[:, 0].tolist(), network.b1[0], network.w2[0], network.b2) == ([0.5, -0.5], 0.0, 1.0, 0.0)

    # Move 2 leaves x2. delta = 0 + 0.95 V(x2) - V(x1), both at the weights as they stand:
    h2 = sigmoid(-0.5)                        # 0.377541
    v2 = sigmoid(h2)                          # 0.593280
    delta = 0.95 * v2 - v1                    # -0.087162
    step = 0.1 * delta
    w1 = [0.5 + step * g1["w1"][0], -0.5 + step * g1["w1"][1]]  # only the active input's weight moves
    b1 = 0.0 + step * g1["b1"]
    w2 = 1.0 + step * g1["w2"]
    b2 = 0.0 + step * g1["b2"]
    learner.reached(x2)
    _assert_weights(network, w1, b1, w2, b2)
    # then e = 0.475 e + grad V(x2), taken at the new weights:
    h2n = sigmoid(w1[1] * 1.0 + b1)
    v2n = sigmoid(w2 * h2n + b2)
    d2 = v2n * (1 - v2n)
    e2 = {"w2": 0.475 * g1["w2"] + d2 * h2n, "b2": 0.475 * g1["b2"] + d2,
          "b1": 0.475 * g1["b1"] + d2 * w2 * h2n * (1 - h2n)}
    e2["w1"] = [0.475 * g1["w1"][0] + 0.0, 0.475 * g1["w1"][1] + d2 * w2 * h2n * (1 - h2n) * 1.0]
    _assert_traces(learner, e2)

    # The side wins: r = 1, the final position worth nothing more: delta = 1 - V(x2) at the weights as they stand.
    delta = 1.0 - v2n
    step = 0.1 * delta
    learner.finish(1.0)
    _assert_weights(network, [w1[0] + step * e2["w1"][0], w1[1] + step * e2["w1"][1]], b1 + step * e2["b1"],
                    w2 + step * e2["w2"], b2 + step * e2["b2"])
    # the numbers, for the record: delta at move 2, and the weights after the win
    assert (round(0.95 * v2 - v1, 6), round(float(network.w2[0]), 6)) == (-0.087162, 1.005216)


def _assert_traces(learner, expected):
    e_w1, e_b1, e_w2, e_b2 = learner.traces
    assert e_w1[:, 0].tolist() == pytest.approx(expected["w1"], abs=1e-15)
    assert (float(e_b1[0]), float(e_w2[0]), float(e_b2)) == pytest.approx(
        (expected["b1"], expected["w2"], expected["b2"]), abs=1e-15)


def _assert_weights(network, w1, b1, w2, b2):
    assert network.w1[:, 0].tolist() == pytest.approx(w1, abs=1e-15)
    assert (float(network.b1[0]), float(network.w2[0]), network.b2) == pytest.approx((b1, w2, b2), abs=1e-15)
