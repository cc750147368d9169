"""Kill their own process: os._exit, os.abort, a segfault through ctypes; and sys.exit."""

import ctypes
import os
import sys

from arena import bot


@bot(name="exiter", game="tron")
def exiter(obs, rng):
    if obs.turn >= 1:
        os._exit(7)
    return obs.safe_moves()[0]


@bot(name="aborter", game="tron")
def aborter(obs, rng):
    if obs.turn >= 1:
        os.abort()
    return obs.safe_moves()[0]


@bot(name="segfaulter", game="tron")
def segfaulter(obs, rng):
    if obs.turn >= 1:
        ctypes.string_at(0)
    return obs.safe_moves()[0]


@bot(name="quitter", game="tron")
def quitter(obs, rng):
    if obs.turn >= 1:
        sys.exit(3)
    return obs.safe_moves()[0]
