"""Takes ten times its time limit once, on its second move, then returns a fine move."""

import time

from arena import bot


@bot(name="slowpoke", game="tron")
def slowpoke(obs, rng):
    if obs.turn == 1:
        time.sleep(2.0)  # the tests use a 0.2 s limit
    return obs.safe_moves()[0]
