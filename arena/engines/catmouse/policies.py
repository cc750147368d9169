"""Deterministic cat-and-mouse policies, as trained by hill climbing, and their files.

Two kinds:

* **full** (for one board): a move for every (cat cell, mouse cell) pair, for each role. Entry
  ``cat_cell * cells + mouse_cell``; cells are numbered row by row from the top-left.
* **window** (for any board at least 3x3): a move for each of the 3^6 = 729 ways the two players can sit
  in a 3x3 window, with where the board's edges fall. The window's top-left corner is at the smaller of
  the two x and of the two y coordinates, moved left or up as far as needed to keep it on the board.
  Entry ``((((cat_x * 3 + cat_y) * 3 + mouse_x) * 3 + mouse_y) * 3 + h_edge) * 3 + v_edge``, with the
  positions taken inside the window and ``h_edge`` 1 if the window's left column is the board's left
  edge, 2 if its right column is the board's right edge, 0 otherwise (``v_edge`` likewise: 1 top,
  2 bottom). When the players do not fit in one window, the cat takes the legal move nearest the mouse
  and the mouse the legal move farthest from the cat (Euclidean distance, ties in the order U, D, L, R);
  so does a window move that the board forbids (an obstacle).

A policy file is JSON: ``{"format": "arena-catmouse-policy/1", "kind": "full" | "window",
"board": {"rows": [...]} (full only), "cat": "UDLR...", "mouse": "UDLR...", "training": {...}}``; either
role may be missing. In a full policy ``-`` may mark entries no game reaches (both players on one cell, a
player on an obstacle).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.core.json_files import write_json_atomically
from arena.games.catmouse.rules import DELTAS, MOVES, SIDE_NAMES, Layout

POLICY_FORMAT = "arena-catmouse-policy/1"
SHIPPED_POLICY = Path(__file__).resolve().parent / "trained" / "window.json"
"""The window policies (cat and mouse) that ship with arena, trained on the 5x5 board."""
WINDOW_ENTRIES = 3 ** 6
KINDS = ("full", "window")


class PolicyError(ArenaError):
    """A policy file that cannot be used: missing, unreadable, malformed, or for another board."""


@dataclass
class Policy:
    """A deterministic policy for one or both roles: one move letter (or ``-``) per entry."""

    kind: str
    moves: dict[str, str]
    board: dict[str, Any] | None = None
    training: dict[str, Any] = field(default_factory=dict)

    def for_role(self, role: str, source: str = "the policy") -> str:
        """The entries of ``role``, or a :class:`PolicyError` if the file holds none."""
        if role not in self.moves:
            held = " and ".join(sorted(self.moves)) or "no role"
            raise PolicyError(f"{source} has no {role} policy (it holds {held})")
        return self.moves[role]

    def layout_key(self) -> str | None:
        """The board key (size and obstacles) a full policy was trained for."""
        if self.board is None:
            return None
        rows = self.board["rows"]
        return f"{len(rows[0])}x{len(rows)}:" + "/".join(rows)

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to a policy file."""
        data: dict[str, Any] = {"format": POLICY_FORMAT, "kind": self.kind}
        if self.board is not None:
            data["board"] = self.board
        for role in SIDE_NAMES:
            if role in self.moves:
                data[role] = self.moves[role]
        data["training"] = self.training
        return data


def board_of(layout: Layout) -> dict[str, Any]:
    """The ``board`` entry of a full policy: the rows, ``#`` for obstacles."""
    return {"rows": layout.key().split(":", 1)[1].split("/")}


def encode_moves(moves: Any) -> str:
    """Move indices (0-3, or -1 for none) as a string of ``U``, ``D``, ``L``, ``R`` and ``-``."""
    return "".join(MOVES[int(k)] if k >= 0 else "-" for k in moves)


def decode_moves(text: str) -> list[int]:
    """The inverse of :func:`encode_moves`."""
    return [MOVES.index(char) if char != "-" else -1 for char in text]


def save_policy(policy: Policy, path: str | Path) -> None:
    """Write a policy file atomically (a temporary file renamed into place)."""
    write_json_atomically(Path(path), policy.to_json())


