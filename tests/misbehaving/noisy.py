"""Writes garbage to stdout and stderr (through Python and straight to the file descriptors) every move."""

import os
import sys

from arena import bot


@bot(name="noisy", game="tron")
def noisy(obs, rng):
    print("}{ not json \x00\xff", flush=True)
    sys.stderr.write("Traceback (most recent call last): garbage\n")
    os.write(1, b"\x1b[2J\x00\xfe\xff garbage\n")
    os.write(2, b"\x1b[31m more garbage\n")
    moves = obs.safe_moves()
    return rng.choice(moves) if moves else "N"
