"""Tournament definitions: TOML files, their errors, command-line overrides, and the shipped definitions."""

import json
import shutil
import sqlite3
from pathlib import Path
from textwrap import dedent

import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.core.paths import shipped_bots_dir
from arena.plugins.registry import PluginConfig, load_registry
from arena.tournament.definition import DEFAULT_GAMES, DEFAULT_TIME_LIMIT, TournamentDefinition, load_definition
from arena.tournament.plan import plan_tournament
from tests.cli_runner import CliRunner
from tests.helpers import REPO

runner = CliRunner()
KNOWN_KEYS = ("address, bots, clock, executor, first_move, format, game, games, gauntlet, maps, name, openings, "
              "openings_count, openings_order, openings_plies, options, rounds, sandbox, seed, time_control, "
              "time_limit, workers")


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def stderr_lines(text):
    return [line for line in text.splitlines() if line.strip()]


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dedent(text).lstrip())
    return path


def error_of(path):
    """The one-line error of ``arena tournament FILE`` (and the same text from load_definition)."""
    result = invoke("tournament", path, "-w", "1")
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = stderr_lines(result.stderr)
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0].removeprefix("error: ")


def load_error(path):
    with pytest.raises(ArenaError) as caught:
        load_definition(path)
    message = str(caught.value)
    assert error_of(path) == message
    return message


# --- valid files --------------------------------------------------------------------------------------


def test_a_valid_file_sets_every_field_and_maps_are_globs_relative_to_it(tmp_path, bot_dir):
    defs = tmp_path / "defs"
    (defs / "maps").mkdir(parents=True)
    shutil.copy(REPO / "maps" / "center_block.txt", defs / "maps" / "b.txt")
    shutil.copy(REPO / "maps" / "diagonal_blocks.txt", defs / "maps" / "a.txt")
    (defs / "maps" / "notes.md").write_text("not a map")
    path = write(defs / "cup.toml", """
        # a cup: every field
        name = "the cup"
        game = "tron"
        maps = ["maps/*.txt", "empty_room"]
        bots = ["steady:first=E,patience=2", "random"]
        format = "gauntlet"
        gauntlet = "steady:first=E,patience=2"
        rounds = 2
        games = 3
        time_limit = 2
        seed = 9
        workers = 2

        [options]
        moves = "alternating"
        """)
    definition = load_definition(path)
    assert definition == TournamentDefinition(
        maps=(str(defs / "maps" / "a.txt"), str(defs / "maps" / "b.txt"), "empty_room"),
        name="the cup", game="tron", bots=("steady:first=E,patience=2", "random"), format="gauntlet",
        gauntlet="steady:first=E,patience=2", rounds=2, games=3, time_limit=2.0, seed=9, workers=2,
        options={"moves": "alternating"})
    assert isinstance(definition.time_limit, float)

    registry = load_registry(PluginConfig(bot_dirs=(str(bot_dir),), use_cwd_bots=False, use_env_path=False))
    tournament = plan_tournament(definition, registry)
    assert [m.name for m in tournament.maps] == ["a", "b", "empty_room"]
    assert [spec.label for spec in tournament.bots] == ["steady:first=E,patience=2", "random"]
    assert tournament.bots[0].params == {"first": "E", "patience": 2}
    assert tournament.gauntlet == tournament.bots[0]
    schedule = tournament.first_stage()
    assert len(schedule) == tournament.total_games() == 3 * 4  # 3 maps, 3 games rounded up to 4 seatings
    assert {s.seed for s in schedule} and all(s.time_limit == 2.0 for s in schedule)
    assert all(s.options["moves"] == "alternating" for s in schedule)


def test_a_file_with_only_maps_gets_the_defaults(tmp_path):
    path = write(tmp_path / "Quick Cup.toml", 'maps = ["center_block"]\n')
    assert load_definition(path) == TournamentDefinition(maps=("center_block",), name="Quick Cup", game=None, bots=(),
                                                         format="round-robin", gauntlet=None, rounds=None,
                                                         games=DEFAULT_GAMES, time_limit=None, seed=0,
                                                         workers=None, options={})
    assert load_definition(path).move_limit() == DEFAULT_TIME_LIMIT  # not given: the default limit


def test_map_globs_fall_back_to_the_current_directory():
    Path("maps").mkdir()
    shutil.copy(REPO / "maps" / "empty_room.txt", Path("maps") / "room.txt")
    path = write(Path("defs") / "here.toml", 'maps = ["maps/room*.txt"]\n')
    assert load_definition(path).maps == (str(Path.cwd() / "maps" / "room.txt"),)


