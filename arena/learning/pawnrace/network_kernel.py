"""One self-play game of the network learner, compiled with numba: the rules, the move choice and the
TD(lambda) updates of both sides' networks, so the paper's 74,000-game run takes minutes rather than hours.

The rules are those of :mod:`arena.games.pawnrace.rules` on a flat board (``0`` empty, ``1`` white, ``2``
black, cells numbered ``y * n + x``); :class:`Geometry` holds what the rules need to know of the board, computed
once. Random numbers come from SplitMix64, whose whole state is one integer, so a checkpoint holds it exactly
and a resumed run plays the same games as an uninterrupted one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from arena.games.pawnrace.rules import BLACK, STEPS, WHITE, Setup

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_BIN_SHARES = (0.0, 0.25, 0.5, 0.75)

Board = npt.NDArray[np.int8]
"""The cells of a position: 0 empty, 1 a white pawn, 2 a black one."""
Ints = npt.NDArray[np.int64]
"""Pawns waiting, the board's tables (bases, distances, neighbours, exits, inputs) and lists of moves or inputs."""
Floats = npt.NDArray[np.float64]
"""Weights, eligibility traces, input values and hidden layers."""


@dataclass(frozen=True)
class Geometry:
    """A board's fixed facts as arrays: which base a cell is in (-1 neither), each side's distance from its
    base, the four neighbours (-1 off the board), each base's exits, and each cell's input (-1 in a base)."""

    n: int
    pawns: int
    removal_all: bool
    max_moves: int
    base_of: np.ndarray
    distance: np.ndarray
    neighbours: np.ndarray
    exits: np.ndarray
    input_of: np.ndarray
    inputs: int
    printed: bool = False
    """One input per free square (1 white, -1 black) rather than two: the ``printed`` inputs of
    :data:`arena.engines.pawnrace.td_model.INPUTS`."""

    @classmethod
    def of(cls, setup: Setup, inputs: str = "parts") -> Geometry:
        """The arrays of ``setup``'s board, for the network ``inputs`` (``parts`` or ``printed``)."""
        n, cells = setup.n, setup.n * setup.n
        base_of = np.full(cells, -1, dtype=np.int64)
        distance = np.zeros((2, cells), dtype=np.int64)
        neighbours = np.full((cells, 4), -1, dtype=np.int64)
        input_of = np.full(cells, -1, dtype=np.int64)
        free = 0
        for y in range(n):
            for x in range(n):
                cell = y * n + x
                for side in (WHITE, BLACK):
                    if setup.in_base(side, (x, y)):
                        base_of[cell] = side
                    distance[side, cell] = setup.distance(side, (x, y))
                for step, (dx, dy) in enumerate(STEPS):
                    if setup.on_board((x + dx, y + dy)):
                        neighbours[cell, step] = (y + dy) * n + x + dx
                if base_of[cell] < 0:
                    input_of[cell] = free
                    free += 1
        exits = np.array([[y * n + x for x, y in setup.exits(side)] for side in (WHITE, BLACK)], dtype=np.int64)
        printed = inputs == "printed"
        return cls(n, setup.pawns, setup.removal == "all", setup.max_moves, base_of, distance, neighbours, exits,
                   input_of, (1 if printed else 2) * free + 2 + 8, printed)


def seed_state(seed: int) -> np.ndarray:
    """The random generator's state for ``seed``."""
    return np.array([seed % 2**64], dtype=np.uint64)


@njit(cache=True)
def next_double(state: np.ndarray) -> float:
    """A uniform number in [0, 1) from SplitMix64, advancing ``state``."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _below(state: np.ndarray, count: int) -> int:
    return min(int(next_double(state) * count), count - 1)


@njit(cache=True)
def _pawn_can_go(board: Board, side: int, cell: int, target: int, base_of: Ints, distance: Ints) -> bool:
    if target < 0 or base_of[target] == side or board[target] != 0:
        return False
    can: bool = base_of[target] == 1 - side or distance[side, target] >= distance[side, cell]
    return can


@njit(cache=True)
def legal_moves(board: Board, waiting: Ints, side: int, base_of: Ints, distance: Ints, neighbours: Ints, exits: Ints,
                origins: Ints, targets: Ints) -> int:
    """Fill ``origins`` and ``targets`` with ``side``'s legal moves (origin -1: from the base); their number."""
    count = 0
    if waiting[side] > 0:
        for target in exits[side]:
            if board[target] == 0:
                origins[count] = -1
                targets[count] = target
                count += 1
    for cell in range(board.shape[0]):
        if board[cell] != side + 1:
            continue
        for step in range(4):
            target = neighbours[cell, step]
            if _pawn_can_go(board, side, cell, target, base_of, distance):
                origins[count] = cell
                targets[count] = target
                count += 1
    return count


@njit(cache=True)
def _stuck(board: Board, side: int, cell: int, base_of: Ints, distance: Ints, neighbours: Ints) -> bool:
    for step in range(4):  # noqa: SIM110 - numba compiles the loop, not all() of a generator
        if _pawn_can_go(board, side, cell, neighbours[cell, step], base_of, distance):
            return False
    return True


