"""cm_random: plays cat and mouse as either role, moving uniformly at random."""

from arena import bot


@bot(name="cm_random", game="catmouse", roles=("cat", "mouse"))
def cm_random(obs, rng):
    """Pick uniformly among the legal moves, whichever role it plays."""
    return rng.choice(obs.legal_moves())
