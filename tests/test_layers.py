"""The package's layers: every import inside ``arena`` points down, never up, and no layer imports in a cycle.

Ranks, lowest first (a module may import modules of its own rank or lower):

0 core, and the table of old import paths (``arena.compat``, which imports nothing of arena); 1 plugins and
the rules of each game (``arena.games.<game>``: rules, observation, rendering); 2 the search engines, solvers
and policies (``arena.engines.<game>``); 3 play; 4 stats; 5 storage; 6 tournament; 7 learning
(``arena.learning``), the conformance kit (``arena.testing``), report and the reinforcement-learning bindings
(``arena.rl``); 8 the public API (``arena/__init__``); 9 the command line (``arena.cli``), beside it the
shipped games' plugins and commands (``arena.builtin``), and the league (``arena.league``, with its web
server), whose ``arena league`` and ``arena serve`` commands the command line holds; ``arena.server``, the
league's old import paths, ranks with it.

So a game's package imports neither the command line nor the learners; no module inside arena imports an
old path (:data:`arena.compat.MOVED`).

Packages of one rank are independent: they import each other only where :data:`SIDEWAYS` says (the built-in
games' commands use the CLI's helpers). The built-in plugins (``BUILTIN_PLUGINS``), imported by name, must be
hook modules. The shipped bots (``bots/``) are written like a user's: they may import the public API
(``arena``), ``arena.core``, and the rules and engines of their own game (``arena.games.<game>``,
``arena.engines.<game>``), nothing else of the package.

Imports inside functions count too: a lazy import still couples the layers.
"""

import ast
import functools
from pathlib import Path

import pytest

from arena.compat import MOVED
from arena.plugins.registry import BUILTIN_PLUGINS, load_registry

PACKAGE = Path(__file__).resolve().parent.parent / "arena"

RANKS = {"core": 0, "compat": 0, "plugins": 1, "games": 1, "engines": 2, "play": 3, "stats": 4, "storage": 5,
         "tournament": 6, "learning": 7, "testing": 7, "report": 7, "rl": 7, "cli": 9, "builtin": 9, "league": 9,
         "server": 9}
SIDEWAYS = {("builtin", "cli"), ("cli", "league")}
"""(importer's package, imported package) pairs of one rank that may import each other."""
BOTS = PACKAGE.parent / "bots"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def rank(module: str) -> int:
    parts = module.split(".")
    if module in ("arena", "arena.__main__"):
        return 8 if module == "arena" else 9
    return RANKS[parts[1]]


@functools.cache
def imported_names(path: Path) -> list[tuple[int, str]]:
    """Every arena name ``path`` imports (``from a.b import c`` gives ``a.b.c``), with the line, as written."""
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
                found.append((node.lineno, name))
    return found


def arena_imports(path: Path) -> list[tuple[int, str]]:
    """Every arena module ``path`` imports, with the line, resolved to the deepest existing module."""
    return [(line, existing_module(name)) for line, name in imported_names(path)]


@functools.cache
def type_only_lines(path: Path) -> set[int]:
    """The lines of the imports under ``if TYPE_CHECKING:`` in ``path``: read by the type checker, never run."""
    lines = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            lines.update(inner.lineno for statement in node.body for inner in ast.walk(statement)
                         if isinstance(inner, ast.Import | ast.ImportFrom))
    return lines


@functools.cache
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


GAME_LAYERS = ("games", "engines", "learning", "builtin")


def game_package(parts: list[str]) -> bool:
    """Whether ``arena.<layer>.X`` (a layer of :data:`GAME_LAYERS`) is a game's package (not a module all games
    share)."""
    return len(parts) >= 3 and parts[1] in GAME_LAYERS and (PACKAGE / parts[1] / parts[2]).is_dir()


def game_rules_problems(path: Path) -> list[str]:
    """The imports of ``path``, a module of ``arena.games``, of the command line or the learners."""
    return [f"{path.name}:{line} imports {target}" for line, target in arena_imports(path)
            if target.split(".")[1:2] in (["cli"], ["learning"])]


@pytest.mark.parametrize("path", sorted((PACKAGE / "games").rglob("*.py")), ids=lambda p: module_name(p))
def test_a_game_imports_neither_the_command_line_nor_the_learners(path):
    problems = game_rules_problems(path)
    assert not problems, "\n".join(problems)


def test_the_checker_sees_a_game_importing_the_command_line(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from arena.cli.common import err\nfrom arena.core.game import Game\n"
                      "def f():\n    from arena.learning.tron import training\n")
    assert game_rules_problems(sample) == ["sample.py:1 imports arena.cli.common",
                                           "sample.py:4 imports arena.learning.tron.training"]


def old_path_imports(path: Path) -> list[str]:
    """The imports of ``path`` that name an old path (:data:`arena.compat.MOVED`) instead of the module now."""
    return [f"{path.name}:{line} imports {name} (now {MOVED[old]})" for line, name in imported_names(path)
            for old in MOVED if name == old or name.startswith(f"{old}.")]


OLD_PATH_USERS = (PACKAGE / "compat.py", PACKAGE / "server" / "__init__.py")
"""The modules that may name old paths: the table, and the league's old package."""


