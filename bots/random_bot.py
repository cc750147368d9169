"""random: moves uniformly at random among the moves that don't crash at once."""

from arena import bot


@bot(name="random", games=("tron", "snafu"))
def random_mover(obs, rng):
    """Pick uniformly among the safe moves; if none is safe, among all legal moves."""
    return rng.choice(obs.safe_moves() or obs.legal_moves())
