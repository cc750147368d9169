"""Tournament definitions: a TOML file (``tournaments/*.toml``) or command-line flags, as one dataclass.

```toml
name = "classic"
game = "tron"                       # optional: the maps' game
maps = ["maps/empty_room.txt", "maps/center_*.txt"]   # paths or globs, relative to this file, or map names
                                    # (a game played without maps, such as openspiel:..., needs only game)
bots = ["floodfill", "wallhugger", "chaser", "random"]  # names or bot specs; default: every bot of the game
format = "round-robin"              # round-robin | gauntlet | swiss
gauntlet = "floodfill"              # with format = "gauntlet": the bot that meets the field
rounds = 3                          # with format = "swiss"
games = 10                          # games per pairing per map
time_limit = 1.0                    # seconds per move (default 1, or none when time_control is given)
time_control = "60+0.5"             # optional: a bank of seconds for the game + an increment after each move
first_move = 3.0                    # optional: seconds the first move has of its own
clock = "wall"                      # wall | cpu: what a move costs
seed = 0
openings = "openings/chess-starters.epd"   # optional: play each opening of this book (EPD or PGN) as a map
openings_order = "random"           # sequential (the default) | random (shuffled by the seed)
openings_plies = 8                  # optional: play at most this many moves of each PGN line
openings_count = 20                 # optional: play only the first 20 openings (in that order)
workers = 2                         # default: all cores (of the cluster, with executor = "ray")
executor = "local"                  # local | ray (or one a plugin adds)
address = "auto"                    # with executor = "ray": the cluster (default: $RAY_ADDRESS or a local Ray)
sandbox = true                      # every bot plays confined (or a table of limits: {memory = "512M", processes = 32})
# sandbox = {build_bytes = "64M"}   # limits include build_bytes: what a build's folder may hold (default 256M)
```
"""

from __future__ import annotations

import glob
import hashlib
import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from arena.core.clock import TimeControl, time_control
from arena.core.errors import ArenaError
from arena.core.numbers import is_finite_number, seed_problem
from arena.play.sandbox.limits import SandboxLimits, parse_size
from arena.tournament.openings import OpeningsChoice

FORMATS = ("round-robin", "gauntlet", "swiss")
DEFAULT_GAMES = 10
DEFAULT_TIME_LIMIT = 1.0
_TOML_NAMES: dict[type, str] = {str: "a string", int: "an integer", float: "a number", bool: "a boolean",
                                list: "a list", dict: "a table"}
_TYPES: dict[str, tuple[type, ...]] = {
    "name": (str,), "game": (str,), "maps": (list,), "bots": (list,), "format": (str,), "gauntlet": (str,),
    "rounds": (int,), "games": (int,), "time_limit": (int, float), "seed": (int,), "workers": (int,),
    "options": (dict,), "executor": (str,), "address": (str,),
    "time_control": (str,), "first_move": (int, float), "clock": (str,),
    "openings": (str,), "openings_order": (str,), "openings_plies": (int,), "openings_count": (int,),
}
DEFAULT_OPENING_GAMES = 2
"""Games per pairing per opening when none is said: one game in each seat (colour)."""
_PLANNED_ONLY = frozenset({"opening_maps"})
"""Fields filled in when a run is planned, never read from a tournament file."""


