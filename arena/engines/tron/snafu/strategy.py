"""A CLA strategy: its feature set, the selection parameters ``t`` and ``c``, and its reward policy."""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.errors import ArenaError
from arena.engines.tron.snafu.features import dimension, parse_feature_set


@dataclass(frozen=True)
class Strategy:
    """Features (such as ``"POWR"``), threshold ``t``, minimum similarity ``c`` and rewards for a win, a loss
    and a tie (Table 1 of Cloppert 2007: ``(3, -3, 1)`` or ``(4, -4, -1)``)."""

    features: str
    t: int
    c: float = 0.5
    reward: tuple[int, int, int] = (3, -3, 1)

    @property
    def label(self) -> str:
        """``POWR:t=3``, with ``c`` and the reward added where they differ from the paper's choice for it."""
        text = f"{self.features}:t={self.t}"
        if self.c != 0.5:
            text += f",c={self.c:g}"
        if self.reward != _paper_reward(self.features, self.t):
            text += ",reward=" + "/".join(str(r) for r in self.reward)
        return text

    @property
    def spec(self) -> str:
        """The full ``cla`` bot parameters: ``features=POWR,t=3,c=0.5,reward=3/-3/1``."""
        return (f"features={self.features},t={self.t},c={self.c:g},reward="
                + "/".join(str(r) for r in self.reward))

    @property
    def dim(self) -> int:
        """The length of its state vectors."""
        return dimension(parse_feature_set(self.features))

    def settings(self) -> dict[str, object]:
        """The strategy as JSON-ready settings."""
        return {"features": self.features, "t": self.t, "c": self.c, "reward": list(self.reward)}


PAPER_STRATEGIES = (
    Strategy("WR", 12, 0.5, (4, -4, -1)),
    Strategy("PR", 3, 0.5, (3, -3, 1)),
    Strategy("PR", 9, 0.5, (3, -3, 1)),
    Strategy("PO", 4, 0.5, (4, -4, -1)),
    Strategy("POWR", 3, 0.5, (3, -3, 1)),
    Strategy("POWR", 9, 0.5, (3, -3, 1)),
)
"""The six strategies of the paper's Table 2."""


def _paper_reward(features: str, t: int | None) -> tuple[int, int, int]:
    for strategy in PAPER_STRATEGIES:
        if strategy.features == features and (t is None or strategy.t == t):
            return strategy.reward
    return (3, -3, 1)


def parse_reward(text: str) -> tuple[int, int, int]:
    """``"3/-3/1"`` as ``(3, -3, 1)`` (win, loss, tie)."""
    parts = text.split("/")
    try:
        if len(parts) != 3:
            raise ValueError
        win, lose, tie = (int(part) for part in parts)
    except ValueError:
        raise ArenaError(f"reward {text!r} is not WIN/LOSS/TIE, such as 3/-3/1") from None
    return win, lose, tie


def make_strategy(features: str, t: int | None = None, c: float = 0.5, reward: str | None = None) -> Strategy:
    """A checked strategy; ``t`` and ``reward`` left out take the paper's for that feature set (t = 3 and
    3/-3/1 for a set the paper did not try)."""
    letters = features.strip().upper()
    parse_feature_set(letters)
    if t is None:
        t = next((s.t for s in PAPER_STRATEGIES if s.features == letters), 3)
    if t < 0:
        raise ArenaError(f"t = {t}: the threshold is a score margin, at least 0")
    if not -1 <= c <= 1:
        raise ArenaError(f"c = {c}: a cosine similarity lies between -1 and 1")
    rewards = parse_reward(reward) if reward is not None else _paper_reward(letters, t)
    return Strategy(letters, int(t), float(c), rewards)


def parse_strategy(text: str) -> Strategy:
    """``"POWR:t=3"`` or ``"PO:t=4,c=0.5,reward=4/-4/-1"`` (or just ``"WR"``) as a :class:`Strategy`."""
    features, _, rest = text.partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or key.strip() not in ("t", "c", "reward"):
            raise ArenaError(f"strategy {text!r}: {item!r} is not t=..., c=... or reward=W/L/T")
        params[key.strip()] = value.strip()
    try:
        t = int(params["t"]) if "t" in params else None
        c = float(params.get("c", "0.5"))
    except ValueError:
        raise ArenaError(f"strategy {text!r}: t must be an integer and c a number") from None
    return make_strategy(features, t, c, params.get("reward"))
