"""wallhugger: keeps to the walls, leaving the open middle for later."""

from arena import bot


@bot(name="wallhugger", games=("tron", "snafu"))
def wallhugger(obs, rng):
    """Among the safe moves, take the one whose cell touches the most walls and trails."""
    moves = obs.safe_moves()
    if not moves:
        return rng.choice(obs.legal_moves())
    walls = [obs.walls_around(move) for move in moves]
    most = max(walls)
    return rng.choice([move for move, count in zip(moves, walls, strict=True) if count == most])