@pytest.mark.slow
def test_command_line_flags_override_the_file(tmp_path):
    path = write(tmp_path / "cup.toml", """
        name = "cup"
        maps = ["empty_room"]
        bots = ["random", "floodfill"]
        games = 20
        seed = 1
        time_limit = 0.5
        workers = 1
        """)
    result = invoke("tournament", path, "--games", "2", "--seed", "4", "-f", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games_played"] == data["games_scheduled"] == 2
    direct = invoke("tournament", "empty_room", "-b", "random,floodfill", "-n", "2", "--seed", "4", "--time-limit",
                    "0.5", "-w", "1", "-f", "json", "--db", "direct.db")
    assert json.loads(direct.stdout) == data
    conn = sqlite3.connect("arena.db")
    stored = json.loads(conn.execute("SELECT definition FROM runs WHERE id = 1").fetchone()[0])
    conn.close()
    assert (stored["name"], stored["games"], stored["seed"], stored["time_limit"], stored["workers"]) == \
        ("cup", 2, 4, 0.5, 1)

    other = invoke("tournament", path, "-n", "2", "-b", "chaser,wallhugger,random", "-f", "json")
    assert {row["bot"] for row in json.loads(other.stdout)["standings"]} == {"chaser", "wallhugger", "random"}
    assert json.loads(other.stdout)["games_played"] == 6


def test_command_line_format_and_rounds_complete_a_file(tmp_path):
    """A file that leaves out what a flag gives (a swiss file without rounds, and --rounds 1) is fine."""
    path = write(tmp_path / "swiss.toml", """
        maps = ["empty_room"]
        bots = ["random", "floodfill"]
        format = "swiss"
        games = 2
        """)
    result = invoke("tournament", path, "--rounds", "1", "-w", "1", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["games_played"] == 2


def test_a_file_and_maps_together_are_refused(tmp_path):
    path = write(tmp_path / "cup.toml", 'maps = ["empty_room"]\n')
    result = invoke("tournament", path, "center_block")
    assert result.exit_code == 2
    assert stderr_lines(result.stderr) == ["error: give either one tournament file (.toml) or map files, not both"]


# --- errors -------------------------------------------------------------------------------------------


def test_invalid_toml_names_the_file_line_and_column(tmp_path):
    path = write(tmp_path / "bad.toml", """
        name = "bad"
        games = = 3
        """)
    assert load_error(path) == f"{path}:2:9: not valid TOML: Invalid value"
    quote = write(tmp_path / "quote.toml", 'maps = ["empty_room"]\nname = "unfinished\n')
    assert load_error(quote) == f"{quote}:2:19: not valid TOML: Illegal character '\\n'"


def test_invalid_toml_at_the_end_of_the_file_names_the_last_line(tmp_path):
    path = tmp_path / "open.toml"
    path.write_text('name = "open"\nmaps = ["empty_room"')
    # tomllib says "at end of document": that is line 2, just past its 20 characters
    assert load_error(path) == f"{path}:2:21: not valid TOML: Unclosed array"


def test_an_unknown_key_names_the_file_line_and_known_keys(tmp_path):
    path = write(tmp_path / "colour.toml", """
        name = "colour"
        maps = ["empty_room"]
          colour = "red"
        """)
    assert load_error(path) == f"{path}:3: unknown key 'colour' (known keys: {KNOWN_KEYS})"


WRONG_TYPES = {
    "games string": ('games = "ten"', "key 'games' must be an integer, not a string"),
    "games bool": ("games = true", "key 'games' must be an integer, not a boolean"),
    "time limit": ('time_limit = "fast"', "key 'time_limit' must be a number, not a string"),
    "name": ("name = 3", "key 'name' must be a string, not an integer"),
    "maps": ('maps = "empty_room"', "key 'maps' must be a list, not a string"),
    "bots items": ("bots = [1, 2]", "key 'bots' must be a list of strings"),
}


@pytest.mark.parametrize("case", list(WRONG_TYPES))
def test_a_wrong_type_names_the_line_the_key_and_the_types(tmp_path, case):
    line, message = WRONG_TYPES[case]
    text = f'# cup\n{line}\n' if line.startswith("maps") else f'# cup\n{line}\nmaps = ["empty_room"]\n'
    path = tmp_path / "typed.toml"
    path.write_text(text)
    assert load_error(path) == f"{path}:2: {message}"


def test_a_missing_maps_key_is_named(tmp_path):
    path = write(tmp_path / "nomaps.toml", 'name = "nomaps"\nbots = ["random", "floodfill"]\n')
    assert load_error(path) == f"{path}:1: key 'maps' is missing: list the maps to play on"


def test_impossible_combinations_name_the_file(tmp_path):
    # values are checked once command-line flags have had their say, so these come from the command
    knockout = write(tmp_path / "knockout.toml", 'maps = ["empty_room"]\nformat = "knockout"\n')
    assert error_of(knockout) == f"{knockout}: format 'knockout' is not one of: round-robin, gauntlet, swiss"
    zero = write(tmp_path / "zero.toml", 'maps = ["empty_room"]\ngames = 0\n')
    assert error_of(zero) == f"{zero}: --games must be at least 1"
    missing = tmp_path / "missing.toml"
    assert error_of(missing) == f"{missing}: cannot read tournament file (No such file or directory)"


def test_an_unknown_bot_gets_the_closest_names(tmp_path):
    path = write(tmp_path / "bots.toml", 'maps = ["empty_room"]\nbots = ["random", "flodfill"]\n')
    assert load_definition(path).bots == ("random", "flodfill")  # bots are checked against the registry
    assert error_of(path) == "unknown bot 'flodfill'; did you mean: floodfill?"
    far = write(tmp_path / "far.toml", 'maps = ["empty_room"]\nbots = ["random", "zzzzzz"]\n')
    assert error_of(far).startswith("unknown bot 'zzzzzz', nor any close name; a bot of your own is found in ")


def test_an_unknown_map_gets_the_closest_names(tmp_path):
    path = write(tmp_path / "maps.toml", 'maps = ["center_blok", "empty_room"]\n')
    assert error_of(path) == "center_blok: no such map file; did you mean: center_block?"


# --- the shipped definitions --------------------------------------------------------------------------

SHIPPED = {  # file: name, format, maps, bots, total games
    "brown": ("brown", "round-robin", ["powerup_room", "empty_room", "center_block", "diagonal_blocks"],
              ["floodfill", "wallhugger", "chaser", "random"], 6 * 4 * 20),
    "snafu": ("snafu", "round-robin", ["snafu_15x15", "snafu_30x30"],
              ["mindless", "floodfill", "wallhugger", "chaser", "random"], 10 * 2 * 20),
    "classic": ("classic", "round-robin", ["empty_room", "center_block", "diagonal_blocks"],
                ["chamber", "voronoi", "minimax", "floodfill", "wallhugger", "chaser", "random"], 21 * 3 * 10),
    "floodfill_gauntlet": ("floodfill-gauntlet", "gauntlet", ["empty_room", "center_block", "diagonal_blocks"],
                           ["floodfill", "chamber", "voronoi", "minimax", "wallhugger", "chaser", "random"],
                           6 * 3 * 10),
    "four_player": ("four-player", "round-robin", ["four_corners"], ["floodfill", "wallhugger", "chaser", "random"],
                    8),
    "large": ("large", "round-robin", ["open_30", "pillars_30"], ["floodfill", "wallhugger", "chaser"], 3 * 2 * 10),
    "swiss": ("swiss", "swiss", ["center_block"], None, None),  # every Tron bot: see below
}


def test_every_shipped_definition_loads_and_prepares(shipped_registry):
    files = sorted((REPO / "tournaments").glob("*.toml"))
    assert [f.stem for f in files] == sorted(SHIPPED)
    for path in files:
        name, fmt, maps, bots, total = SHIPPED[path.stem]
        if bots is None:  # no bots listed: every bot that plays the game, 3 rounds of 10 games per pairing
            bots = [entry.name for entry in shipped_registry.bots_for("tron") if entry.cls.in_default_field]
            total = 3 * (len(bots) // 2) * 10
        definition = load_definition(path)
        assert (definition.name, definition.format) == (name, fmt), path
        assert all(Path(m).is_file() for m in definition.maps), path
        tournament = plan_tournament(definition, shipped_registry)
        assert [m.name for m in tournament.maps] == maps, path
        assert [spec.label for spec in tournament.bots] == bots, path
        assert tournament.total_games() == total, path
        if fmt != "swiss":
            assert len(tournament.first_stage()) == total, path


def shipped_tron_bots(registry):
    """The Tron bots shipped in bots/ that play without a file of their own (the game's default field)."""
    return sorted(entry.name for entry in registry.bots_for("tron")
                  if entry.cls.in_default_field and Path(entry.source).parent == shipped_bots_dir())


@pytest.mark.parametrize("file", ["classic", "floodfill_gauntlet"])
def test_the_files_that_promise_every_shipped_tron_bot_list_them_all(shipped_registry, file):
    path = REPO / "tournaments" / f"{file}.toml"
    assert "every" in path.read_text().splitlines()[0] and "shipped Tron bot" in path.read_text().splitlines()[0]
    definition = load_definition(path)
    listed = [*definition.bots, *([definition.gauntlet] if definition.gauntlet else [])]
    assert sorted(listed) == shipped_tron_bots(shipped_registry)
    assert len(shipped_tron_bots(shipped_registry)) == 7


@pytest.mark.slow
def test_a_shipped_definition_runs_end_to_end():
    # the fast bots only (the file lists the search bots too, which take minutes at 10 games a pairing)
    result = invoke("tournament", REPO / "tournaments" / "classic.toml", "--games", "2", "-w", "2", "-f", "json",
                    "--bots", "floodfill,wallhugger,chaser,random")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games_played"] == data["games_scheduled"] == 6 * 3 * 2
    assert sorted(row["bot"] for row in data["standings"]) == ["chaser", "floodfill", "random", "wallhugger"]
    assert all(row["games"] == 3 * 3 * 2 for row in data["standings"])
    runs = json.loads(invoke("runs", "-f", "json").stdout)
    assert [(r["name"], r["format"], r["games"]) for r in runs] == [("classic", "round-robin", "36/36")]