def load_policy(path: str | Path) -> Policy:
    """Read and check a policy file; any problem is a one-line :class:`PolicyError`."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise PolicyError(f"{path}: no such policy file") from None
    except IsADirectoryError:
        raise PolicyError(f"{path}: is a directory, not a policy file") from None
    except OSError as exc:
        raise PolicyError(f"{path}: cannot read policy ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PolicyError(f"{path}: not a JSON policy file ({exc})") from None
    return policy_from_json(data, str(path))


def policy_from_json(data: Any, source: str) -> Policy:
    """Check a parsed policy file and build the :class:`Policy`."""
    if not isinstance(data, dict) or data.get("format") != POLICY_FORMAT:
        raise PolicyError(f"{source}: not a catmouse policy file (expected \"format\": \"{POLICY_FORMAT}\")")
    kind = data.get("kind")
    if kind not in KINDS:
        raise PolicyError(f"{source}: kind {kind!r} is not one of: {', '.join(KINDS)}")
    board = None
    if kind == "full":
        board = data.get("board")
        rows = board.get("rows") if isinstance(board, dict) else None
        if not (isinstance(rows, list) and rows and all(isinstance(r, str) and r and set(r) <= {".", "#"}
                                                         for r in rows) and len({len(r) for r in rows}) == 1):
            raise PolicyError(f"{source}: a full policy needs \"board\": {{\"rows\": [...]}} of '.' and '#'")
        cells = len(rows) * len(rows[0])
        entries = cells * cells
    else:
        entries = WINDOW_ENTRIES
    moves = {}
    for role in SIDE_NAMES:
        if role not in data:
            continue
        text = data[role]
        if not isinstance(text, str) or len(text) != entries or not set(text) <= set("UDLR-"):
            raise PolicyError(f"{source}: the {role} policy must be a string of {entries} moves (U, D, L, R or -)")
        moves[role] = text
    if not moves:
        raise PolicyError(f"{source}: holds neither a cat nor a mouse policy")
    training = data.get("training", {})
    policy = Policy(kind, moves, board, training if isinstance(training, dict) else {})
    if kind == "full":
        _check_full(policy, source)
    return policy


def _check_full(policy: Policy, source: str) -> None:
    rows = policy.board["rows"] if policy.board else []
    width, height = len(rows[0]), len(rows)
    blocked = [char == "#" for row in rows for char in row]
    layout = Layout(width, height, blocked, 0, 0)
    cells = layout.cells
    for role, text in policy.moves.items():
        for entry, char in enumerate(text):
            cat, mouse = divmod(entry, cells)
            cell = cat if role == "cat" else mouse
            if char == "-":
                if cat != mouse and not blocked[cat] and not blocked[mouse] and layout.moves_from[cell]:
                    x, y = layout.xy(cell)
                    raise PolicyError(f"{source}: the {role} policy has no move for entry {entry} "
                                      f"(the {role} on ({x}, {y}))")
            elif blocked[cell] or layout.targets[cell][MOVES.index(char)] < 0:
                x, y = layout.xy(cell)
                raise PolicyError(f"{source}: the {role} policy's entry {entry} moves the {role} from ({x}, {y}) "
                                  f"{char}, off the board or into an obstacle")


def window_axis(low: int, size: int) -> tuple[int, int]:
    """Where the window starts along one axis (``low``: the smaller coordinate) and the edge code."""
    start = min(low, size - 3)
    if start == 0:
        return 0, 1
    if start == size - 3:
        return start, 2
    return start, 0


def window_entry(width: int, height: int, cat: tuple[int, int], mouse: tuple[int, int]) -> int | None:
    """The window-policy entry for this position, or ``None`` if the players do not fit in one 3x3 window."""
    (cx, cy), (mx, my) = cat, mouse
    if abs(cx - mx) > 2 or abs(cy - my) > 2 or width < 3 or height < 3:
        return None
    sx, h_edge = window_axis(min(cx, mx), width)
    sy, v_edge = window_axis(min(cy, my), height)
    return (((((cx - sx) * 3 + (cy - sy)) * 3 + (mx - sx)) * 3 + (my - sy)) * 3 + h_edge) * 3 + v_edge


def window_fields(entry: int) -> tuple[int, int, int, int, int, int]:
    """``(cat_x, cat_y, mouse_x, mouse_y, h_edge, v_edge)`` of a window entry."""
    fields = []
    for _ in range(6):
        entry, digit = divmod(entry, 3)
        fields.append(digit)
    cat_x, cat_y, mouse_x, mouse_y, h_edge, v_edge = reversed(fields)
    return cat_x, cat_y, mouse_x, mouse_y, h_edge, v_edge


def window_move_allowed(entry: int, role: str, move: int) -> bool:
    """Whether a window entry may hold ``move`` for ``role``: not off an edge the window touches."""
    cx, cy, mx, my, h_edge, v_edge = window_fields(entry)
    x, y = (cx, cy) if role == "cat" else (mx, my)
    dx, dy = DELTAS[move]
    return not ((x + dx < 0 and h_edge == 1) or (x + dx > 2 and h_edge == 2)
                or (y + dy < 0 and v_edge == 1) or (y + dy > 2 and v_edge == 2))


def far_move(legal: list[tuple[str, tuple[int, int]]], other: tuple[int, int], role: str) -> str:
    """The cat's legal move nearest ``other`` or the mouse's farthest from it (ties in MOVES order)."""
    ox, oy = other
    best_move, best_gap = "", -1
    for move, (x, y) in sorted(legal, key=lambda item: MOVES.index(item[0])):
        gap = (x - ox) ** 2 + (y - oy) ** 2
        if best_gap < 0 or (gap < best_gap if role == "cat" else gap > best_gap):
            best_move, best_gap = move, gap
    return best_move


def choose_window_move(moves: str, obs: Any) -> str:
    """The move a window policy makes for the observing bot (see the module docstring)."""
    role = obs.role
    legal = obs.moves_from(*obs.position)
    entry = window_entry(obs.width, obs.height, obs.cat, obs.mouse)
    if entry is not None:
        move = moves[entry]
        if any(name == move for name, _ in legal):
            return move
    return far_move(legal, obs.opponent, role)


def choose_full_move(moves: str, obs: Any) -> str:
    """The move a full policy makes for the observing bot."""
    width = obs.width
    cells = width * obs.height
    cat = obs.cat[1] * width + obs.cat[0]
    mouse = obs.mouse[1] * width + obs.mouse[0]
    return moves[cat * cells + mouse]


_LOADED: dict[tuple[str, int, int], Policy] = {}


def cached_policy(path: str | Path) -> Policy:
    """:func:`load_policy`, remembered while the file is unchanged (bots load it once per process)."""
    path = Path(path)
    try:
        stat = path.stat()
    except OSError:
        return load_policy(path)
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _LOADED:
        _LOADED[key] = load_policy(path)
    return _LOADED[key]


def observed_board_key(obs: Any) -> str:
    """The board key of the board an observation shows, to check a full policy fits it."""
    rows = ("".join("#" if obs.blocked[y * obs.width + x] else "." for x in range(obs.width))
            for y in range(obs.height))
    return f"{obs.width}x{obs.height}:" + "/".join(rows)
