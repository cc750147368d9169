"""The pawn race: its rules as the paper states them (with the readings the README gives), its maps, moves
as text, and its bots."""

from dataclasses import replace
from pathlib import Path

import pytest

from arena.core.errors import MapError
from arena.core.maps import parse_map, resolve_map
from arena.engines.pawnrace.solver import verdict
from arena.games.pawnrace.game import PawnRaceGame, board_of
from arena.games.pawnrace.rules import BLACK, WHITE, Position, Setup, legal_moves, move_name, play, start
from arena.play.referee import run_match

SMALL = Setup(5, 2, 1)


def names(setup, position):
    return [move_name(move) for move in legal_moves(setup, position)]


def test_a_pawn_leaves_its_base_onto_any_of_the_2a_squares_next_to_it():
    assert SMALL.exits(WHITE) == ((2, 0), (2, 1), (0, 2), (1, 2))
    assert SMALL.exits(BLACK) == ((2, 3), (2, 4), (3, 2), (4, 2))
    assert names(SMALL, start(SMALL)) == ["base-a3", "base-b3", "base-c1", "base-c2"]


def test_a_pawn_never_comes_closer_to_its_base_and_never_reenters_it():
    position = Position((frozenset({(2, 2)}), frozenset()), (0, 1))
    # from c3 (distance 0): c2 and b3 keep the distance, d3 and c4 increase it; nothing goes back into the base
    assert names(SMALL, position) == ["c3-b3", "c3-c2", "c3-c4", "c3-d3"]
    further = Position((frozenset({(3, 2)}), frozenset()), (0, 1))
    assert "d3-c3" not in names(SMALL, further)  # distance 1 to 0: closer to its base
    assert names(SMALL, further) == ["d3-d2", "d3-d4", "d3-e3"]


def test_the_first_player_wins_the_smallest_board_in_four_moves():
    position = start(SMALL)
    for white, black in (("base-c2", "base-e3"), ("c2-c3", "e3-e2"), ("c3-d3", "e2-e1")):
        position = play(SMALL, position, _move(SMALL, position, white))
        position = play(SMALL, position, _move(SMALL, position, black))
    assert not position.over
    position = play(SMALL, position, _move(SMALL, position, "d3-d4"))
    assert (position.winner, position.reason, position.moves) == (WHITE, "white reached black's base", 7)


def test_after_a_move_every_stuck_pawn_is_removed_of_both_sides_or_with_removal_mover_of_the_side_to_move():
    # White's e1 may only go to e2 (d1 is closer to its base), which black holds; black's e2 may only go to
    # e1 (white's) or d2 (black's own; e3 is closer to its base). Neither can move: both are stuck.
    position = Position((frozenset({(4, 0), (0, 2)}), frozenset({(4, 1), (3, 1)})), (0, 0), WHITE)
    setup = Setup(5, 2, 2)
    after = play(setup, position, _move(setup, position, "a3-a4"))
    assert after.pawns == (frozenset({(0, 3)}), frozenset({(3, 1)}))
    mover_only = Setup(5, 2, 2, removal="mover")
    kept = play(mover_only, position, _move(mover_only, position, "a3-a4"))
    # black is about to move, so only black loses its stuck pawn; white's waits until white is to move
    assert kept.pawns == (frozenset({(0, 3), (4, 0)}), frozenset({(3, 1)}))


def test_waiting_pawns_whose_exits_are_all_taken_are_removed():
    setup = Setup(5, 2, 3)
    crowded = Position((frozenset({(4, 2)}), frozenset({(2, 0), (2, 1), (0, 2), (1, 3)})), (2, 0), BLACK)
    after = play(setup, crowded, _move(setup, crowded, "b4-b3"))  # b3 was white's last free exit
    assert after.waiting[WHITE] == 0 and after.pawns[WHITE] == frozenset({(4, 2)}) and not after.over


def test_a_side_whose_last_pawn_is_removed_loses():
    setup = Setup(5, 2, 1)
    # white's last pawn, on a5, can only go to b5 (a4 is closer to its base); black takes b5
    position = Position((frozenset({(0, 4)}), frozenset({(1, 3)})), (0, 0), BLACK)
    after = play(setup, position, _move(setup, position, "b4-b5"))
    assert (after.winner, after.reason) == (BLACK, "white has no pawns left")


def test_the_move_cap_ends_the_game_in_a_draw():
    setup = Setup(5, 2, 1, max_moves=3)
    position = start(setup)
    for move in ("base-c1", "base-e3", "c1-c2"):
        position = play(setup, position, _move(setup, position, move))
    assert (position.winner, position.reason) == (None, "the move cap of 3 moves was reached: a draw")


def _move(setup, position, name):
    return next(move for move in legal_moves(setup, position) if move_name(move) == name)


