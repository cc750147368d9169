"""A league's settings: ``league.toml`` in the league's folder, beside its ``arena.db`` and ``maps/``.

```toml
game = "tron"
maps = ["center_block.txt", "empty_room.txt"]   # files in maps/, played in rotation
seed = 1234567                                  # every game's seed derives from it and its place in the queue
time_limit = 1.0                                # seconds a bot may think per move
build_timeout = 60.0                            # seconds a submitted bot's build may take
build_bytes = 268435456                         # bytes a build's folder may hold, sources and products
challenge_games = 10                            # the most games one challenge may ask for
challenge_waiting = 20                          # the most challenge games a team may have waiting
upload_bytes = 1048576                          # the largest submission, all files together
upload_files = 200                              # the most files a submission may hold
```
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.play.sandbox.limits import DEFAULT_BUILD_BYTES

SETTINGS_FILE = "league.toml"
DATABASE_FILE = "arena.db"
MAPS_FOLDER = "maps"


@dataclass(frozen=True)
class LeagueSettings:
    """What ``league.toml`` says."""

    game: str
    maps: tuple[str, ...]
    seed: int
    time_limit: float = 1.0
    build_timeout: float = 60.0
    build_bytes: int = DEFAULT_BUILD_BYTES
    challenge_games: int = 10
    challenge_waiting: int = 20
    upload_bytes: int = 2**20
    upload_files: int = 200
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    """Keys this arena does not know (kept when the file is written again)."""

    def with_maps(self, maps: tuple[str, ...]) -> LeagueSettings:
        """The same settings with another list of maps."""
        return replace(self, maps=maps)

    def to_toml(self) -> str:
        """The text of ``league.toml``."""
        lines = []
        for key, value in asdict(self).items():
            if key == "extra":
                continue
            lines.append(f"{key} = {_toml_value(value)}")
        lines += [f"{key} = {_toml_value(value)}" for key, value in self.extra.items()]
        return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    return repr(value)


_NUMBERS = {"time_limit": float, "build_timeout": float, "build_bytes": int, "challenge_games": int,
            "challenge_waiting": int, "upload_bytes": int, "upload_files": int}


def read_settings(folder: Path) -> LeagueSettings:
    """Read ``folder/league.toml``; an :class:`ArenaError` naming the problem if it is missing or wrong."""
    path = folder / SETTINGS_FILE
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ArenaError(f"{folder}: not a league (no {SETTINGS_FILE}); make one with `arena league new`") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ArenaError(f"{path}: cannot be read ({exc})") from None
    try:
        game, maps, seed = data.pop("game"), data.pop("maps"), data.pop("seed")
    except KeyError as exc:
        raise ArenaError(f"{path}: missing key {exc.args[0]}") from None
    if not isinstance(game, str) or not isinstance(maps, list) or not all(isinstance(m, str) for m in maps) \
            or not maps or isinstance(seed, bool) or not isinstance(seed, int):
        raise ArenaError(f"{path}: game must be a name, maps a non-empty list of file names, seed an integer")
    numbers: dict[str, Any] = {}
    for key, kind in _NUMBERS.items():
        if key in data:
            value = data.pop(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 \
                    or (kind is int and not isinstance(value, int)):
                raise ArenaError(f"{path}: {key} must be a positive {'integer' if kind is int else 'number'}")
            numbers[key] = kind(value)
    return LeagueSettings(game, tuple(maps), seed, **numbers, extra=data)


def write_settings(folder: Path, settings: LeagueSettings) -> None:
    """Write ``folder/league.toml`` (replacing it whole, so a crash leaves the old or the new file)."""
    path = folder / SETTINGS_FILE
    staging = path.with_name(f".{SETTINGS_FILE}.new")
    staging.write_text(settings.to_toml())
    staging.replace(path)
