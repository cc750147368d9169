"""random: moves uniformly at random among the moves that don't crash at once."""

from arena import bot


@bot(name="random", game="tron")
def random_mover(obs, rng):
    """Pick uniformly among the safe moves; if none is safe, any move."""
    moves = obs.safe_moves()
    return rng.choice(moves) if moves else "N"