def test_maps_draw_the_board_and_the_options_override_it():
    assert board_of(resolve_map("pawnrace_8x8")) == (8, 2)
    with pytest.raises(MapError, match=r"expected 'b' at e5 for bases of size 2"):
        board_of(parse_map("; game = pawnrace\n...b.\n...bb\n.....\nww...\nww...\n"))
    options = PawnRaceGame.resolve_options({**resolve_map("pawnrace_6x6").header, "n": "7"})
    assert PawnRaceGame.setup_of(resolve_map("pawnrace_6x6"), options) == Setup(7, 2, 3)


def test_a_game_plays_through_the_referee_with_moves_as_text():
    outcome = run_match("pawnrace", ["pr_greedy", "pr_random"], game_map="pawnrace_5x5", seed=0)
    assert outcome.ranks == (1, 2)
    assert outcome.reason == "white reached black's base: white (player 1) wins"
    white_moves = [turn[0] for turn in outcome.actions if 0 in turn]
    assert white_moves == ["base-b3", "b3-c3", "c3-c4", "c4-d4"]  # the fastest win: 4 moves
    assert outcome.record()["turns"][0] == {"0": "base-b3"}



# --- perfect play ----------------------------------------------------------------------------------

def forced_within(setup, plies):
    """Independently of the solver: can the side to move at the start force a win, or is it forced to lose,
    within ``plies`` moves? A depth-limited search over the same rules (no move cap)."""
    from dataclasses import replace
    from functools import cache

    rules = replace(setup, max_moves=10**9)

    @cache
    def wins(position, depth):
        for move in legal_moves(rules, position):
            after = play(rules, position, move)
            if after.over and after.winner == position.to_move:
                return True
            if not after.over and depth > 1 and loses(replace(after, moves=0), depth - 1):
                return True
        return False

    @cache
    def loses(position, depth):
        for move in legal_moves(rules, position):
            after = play(rules, position, move)
            if after.over:
                if after.winner is None or after.winner == position.to_move:
                    return False
            elif depth <= 1 or not wins(replace(after, moves=0), depth - 1):
                return False
        return True

    first = replace(start(rules), moves=0)
    return wins(first, plies), loses(first, plies)


def test_the_solver_agrees_with_a_depth_limited_search_on_the_small_boards():
    five, six = verdict(Setup(5, 2, 1)), verdict(Setup(6, 2, 1))
    assert (five.winner, five.plies, five.winner_moves) == ("white", 7, 4)
    assert (six.winner, six.plies, six.winner_moves) == ("black", 14, 7)
    assert forced_within(Setup(5, 2, 1), 7) == (True, False) and forced_within(Setup(5, 2, 1), 6) == (False, False)
    assert forced_within(Setup(6, 2, 1), 14) == (False, True) and forced_within(Setup(6, 2, 1), 13) == (False, False)


def test_perfect_play_wins_as_the_solver_says():
    outcome = run_match("pawnrace", ["pr_perfect", "pr_perfect"], game_map="pawnrace_6x6", options={"pawns": "1"})
    assert outcome.ranks == (2, 1) and outcome.turns == 14
    beaten = run_match("pawnrace", ["pr_greedy", "pr_perfect"], game_map="pawnrace_6x6", options={"pawns": "1"},
                       seed=4)
    assert beaten.ranks == (2, 1)


