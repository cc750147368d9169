"""The pawn race's playability study: its two TD(lambda) learners, trained on a map (with any game option) or
read back from a model file, and the perfect-play verdict on boards small enough to solve."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Any

from arena.engines.pawnrace.solver import verdict
from arena.engines.pawnrace.td_model import load_model
from arena.games.pawnrace.game import PawnRaceGame, setup_from
from arena.learning.pawnrace.readings import READINGS, check_readings, td_settings
from arena.learning.pawnrace.td_network import TdNetworkTrainer
from arena.learning.pawnrace.td_table import TdSettings, TdTableTrainer
from arena.learning.playability import PlayabilityStudy, PublishedRow, StudyRun
from arena.stats.playability import BlockStats

TRAINERS = {"table": TdTableTrainer, "network": TdNetworkTrainer}

TABLE_1 = [PublishedRow("0-10,000", 179.94, 108.02, 0.4783, 0.5217),
           PublishedRow("10,000-20,000", 182.88, 108.44, 0.4772, 0.5228),
           PublishedRow("20,000-30,000", 187.87, 109.17, 0.5030, 0.4970),
           PublishedRow("30,000-40,000", 186.88, 109.58, 0.4998, 0.5002),
           PublishedRow("40,000-50,000", 184.90, 108.62, 0.5003, 0.4997),
           PublishedRow("50,000-60,000", 183.53, 107.56, 0.4900, 0.5100),
           PublishedRow("60,000-70,000", 184.76, 106.87, 0.4979, 0.5021),
           PublishedRow("70,000-74,000", 186.37, 109.05, 0.4985, 0.5015),
           PublishedRow("all", 184.5, 108.4, 0.4926, 0.5073)]
"""Kalles and Kanellopoulos (2001), Table 1: the network learners on n=8, a=2, beta=5, per 10,000 games (the
average number of moves, their standard deviation, white's and black's wins: no draws); ``all`` from the text's
74,000 games (its shares, 49.26% and 50.73%, are rounded so that they leave 0.01%)."""


def key_note(key: str) -> str:
    """How a table run's key stands to the paper's, for every place the run is shown."""
    return "table key paper (the paper's)" if key == "paper" else f"table key {key} (not the paper's: --key paper)"


class PawnRaceStudy(PlayabilityStudy):
    """Self-play by the tabular or the network TD(lambda) learner of Kalles and Kanellopoulos (2001)."""

    game = PawnRaceGame.name
    default_map = "pawnrace_5x5"
    learners = {"table": "tabular TD(lambda)", "network": "one neural network per side"}
    aliases = {"tabular": "table", "nn": "network"}
    readings = READINGS

    def check_readings(self, readings: Mapping[str, Any], learner: str) -> None:
        """Refuse, in one line, a reading ``learner`` has no use for or a value it does not take."""
        super().check_readings(readings, learner)
        check_readings(learner, readings)

    def check_configuration(self, map_spec: str, options: Mapping[str, str]) -> None:
        """Refuse, in one line, a map that is not a pawn race's or an option value it does not take (a move cap
        of ``-o max_moves=...`` outside its choices, say)."""
        setup_from(map_spec, options)

    def train(self, map_spec: str, options: Mapping[str, str], learner: str, games: int, block: int, seed: int,
              on_game: Callable[[], None] | None = None, readings: Mapping[str, Any] | None = None) -> StudyRun:
        """Train both sides of ``learner`` from scratch on the configuration the map and options give, under
        the ``readings`` of :mod:`arena.learning.pawnrace.readings`."""
        setup = setup_from(map_spec, options)
        settings = td_settings(setup, learner, games, block, seed, readings or {})
        trainer = TRAINERS[learner](settings)
        trainer.run(on_game=on_game)
        return self._run(settings, trainer.blocks, learner)

    def recorded(self, model: str) -> StudyRun:
        """The statistics a ``arena train pawnrace-td`` model recorded."""
        data = load_model(model)
        return self._run(TdSettings(**data["settings"]), [BlockStats(**block) for block in data["blocks"]],
                         data["kind"])

    @staticmethod
    def _run(settings: TdSettings, blocks: list[BlockStats], learner: str) -> StudyRun:
        setup = settings.setup
        title = (f"Playability of pawnrace n={setup.n} a={setup.a} pawns={setup.pawns} removal={setup.removal}: "
                 f"{sum(b.games for b in blocks):,} self-play games, fewest moves to win {setup.fastest_win()}, "
                 f"move cap {setup.max_moves}")
        if learner == "table":
            title += f", {key_note(settings.key)}"
        solved = verdict(setup) if setup.pawns == 1 and setup.n <= 7 else None
        if solved is None:
            perfect = "perfect play: too large to solve here"
        elif solved.winner:
            perfect = f"perfect play: {solved.winner} wins in {solved.winner_moves} moves"
        else:
            perfect = "perfect play: a draw"
        published = TABLE_1 if (setup.n, setup.a, setup.pawns, learner) == (8, 2, 5, "network") else []
        return StudyRun(title, blocks, settings.block, ("white", "black"), perfect,
                        {"learner": learner, **asdict(settings)}, published)
