from arena import bot


@bot(name="pr_random", game="pawnrace")
def pawnrace_random(obs, rng):
    """Play a legal move chosen uniformly at random."""
    return rng.choice(obs.legal_moves())
