from arena import Bot
from arena.engines.pawnrace.solver import solution_for
from arena.games.pawnrace.game import PawnRaceGame
from arena.games.pawnrace.rules import Setup

LARGEST_BOARD = 7  # one pawn a side on 7 x 7: 3,273 positions, solved in about 0.2 s within the first move


class PawnRacePerfect(Bot):
    """Perfect play on boards small enough to solve exactly: the fastest win, else a draw, else the slowest loss."""

    name = "pr_perfect"
    games = ("pawnrace",)

    def start(self, info):
        """Read the game's options; the board is solved at the first move (once per process)."""
        self.options = PawnRaceGame.resolve_options(info.options)
        self.solution = None

    def act(self, obs):
        """A best move of the current position, chosen among equals with the bot's rng."""
        if self.solution is None:
            pawns = int(self.options["pawns"])
            if pawns != 1 or obs.n > LARGEST_BOARD:
                raise ValueError(f"pr_perfect solves boards up to {LARGEST_BOARD} x {LARGEST_BOARD} with one pawn a "
                                 f"side, not {obs.n} x {obs.n} with {pawns}: see arena solve pawnrace")
            self.solution = solution_for(Setup(obs.n, obs.a, pawns, self.options["removal"]))
        return self.rng.choice(self.solution.best_moves(obs.position()))
