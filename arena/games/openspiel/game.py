"""An OpenSpiel game as an arena :class:`~arena.core.game.Game`: one class per game, made by :func:`game_class`.

* **Setup.** The game's options are OpenSpiel parameters (:mod:`.loading`); a tournament given no map plays on
  the one-line map :meth:`OpenSpielGame.parameters_map` makes of them (OpenSpiel's game string).
* **Turns.** At a decision node the current player acts; at a simultaneous node every player with a legal
  action acts at once. Actions are OpenSpiel's action ids (whole numbers).
* **Chance.** The referee plays chance nodes itself, from the game's seeded Generator: a uniform draw
  ``u = rng.random()`` picks the first outcome whose cumulative probability exceeds ``u`` (the last one if
  rounding leaves ``u`` past them all). The same seed gives the same game, and a replay draws the same.
* **Result.** Terminal returns become ranks: a seat's rank is 1 + the number of seats whose return is
  strictly higher, so equal returns tie (a draw when all are equal).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from arena.core.errors import ArenaError, MapError
from arena.core.game import METADATA_KEYS, Game, Option, Result, generator
from arena.core.maps import GameMap, parse_map
from arena.games.openspiel.catalog import GameFacts, playable_games
from arena.games.openspiel.loading import PREFIX, game_string, load_game, option_text, parameters
from arena.games.openspiel.observation import OpenSpielObservation, observe_state

if TYPE_CHECKING:
    import numpy as np


def draw_chance(state: Any, u: float) -> int:
    """The chance outcome a uniform draw ``u`` in ``[0, 1)`` picks at a chance node of ``state``."""
    outcomes = state.chance_outcomes()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if u < total:
            return int(action)
    return int(outcomes[-1][0])


def ranks_of(returns: Sequence[float]) -> tuple[int, ...]:
    """Ranks from returns: 1 + how many seats did strictly better (equal returns share a rank)."""
    return tuple(1 + sum(1 for other in returns if other > mine) for mine in returns)


class OpenSpielGame(Game):
    """The base of every OpenSpiel game's class; :func:`game_class` sets the class attributes."""

    short_name: ClassVar[str] = ""
    defaults: ClassVar[Mapping[str, Any]] = {}
    perfect: ClassVar[bool] = False
    simultaneous: ClassVar[bool] = False
    has_text: ClassVar[bool] = True
    has_tensor: ClassVar[bool] = True

    @classmethod
    def params(cls, options: Mapping[str, str]) -> dict[str, Any]:
        """The OpenSpiel parameters the (resolved or given) options name."""
        return parameters(cls.short_name, {k: v for k, v in options.items() if k not in METADATA_KEYS},
                          cls.defaults)

    @classmethod
    def resolve_options(cls, given: Mapping[str, str]) -> dict[str, str]:
        """The parameters given, checked (a known name, a value of the default's type) and loadable."""
        params = cls.params(given)
        load_game(cls.short_name, params)
        return {key: option_text(value) for key, value in sorted(params.items())}

    @classmethod
    def check_map(cls, game_map: GameMap) -> None:
        """A map of an OpenSpiel game holds only its parameters, in the header (see :meth:`parameters_map`)."""
        if game_map.rows != (game_map.rows[0],) or not game_map.rows[0].strip():
            raise game_map.error("an OpenSpiel game's map is one line: the game string; parameters go in the header")
        try:
            cls.resolve_options(game_map.header)
        except ArenaError as exc:
            raise MapError(f"{game_map.label}:1:1: {exc}") from None

    @classmethod
    def parameters_map(cls, options: Mapping[str, str]) -> GameMap:
        """The map a tournament given none plays: the parameters as header lines, OpenSpiel's game string as
        its one row (and its name)."""
        resolved = cls.resolve_options(options)
        name = game_string(cls.short_name, cls.params(resolved))
        header = "".join(f"; {key} = {value}\n" for key, value in resolved.items())
        return parse_map(f"; game = {cls.name}\n{header}{name}\n", name=name)

    @classmethod
    def num_players(cls, game_map: GameMap | None) -> int:
        """The game's players with the map's parameters (OpenSpiel's default without a map)."""
        params = cls.params(game_map.header) if game_map is not None else {}
        return int(load_game(cls.short_name, params).num_players())

    def __init__(self, game_map: GameMap | None, options: Mapping[str, str], rng: np.random.Generator):
        merged = {**(game_map.header if game_map is not None else {}), **options}
        self.pyspiel_game = load_game(self.short_name, self.params(merged))
        self.state = self.pyspiel_game.new_initial_state()
        self.num_seats = int(self.pyspiel_game.num_players())
        self.rng = generator(rng)
        self._play_chance()

    def _play_chance(self) -> None:
        state = self.state
        while state.is_chance_node():
            state.apply_action(draw_chance(state, float(self.rng.random())))

    def to_act(self) -> Sequence[int]:
        """The current player, or at a simultaneous node every player with a legal action."""
        state = self.state
        if state.is_terminal():
            return ()
        if state.is_simultaneous_node():
            return tuple(seat for seat in range(self.num_seats) if state.legal_actions(seat))
        return (int(state.current_player()),)

    def legal_actions(self, seat: int) -> Sequence[int]:
        """OpenSpiel's legal action ids for ``seat`` now."""
        return tuple(self.state.legal_actions(seat))

    def is_legal(self, seat: int, action: object) -> bool:
        """Whether ``action`` is a whole number among the seat's legal action ids."""
        return isinstance(action, int) and not isinstance(action, bool) and action in self.state.legal_actions(seat)

    def apply(self, actions: Mapping[int, Any]) -> None:
        """Play the turn's actions, then any chance nodes that follow."""
        state = self.state
        if state.is_simultaneous_node():
            joint = []
            for seat in range(self.num_seats):
                legal = state.legal_actions(seat)
                joint.append(int(actions[seat]) if seat in actions else (legal[0] if legal else 0))
            state.apply_actions(joint)
        else:
            (action,) = actions.values()
            state.apply_action(int(action))
        self._play_chance()

    @property
    def result(self) -> Result | None:
        """The ranks of the returns once the state is terminal."""
        if not self.state.is_terminal():
            return None
        returns = [float(value) for value in self.state.returns()]
        shown = ", ".join(f"{value:g}" for value in returns)
        return Result(ranks_of(returns), f"the game ended with returns {shown}")

    def observe(self, seat: int) -> OpenSpielObservation:
        """What the seat sees (see :class:`OpenSpielObservation`)."""
        return observe_state(self.name, self.state, seat, self.perfect, self.has_tensor, self.has_text)

    def moves_together(self) -> bool:
        """Whether the game has simultaneous moves."""
        return self.simultaneous

    def render(self, color: bool = False) -> str:
        """OpenSpiel's text of the state."""
        text = str(self.state)
        if color:
            from rich.markup import escape

            return escape(text)
        return text

    @classmethod
    def array_observation(cls, obs: OpenSpielObservation) -> np.ndarray:
        """The observation tensor as ``float32`` (OpenSpiel's values: most games' are 0 or 1, a few count chips)."""
        import numpy as np

        return np.asarray(obs.tensor, dtype=np.float32)

    @classmethod
    def array_actions(cls, obs: OpenSpielObservation) -> Sequence[int]:
        """Every action id of the game, ``0 .. num_distinct_actions - 1``."""
        return range(obs.distinct_actions)

    @classmethod
    def array_mask(cls, obs: OpenSpielObservation) -> np.ndarray:
        """1 at each legal action id."""
        import numpy as np

        mask = np.zeros(len(cls.array_actions(obs)), dtype=np.int8)
        mask[list(obs.legal)] = 1
        return mask


