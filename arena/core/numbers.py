"""The numbers a user may give: finite ones (NaN and infinity turn limits off silently), and seeds in the
range every random generator the arena seeds accepts."""

from __future__ import annotations

import math

SEED_MAX = 2**32 - 1
"""The largest seed: numpy's legacy generators, which some learners use, take 32-bit seeds."""


def is_finite_number(value: object) -> bool:
    """True unless ``value`` is a float that is NaN or infinite."""
    return not isinstance(value, float) or math.isfinite(value)


def finite_number(text: str | float) -> float:
    """``text`` as a float, refusing NaN and infinity (``ValueError`` names the value)."""
    try:
        number = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{text!r} is not a finite number")
    return number


def seed_problem(seed: object) -> str | None:
    """Why ``seed`` is not a usable seed, or None: seeds are whole numbers from 0 to ``SEED_MAX``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        return f"a seed is a whole number from 0 to {SEED_MAX}, not {seed!r}"
    return None


def seed_number(text: str | int) -> int:
    """``text`` as a seed (``ValueError`` says the range)."""
    try:
        seed = int(text)
    except ValueError:
        raise ValueError(f"a seed is a whole number from 0 to {SEED_MAX}, not {text!r}") from None
    problem = seed_problem(seed)
    if problem is not None:
        raise ValueError(problem)
    return seed
