"""chaser: heads for the nearest opponent to cut it off."""

from arena import bot


@bot(name="chaser", games=("tron", "snafu"))
def chaser(obs, rng):
    """Among the safe moves, take one that most reduces the Manhattan distance to the nearest opponent."""
    moves = obs.safe_moves()
    if not moves:
        return rng.choice(obs.legal_moves())
    targets = obs.opponents()
    if not targets:
        return rng.choice(moves)

    def distance(move):
        x, y = obs.xy(obs.head + obs.delta[move])  # the cell the move leads to, whatever the move names
        return min(abs(x - tx) + abs(y - ty) for tx, ty in targets)

    best = min(distance(move) for move in moves)
    return rng.choice([move for move in moves if distance(move) == best])
