"""Replaying game records: check a record against the current rules, and load records from disk.

A record (``arena-record/1``, see :mod:`arena.core.records`) holds everything needed to play its game again:
the game, options, the map's full text, the seed, and every action of every turn. Re-adjudicating replays
those actions under the current rules and compares the result. A game lost by a bot failure (crash,
timeout, illegal answer) is checked too: its turns must replay without ending the game, and the recorded
ranks must be the forfeit of the failing seats.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game, Result, player_name, players_text
from arena.core.maps import parse_map
from arena.core.records import RECORD_FORMAT
from arena.plugins.registry import Registry


class RecordError(ArenaError):
    """A record that is malformed: the message names where and which field."""


def _field(record: dict[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    if name not in record:
        raise RecordError(f"{where}: field {name!r} is missing")
    value = record[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(f"{where}: field {name!r} should be {expected}, not {type(value).__name__}")
    return value


def validate(record: Any, where: str) -> dict[str, Any]:
    """Check a record's shape; raise :class:`RecordError` naming ``where`` and the first bad field."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a record is a JSON object, not {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"{where}: field 'format' should be {RECORD_FORMAT!r}, not {record.get('format')!r}")
    _field(record, "game", str, where)
    _field(record, "options", dict, where)
    _field(record, "seed", int, where)
    game_map = record.get("map")
    if game_map is not None and (not isinstance(game_map, dict) or not isinstance(game_map.get("text"), str)):
        raise RecordError(f"{where}: field 'map' should be null or an object with a 'text' string")
    players = _field(record, "players", list, where)
    turns = _field(record, "turns", list, where)
    for index, turn in enumerate(turns):
        if not isinstance(turn, dict) or not all(isinstance(k, str) and k.isdigit() for k in turn):
            raise RecordError(f"{where}: field 'turns[{index}]' should map seat numbers to actions")
    result = _field(record, "result", dict, where)
    ranks = result.get("ranks")
    if not isinstance(ranks, list) or not all(isinstance(r, int) and not isinstance(r, bool) for r in ranks):
        raise RecordError(f"{where}: field 'result.ranks' should be a list of whole numbers")
    if len(ranks) != len(players):
        raise RecordError(f"{where}: field 'result.ranks' has {len(ranks)} ranks for {len(players)} players")
    failures = record.get("failures", [])
    if not isinstance(failures, list) or not all(isinstance(f, dict) and isinstance(f.get("seat"), int)
                                                  for f in failures):
        raise RecordError(f"{where}: field 'failures' should be a list of objects with a 'seat'")
    return record


def new_game(record: dict[str, Any], registry: Registry) -> Game:
    """The record's game, set up from its map, options and seed, before any move."""
    game_cls = registry.game(record["game"])
    game_map = None
    if record.get("map") is not None:
        game_map = parse_map(record["map"]["text"], name=record["map"].get("name", "map"))
        game_cls.check_map(game_map)
    options = game_cls.resolve_options({str(k): str(v) for k, v in record["options"].items()})
    return game_cls(game_map, options, np.random.default_rng(record["seed"]))


@dataclass(frozen=True)
class Verdict:
    """Whether a record's result is what the current rules give, and if not, how they differ."""

    agrees: bool
    detail: str = ""


def adjudicate(record: dict[str, Any], registry: Registry) -> Verdict:
    """Replay a validated record's actions under the current rules and compare the result."""
    game = new_game(record, registry)
    for index, turn in enumerate(record["turns"]):
        if game.result is not None:
            return Verdict(False, f"the game ended after turn {index}, but the record has "
                                  f"{len(record['turns'])} turns")
        actions = {int(seat): action for seat, action in turn.items()}
        acting = sorted(game.to_act())
        if sorted(actions) != acting:
            return Verdict(False, f"turn {index + 1}: {_players(sorted(actions))} acted, but the rules ask "
                                  f"{_players(acting)}")
        illegal = [seat for seat, action in actions.items() if not game.is_legal(seat, action)]
        if illegal:
            return Verdict(False, f"turn {index + 1}: {player_name(illegal[0])}'s action {actions[illegal[0]]!r} "
                                  "is illegal")
        game.apply(actions)
    recorded = Result(tuple(record["result"]["ranks"]), record["result"].get("reason", ""))
    failed = sorted(f["seat"] for f in record.get("failures", []))
    if failed:
        if game.result is not None:
            return Verdict(False, "the record says a bot failed, but the game was already over by the rules")
        expected = game.forfeit(failed, recorded.reason)
    elif game.result is None:
        return Verdict(False, f"the game is not over after the record's {len(record['turns'])} turns")
    else:
        expected = game.result
    if expected.ranks != recorded.ranks:
        return Verdict(False, f"ranks {list(recorded.ranks)} recorded, {list(expected.ranks)} by the rules "
                              f"({expected.reason})")
    return Verdict(True)


def _players(seats: list[int]) -> str:
    return players_text(seats) if seats else "no player"


def load_records(paths: Sequence[str | Path]) -> Iterator[tuple[str, dict[str, Any] | RecordError]]:
    """Every record in ``paths`` (files of one record or a list, ``.jsonl`` files, directories of them),
    each with where it came from; a malformed one comes as a :class:`RecordError` and the rest go on."""
    for path in map(Path, paths):
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.suffix in (".json", ".jsonl") and p.is_file())
            if not files:
                yield str(path), RecordError(f"{path}: no .json or .jsonl records in this directory")
            for file in files:
                yield from _records_in(file)
        elif path.exists():
            yield from _records_in(path)
        else:
            yield str(path), RecordError(f"{path}: no such file or directory")


def _records_in(path: Path) -> Iterator[tuple[str, dict[str, Any] | RecordError]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        yield str(path), RecordError(f"{path}: cannot read ({getattr(exc, 'strerror', None) or exc})")
        return
    if path.suffix == ".jsonl":
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                yield from _parse(line, f"{path}:{number}")
    else:
        yield from _parse(text, str(path))


def _parse(text: str, where: str) -> Iterator[tuple[str, dict[str, Any] | RecordError]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        yield where, RecordError(f"{where}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})")
        return
    items = data if isinstance(data, list) else [data]
    for index, item in enumerate(items):
        label = f"{where}[{index}]" if isinstance(data, list) else where
        try:
            yield label, validate(item, label)
        except RecordError as exc:
            yield label, exc


@dataclass
class CheckReport:
    """The outcome of ``arena replay --check``."""

    agree: int = 0
    differ: list[tuple[str, str]] | None = None
    malformed: list[str] | None = None

    def __post_init__(self) -> None:
        self.differ = self.differ or []
        self.malformed = self.malformed or []

    @property
    def ok(self) -> bool:
        """True when every record was well-formed and agreed."""
        return not self.differ and not self.malformed


def check(paths: Sequence[str | Path], registry: Registry) -> CheckReport:
    """Re-adjudicate every record found in ``paths``."""
    return check_records(load_records(paths), registry)


def check_records(records: Iterable[tuple[str, dict[str, Any] | RecordError]], registry: Registry) -> CheckReport:
    """Re-adjudicate each record (or the error met reading it), named by where it came from."""
    report = CheckReport()
    assert report.differ is not None and report.malformed is not None
    for where, item in records:
        if isinstance(item, RecordError):
            report.malformed.append(str(item))
            continue
        try:
            verdict = adjudicate(item, registry)
        except ArenaError as exc:
            report.malformed.append(f"{where}: {exc}")
            continue
        if verdict.agrees:
            report.agree += 1
        else:
            report.differ.append((where, verdict.detail))
    return report
