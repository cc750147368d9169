"""A package's public names, each imported from its module the first time it is asked for (PEP 562).

A package whose ``__init__`` imported its modules would make every import of one of them pay for all: a
sandboxed bot unpickling a Tron observation would import the game, its renderer and numpy."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, defined_in: Mapping[str, str],
               namespace: dict[str, Any]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package``, whose public names live in the modules
    ``defined_in`` gives (relative to the package); a name, once imported, is kept in ``namespace``."""

    def __getattr__(name: str) -> Any:
        module = defined_in.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*defined_in, *(name for name in namespace if name.startswith("__"))})

    return __getattr__, __dir__