CLASS_PREFIX = "OpenSpiel_"


def __getattr__(name: str) -> type[OpenSpielGame]:
    """A game's class by its class name (``OpenSpiel_connect_four``), so pickle finds it in any process."""
    if name.startswith(CLASS_PREFIX):
        return class_named(name[len(CLASS_PREFIX):])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def class_named(short_name: str) -> type[OpenSpielGame]:
    """The arena game class of the OpenSpiel game ``short_name`` (made once per process, from
    :mod:`.catalog`'s facts: pyspiel is not imported until a game is loaded)."""
    facts = playable_games().get(short_name)
    if facts is not None:
        return _make_class(facts)
    raise ArenaError(f"OpenSpiel has no playable game {short_name!r}")


def _make_class(facts: GameFacts) -> type[OpenSpielGame]:
    options = {key: Option(option_text(value), (option_text(value),), "an OpenSpiel parameter")
               for key, value in sorted(facts.defaults.items()) if not isinstance(value, dict)}
    attributes = {
        "name": PREFIX + facts.short_name,
        "description": f"OpenSpiel's {facts.long_name}",
        "short_name": facts.short_name,
        "defaults": facts.defaults,
        "options": options,
        "min_players": max(1, facts.min_players),
        "max_players": max(1, facts.max_players),
        "perfect": facts.perfect,
        "simultaneous": facts.simultaneous,
        "has_text": facts.has_text,
        "has_tensor": facts.has_tensor,
        "__module__": __name__,
        "__doc__": f"OpenSpiel's {facts.long_name} ({facts.short_name}).",
    }
    return type(CLASS_PREFIX + facts.short_name, (OpenSpielGame,), attributes)
