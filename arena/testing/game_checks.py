"""``check_game``: a game plugin against the Game contract, on its maps, under every combination of options.

For each map and each combination of option values (all of them up to ``max_combinations``, else an even,
seeded spread of that many), seeded random play with legal actions runs every game to its end and checks:

* the turn: ``to_act()`` names living seats, each has legal actions, ``is_legal`` agrees with them and
  refuses a malformed action without raising;
* observations: they pickle (they cross process boundaries), and a bot that changes the one it was
  given changes nothing in the game;
* the end: a result within ``max_turns``, a rank for every seat (1 best), a reason; ``render`` gives text;
  ``forfeit`` gives ranks;
* reproducibility: the same seed and the same actions give the same observations and result, and a
  game pickled mid-way and restored plays on exactly as the original.
"""

from __future__ import annotations

import contextlib
import itertools
import pickle
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game, Result
from arena.core.maps import GameMap, resolve_map
from arena.testing.report import ConformanceReport

MAX_TURNS = 100_000


class _Malformed:
    """An action no game lists: ``is_legal`` must refuse it without raising."""

    def __repr__(self) -> str:
        return "<malformed action>"


class GameFault(Exception):  # a fault of the game under test, not of the kit
    """A broken rule of the contract, found while playing; ends that game's checks."""


def check_game(game_class: type[Game], maps: Sequence[str | GameMap] | None = None, *, max_combinations: int = 64,
               seed: int = 0, games: int = 2, max_turns: int = MAX_TURNS) -> ConformanceReport:
    """Check ``game_class`` against the Game contract; every problem is a failed check in the report.

    ``maps``: names, paths or parsed maps (default: the game's ``default_maps``; a game that takes no map
    is played without one). ``games`` random games are played per map and combination of options.
    """
    report = ConformanceReport(f"game {getattr(game_class, 'name', game_class.__name__)!r}")
    _check_declaration(game_class, report)
    boards = _load_maps(game_class, maps, report)
    combinations, total = option_combinations(game_class, max_combinations, seed)
    if total:
        report.passed("option combinations", f"{len(combinations)} of {total} checked"
                      + (f" (a seeded spread; raise max_combinations to check all {total})"
                         if len(combinations) < total else ""))
    played = 0
    for board in boards:
        for values in combinations:
            label = _label(board, values)
            try:
                options = game_class.resolve_options({**(board.header if board else {}), **values})
            except ArenaError as exc:
                report.failed("options", f"{label}: resolve_options refused declared choices: {exc}")
                continue
            for game_index in range(games):
                game_seed = seed * 1000 + game_index
                try:
                    _check_one_game(game_class, board, options, game_seed, max_turns, pickle_at=game_index == 0)
                except GameFault as exc:
                    report.failed("play", f"{label}, seed {game_seed}: {exc}")
                except Exception as exc:  # the game under test raised: report it, go on with the rest
                    report.failed("play", f"{label}, seed {game_seed}: {type(exc).__name__}: {exc}")
                else:
                    played += 1
    if played:
        report.passed("play", f"{played} random games played to the end on {len(boards)} map(s): turns, "
                              "observations, results, rendering, pickling and determinism checked")
    return report


def option_combinations(game_class: type[Game], cap: int, seed: int = 0) -> tuple[list[dict[str, str]], int]:
    """Every combination of the game's option values, or ``cap`` of them spread evenly; and how many exist."""
    names = list(game_class.options)
    choices = [game_class.options[name].choices for name in names]
    total = int(np.prod([len(c) for c in choices])) if choices else 1
    if total <= cap:
        picked = list(itertools.product(*choices))
    else:
        indices = sorted(random.Random(seed).sample(range(total), cap))
        picked = [_combination_at(index, choices) for index in indices]
    return [dict(zip(names, combo, strict=True)) for combo in picked], total


def _combination_at(index: int, choices: Sequence[Sequence[str]]) -> tuple[str, ...]:
    values = []
    for options in reversed(choices):
        index, digit = divmod(index, len(options))
        values.append(options[digit])
    return tuple(reversed(values))


