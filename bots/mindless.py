"""mindless: Snafu's pseudo-random opponent (Cloppert 2007), the kind early Snafu games came with.

It plays Snafu only: its rule is written in Snafu's relative moves ("straight" ahead), and the Tron
fields keep their four bots.
"""

from arena import bot


@bot(name="mindless", games=("snafu",))
def mindless(obs, rng):
    """Goes straight while no wall is straight ahead; otherwise turns at random toward a cell without a wall."""
    moves = obs.safe_moves()
    if "straight" in moves:
        return "straight"
    return rng.choice(moves or obs.legal_moves())  # boxed in: any legal move, all fatal