@dataclass(frozen=True)
class TournamentDefinition:
    """What to play: every field of a tournament file; command-line flags override them."""

    maps: tuple[str, ...]
    name: str = ""
    game: str | None = None
    bots: tuple[str, ...] = ()
    format: str = "round-robin"
    gauntlet: str | None = None
    rounds: int | None = None
    games: int = DEFAULT_GAMES
    time_limit: float | None = None
    """Seconds per move as given (``None``: not given; see :meth:`move_limit`)."""
    seed: int = 0
    workers: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    executor: str = "local"
    address: str | None = None
    sandbox: SandboxLimits | None = None
    """Every bot plays in the sandbox, with these limits (``None``: bots play unconfined)."""
    time_control: str | None = None
    """``BANK+INC`` in seconds, e.g. ``10+0.1``."""
    first_move: float | None = None
    clock: str = "wall"
    openings: str | None = None
    """An openings file (EPD or PGN) whose openings are played as maps, besides any map files."""
    openings_order: str = "sequential"
    openings_plies: int | None = None
    openings_count: int | None = None
    opening_maps: tuple[tuple[str, str], ...] = ()
    """The openings played, as (name, map text): read from ``openings`` when the run is planned and stored with
    it, so a resumed run plays the same openings in the same order, whatever became of the file."""

    def __post_init__(self) -> None:
        if isinstance(self.sandbox, dict):  # as a stored run's definition keeps it
            object.__setattr__(self, "sandbox", SandboxLimits.from_json(self.sandbox))
        if self.opening_maps and not isinstance(self.opening_maps[0], tuple):  # JSON's lists
            object.__setattr__(self, "opening_maps", tuple((str(name), str(text))
                                                           for name, text in self.opening_maps))

    def openings_choice(self) -> OpeningsChoice | None:
        """The openings file and how it is played, or ``None`` without one."""
        if self.openings is None:
            return None
        return OpeningsChoice(self.openings, self.openings_order, self.openings_plies, self.openings_count)

    def move_limit(self) -> float | None:
        """The per-move limit the games have: the one given, else none under a time control, else 1 s."""
        if self.time_limit is not None:
            return float(self.time_limit)
        return None if self.time_control is not None else DEFAULT_TIME_LIMIT

    def timing(self) -> TimeControl:
        """The time control the games have (bank, increment, first move, clock)."""
        return time_control(self.time_control, self.first_move, self.clock)

    def with_overrides(self, **overrides: Any) -> TournamentDefinition:
        """A copy with every override that is not ``None`` applied."""
        return replace(self, **{key: value for key, value in overrides.items() if value is not None})

    def check(self) -> None:
        """Reject combinations that cannot be played, with a one-line reason."""
        if self.format not in FORMATS:
            raise ArenaError(f"format {self.format!r} is not one of: {', '.join(FORMATS)}")
        if self.format == "gauntlet" and not self.gauntlet:
            raise ArenaError("a gauntlet needs the bot that meets the field: --gauntlet BOT")
        if self.format == "swiss" and (self.rounds is None or self.rounds < 1):
            raise ArenaError("a swiss tournament needs --rounds N (at least 1)")
        if self.games < 1:
            raise ArenaError("--games must be at least 1")
        if self.time_limit is not None:
            if not is_finite_number(float(self.time_limit)):
                raise ArenaError(f"--time-limit must be a finite number, not {self.time_limit}")
            if self.time_limit <= 0:
                raise ArenaError("--time-limit must be positive")
        self.timing()
        problem = seed_problem(self.seed)
        if problem is not None:
            raise ArenaError(f"--seed: {problem}")
        if self.workers is not None and self.workers < 1:
            raise ArenaError("--workers must be at least 1")
        choice = self.openings_choice()
        if choice is None:
            given = self.openings_order != "sequential" or self.openings_plies is not None or self.openings_count
            if given:
                raise ArenaError("--openings-order, --openings-plies and --openings-count go with --openings FILE")
        else:
            choice.check()

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the definition."""
        data = asdict(self)
        data["maps"], data["bots"] = list(self.maps), list(self.bots)
        return data


def fingerprint(parts: dict[str, Any]) -> str:
    """A stable hash of what decides a tournament's games (so a rerun of the same command resumes it)."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]


