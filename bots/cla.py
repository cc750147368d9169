"""cla: a collective learning automaton for Snafu (Cloppert 2007), playing from a state-transition table.

``cla:features=POWR,t=3,c=0.5,reward=3/-3/1,table=FILE,learn=off``. Without ``table`` the table starts empty
and the bot plays exactly as ``mindless``. With ``learn=on`` the bot adds each finished game to the table it
holds in this process (shared by every game of the same spec played here, never written to the file): a
tournament spreads games over processes, so leave it off there. Train tables with ``arena train snafu-cla``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arena import Bot

HEADINGS = ("N", "E", "S", "W")
_TABLES: dict[tuple[str, ...], Any] = {}


class Cla(Bot):
    """Plays the table's decision when one clears ``c`` and ``t``, else the pseudo-random opponent's move."""

    name = "cla"
    games = ("snafu",)
    in_default_field = False  # untrained it is mindless; trained it needs a table file

    def __init__(self, features: str = "POWR", t: int = 3, c: float = 0.5, reward: str = "3/-3/1",
                 table: str = "", learn: str = "off"):
        # Imported here, not at the top: loading the bot list then needs no numba.
        from arena.engines.tron.snafu.features import parse_feature_set, state_vector
        from arena.engines.tron.snafu.strategy import make_strategy
        from arena.engines.tron.snafu.table import ACTIONS, NO_MATCH, Table, load_table

        self._state_vector, self._actions, self._no_match = state_vector, ACTIONS, NO_MATCH
        self.strategy = make_strategy(features, t, c, reward)
        self.codes = parse_feature_set(self.strategy.features)
        self.learn = _learn_flag(learn)
        key = (self.strategy.spec, table)
        if key not in _TABLES:
            _TABLES[key] = load_table(table)[0] if table else Table(self.strategy.dim)
        self.table = _TABLES[key]
        if self.table.dim != self.strategy.dim:
            raise ValueError(f"{table} holds {self.table.dim}-number states, not features "
                             f"{self.strategy.features}'s {self.strategy.dim}")
        self.states: list[np.ndarray] = []
        self.actions: list[int] = []

    @classmethod
    def check_parameters(cls, params):
        """Refuse bad features, t, c, reward or learn, and a table file that cannot be read or does not fit."""
        cls(**params)

    def act(self, obs):
        """The table's decision for this round's state, else ``mindless``'s rule."""
        opponent = obs.heads[1 - obs.seat]
        x, y = obs.xy(obs.head)
        ox, oy = obs.xy(opponent)
        state = np.zeros(self.strategy.dim)
        cells = np.frombuffer(obs.cells, dtype=np.uint8)
        self._state_vector(cells, obs.width, obs.height, x, y, HEADINGS.index(obs.heading), ox, oy, obs.turn,
                     self.codes, state)
        choice = self.table.choose(state, self.strategy.c, self.strategy.t)
        if choice == self._no_match:
            moves = obs.safe_moves()
            move = "straight" if "straight" in moves else self.rng.choice(moves or obs.legal_moves())
        else:
            move = self._actions[choice]
        if self.learn:
            self.states.append(state)
            self.actions.append(self._actions.index(move))
        return move

    def finish(self, result):
        """With ``learn=on``, add the game to the table: every (state, decision) gets the game's reward."""
        if not self.learn or not self.states:
            return
        mine, theirs = result.ranks[self.seat_played], result.ranks[1 - self.seat_played]
        win, lose, tie = self.strategy.reward
        reward = win if mine < theirs else lose if mine > theirs else tie
        self.table.update(np.array(self.states), np.array(self.actions), reward)
        self.states, self.actions = [], []

    def start(self, info):
        """Remember the seat, for the result."""
        self.seat_played = info.seat


def _learn_flag(value: str) -> bool:
    if str(value).lower() not in ("on", "off"):
        raise ValueError(f"learn={value!r}: on or off")
    return str(value).lower() == "on"
