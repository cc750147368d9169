"""Hooks are called through pluggy: tryfirst, trylast and wrappers behave as pluggy documents, and a
plugin that raises is reported in one line while the others still run."""

import sys

import pytest

from arena.play.referee import run_match
from arena.plugins.registry import PluginConfig, load_registry
from tests.helpers import write_module

PLUGINS = ("arena_order_plain", "arena_order_first", "arena_order_last", "arena_order_wrapper",
           "arena_order_broken")


@pytest.fixture
def ordered_plugins(tmp_path, monkeypatch):
    """Plugin modules that log the order in which their hooks run into one shared list."""
    write_module(tmp_path, "arena_order_log.py", "CALLS = []\n")
    write_module(tmp_path, "arena_order_plain.py", """
        from arena import Bot, hookimpl
        from arena_order_log import CALLS


        class Duel(Bot):
            \"\"\"Loses its name to a later plugin that runs first.\"\"\"

            name = "duel"
            games = ("tron",)

            def act(self, obs):
                return "N"


        @hookimpl
        def register_bots(register):
            CALLS.append("plain")
            register(Duel)


        @hookimpl
        def match_finished(record):
            CALLS.append("plain finished")
        """)
    write_module(tmp_path, "arena_order_first.py", """
        from arena import Bot, hookimpl
        from arena_order_log import CALLS


        class Duel(Bot):
            \"\"\"Registered after the plain plugin, but claims the name because it runs first.\"\"\"

            name = "duel"
            games = ("tron",)

            def act(self, obs):
                return "N"


        @hookimpl(tryfirst=True)
        def register_bots(register):
            CALLS.append("first")
            register(Duel)
        """)
    write_module(tmp_path, "arena_order_last.py", """
        from arena import hookimpl
        from arena_order_log import CALLS


        @hookimpl(trylast=True)
        def register_bots(register):
            CALLS.append("last")
        """)
    write_module(tmp_path, "arena_order_wrapper.py", """
        from arena import hookimpl
        from arena_order_log import CALLS


        @hookimpl(wrapper=True)
        def register_bots(register):
            CALLS.append("wrapper before")
            result = yield
            CALLS.append("wrapper after")
            return result
        """)
    write_module(tmp_path, "arena_order_broken.py", """
        from arena import hookimpl
        from arena_order_log import CALLS


        @hookimpl
        def register_bots(register):
            CALLS.append("broken")
            raise RuntimeError("cannot find my bots")


        @hookimpl(tryfirst=True)
        def match_finished(record):
            raise KeyError("no such field")
        """)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in (*PLUGINS, "arena_order_log"):
        sys.modules.pop(name, None)


def _registry(*plugins):
    config = PluginConfig(use_cwd_bots=False, use_env_path=False, entry_points=False, extra_plugins=plugins)
    return load_registry(config)


def test_tryfirst_trylast_and_wrappers_order_the_calls(ordered_plugins):
    registry = _registry(*PLUGINS)
    from arena_order_log import CALLS

    assert CALLS == ["wrapper before", "first", "plain", "broken", "last", "wrapper after"]
    assert registry.bot("duel").plugin == "arena_order_first"
    built_in = ["arena.play.executor_plugin", "arena.builtin.tron.plugin", "arena.builtin.catmouse.plugin",
                "arena.builtin.pawnrace.plugin", "arena.builtin.chess.plugin", "arena.builtin.openspiel.plugin"]
    assert [p.name for p in registry.plugins][:len(built_in) + len(PLUGINS)] == [*built_in, *PLUGINS]


def test_a_raising_plugin_is_one_line_and_the_others_still_register(ordered_plugins):
    registry = _registry(*PLUGINS)
    assert "plugin arena_order_broken: RuntimeError: cannot find my bots" in registry.problems
    [taken] = [p for p in registry.problems if "already taken" in p]
    assert taken.split(": ", 1)[1] == f"bot name 'duel' is already taken by {registry.bot('duel').source}; skipped"
    assert taken.startswith(str(ordered_plugins / "arena_order_plain.py"))
    assert {"chamber", "voronoi", "mindless", "perfect"} <= set(registry.bots)


def test_match_finished_errors_stay_in_the_record_and_later_plugins_still_run(ordered_plugins):
    registry = _registry("arena_order_plain", "arena_order_broken")
    from arena_order_log import CALLS

    outcome = run_match("tron", ["duel", "wallhugger"], game_map="empty_room", registry=registry)
    assert outcome.hook_errors == ("arena_order_broken: KeyError: 'no such field'",)
    assert outcome.record()["hook_errors"] == ["arena_order_broken: KeyError: 'no such field'"]
    assert CALLS[-1] == "plain finished"
