import hashlib
import sys
from textwrap import dedent

import pytest
import typer

from arena.core.bot import BotSpec, parse_bot_spec, split_bot_list
from arena.core.errors import ArenaError, BotSpecError, UnknownGameError
from arena.core.paths import shipped_bots_dir
from arena.play.referee import run_match
from arena.plugins.registry import PluginConfig, load_registry
from tests.cli_runner import CliRunner
from tests.helpers import REPO, write_module

SHIPPED_GAMES = ["catmouse", "chess", "pawnrace", "snafu", "tron"]
TRON_BOTS = ["chamber", "chaser", "floodfill", "minimax", "npz", "random", "voronoi", "wallhugger"]
SHIPPED_BOTS = sorted([*TRON_BOTS, "mindless", "cla", "cm_random", "greedy", "hillclimb", "perfect", "wary",
                       "pr_greedy", "pr_perfect", "pr_random", "td", "chess_random", "openspiel-mcts",
                       "openspiel-random"])
OPENSPIEL_GAMES = 108  # every game open_spiel 2.0.2 plays by action ids (arena.games.openspiel.loading)


def test_shipped_game_and_bots_register_through_the_hooks(shipped_registry):
    assert sorted(name for name in shipped_registry.games if not name.startswith("openspiel:")) == SHIPPED_GAMES
    assert sum(name.startswith("openspiel:") for name in shipped_registry.games) == OPENSPIEL_GAMES
    assert sorted(shipped_registry.bots) == SHIPPED_BOTS
    assert [entry.name for entry in shipped_registry.bots_for("tron")] == TRON_BOTS
    assert [entry.name for entry in shipped_registry.bots_for("snafu")] == sorted([*TRON_BOTS, "mindless", "cla"])
    assert shipped_registry.problems == []
    kinds = {p.name: (p.kind, p.hooks) for p in shipped_registry.plugins}
    assert kinds["arena.builtin.tron.plugin"] == ("built-in", ("register_commands", "register_games"))
    assert kinds["arena.builtin.catmouse.plugin"] == ("built-in", ("register_commands", "register_games"))
    assert kinds["arena.builtin.pawnrace.plugin"] == ("built-in", ("register_commands", "register_games",
                                                                 "register_studies"))
    assert sorted(shipped_registry.studies) == ["pawnrace"]
    assert kinds[f"bots:{shipped_bots_dir()}"] == ("shipped", ("register_bots",))


def test_bot_version_is_the_hash_of_its_module_source(shipped_registry):
    entry = shipped_registry.bot("floodfill")
    expected = hashlib.sha256((REPO / "bots" / "floodfill.py").read_bytes()).hexdigest()[:8]
    assert entry.version == expected
    assert entry.source == str(shipped_bots_dir() / "floodfill.py")


def test_broken_modules_are_reported_in_one_line_each_and_skipped(tmp_path):
    bots = tmp_path / "bots"
    write_module(bots, "good.py", """
        from arena import bot

        @bot(name="good", game="tron")
        def good(obs, rng):
            return "N"
        """)
    write_module(bots, "syntax.py", "def broken(:\n    pass\n")
    write_module(bots, "imports.py", "import no_such_module_for_arena_tests\n")
    write_module(bots, "raises.py", "raise RuntimeError('module-level failure')\n")
    write_module(bots, "taken.py", """
        from arena import bot

        @bot(name="random", game="tron")
        def impostor(obs, rng):
            return "S"
        """)
    write_module(bots, "nogames.py", """
        from arena import Bot

        class Homeless(Bot):
            name = "homeless"
        """)
    write_module(bots, "_helper.py", "raise RuntimeError('private modules are not scanned')\n")
    registry = load_registry(PluginConfig(bot_dirs=(str(bots),), use_cwd_bots=False, use_env_path=False))

    assert "good" in registry.bots
    assert registry.bot("random").source == str(shipped_bots_dir() / "random_bot.py")
    problems = sorted(registry.problems)
    assert problems == sorted([
        f"{bots / 'syntax.py'}:1: syntax error: invalid syntax; skipped",
        f"{bots / 'imports.py'}: ModuleNotFoundError: No module named 'no_such_module_for_arena_tests'; skipped",
        f"{bots / 'raises.py'}: RuntimeError: module-level failure; skipped",
        f"{bots / 'taken.py'}: bot name 'random' is already taken by {shipped_bots_dir() / 'random_bot.py'}; skipped",
        f"{bots / 'nogames.py'}: bot 'homeless' declares no games; skipped",
    ])
    assert all("\n" not in problem for problem in problems)


