"""The package's layers: every import inside ``arena`` points down, never up, and no layer imports in a cycle.

Ranks, lowest first (a module may import modules of its own rank or lower):

0 core; 1 plugins and the rules of each game (``arena.games.<game>``); 2 the search engines
(``arena.engines.<game>``); 3 play; 4 stats; 5 storage; 6 tournament; 7 learning (``arena.learning``), the
conformance kit (``arena.testing``) and report; 8 the public API (``arena/__init__``); 9 the command line:
``arena.cli``, and each game's ``commands`` and ``plugin`` modules (its CLI and the hook module that adds it).

The old paths of the engine modules (``arena.games.tron.search`` and the like, kept for old imports) rank
with the engines they alias, so nothing in ``arena.games`` can use them.

Imports inside functions count too: a lazy import still couples the layers.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "arena"

RANKS = {"core": 0, "plugins": 1, "games": 1, "engines": 2, "play": 3, "stats": 4, "storage": 5, "tournament": 6,
         "learning": 7, "testing": 7, "report": 7, "cli": 9}
CLI_MODULES_OF_A_GAME = ("commands", "plugin")
MOVED_TO_ENGINES = {f"arena.games.tron.{name}" for name in
                    ("search", "search_bot", "paranoid", "endgame", "compiled", "compiled_fill")}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def rank(module: str) -> int:
    parts = module.split(".")
    if module in ("arena", "arena.__main__"):
        return 8 if module == "arena" else 9
    if parts[1] == "games" and len(parts) >= 4 and parts[3] in CLI_MODULES_OF_A_GAME:
        return 9
    if module in MOVED_TO_ENGINES:
        return RANKS["engines"]
    if parts[1] == "rl":
        return 7
    return RANKS[parts[1]]


def arena_imports(path: Path) -> list[tuple[int, str]]:
    """Every arena module ``path`` imports, with the line, resolved to the deepest existing module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name == "arena" or name.startswith("arena."):
                found.append((node.lineno, existing_module(name)))
    return found


def existing_module(name: str) -> str:
    parts = name.split(".")
    while len(parts) > 1:
        candidate = PACKAGE.parent.joinpath(*parts)
        if candidate.with_suffix(".py").is_file() or (candidate / "__init__.py").is_file():
            return ".".join(parts)
        parts.pop()
    return "arena"


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_imports_point_down(path):
    importer = module_name(path)
    upward = [f"{path.relative_to(PACKAGE.parent)}:{line} imports {target} (rank {rank(target)} > {rank(importer)})"
              for line, target in arena_imports(path)
              if rank(target) > rank(importer)]
    assert not upward, "\n".join(upward)


def game_package(parts: list[str]) -> bool:
    """Whether ``arena.games.X``, ``arena.engines.X`` or ``arena.learning.X`` is a game's package (not a module all
    games share)."""
    return len(parts) >= 3 and parts[1] in ("games", "engines", "learning") and (PACKAGE / parts[1] / parts[2]).is_dir()


def test_a_game_imports_no_other_game():
    for path in MODULES:
        importer = module_name(path).split(".")
        if not game_package(importer):
            continue
        for line, target in arena_imports(path):
            parts = target.split(".")
            if game_package(parts):
                assert parts[2] == importer[2], f"{path}:{line} imports {target}"


def test_no_import_cycles_between_modules():
    graph = {module_name(path): {target for _, target in arena_imports(path)} - {module_name(path)}
             for path in MODULES}
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph.get(node, ())):
            if target == "arena" or target not in graph:
                continue  # the public API re-exports; nothing below imports it (checked by the ranks)
            if state.get(target) == 1:
                cycles.append(" -> ".join([*trail[trail.index(target):], target]))
            elif target not in state:
                visit(target, [*trail, target])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles, "\n".join(cycles)


def test_the_checker_sees_an_upward_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from arena.cli.common import err\n    import arena.storage.store\n")
    assert arena_imports(sample) == [(2, "arena.cli.common"), (3, "arena.storage.store")]
    assert rank("arena.cli.common") > rank("arena.core.game")
    assert rank("arena.games.tron.commands") == 9 and rank("arena.games.tron.board") == 1
    assert rank("arena.games.tron.search") == rank("arena.engines.tron.search") == 2
