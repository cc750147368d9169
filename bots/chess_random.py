"""Plays a random legal chess move: the simplest chess bot, and a baseline for engines."""

from arena import bot


@bot(name="chess_random", game="chess")
def chess_random(obs, rng):
    """Any legal move (UCI notation), uniformly at random."""
    return rng.choice(obs.legal_moves())