def test_bots_are_found_in_cwd_bots_env_path_and_bots_dir(tmp_path, monkeypatch):
    source = "from arena import bot\n\n@bot(name={name!r}, game='tron')\ndef f(obs, rng):\n    return 'N'\n"
    write_module(tmp_path / "cwd" / "bots", "a.py", source.format(name="from_cwd"))
    write_module(tmp_path / "env1", "b.py", source.format(name="from_env"))
    write_module(tmp_path / "flag", "c.py", source.format(name="from_flag"))
    monkeypatch.chdir(tmp_path / "cwd")
    monkeypatch.setenv("ARENA_BOTS_PATH", f"{tmp_path / 'env1'}:{tmp_path / 'missing'}")
    registry = load_registry(PluginConfig(bot_dirs=(str(tmp_path / "flag"),)))
    sources = {name: registry.bot(name).plugin for name in ("from_cwd", "from_env", "from_flag")}
    assert sources == {
        "from_cwd": f"bots:{tmp_path / 'cwd' / 'bots'}",
        "from_env": f"bots:{tmp_path / 'env1'}",
        "from_flag": f"bots:{tmp_path / 'flag'}",
    }
    assert registry.problems == [f"ARENA_BOTS_PATH: {tmp_path / 'missing'}: no such directory; skipped"]


def test_running_from_the_repository_does_not_load_the_shipped_bots_twice(monkeypatch):
    monkeypatch.chdir(REPO)
    registry = load_registry(PluginConfig(use_env_path=False))
    assert registry.problems == []
    assert sorted(registry.bots) == SHIPPED_BOTS


def test_missing_bots_dir_is_an_error(tmp_path):
    with pytest.raises(ArenaError, match=r"^--bots-dir .*nowhere: no such directory$"):
        load_registry(PluginConfig(bot_dirs=(str(tmp_path / "nowhere"),)))