@njit(cache=True)
def _remove_stuck(board: Board, waiting: Ints, to_move: int, removal_all: bool, base_of: Ints, distance: Ints,
                  neighbours: Ints, exits: Ints, doomed: Ints) -> None:
    found = 0  # every stuck pawn is found before any is removed
    blocked = np.zeros(2, dtype=np.bool_)
    for side in range(2):
        if not removal_all and side != to_move:
            continue
        for cell in range(board.shape[0]):
            if board[cell] == side + 1 and _stuck(board, side, cell, base_of, distance, neighbours):
                doomed[found] = cell
                found += 1
        if waiting[side] > 0:
            blocked[side] = True
            for target in exits[side]:
                if board[target] == 0:
                    blocked[side] = False
    for index in range(found):
        board[doomed[index]] = 0
    for side in range(2):
        if blocked[side]:
            waiting[side] = 0


@njit(cache=True)
def play_move(board: Board, waiting: Ints, side: int, origin: int, target: int, moves: int, removal_all: bool,
              max_moves: int, base_of: Ints, distance: Ints, neighbours: Ints, exits: Ints, doomed: Ints) -> int:
    """Play ``side``'s move in place, the ``moves``-th of the game counting from 1; the result: -2 the game goes
    on, -1 a draw, else the winning side."""
    if origin < 0:
        waiting[side] -= 1
    else:
        board[origin] = 0
    if base_of[target] == 1 - side:
        return side
    board[target] = side + 1
    _remove_stuck(board, waiting, 1 - side, removal_all, base_of, distance, neighbours, exits, doomed)
    left = np.zeros(2, dtype=np.int64)
    left[0], left[1] = waiting[0], waiting[1]
    for cell in range(board.shape[0]):
        if board[cell] > 0:
            left[board[cell] - 1] += 1
    if left[0] == 0 and left[1] == 0:
        return -1
    if left[1 - side] == 0:
        return side
    if left[side] == 0:
        return 1 - side
    if moves >= max_moves:
        return -1
    return -2


@njit(cache=True)
def active_inputs(board: Board, waiting: Ints, pawns: int, input_of: Ints, inputs: int, printed: bool, active: Ints,
                  signs: Floats) -> int:
    """Fill ``active`` with the indices of the non-zero inputs of a position that goes on and ``signs`` with
    their values (1, or -1 for a black pawn's square with ``printed`` inputs); their number."""
    count = 0
    for cell in range(board.shape[0]):
        if board[cell] > 0:
            if printed:
                active[count] = input_of[cell]
                signs[count] = 1.0 if board[cell] == 1 else -1.0
            else:
                active[count] = 2 * input_of[cell] + board[cell] - 1
                signs[count] = 1.0
            count += 1
    beta = max(pawns, 1)
    for side in range(2):
        for bin_index in range(4):
            if waiting[side] > _BIN_SHARES[bin_index] * beta:
                active[count] = inputs - 8 + 4 * side + bin_index
                signs[count] = 1.0
                count += 1
    return count


@njit(cache=True)
def network_value(w1: Floats, b1: Floats, w2: Floats, b2: float, active: Ints, signs: Floats, count: int,
                  hidden: Floats) -> float:
    """The network's output for the inputs ``active[:count]`` of values ``signs[:count]`` (all others 0), its
    hidden layer in ``hidden``."""
    total = b2
    for j in range(b1.shape[0]):
        sum_in = b1[j]
        for index in range(count):
            sum_in += signs[index] * w1[active[index], j]
        hidden[j] = 1.0 / (1.0 + np.exp(-sum_in))
        total += hidden[j] * w2[j]
    value: float = 1.0 / (1.0 + np.exp(-total))
    return value


@njit(cache=True)
def _learn(w1: Floats, b1: Floats, w2: Floats, b2: Floats, e1: Floats, eb1: Floats, e2: Floats, eb2: Floats,
           step: float) -> None:
    for i in range(w1.shape[0]):
        for j in range(w1.shape[1]):
            w1[i, j] += step * e1[i, j]
    for j in range(b1.shape[0]):
        b1[j] += step * eb1[j]
        w2[j] += step * e2[j]
    b2[0] += step * eb2[0]


@njit(cache=True)
def _extend_trace(e1: Floats, eb1: Floats, e2: Floats, eb2: Floats, decay: float, value: float, w2: Floats,
                  hidden: Floats, active: Ints, signs: Floats, count: int) -> None:
    """``e = decay * e + grad V``, the gradient taken at the output ``value`` and its ``hidden`` layer."""
    d_out = value * (1.0 - value)
    e1 *= decay
    for j in range(eb1.shape[0]):
        d_hidden = d_out * w2[j] * hidden[j] * (1.0 - hidden[j])
        eb1[j] = decay * eb1[j] + d_hidden
        e2[j] = decay * e2[j] + d_out * hidden[j]
        for index in range(count):
            e1[active[index], j] += signs[index] * d_hidden
    eb2[0] = decay * eb2[0] + d_out