@pytest.mark.parametrize("path", [*MODULES, *sorted(BOTS.glob("*.py"))],
                         ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_nothing_shipped_imports_an_old_path(path):
    problems = [] if path in OLD_PATH_USERS else old_path_imports(path)
    assert not problems, "\n".join(problems)


def test_the_checker_sees_an_old_path(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from arena.games.catmouse.solver import solve\nimport arena.games.tron.commands\n"
                      "from arena.games.catmouse import rules\n")
    assert old_path_imports(sample) == [
        "sample.py:1 imports arena.games.catmouse.solver.solve (now arena.engines.catmouse.solver)",
        "sample.py:2 imports arena.games.tron.commands (now arena.builtin.tron.commands)"]


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
    graph = {module_name(path): {target for line, target in arena_imports(path) if line not in type_only_lines(path)}
             - {module_name(path)} for path in MODULES}
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
    assert rank("arena.builtin.tron.commands") == 9 and rank("arena.games.tron.rules") == 1
    assert rank("arena.engines.catmouse.solver") == 2


def sideways_imports(path: Path, importer: str) -> list[str]:
    """The imports of ``path`` (module ``importer``) into another package of its rank that :data:`SIDEWAYS`
    does not allow."""
    found = []
    for line, target in arena_imports(path):
        if target == "arena" or importer in ("arena", "arena.__main__"):
            continue
        pair = (importer.split(".")[1], target.split(".")[1])
        if pair[0] != pair[1] and rank(importer) == rank(target) and pair not in SIDEWAYS:
            found.append(f"{path}:{line} imports {target} (rank {rank(target)}, a package beside {pair[0]})")
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_packages_of_one_rank_stay_apart(path):
    sideways = sideways_imports(path, module_name(path))
    assert not sideways, "\n".join(sideways)


def test_the_checker_sees_an_import_beside(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from arena.learning.playability import StudyRun\nfrom arena.report.charts import line_chart\n"
                      "from arena.cli.common import err\n")
    assert sideways_imports(sample, "arena.report.sample") == [
        f"{sample}:1 imports arena.learning.playability (rank 7, a package beside report)"]
    assert sideways_imports(sample, "arena.builtin.tron.commands") == []


def plugin_module_problems(names: tuple[str, ...]) -> list[str]:
    """What is wrong with the modules the registry imports by name: each must exist and define hooks."""
    problems = []
    for name in names:
        if not name.startswith("arena.") or existing_module(name) != name:
            problems.append(f"{name}: no such module in arena")
            continue
        path = PACKAGE.parent.joinpath(*name.split("."))
        source = (path / "__init__.py" if path.is_dir() else path.with_suffix(".py")).read_text()
        if "@hookimpl" not in source:
            problems.append(f"{name}: not a hook module (no @hookimpl)")
    return problems


def test_the_built_in_plugins_are_hook_modules():
    assert not plugin_module_problems(BUILTIN_PLUGINS)


def test_the_checker_sees_a_built_in_plugin_that_is_not_one():
    assert plugin_module_problems(("arena.learning.tron.training", "arena.games.tron.nothing")) == [
        "arena.learning.tron.training: not a hook module (no @hookimpl)",
        "arena.games.tron.nothing: no such module in arena"]


def bot_game_packages() -> dict[str, set[str]]:
    """For each shipped bot file, the packages under ``arena.games`` of the games its bots play, as registered."""
    registry = load_registry()
    packages: dict[str, set[str]] = {}
    for entry in registry.bots.values():
        if Path(entry.source).parent == BOTS:
            packages.setdefault(Path(entry.source).name, set()).update(
                registry.games[game].__module__.split(".")[2] for game in entry.games)
    return packages


def bot_import_problems(path: Path, own: set[str]) -> list[str]:
    """The imports of a bot outside ``arena``, ``arena.core`` and the rules and engines of the game packages
    ``own``."""
    allowed = ("arena.core", *(f"arena.{layer}.{package}" for layer in ("games", "engines") for package in own))
    return [f"{path.name}:{line} imports {target}" for line, target in arena_imports(path)
            if target != "arena" and not any(target == prefix or target.startswith(prefix + ".") for prefix in allowed)]


BOTS_THAT_PLAY_A_LEARNER = {
    "npz_policy.py": "plays a network saved by arena.rl through arena.rl.policy",
}
"""Bots that still import a learner's code to play its model, and why; each is to move its playing part
to ``arena.engines``. Listed so the check covers every other bot (and fails when one of these is fixed)."""


@pytest.mark.parametrize("path", sorted(BOTS.glob("*.py")), ids=lambda p: p.name)
def test_shipped_bots_import_only_the_public_api_and_their_game(path):
    problems = bot_import_problems(path, bot_game_packages()[path.name])
    if path.name in BOTS_THAT_PLAY_A_LEARNER:
        assert problems, f"{path.name} no longer imports a learner: take it off BOTS_THAT_PLAY_A_LEARNER"
    else:
        assert not problems, "\n".join(problems)


def test_the_checker_sees_a_bot_importing_learning_or_another_game(tmp_path):
    sample = tmp_path / "sample_bot.py"
    sample.write_text("from arena import Bot\nfrom arena.engines.tron.search import flood\n"
                      "from arena.learning.tron.dataset import build_dataset\n"
                      "from arena.games.catmouse.rules import CAT\nfrom arena.storage.store import Store\n\n\n"
                      "class Sample(Bot):\n    games = ('snafu',)\n")
    assert bot_import_problems(sample, {"tron"}) == [
        "sample_bot.py:3 imports arena.learning.tron.dataset", "sample_bot.py:4 imports arena.games.catmouse.rules",
        "sample_bot.py:5 imports arena.storage.store"]