def _check_declaration(game_class: type[Game], report: ConformanceReport) -> None:
    problems = []
    name = getattr(game_class, "name", None)
    if not isinstance(name, str) or not name:
        problems.append("name should be a non-empty string")
    if not 1 <= game_class.min_players <= game_class.max_players:
        problems.append(f"players {game_class.min_players}-{game_class.max_players}: need 1 <= min <= max")
    for key, option in game_class.options.items():
        if not option.choices:
            problems.append(f"option {key!r} has no choices")
        elif option.default not in option.choices:
            problems.append(f"option {key!r}: default {option.default!r} is not one of its choices "
                            f"{', '.join(option.choices)}")
    if game_class.roles and len(game_class.roles) != game_class.max_players:
        problems.append(f"roles {game_class.roles} should name one role per seat ({game_class.max_players})")
    if game_class.size_option and game_class.size_option not in game_class.options:
        problems.append(f"size_option {game_class.size_option!r} is not one of its options")
    if problems:
        for problem in problems:
            report.failed("declaration", problem)
    else:
        report.passed("declaration", "name, players, options, roles")


def _load_maps(game_class: type[Game], maps: Sequence[str | GameMap] | None,
               report: ConformanceReport) -> list[GameMap | None]:
    specs = list(maps) if maps is not None else list(game_class.default_maps)
    if not specs:
        return [None]
    boards: list[GameMap | None] = []
    for spec in specs:
        try:
            board = spec if isinstance(spec, GameMap) else resolve_map(spec)
            game_class.check_map(board)
            seats = game_class.num_players(board)
        except ArenaError as exc:
            report.failed("maps", f"{spec if isinstance(spec, str) else spec.name}: {exc}")
            continue
        if not game_class.min_players <= seats <= game_class.max_players:
            report.failed("maps", f"{board.name}: {seats} seats, outside {game_class.min_players}-"
                                  f"{game_class.max_players}")
            continue
        boards.append(board)
    if boards:
        report.passed("maps", f"{', '.join(b.name for b in boards if b)} accepted by check_map")
    return boards


def _label(board: GameMap | None, values: Mapping[str, str]) -> str:
    options = ", ".join(f"{k}={v}" for k, v in values.items())
    return f"{board.name if board else 'no map'}" + (f" [{options}]" if options else "")


def _check_one_game(game_class: type[Game], board: GameMap | None, options: dict[str, str], seed: int,
                    max_turns: int, pickle_at: bool) -> None:
    """Play one seeded random game with every check; then replay it, and a pickled copy, to compare."""
    chooser = random.Random(seed)
    game = game_class(board, options, np.random.default_rng(seed))
    seats = game_class.num_players(board)
    if game.num_seats != seats:
        raise GameFault(f"num_seats is {game.num_seats}, but num_players gives {seats}")
    _check_render(game, "at the start")
    history: list[dict[int, Any]] = []
    seen: list[bytes] = []
    snapshot: tuple[int, bytes] | None = None
    for turn in range(max_turns):
        if game.result is not None:
            break
        if pickle_at and turn <= 1:  # mid-game where the game lasts that long, else at the start
            snapshot = (turn, _pickled(game, "the game"))
        actions = {}
        for seat in _seats_to_act(game):
            legal = _legal(game, seat)
            seen.append(_observation(game, seat))
            actions[seat] = chooser.choice(legal)
        game.apply(actions)
        history.append(actions)
    else:
        raise GameFault(f"no result after {max_turns} turns of random play")
    result = _check_result(game, seats)
    _check_render(game, "at the end")
    _check_forfeit(game, seats)
    _check_replay(game_class, board, options, seed, history, seen, result)
    if snapshot is not None:
        _check_restored(snapshot, history, result)


def _seats_to_act(game: Game) -> list[int]:
    seats = list(game.to_act())
    if not seats:
        raise GameFault("to_act() is empty before the game has a result")
    bad = [seat for seat in seats if not 0 <= seat < game.num_seats]
    if bad or len(set(seats)) != len(seats):
        raise GameFault(f"to_act() gives {seats}; seats are 0 to {game.num_seats - 1}, each at most once")
    return seats


def _legal(game: Game, seat: int) -> list[Any]:
    legal = list(game.legal_actions(seat))
    if not legal:
        raise GameFault(f"to_act() names seat {seat}, but legal_actions({seat}) is empty")
    refused = [action for action in legal if not game.is_legal(seat, action)]
    if refused:
        raise GameFault(f"is_legal refuses {refused[0]!r}, which legal_actions({seat}) lists")
    for malformed in (_Malformed(), None, [["nested"]]):
        try:
            accepted = game.is_legal(seat, malformed)
        except Exception as exc:
            raise GameFault(f"is_legal raised {type(exc).__name__} on a malformed action {malformed!r}; "
                            "it should answer False") from None
        if accepted and malformed not in legal:
            raise GameFault(f"is_legal accepts {malformed!r}, which legal_actions({seat}) does not list")
    return legal


