"""cla: a collective learning automaton for Snafu (Cloppert 2007), playing from a state-transition table.

``cla:features=POWR,t=3,c=0.5,reward=3/-3/1,table=FILE,learn=off``, and the readings of
``arena experiment snafu-scaling`` (``perception=edges|trails``, ``round=raw|scaled``, ``dictation=any|safe``,
``walls=half-planes|rays``, ``growth=every-round|turns|matched``, ``credit=game|last``; the paper's literal
reading by default: give those the table was trained with). Without ``table`` the table starts empty and the
bot plays exactly as ``mindless``. With ``learn=on`` the bot adds each finished game to the table it
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
                 table: str = "", learn: str = "off", perception: str = "edges", round: str = "raw",
                 dictation: str = "any", walls: str = "half-planes", growth: str = "every-round",
                 credit: str = "game"):
        # Imported here, not at the top: loading the bot list then needs no numba.
        from arena.core.errors import ArenaError
        from arena.engines.tron.snafu.features import parse_feature_set, read_state
        from arena.engines.tron.snafu.reading import Reading, rewarded_rounds
        from arena.engines.tron.snafu.strategy import make_strategy
        from arena.engines.tron.snafu.table import ACTIONS, NO_MATCH, Table, load_table, most_similar

        self._read_state, self._actions, self._no_match = read_state, ACTIONS, NO_MATCH
        self._most_similar, self._rewarded_rounds = most_similar, rewarded_rounds
        try:
            self.reading = Reading(perception, round, dictation, walls, growth, credit)
        except ArenaError as exc:
            raise ValueError(str(exc)) from None
        self._codes = self.reading.codes()
        self.strategy = make_strategy(features, t, c, reward)
        self.codes = parse_feature_set(self.strategy.features)
        self.learn = _learn_flag(learn)
        key = (self.strategy.spec, table, self.reading.label)
        if key not in _TABLES:
            _TABLES[key] = load_table(table)[0] if table else Table(self.strategy.dim)
        self.table = _TABLES[key]
        if self.table.dim != self.strategy.dim:
            raise ValueError(f"{table} holds {self.table.dim}-number states, not features "
                             f"{self.strategy.features}'s {self.strategy.dim}")
        self.states: list[np.ndarray] = []
        self.actions: list[int] = []
        self.kept: list[int] = []
        self._warm_up()

    def _warm_up(self):
        """Compile (or load from numba's cache) what a move calls, here rather than in the first move's time."""
        padded = np.frombuffer(bytes(9), dtype=np.uint8)  # a 1 x 1 board, read-only as an observation's cells
        state = np.zeros(self.strategy.dim)
        self._read_state(padded, 1, 1, 0, 0, 0, 0, 0, 0, self.codes, self._codes, state)
        self.table.choose(state, self.strategy.c, self.strategy.t)
        if self.learn and self.reading.growth == "matched":
            self._most_similar(self.table.units, self.table.size, state, np.zeros(len(state)), self.strategy.c)

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
        self._read_state(cells, obs.width, obs.height, x, y, HEADINGS.index(obs.heading), ox, oy, obs.turn,
                         self.codes, self._codes, state)
        choice = self.table.choose(state, self.strategy.c, self.strategy.t)
        moves = obs.safe_moves()
        if choice != self._no_match and (self.reading.dictation == "any" or self._actions[choice] in moves):
            move = self._actions[choice]
        else:
            move = "straight" if "straight" in moves else self.rng.choice(moves or obs.legal_moves())
        if self.learn:
            self.states.append(state)
            self.actions.append(self._actions.index(move))
            self.kept.append(self._where(state, "straight" in moves))
        return move

    def _where(self, state, ahead_free):
        """Where this round goes in the table (as the experiment's games say: -1 its own entry, -2 nowhere, or
        the matched entry)."""
        if self.reading.growth == "turns":
            return -2 if ahead_free else -1
        if self.reading.growth == "matched":
            table = self.table
            return int(self._most_similar(table.units, table.size, state, np.zeros(len(state)), self.strategy.c))
        return -1

    def finish(self, result):
        """With ``learn=on``, add the game to the table: every (state, decision) gets the game's reward."""
        if not self.learn or not self.states:
            return
        mine, theirs = result.ranks[self.seat_played], result.ranks[1 - self.seat_played]
        win, lose, tie = self.strategy.reward
        reward = win if mine < theirs else lose if mine > theirs else tie
        rows = self._rewarded_rounds(np.array(self.kept), self.reading.credit)
        self.table.update(np.array(self.states)[rows], np.array(self.actions)[rows], reward, np.array(self.kept)[rows])
        self.states, self.actions, self.kept = [], [], []

    def start(self, info):
        """Remember the seat, for the result."""
        self.seat_played = info.seat


def _learn_flag(value: str) -> bool:
    if str(value).lower() not in ("on", "off"):
        raise ValueError(f"learn={value!r}: on or off")
    return str(value).lower() == "on"