def test_solve_claims_prints_the_papers_claims_beside_the_solver():
    from arena.cli.main import app
    from tests.cli_runner import CliRunner

    result = CliRunner().invoke(app, ["solve", "pawnrace-claims"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if "│" in line]
    assert "white wins in 4 moves of its own" in lines[0] and lines[0].rstrip("│ ").endswith("yes")
    assert "black wins 2 of 8 boards with n <= 6: n=6 a=2 removal=all, n=6 a=2 removal=mover" in lines[1]
    assert lines[1].rstrip("│ ").endswith("no")


# --- TD(lambda) self-play ----------------------------------------------------------------------------

def test_td_training_is_reproducible_and_a_resumed_run_ends_as_an_uninterrupted_one():
    import json

    from arena.learning.pawnrace.td_table import TdSettings, TdTableTrainer

    settings = TdSettings(games=600, block=200, seed=3)
    straight = TdTableTrainer(settings)
    straight.run()
    again = TdTableTrainer(settings)
    again.run()
    assert again.tables == straight.tables
    first = TdTableTrainer(TdSettings(games=300, block=200, seed=3))
    first.run()
    resumed = TdTableTrainer(settings, json.loads(json.dumps(first.checkpoint())))
    resumed.run()
    assert resumed.tables == straight.tables
    assert [block.__dict__ for block in resumed.blocks] == [block.__dict__ for block in straight.blocks]
    # on 5 x 5 with one pawn the first player wins most games, most of them in the fewest moves: 7 of both
    # sides, 3.5 a player (the paper: "most games last the minimum 4 moves")
    last = straight.blocks[-1]
    assert (last.games, last.white, last.black, last.draws, last.mean_moves) == (200, 176, 24, 0, 3.72)


@pytest.mark.slow
def test_train_command_writes_a_model_the_td_bot_plays_and_resume_goes_on(tmp_path):
    import json

    from arena.cli.main import app
    from tests.cli_runner import CliRunner

    runner = CliRunner()
    result = runner.invoke(app, ["train", "pawnrace-td", "-n", "400", "--block", "200", "--out", "a/model.json"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("games 0-200: moves per player ") and lines[1].startswith("games 200-400: ")
    assert lines[-1] == ("400 games (seed 0); table key full (not the paper's: --key paper); model written to "
                         "a/model.json; play it with td:model=a/model.json")
    more = runner.invoke(app, ["train", "pawnrace-td", "-n", "600", "--block", "200", "--out", "a/model.json",
                               "--resume"])
    assert more.exit_code == 0, more.output
    straight = runner.invoke(app, ["train", "pawnrace-td", "-n", "600", "--block", "200", "--out", "b/model.json"])
    assert straight.exit_code == 0
    resumed, whole = (json.loads(Path(f"{d}/model.json").read_text()) for d in ("a", "b"))
    assert resumed["tables"] == whole["tables"] and resumed["blocks"] == whole["blocks"]
    outcome = run_match("pawnrace", ["td:model=b/model.json", "pr_random"], game_map="pawnrace_5x5", seed=1)
    assert outcome.failures == {} and outcome.ranks == (1, 2)
    missing = runner.invoke(app, ["play", "td:model=nowhere.json", "pr_random"])
    assert missing.exit_code == 2 and "nowhere.json: no such model file" in missing.stderr


def test_playability_reports_each_block_the_whole_run_and_the_perfect_play_verdict():
    import json

    from arena.cli.main import app
    from tests.cli_runner import CliRunner

    runner = CliRunner()
    result = runner.invoke(app, ["playability", "pawnrace", "-n", "400", "--block", "200", "-f", "json",
                                 "--html", "p.html"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["title"] == ("Playability of pawnrace n=5 a=2 pawns=1 removal=all: 400 self-play games, "
                               "fewest moves to win 4, move cap 2000, table key full (not the paper's: --key paper)")
    assert [block["block"] for block in report["blocks"]] == ["0-200", "200-400", "all"]
    whole = report["blocks"][-1]
    assert whole["games"] == 400 and whole["white"] + whole["black"] + whole["draws_by_cap"] / 400 == 1.0
    assert whole["white_95"][0] < whole["white"] < whole["white_95"][1]
    # the new columns: on 5 x 5 no game reaches the cap or 100 moves a player, so every game is decided
    assert whole["draws"] == 0.0 and whole["white_of_decided"] == whole["white"] and whole["longest"] < 200
    assert whole["over_100_moves"] == 0.0 and whole["sd_moves"] > 0
    assert report["perfect_play"] == "perfect play: white wins in 4 moves"
    page = Path("p.html").read_text()
    assert page.count("<svg") == 2 and "perfect play: white wins in 4 moves" in page
    # the same figures from the statistics a trained model recorded
    trained = runner.invoke(app, ["train", "pawnrace-td", "-n", "400", "--block", "200", "--out", "m/model.json"])
    assert trained.exit_code == 0
    again = runner.invoke(app, ["playability", "pawnrace", "--model", "m/model.json", "-f", "json"])
    assert json.loads(again.stdout)["blocks"] == report["blocks"]
    wrong = runner.invoke(app, ["playability", "tron"])
    assert wrong.exit_code == 2 and wrong.stderr == "error: no learner for game 'tron': playability judges pawnrace\n"


@pytest.mark.slow
def test_the_network_learner_is_reproducible_resumes_exactly_and_its_model_plays():
    import json

    from arena.learning.pawnrace.td_network import Features, TdNetworkTrainer, network_settings
    from arena.learning.pawnrace.td_table import TdSettings

    settings = network_settings(TdSettings(n=6, a=2, pawns=3, games=60, block=30, seed=5))
    assert (settings.gamma, settings.win_reward, settings.move_reward, settings.lam, settings.alpha) == (
        0.95, 1.0, 0.0, 0.5, 0.001)
    features = Features(settings.setup)
    assert features.size == 2 * (36 - 8) + 2 + 8  # two per free square, the goal flags, 4 bins a side
    straight = TdNetworkTrainer(settings)
    straight.run()
    first = TdNetworkTrainer(replace(settings, games=30))
    first.run()
    resumed = TdNetworkTrainer(settings, json.loads(json.dumps(first.checkpoint())))
    resumed.run()
    assert resumed.checkpoint()["networks"] == straight.checkpoint()["networks"]
    assert [b.__dict__ for b in resumed.blocks] == [b.__dict__ for b in straight.blocks]
    Path("nn.json").write_text(json.dumps(straight.model()))
    outcome = run_match("pawnrace", ["td:model=nn.json", "pr_random"], game_map="pawnrace_6x6", seed=2)
    assert outcome.failures == {} and sorted(outcome.ranks) == [1, 2]
