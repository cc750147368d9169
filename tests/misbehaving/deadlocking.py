"""Deadlocks on a lock it already holds."""

import threading

from arena import bot


@bot(name="deadlocker", game="tron")
def deadlocker(obs, rng):
    if obs.turn >= 1:
        lock = threading.Lock()
        lock.acquire()
        lock.acquire()
    return obs.safe_moves()[0]
