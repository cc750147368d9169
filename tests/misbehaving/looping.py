"""Loops forever in Python code."""

from arena import bot


@bot(name="looper", game="tron")
def looper(obs, rng):
    while obs.turn >= 1:
        pass
    return obs.safe_moves()[0]
