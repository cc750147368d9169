from arena import bot


@bot(name="pr_greedy", game="pawnrace")
def pawnrace_greedy(obs, rng):
    """Win at once if it can; else advance the pawn nearest the enemy base, safely (never into a dead end)."""
    moves = obs.legal_moves()
    winning = [move for move in moves if obs.distance_to_goal(obs.target(move)) == 0]
    if winning:
        return winning[0]
    safe = [move for move in moves if obs.safe(move)] or list(moves)

    def progress(move):
        origin = obs.origin(move)
        start = obs.distance_to_goal(origin) if origin else obs.distance_to_goal(obs.target(move)) + 1
        return (start, obs.distance_to_goal(obs.target(move)) - start)

    best = min(progress(move) for move in safe)
    return rng.choice([move for move in safe if progress(move) == best])