def _key_line(text: str, key: str) -> int:
    match = re.search(rf"^\s*{re.escape(key)}\s*=", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else 1


def load_definition(path: str | Path) -> TournamentDefinition:
    """Read a tournament TOML file; errors name the file, the line and the key."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"{path}: cannot read tournament file ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        where = re.search(r"\(at line (\d+), column (\d+)\)", message)
        if where:
            location = f"{where.group(1)}:{where.group(2)}"
        else:  # "at end of document"
            last = text.split("\n")[-1]
            location = f"{text.count(chr(10)) + 1}:{len(last) + 1}"
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
        raise ArenaError(f"{path}:{location}: not valid TOML: {message}") from None

    known = {f.name for f in fields(TournamentDefinition)} - _PLANNED_ONLY
    for key, value in data.items():
        line = _key_line(text, key)
        if key not in known:
            raise ArenaError(f"{path}:{line}: unknown key {key!r} (known keys: {', '.join(sorted(known))})")
        if key == "sandbox":
            try:
                sandbox = sandbox_limits(value)
            except ArenaError as exc:
                raise ArenaError(f"{path}:{line}: key 'sandbox': {exc}") from None
            continue
        expected = _TYPES[key]
        if not isinstance(value, expected) or isinstance(value, bool):
            wanted = "a number" if float in expected else _TOML_NAMES[expected[0]]
            raise ArenaError(f"{path}:{line}: key {key!r} must be {wanted}, not {_TOML_NAMES.get(type(value), 'that')}")
        if key in ("maps", "bots") and not (isinstance(value, list) and all(isinstance(item, str) for item in value)):
            raise ArenaError(f"{path}:{line}: key {key!r} must be a list of strings")
        infinite = [leaf for leaf in _leaves(value) if not is_finite_number(leaf)]  # TOML has nan and inf
        if infinite:
            raise ArenaError(f"{path}:{line}: key {key!r}: {infinite[0]} is not a finite number")
        if key == "seed" and seed_problem(value) is not None:
            raise ArenaError(f"{path}:{line}: key 'seed': {seed_problem(value)}")
    sandbox = sandbox_limits(data.get("sandbox", False))
    if "maps" not in data and "openings" not in data and "game" not in data:
        raise ArenaError(f"{path}:1: key 'maps' is missing: list the maps to play on")

    maps = tuple(_expand(pattern, path.parent) for pattern in data.get("maps", []))
    definition = TournamentDefinition(
        maps=tuple(m for group in maps for m in group),
        name=data.get("name", path.stem),
        game=data.get("game"),
        bots=tuple(data.get("bots", ())),
        format=data.get("format", "round-robin"),
        gauntlet=data.get("gauntlet"),
        rounds=data.get("rounds"),
        games=data.get("games", DEFAULT_OPENING_GAMES if "openings" in data else DEFAULT_GAMES),
        time_limit=float(data["time_limit"]) if "time_limit" in data else None,
        time_control=data.get("time_control"),
        first_move=data.get("first_move"),
        clock=data.get("clock", "wall"),
        seed=data.get("seed", 0),
        workers=data.get("workers"),
        executor=data.get("executor", "local"),
        address=data.get("address"),
        sandbox=sandbox,
        options={str(k): str(v) for k, v in data.get("options", {}).items()},
        openings=_expand(data["openings"], path.parent)[0] if "openings" in data else None,
        openings_order=data.get("openings_order", "sequential"),
        openings_plies=data.get("openings_plies"),
        openings_count=data.get("openings_count"),
    )
    return definition  # checked once command-line flags are applied (see TournamentDefinition.check)


def sandbox_limits(value: Any) -> SandboxLimits | None:
    """The sandbox a tournament file's ``sandbox`` key asks for: ``true`` (the default limits), ``false``, or a
    table of limits (sizes as numbers of bytes or like ``512M``)."""
    if isinstance(value, bool):
        return SandboxLimits() if value else None
    if not isinstance(value, dict):
        raise ArenaError("must be true, false or a table of limits")
    return SandboxLimits.from_json({key: parse_size(item) if isinstance(item, str) else item
                                    for key, item in value.items()})


def _leaves(value: Any) -> list[Any]:
    """``value``, or every value inside it if it is a TOML list or table."""
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def _expand(pattern: str, base: Path) -> list[str]:
    """A map entry: a glob or path relative to the TOML file (or the current directory), or a map name."""
    for root in (base, Path.cwd()):
        candidate = root / pattern
        matches = sorted(glob.glob(str(candidate)))
        if matches:
            return matches
    return [pattern]


def definition_from_targets(targets: Sequence[str], overrides: Mapping[str, Any]) -> TournamentDefinition:
    """The definition a command line gives: one tournament file (``.toml``) or maps, then flag ``overrides``.

    ``overrides`` are :meth:`TournamentDefinition.with_overrides` keywords; ``None`` values are not given.
    """
    tomls = [target for target in targets if target.endswith(".toml")]
    if tomls and len(targets) > 1:
        raise ArenaError("give either one tournament file (.toml) or map files, not both")
    base = load_definition(tomls[0]) if tomls else TournamentDefinition(maps=tuple(targets))
    if not tomls and overrides.get("openings") is not None and overrides.get("games") is None:
        base = replace(base, games=DEFAULT_OPENING_GAMES)
    definition = base.with_overrides(**overrides)
    try:
        definition.check()
    except ArenaError as exc:
        raise ArenaError(f"{tomls[0]}: {exc}" if tomls else str(exc)) from None
    return definition
