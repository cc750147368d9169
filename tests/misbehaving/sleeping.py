"""Blocks: in a sleep, and in C code with the alarm signal blocked, where no Python check can reach it."""

import ctypes
import signal
import time

from arena import bot


@bot(name="sleeper", game="tron")
def sleeper(obs, rng):
    if obs.turn >= 1:
        time.sleep(1000)
    return obs.safe_moves()[0]


@bot(name="cblocker", game="tron")
def cblocker(obs, rng):
    if obs.turn >= 1:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        ctypes.CDLL(None).sleep(1000)
    return obs.safe_moves()[0]
