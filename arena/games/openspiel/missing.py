"""The stand-in registered for OpenSpiel's games when OpenSpiel is not installed: every use of it is the one-line
error that says how to install it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from arena.core.errors import ArenaError
from arena.core.game import Game, Result
from arena.games.openspiel.loading import INSTALL_HINT, PREFIX

if TYPE_CHECKING:
    import numpy as np

    from arena.core.maps import GameMap


def _missing() -> NoReturn:
    raise ArenaError(INSTALL_HINT)


class MissingOpenSpiel(Game):
    """OpenSpiel's games, not installed: pip install 'bot-arena[openspiel]'."""

    name = PREFIX + "*"
    description = INSTALL_HINT

    @classmethod
    def check_map(cls, game_map: GameMap) -> None:
        """Refused: OpenSpiel is missing."""
        _missing()

    @classmethod
    def resolve_options(cls, given: Mapping[str, str]) -> dict[str, str]:
        """Refused: OpenSpiel is missing."""
        _missing()

    def __init__(self, game_map: GameMap | None, options: Mapping[str, str], rng: np.random.Generator):
        _missing()

    def to_act(self) -> Sequence[int]:
        """Never reached."""
        _missing()

    def legal_actions(self, seat: int) -> Sequence[Any]:
        """Never reached."""
        _missing()

    def apply(self, actions: Mapping[int, Any]) -> None:
        """Never reached."""
        _missing()

    @property
    def result(self) -> Result | None:
        """Never reached."""
        _missing()

    def observe(self, seat: int) -> Any:
        """Never reached."""
        _missing()

    def render(self, color: bool = False) -> str:
        """Never reached."""
        _missing()