@njit(cache=True)
def self_play_game(w1: Floats, b1: Floats, w2: Floats, b2: Floats, rng: npt.NDArray[np.uint64], pawns: int,
                   removal_all: bool, max_moves: int, base_of: Ints, distance: Ints, neighbours: Ints, exits: Ints,
                   input_of: Ints, printed: bool, gamma: float, lam: float, alpha: float, greedy: float,
                   win_reward: float, loss_reward: float) -> tuple[int, int]:
    """Play one game between the networks ``[w1[s], b1[s], w2[s], b2[s:s+1]]`` of side ``s``, each learning
    after its moves (the last one rewarded ``win_reward`` for a win, ``loss_reward`` for a loss, 0 for a draw);
    returns the winner (-1 a draw) and the number of moves."""
    cells, hidden_size, inputs = base_of.shape[0], b1.shape[1], w1.shape[1]
    e1, eb1, e2, eb2 = np.zeros_like(w1), np.zeros_like(b1), np.zeros_like(w2), np.zeros_like(b2)
    board = np.zeros(cells, dtype=np.int8)
    scratch = np.zeros(cells, dtype=np.int8)
    waiting = np.array([pawns, pawns], dtype=np.int64)
    scratch_waiting = np.zeros(2, dtype=np.int64)
    origins = np.zeros(4 * cells + 8, dtype=np.int64)
    targets = np.zeros(4 * cells + 8, dtype=np.int64)
    ties = np.zeros(4 * cells + 8, dtype=np.int64)
    doomed = np.zeros(cells, dtype=np.int64)
    active = np.zeros(cells + 8, dtype=np.int64)
    signs = np.zeros(cells + 8, dtype=np.float64)
    hidden = np.zeros(hidden_size, dtype=np.float64)
    has_last = np.zeros(2, dtype=np.bool_)
    last_active = np.zeros((2, cells + 8), dtype=np.int64)  # each side's last afterstate, as its inputs
    last_signs = np.zeros((2, cells + 8), dtype=np.float64)
    last_count = np.zeros(2, dtype=np.int64)
    side, moves, result = 0, 0, -2
    while result == -2:
        count = legal_moves(board, waiting, side, base_of, distance, neighbours, exits, origins, targets)
        if count == 0:
            raise ValueError("a side to move has no legal move")
        if next_double(rng) >= greedy:
            chosen = _below(rng, count)
        else:
            best, tied = -np.inf, 0
            for index in range(count):
                scratch[:] = board
                scratch_waiting[:] = waiting
                outcome = play_move(scratch, scratch_waiting, side, origins[index], targets[index], moves + 1,
                                    removal_all, max_moves, base_of, distance, neighbours, exits, doomed)
                if outcome == -2:
                    live = active_inputs(scratch, scratch_waiting, pawns, input_of, inputs, printed, active, signs)
                    score = network_value(w1[side], b1[side], w2[side], b2[side], active, signs, live, hidden)
                else:
                    score = 0.5 if outcome == -1 else 2.0 if outcome == side else -1.0
                if score > best:
                    best, tied = score, 0
                if score == best:
                    ties[tied] = index
                    tied += 1
            chosen = ties[_below(rng, tied)] if tied > 1 else ties[0]
        moves += 1
        result = play_move(board, waiting, side, origins[chosen], targets[chosen], moves, removal_all, max_moves,
                           base_of, distance, neighbours, exits, doomed)
        # The paper's update, with every value and gradient at the weights as they stand (theta_t):
        # delta = r + gamma V(s') - V(s), theta += alpha delta e, then e = gamma lambda e + grad V(s').
        if result != -2:
            for player in range(2):
                if has_last[player]:
                    reward = win_reward if result == player else 0.0 if result == -1 else loss_reward
                    before = network_value(w1[player], b1[player], w2[player], b2[player], last_active[player],
                                           last_signs[player], last_count[player], hidden)
                    step = alpha * (reward - before)
                    _learn(w1[player], b1[player], w2[player], b2[player:player + 1], e1[player], eb1[player],
                           e2[player], eb2[player:player + 1], step)
        else:
            live = active_inputs(board, waiting, pawns, input_of, inputs, printed, active, signs)
            if has_last[side]:
                value = network_value(w1[side], b1[side], w2[side], b2[side], active, signs, live, hidden)
                before = network_value(w1[side], b1[side], w2[side], b2[side], last_active[side], last_signs[side],
                                       last_count[side], hidden)
                step = alpha * (gamma * value - before)
                _learn(w1[side], b1[side], w2[side], b2[side:side + 1], e1[side], eb1[side], e2[side],
                       eb2[side:side + 1], step)
            value = network_value(w1[side], b1[side], w2[side], b2[side], active, signs, live, hidden)
            _extend_trace(e1[side], eb1[side], e2[side], eb2[side:side + 1], gamma * lam, value, w2[side], hidden,
                          active, signs, live)
            has_last[side] = True
            last_active[side, :live] = active[:live]
            last_signs[side, :live] = signs[:live]
            last_count[side] = live
        side = 1 - side
    return result, moves
