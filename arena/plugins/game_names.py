"""Game names for a message: a family of games (``openspiel:...``, a hundred or more) as one entry."""

from __future__ import annotations

from collections.abc import Iterable


def names_with_families(names: Iterable[str]) -> list[str]:
    """The names sorted, each game alone, and each family's (``FAMILY:NAME``) as one ``FAMILY:* (N games)``."""
    names = list(names)
    families: dict[str, int] = {}
    for name in names:
        if ":" in name and not name.endswith(":*"):
            family = name.partition(":")[0]
            families[family] = families.get(family, 0) + 1
    alone = [name for name in names if name.partition(":")[0] not in families]
    return sorted([*alone, *(f"{family}:* ({count} games)" for family, count in families.items())])
