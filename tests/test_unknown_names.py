"""An unknown bot or game name: "did you mean" offers only names close to it, and a bot with no close name
gets told where bots are found."""

import pytest

from arena.cli.main import app
from arena.core.errors import BotSpecError, UnknownGameError
from arena.plugins.registry import close_names
from tests.cli_runner import CliRunner

NOT_FOUND = ("unknown bot 'hugger', nor any close name; a bot of your own is found in ./bots, a --bots-dir DIR or a "
             "directory of ARENA_BOTS_PATH (`arena bots` lists the bots found)")


@pytest.mark.parametrize(("name", "suggested"), [
    ("randon", ["random"]),  # not cm_random or pr_random
    ("Random", ["random"]),
    ("flodfill", ["floodfill"]),
    ("voronio", ["voronoi"]),
    ("wray", ["wary"]),
    ("prgreedy", ["pr_greedy", "greedy"]),
    ("hugger", []),  # not wallhugger, nor chaser
    ("flood", []),
    ("zzzzzz", []),
])
def test_only_close_names_are_suggested(shipped_registry, name, suggested):
    assert close_names(name, shipped_registry.bots) == suggested


def test_an_unknown_bot_is_told_the_close_names_or_else_where_bots_are_found(shipped_registry):
    with pytest.raises(BotSpecError) as close:
        shipped_registry.bot("randon")
    assert str(close.value) == "unknown bot 'randon'; did you mean: random?"
    with pytest.raises(BotSpecError) as far:
        shipped_registry.bot("hugger")
    assert str(far.value) == NOT_FOUND
    with pytest.raises(UnknownGameError) as game:
        shipped_registry.game("torn")
    assert str(game.value) == "unknown game 'torn'; did you mean: tron?"


def test_the_command_line_says_where_bots_are_found_in_one_line():
    result = CliRunner().invoke(app, ["tournament", "empty_room", "-b", "random,hugger", "--db", "t.db"])
    assert result.exit_code == 2
    assert result.stderr == f"error: {NOT_FOUND}\n"
