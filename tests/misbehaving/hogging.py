"""Allocates memory without end."""

from arena import bot


@bot(name="hog", game="tron")
def hog(obs, rng):
    hoard = []
    while obs.turn >= 1:
        hoard.append(bytes(256 << 20))
    return obs.safe_moves()[0]
