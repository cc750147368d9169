"""chaser: heads for the nearest opponent to cut it off."""

from arena import bot


@bot(name="chaser", game="tron")
def chaser(obs, rng):
    """Among the safe moves, take one that most reduces the Manhattan distance to the nearest opponent."""
    moves = obs.safe_moves()
    if not moves:
        return "N"
    x, y = obs.position
    targets = obs.opponents()
    if not targets:
        return rng.choice(moves)
    step = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

    def distance(move):
        nx, ny = x + step[move][0], y + step[move][1]
        return min(abs(nx - tx) + abs(ny - ty) for tx, ty in targets)

    best = min(distance(move) for move in moves)
    return rng.choice([move for move in moves if distance(move) == best])
