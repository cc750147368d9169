from arena import Bot
from arena.games.pawnrace.game import PawnRaceGame
from arena.games.pawnrace.rules import SIDES, Position, Setup
from arena.games.pawnrace.solver import solution_for

MAX_POSITIONS = 20_000  # solved within a move's time: every board up to 6 x 6 with one pawn a side


class PawnRacePerfect(Bot):
    """Perfect play on boards small enough to solve exactly: the fastest win, else a draw, else the slowest loss."""

    name = "pr_perfect"
    games = ("pawnrace",)

    def start(self, info):
        """Solve the configuration of this game (once per process); a board too large to solve is refused."""
        self.options = PawnRaceGame.resolve_options(info.options)
        self.solution = None

    def act(self, obs):
        """A best move of the current position, chosen among equals with the bot's rng."""
        if self.solution is None:
            setup = Setup(obs.n, obs.a, int(self.options["pawns"]), self.options["removal"])
            self.solution = solution_for(setup, MAX_POSITIONS)
        side = SIDES.index(obs.side)
        pawns = [frozenset(obs.mine), frozenset(obs.theirs)]
        waiting = [obs.waiting, obs.their_waiting]
        if side == 1:
            pawns.reverse()
            waiting.reverse()
        position = Position((pawns[0], pawns[1]), (waiting[0], waiting[1]), side)
        return self.rng.choice(self.solution.best_moves(position))
