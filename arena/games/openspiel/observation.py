"""What a bot sees in an OpenSpiel game: its legal action ids, its observation as text and as a tensor, and, in
games of perfect information only, a copy of the state (what OpenSpiel's own bots search from)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class OpenSpielObservation:
    """One seat's view of an OpenSpiel game.

    ``legal`` holds OpenSpiel's action ids (whole numbers) the seat may play, ``text`` its observation string
    (OpenSpiel's ``observation_string``, else ``information_state_string``), ``tensor`` its observation tensor
    (a tuple of floats; empty when the game has none), ``names`` each legal action's name and
    ``distinct_actions`` how many action ids the game has. ``state`` is a
    private copy of the ``pyspiel.State`` in games of perfect information (``None`` in the others, which
    would show hidden cards), so a bot may search from it without touching the game.
    """

    game: str
    seat: int
    legal: tuple[int, ...]
    text: str
    tensor: tuple[float, ...]
    names: tuple[str, ...]
    distinct_actions: int
    """How many action ids the game has (``0 .. distinct_actions - 1``): the size of a learner's action space."""
    state: Any = field(default=None, repr=False, compare=False)

    def legal_moves(self) -> tuple[int, ...]:
        """Every legal action id, in increasing order."""
        return self.legal

    def to_json(self) -> dict[str, object]:
        """The observation as JSON (the ``arena-json`` protocol): ``game``, ``player`` (0-based seat), ``text``,
        ``tensor`` and ``names`` (the legal actions' names, in the order of ``legal``)."""
        return {"game": self.game, "player": self.seat, "text": self.text, "tensor": list(self.tensor),
                "names": list(self.names)}


def observe_state(game_name: str, state: Any, seat: int, perfect: bool, has_tensor: bool,
                  has_text: bool) -> OpenSpielObservation:
    """The observation of ``seat`` in a pyspiel ``state``."""
    legal = tuple(state.legal_actions(seat))
    if has_text:
        text = state.observation_string(seat)
    elif state.get_game().get_type().provides_information_state_string:
        text = state.information_state_string(seat)
    else:
        text = str(state) if perfect else ""
    tensor = tuple(state.observation_tensor(seat)) if has_tensor else ()
    names = tuple(state.action_to_string(seat, action) for action in legal)
    distinct = int(state.get_game().num_distinct_actions())
    return OpenSpielObservation(game_name, seat, legal, text, tensor, names, distinct,
                                state.clone() if perfect else None)
