"""The public Python API: a tournament run and its results read back, with no command line."""

import ast
import importlib
import inspect
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import arena
from arena import PluginConfig, Store, TournamentDefinition, leaderboard, rating_history, run_standings, run_tournament


def test_every_public_name_is_importable_and_typed():
    for name in arena.__all__:
        value = getattr(arena, name)
        if inspect.isfunction(value):
            hints = typing.get_type_hints(value)
            assert "return" in hints, f"{name} has no return annotation"
    assert set(arena.__all__) <= set(dir(arena))


def test_the_type_checkers_imports_name_every_lazy_name_where_it_is_defined():
    """``arena`` imports a public name when it is first asked for; the imports a type checker (and an editor, and
    the API reference) reads must say the same names from the same modules."""
    tree = ast.parse(Path(arena.__file__).read_text())
    checked = next(node for node in tree.body if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
    static = {alias.asname or alias.name: node.module for node in checked.body if isinstance(node, ast.ImportFrom)
              for alias in node.names}
    assert static == arena._PUBLIC
    for name, module in static.items():
        assert getattr(arena, name) is getattr(importlib.import_module(module), name)


def test_import_arena_loads_nothing_a_bot_does_not_ask_for():
    probe = ("import sys, arena; from arena import Bot, bot; "
             "print(sorted(m for m in ('arena.storage.store', 'arena.tournament.runner', 'arena.play.referee', "
             "'numpy') if m in sys.modules)); arena.Store; print('arena.storage.store' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["[]", "True"]
    with pytest.raises(AttributeError, match="no attribute 'Stor'"):
        arena.Stor  # noqa: B018  (a typo is an AttributeError, as for any module)


@pytest.mark.slow
def test_run_tournament_stores_games_and_results_read_back(tmp_path):
    definition = TournamentDefinition(maps=("center_block",), bots=("floodfill", "random", "chaser"), games=2, seed=3)
    config = PluginConfig(use_cwd_bots=False, use_env_path=False)
    seen = []
    with Store(tmp_path / "results.db") as store:
        run = run_tournament(definition, store=store, workers=1, config=config, on_game=seen.append)
        assert run.run_id == 1 and not run.interrupted
        assert len(run.played) == run.plan.total_games() == 6 == len(seen)
        assert sorted(outcome.index for outcome in seen) == list(range(6))
        assert store.run(1).status == "complete"

        stored = run_standings(store, 1)
        assert [(row.label, row.wins, row.draws, row.losses) for row in stored.rows] == \
            [(row.label, row.wins, row.draws, row.losses) for row in run.standings().rows]

        board = leaderboard(store)
        assert {rating.label for rating in board} == {"floodfill", "random", "chaser"}
        assert all(rating.games == 4 and rating.game == "tron" and rating.run_id == 1 for rating in board)
        assert [rating.conservative for rating in board] == sorted((r.conservative for r in board), reverse=True)
        assert [point.rating.run_id for point in rating_history(store, "floodfill")] == [1]

        again = run_tournament(definition, store=store, workers=1, config=config, on_game=seen.append)
        assert again.run_id == 1 and len(seen) == 6  # already complete: shown as stored, nothing replayed
        fresh = run_tournament(definition, store=store, workers=1, config=config, new=True)
        assert fresh.run_id == 2
        assert [point.rating.run_id for point in rating_history(store, "floodfill")] == [1, 2]
        assert [(row.label, row.wins) for row in run_standings(store, 2).rows] == \
            [(row.label, row.wins) for row in stored.rows]  # same seed, same games


def test_run_tournament_reads_a_tournament_file(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text('maps = ["empty_room"]\nbots = ["floodfill", "random"]\ngames = 2\nseed = 1\n')
    run = run_tournament(path, workers=1, config=PluginConfig(use_cwd_bots=False, use_env_path=False))
    assert run.run_id is None and len(run.played) == 2
    assert run.standings().rows[0].label == "floodfill"
