"""`arena show RUN GAME`: a game of a run by its number, while `--game` names a game (tron, catmouse) in every
command."""

import typer.main

from arena.cli.main import app
from arena.storage.store import Store
from tests.cli_runner import CliRunner

runner = CliRunner()


def options_named(option: str) -> dict[str, object]:
    """Every command's parameter spelled ``option``, by command path (hidden ones included)."""
    found = {}

    def walk(command, path):
        for name, sub in (getattr(command, "commands", None) or {}).items():
            walk(sub, [*path, name])
        for param in getattr(command, "params", []):
            if option in getattr(param, "opts", ()):
                found[" ".join(path)] = param
    walk(typer.main.get_command(app), [])
    return found


def test_show_takes_a_game_of_the_run_by_its_number_after_the_run():
    played = runner.invoke(app, ["tournament", "empty_room", "-b", "random,chaser", "-n", "2", "-w", "1"])
    assert played.exit_code == 0, played.output
    shown = runner.invoke(app, ["show", "1", "1"])
    assert shown.exit_code == 0, shown.output
    with Store("arena.db") as store:
        record = store.game(1, 1).record
    assert shown.stdout.splitlines()[:3] == [
        f"run 1, game 1: tron on empty_room, seed {record['seed']}, {len(record['turns'])} turns",
        f"  player 1: {record['players'][0]['bot']} (version {record['players'][0]['version']})",
        f"  player 2: {record['players'][1]['bot']} (version {record['players'][1]['version']})"]
    replayed = runner.invoke(app, ["replay", "1", "1", "--turn", "0"])  # the same game as arena replay RUN GAME
    assert replayed.stdout.splitlines()[0] == (f"tron on empty_room, seed {record['seed']}: "
                                               f"1={record['players'][0]['bot']}  2={record['players'][1]['bot']}")

    old = runner.invoke(app, ["show", "1", "--game", "1"])
    assert old.exit_code == 2 and old.stdout == ""
    assert old.stderr == ("error: --game names a game in every command; give a game's number after the run: "
                          "arena show 1 1\n")
    alone = runner.invoke(app, ["show", "1", "--html", "page.html"])
    assert alone.exit_code == 2
    assert alone.stderr == "error: --html FILE writes one game: arena show RUN GAME --html FILE\n"


def test_every_command_s_game_option_names_a_game():
    options = options_named("--game")
    assert {path for path, param in options.items() if not param.hidden} == {"maps", "bots", "ratings", "check bot",
                                                                                "league new", "play", "tournament"}
    assert options["show"].hidden  # kept only to say what to write instead
    unknown = "unknown game 'checkers'; known: catmouse, chess, openspiel:* (108 games), pawnrace, snafu, tron"
    for command in (["maps"], ["bots"], ["check", "bot", "random"], ["league", "new", "somewhere", "--map", "x"]):
        result = runner.invoke(app, [*command, "--game", "checkers"])
        assert result.exit_code != 0 and unknown in result.output, command
    assert runner.invoke(app, ["ratings", "--game", "checkers", "-f", "json"]).stdout == "[]\n"  # a filter: none
