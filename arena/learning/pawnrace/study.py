"""The pawn race's playability study: its two TD(lambda) learners, trained on a map (with any game option) or
read back from a model file, and the perfect-play verdict on boards small enough to solve."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from arena.core.errors import ArenaError
from arena.engines.pawnrace.td_model import load_model
from arena.games.pawnrace.game import PawnRaceGame, setup_from
from arena.games.pawnrace.solver import verdict
from arena.learning.pawnrace.td_network import TdNetworkTrainer, network_settings
from arena.learning.pawnrace.td_table import TdSettings, TdTableTrainer
from arena.learning.playability import PlayabilityStudy, StudyRun
from arena.stats.playability import BlockStats

TRAINERS = {"table": TdTableTrainer, "network": TdNetworkTrainer}


class PawnRaceStudy(PlayabilityStudy):
    """Self-play by the tabular or the network TD(lambda) learner of Kalles and Kanellopoulos (2001)."""

    game = PawnRaceGame.name
    default_map = "pawnrace_5x5"
    learners = {"table": "tabular TD(lambda)", "network": "one neural network per side"}
    aliases = {"tabular": "table", "nn": "network"}

    def train(self, map_spec: str, options: Mapping[str, str], learner: str, games: int, block: int, seed: int,
              on_game: Callable[[], None] | None = None) -> StudyRun:
        """Train both sides of ``learner`` from scratch on the configuration the map and options give."""
        setup = setup_from(map_spec, options)
        if games < 1 or block < 1:
            raise ArenaError("--games and --block must be at least 1")
        settings = TdSettings(setup.n, setup.a, setup.pawns, setup.removal, setup.max_moves, games, seed=seed,
                              block=block)
        if learner == "network":
            settings = network_settings(settings)
        trainer = TRAINERS[learner](settings)
        trainer.run(on_game=on_game)
        return self._run(settings, trainer.blocks)

    def recorded(self, model: str) -> StudyRun:
        """The statistics a ``arena train pawnrace-td`` model recorded."""
        data = load_model(model)
        return self._run(TdSettings(**data["settings"]), [BlockStats(**block) for block in data["blocks"]])

    @staticmethod
    def _run(settings: TdSettings, blocks: list[BlockStats]) -> StudyRun:
        setup = settings.setup
        title = (f"Playability of pawnrace n={setup.n} a={setup.a} pawns={setup.pawns} removal={setup.removal}: "
                 f"{sum(b.games for b in blocks):,} self-play games, fewest moves to win {setup.fastest_win()}")
        solved = verdict(setup) if setup.pawns == 1 and setup.n <= 7 else None
        if solved is None:
            perfect = "perfect play: too large to solve here"
        elif solved.winner:
            perfect = f"perfect play: {solved.winner} wins in {solved.winner_moves} moves"
        else:
            perfect = "perfect play: a draw"
        return StudyRun(title, blocks, settings.block, ("white", "black"), perfect)
