"""wary: a mouse that never steps next to the cat unless it has no other move."""

from arena import bot


@bot(name="wary", game="catmouse", roles=("mouse",))
def wary(obs, rng):
    """Move at random among the cells the cat cannot reach next turn; failing that, avoid the cat's own cell."""
    cx, cy = obs.cat

    def danger(move):
        x, y = obs.target(move)
        gap = abs(x - cx) + abs(y - cy)
        return 2 if gap == 0 else 1 if gap == 1 else 0

    moves = obs.legal_moves()
    least = min(danger(move) for move in moves)
    return rng.choice([move for move in moves if danger(move) == least])
