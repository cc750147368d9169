"""`arena play` without a terminal: players named by seat (from 1), bot and role, and each trail its own letter."""

from arena.cli.main import app
from arena.cli.players import with_bot_names
from tests.cli_runner import CliRunner

runner = CliRunner()


def frames(output: str) -> list[list[str]]:
    """The boards drawn after each ``start`` / ``turn N`` line, as lists of rows."""
    boards: list[list[str]] = []
    for line in output.splitlines()[1:]:
        if line == "start" or line.startswith("turn "):
            boards.append([])
        elif line.startswith("Result"):
            break
        else:
            boards[-1].append(line)
    return boards


def test_tron_names_bots_by_seat_and_draws_each_trail_with_its_own_letter():
    result = runner.invoke(app, ["play", "random", "wallhugger", "--seed", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "tron on empty_room, seed 1: 1=random  2=wallhugger"
    boards = frames(result.stdout)
    assert len(boards) == 23 and all(len(board) == 13 for board in boards)
    final = "".join(boards[-1])
    assert "█" not in result.stdout
    # each trail its own letter, a for player 1, b for player 2: its start and every move but a fatal one
    assert final.count("a") == final.count("b") == 23
    assert "1" in final and "2" not in final  # player 2 crashed: only player 1's head is left
    assert lines[-3:-1] == [
        "Result after 23 turns: 1=random rank 1, 2=wallhugger rank 2 (rank 1 is best)",
        "Reason: player 2 (wallhugger) moved into player 1 (random)'s trail; player 1 (random) wins"]
    assert lines[-1].startswith("Thinking time: 1=random ") and ", 2=wallhugger " in lines[-1]


def test_catmouse_says_which_bot_is_the_cat():
    result = runner.invoke(app, ["play", "wary", "greedy", "--map", "catmouse_5x5", "--seed", "2", "--quiet"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "catmouse on catmouse_5x5, seed 2: 1=greedy (cat)  2=wary (mouse)"
    assert lines[-3] == "Result after 14 turns: 1=greedy (cat) rank 1, 2=wary (mouse) rank 2 (rank 1 is best)"


def test_a_reason_names_each_seat_with_its_bot():
    labels = ["random", "minimax:depth=2", "chaser", "floodfill"]
    assert with_bot_names("players 1, 2 and 4 crashed into each other; player 3 wins", labels) == (
        "players 1 (random), 2 (minimax:depth=2) and 4 (floodfill) crashed into each other; player 3 (chaser) wins")
    assert with_bot_names("white (player 1) wins", labels[:2]) == "white (player 1 (random)) wins"
    named = "player 1 (crasher) raised ValueError"  # a failure's reason names the bot already
    assert with_bot_names(named, ["crasher", "random"]) == named


def test_replay_names_players_and_trails_as_play_does():
    played = runner.invoke(app, ["tournament", "empty_room", "-b", "random,wallhugger", "-n", "2", "-w", "1"])
    assert played.exit_code == 0, played.output
    replayed = runner.invoke(app, ["replay", "1", "0", "--delay", "0"])
    assert replayed.exit_code == 0, replayed.output
    lines = replayed.stdout.splitlines()
    assert lines[0] == "tron on empty_room, seed 2968811710: 1=random  2=wallhugger"
    board = "".join(frames(replayed.stdout)[-1])
    assert "█" not in replayed.stdout and "a" in board and "b" in board
    assert lines[-2:] == ["Result: 1=random rank 1, 2=wallhugger rank 2 (rank 1 is best)",
                          "Reason: player 2 (wallhugger) moved into its own trail; player 1 (random) wins"]
