"""greedy: a cat that always closes in on the mouse as the crow flies."""

from arena import bot


@bot(name="greedy", game="catmouse", roles=("cat",))
def greedy(obs, rng):
    """Take the legal move that brings the cat nearest the mouse (Euclidean distance); ties at random."""
    mx, my = obs.mouse

    def distance(move):
        x, y = obs.target(move)
        return (x - mx) ** 2 + (y - my) ** 2

    moves = obs.legal_moves()
    best = min(distance(move) for move in moves)
    return rng.choice([move for move in moves if distance(move) == best])
