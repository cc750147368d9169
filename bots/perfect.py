"""perfect: exact play, as cat or mouse, from the solved game (retrograde analysis, cached on disk)."""

from arena import Bot
from arena.engines.catmouse.solver import cached_solution, perfect_moves
from arena.games.catmouse.layouts import layout_of
from arena.games.catmouse.rules import CAT, MOUSE


class Perfect(Bot):
    """Plays perfectly: the fastest forced catch as the cat, the longest escape as the mouse."""

    name = "perfect"
    games = ("catmouse",)
    roles = ("cat", "mouse")

    def start(self, info):
        """Forget the board of the last game; the first move looks the solution up (or solves the board)."""
        self.layout = None
        self.solution = None

    def act(self, obs):
        """One of the best moves by the solution, drawn at random among equals."""
        if self.layout is None:
            self.layout = layout_of(obs)
            self.solution = cached_solution(self.layout)
        layout = self.layout
        cat = layout.cell(*obs.cat)
        mouse = layout.cell(*obs.mouse)
        side = CAT if obs.role == "cat" else MOUSE
        return self.rng.choice(perfect_moves(self.solution, layout, cat, mouse, side))
