"""floodfill: keeps the largest space to live in, counted by flood fill."""

from arena import bot


def reachable(cells, start, stride):
    """Count the empty cells reachable from ``start`` (itself empty) on the padded flat grid."""
    seen = {start}
    frontier = [start]
    for cell in frontier:  # the list grows while we walk it: a breadth-first search
        for neighbour in (cell - stride, cell + stride, cell - 1, cell + 1):
            if cells[neighbour] == 0 and neighbour not in seen:
                seen.add(neighbour)
                frontier.append(neighbour)
    return len(seen)


@bot(name="floodfill", games=("tron", "snafu"))
def floodfill(obs, rng):
    """Take the safe move that leaves the most reachable cells; break ties toward walls, then at random."""
    moves = obs.safe_moves()
    if not moves:
        return rng.choice(obs.legal_moves())
    scores = {move: (reachable(obs.cells, obs.head + obs.delta[move], obs.stride), obs.walls_around(move))
              for move in moves}
    best = max(scores.values())
    return rng.choice([move for move in moves if scores[move] == best])