def _observation(game: Game, seat: int) -> bytes:
    """The observation, pickled; after checking that a bot changing it cannot change the game."""
    before = _pickled(game.observe(seat), f"observe({seat})")
    given = game.observe(seat)
    _tamper(given)
    after = _pickled(game.observe(seat), f"observe({seat})")
    if after != before:
        raise GameFault(f"a bot that changes what observe({seat}) gave it changes the game: observe() must "
                        "give a copy or an immutable view")
    return before


def _tamper(observation: Any) -> None:
    """Change what a bot could change in an observation: its attributes and any mutable value they hold."""
    targets = [observation]
    fields = getattr(observation, "__dict__", None) or {}
    slots = [name for cls in type(observation).__mro__ for name in getattr(cls, "__slots__", ())]
    targets += list(fields.values()) + [getattr(observation, name, None) for name in slots]
    for value in targets:
        try:
            if isinstance(value, list | bytearray | dict | set):
                value.clear()
            elif isinstance(value, np.ndarray) and value.flags.writeable and value.size:
                value.fill(value.flat[0] + 1 if value.dtype != bool else not value.flat[0])
        except (TypeError, ValueError, AttributeError):
            pass
    for name in list(fields) + slots:
        with contextlib.suppress(AttributeError, TypeError):
            setattr(observation, name, None)


def _pickled(value: Any, what: str) -> bytes:
    try:
        return pickle.dumps(value)
    except Exception as exc:
        raise GameFault(f"{what} cannot be pickled ({type(exc).__name__}: {exc}); it must cross process "
                        "boundaries") from None


def _check_result(game: Game, seats: int) -> Result:
    result = game.result
    if not isinstance(result, Result):
        raise GameFault(f"result is {result!r}, not a Result")
    ranks = result.ranks
    if len(ranks) != seats or not all(isinstance(rank, int) and 1 <= rank <= seats for rank in ranks) \
            or min(ranks) != 1:
        raise GameFault(f"result ranks {ranks}: need one rank per seat, 1 (best) to {seats}, someone first")
    if not isinstance(result.reason, str) or not result.reason:
        raise GameFault("the result gives no reason")
    return result


def _check_render(game: Game, when: str) -> None:
    for color in (False, True):
        text = game.render(color=color)
        if not isinstance(text, str) or not text:
            raise GameFault(f"render(color={color}) {when} gives {type(text).__name__}, not text")


def _check_forfeit(game: Game, seats: int) -> None:
    result = game.forfeit([0], "player 1 failed")
    if not isinstance(result, Result) or len(result.ranks) != seats:
        raise GameFault(f"forfeit([0]) gives {result!r}: need a Result with a rank per seat")


def _check_replay(game_class: type[Game], board: GameMap | None, options: dict[str, str], seed: int,
                  history: list[dict[int, Any]], seen: list[bytes], result: Result) -> None:
    again = game_class(board, options, np.random.default_rng(seed))
    observed = []
    for actions in history:
        if again.result is not None:
            raise GameFault("the same seed and actions end the game early: it is not reproducible from its seed")
        observed += [pickle.dumps(again.observe(seat)) for seat in _seats_to_act(again)]
        again.apply(actions)
    if observed != seen:
        turn = next(i for i, (a, b) in enumerate(zip(observed, seen, strict=False)) if a != b) \
            if any(a != b for a, b in zip(observed, seen, strict=False)) else len(seen)
        raise GameFault(f"the same seed and actions give different observations (observation {turn + 1}): "
                        "all randomness must come from the rng the game is given")
    if again.result != result:
        raise GameFault(f"the same seed and actions give {again.result}, then {result}")


def _check_restored(snapshot: tuple[int, bytes], history: list[dict[int, Any]], result: Result) -> None:
    turn, data = snapshot
    restored = pickle.loads(data)
    for actions in history[turn:]:
        restored.apply(actions)
    if restored.result != result:
        raise GameFault(f"a game pickled at turn {turn} and restored ends with {restored.result}, "
                        f"the original with {result}")