@pytest.fixture
def entry_point_package(tmp_path, monkeypatch):
    """A third-party package installed on sys.path with an [project.entry-points.arena] plugin."""
    site = tmp_path / "site"
    write_module(site, "arena_fixture_plugin.py", """
        import typer

        from arena import Bot, Game, Option, Result, hookimpl, run_match
        from arena.core.errors import ArenaError
        from arena.games.tron.game import TronGame
        from arena.learning.playability import BlockStats, PlayabilityStudy, StudyRun

        FINISHED = []


        class SlowTron(TronGame):
            \"\"\"Tron under another name, to prove third-party games register.\"\"\"

            name = "slowtron"


        class Northbound(Bot):
            name = "northbound"
            games = ("tron", "slowtron")

            def act(self, obs):
                return "N"


        @hookimpl
        def register_games(register):
            register(SlowTron)


        @hookimpl
        def register_bots(register):
            register(Northbound)


        @hookimpl
        def register_commands(app):
            @app.command("hello")
            def hello():
                typer.echo("hello from a plugin")


        @hookimpl
        def match_finished(record):
            FINISHED.append(record)


        class RandomPlayStudy(PlayabilityStudy):
            \"\"\"Who wins slowtron when both sides move at random: a study with no learning in it.\"\"\"

            game = "slowtron"
            default_map = "empty_room"
            learners = {"random": "random moves, no learning"}

            def train(self, map_spec, options, learner, games, block, seed, on_game=None):
                blocks = []
                for index in range(games):
                    if index % block == 0:
                        blocks.append(BlockStats())
                    outcome = run_match("slowtron", ["random", "random"], game_map=map_spec, options=options,
                                        seed=seed + index)
                    ranks = list(outcome.ranks)
                    blocks[-1].add(None if ranks[0] == ranks[1] else ranks.index(1), 2 * len(outcome.actions))
                    if on_game is not None:
                        on_game()
                return StudyRun(f"random slowtron on {map_spec}", blocks, block, ("north", "south"))

            def recorded(self, model):
                raise ArenaError("random play keeps no model")


        @hookimpl
        def register_studies(register):
            register(RandomPlayStudy())
            register(RandomPlayStudy())
        """)
    write_module(site, "arena_misspelled_plugin.py", """
        from arena import hookimpl

        @hookimpl
        def register_bot(register):
            pass
        """)
    dist = site / "arena_fixture_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: arena-fixture-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(dedent("""
        [arena]
        fixture = arena_fixture_plugin
        misspelled = arena_misspelled_plugin
        missing = arena_no_such_plugin_module
        """))
    monkeypatch.syspath_prepend(str(site))
    yield site
    for name in ("arena_fixture_plugin", "arena_misspelled_plugin"):
        sys.modules.pop(name, None)


def test_entry_point_plugins_register_games_bots_commands_and_see_matches(entry_point_package):
    registry = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
    assert "slowtron" in registry.games
    assert registry.bot("northbound").plugin == "fixture"
    plugins = {p.name: (p.kind, p.hooks) for p in registry.plugins}
    assert plugins["fixture"] == ("entry point", ("match_finished", "register_bots", "register_commands",
                                                  "register_games", "register_studies"))
    assert sorted(registry.studies) == ["pawnrace", "slowtron"]
    assert "plugin fixture: a second playability study of 'slowtron'; skipped" in registry.problems
    assert "misspelled" not in plugins
    assert any(p.startswith("plugin misspelled (arena_misspelled_plugin): ") and "register_bot" in p
               for p in registry.problems)
    assert any(p.startswith("plugin missing (arena_no_such_plugin_module): ModuleNotFoundError")
               for p in registry.problems)

    outcome = run_match("slowtron", ["northbound", "northbound:"], game_map="empty_room", registry=registry)
    import arena_fixture_plugin

    assert [outcome.record()] == arena_fixture_plugin.FINISHED
    assert outcome.record()["game"] == "slowtron"

    app = typer.Typer()

    @app.callback()
    def root():
        pass

    registry.manager.hook.register_commands(app=app)
    result = CliRunner().invoke(app, ["hello"])
    assert result.exit_code == 0 and result.output == "hello from a plugin\n"


def test_a_plugin_game_gets_the_playability_verdict_from_its_own_study(entry_point_package, tmp_path, monkeypatch):
    import json

    from arena.cli.main import app

    monkeypatch.chdir(tmp_path)
    command = ["playability", "slowtron", "-n", "4", "--block", "2", "--seed", "3", "-f", "json"]
    first = CliRunner().invoke(app, command)
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert report["title"] == "random slowtron on empty_room"
    assert [block["games"] for block in report["blocks"]] == [2, 2, 4]
    whole = report["blocks"][-1]
    assert {"north", "south", "north_95", "p_north_wins_half"} <= set(whole)
    assert whole["north"] + whole["south"] + whole["draws_by_cap"] / 4 == pytest.approx(1.0)
    assert json.loads(CliRunner().invoke(app, command).stdout) == report  # seeded: the same games again
    table = CliRunner().invoke(app, ["playability", "slowtron", "-n", "2", "--block", "2", "-f", "csv"])
    header = "block,games,moves/player,sd,>100 moves,north,north 95%,south,south 95%,draws,"
    assert table.stdout.splitlines()[0].startswith(header)
    missing = CliRunner().invoke(app, ["playability", "slowtron", "--model", "m.json"])
    assert missing.exit_code == 2 and missing.stderr.endswith("\nerror: random play keeps no model\n")


def test_unknown_names_suggest_the_closest(shipped_registry):
    with pytest.raises(BotSpecError, match=r"unknown bot 'floodfil'; did you mean: floodfill\?"):
        shipped_registry.bot("floodfil")
    with pytest.raises(UnknownGameError, match=r"unknown game 'torn'; did you mean: tron\?"):
        shipped_registry.game("torn")


def test_bot_specs_parse_and_check_parameters(bot_dir):
    registry = load_registry(PluginConfig(bot_dirs=(str(bot_dir),), use_cwd_bots=False, use_env_path=False))
    assert registry.spec("steady:first=E,patience=4") == BotSpec("steady", {"first": "E", "patience": 4})
    assert str(registry.spec("steady:patience=4,first=E")) == "steady:patience=4,first=E"
    with pytest.raises(BotSpecError, match=r"bot 'steady' has no parameter 'speed' \(parameters: first, patience\)"):
        registry.spec("steady:speed=3")
    with pytest.raises(BotSpecError, match=r"parameter patience: invalid literal for int"):
        registry.spec("steady:patience=lots")
    with pytest.raises(BotSpecError, match=r"'patience' is not key=value"):
        registry.spec("steady:patience")
    with pytest.raises(BotSpecError, match=r"bot 'random' has no parameter 'x' \(parameters: none\)"):
        registry.spec("random:x=1")
    with pytest.raises(BotSpecError, match="doesn't parse"):
        parse_bot_spec("9lives")


def test_a_bot_can_refuse_its_parameters_before_any_game(tmp_path):
    write_module(tmp_path / "picky", "picky.py", """
        from arena import Bot

        class Picky(Bot):
            name = "picky"
            games = ("tron",)

            def __init__(self, model: str = ""):
                self.model = model

            @classmethod
            def check_parameters(cls, params):
                if params.get("model", "").endswith(".bad"):
                    raise ValueError(f"model {params['model']}: cannot read")

            def act(self, obs):
                return "N"
    """)
    registry = load_registry(PluginConfig(bot_dirs=(str(tmp_path / "picky"),), use_cwd_bots=False,
                                          use_env_path=False))
    assert registry.spec("picky:model=m.npz").params == {"model": "m.npz"}
    with pytest.raises(BotSpecError, match=r"^bot spec 'picky:model=m.bad': model m.bad: cannot read$"):
        registry.spec("picky:model=m.bad")


def test_bot_lists_keep_parameter_commas_with_their_spec():
    assert split_bot_list(["random,cla:features=PR,t=3,c=0.5", "floodfill"]) == [
        "random", "cla:features=PR,t=3,c=0.5", "floodfill"]
