"""Every old import path in the one table (:data:`arena.compat.MOVED`) still imports, as the moved module itself."""

import importlib
import subprocess
import sys

import pytest

from arena.compat import MOVED, new_name


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_is_the_moved_module(old):
    assert importlib.import_module(old) is importlib.import_module(MOVED[old])


def test_old_imports_give_the_same_classes_and_functions():
    tron = importlib.import_module("arena.games.tron.search_bot")
    weights = importlib.import_module("arena.learning.tron.weights")
    solver = importlib.import_module("arena.games.catmouse.solver")
    commands = importlib.import_module("arena.games.catmouse.commands.solving")

    from arena.builtin.catmouse.commands import solving
    from arena.engines.catmouse.solver import cached_solution
    from arena.engines.tron.learned_eval import load_weights
    from arena.engines.tron.search_bot import SearchBot

    assert (tron.SearchBot, weights.load_weights, solver.cached_solution, commands) == (
        SearchBot, load_weights, cached_solution, solving)


def test_a_moved_module_keeps_its_own_spec():
    importlib.import_module("arena.games.pawnrace.solver")
    module = importlib.import_module("arena.engines.pawnrace.solver")
    assert module.__spec__.name == "arena.engines.pawnrace.solver"


def test_only_old_paths_are_aliased():
    assert new_name("arena.games.catmouse.commands.training") == "arena.builtin.catmouse.commands.training"
    assert new_name("arena.server.web.serve") == "arena.league.web.serve"
    assert new_name("arena.games.catmouse.rules") is None
    assert new_name("arena.games.catmouse.nothing") is None
    for missing in ("arena.games.catmouse.nothing", "arena.games.catmouse.commands.nothing"):
        with pytest.raises(ModuleNotFoundError, match=missing.replace(".", r"\.")):
            importlib.import_module(missing)


def test_a_fresh_interpreter_imports_an_old_path_first():
    """As a stored bot does: the old path is the first thing it imports of arena."""
    script = ("from arena.games.catmouse.solver import perfect_moves\n"
              "from arena.games.tron.plugin import register_games\n"
              "print(perfect_moves.__module__, register_games.__module__)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["arena.engines.catmouse.solver", "arena.builtin.tron.plugin"]
