import math
import os
import signal
import subprocess
import sys

import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.stats.elo import elo_difference_pairs, gsprt_llr
from arena.tournament.sprt import SprtSettings, SprtState, parse_sprt, plan_compare, run_compare
from tests.cli_runner import CliRunner
from tests.helpers import REPO, write_module

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def test_parse_sprt():
    assert parse_sprt("0,10") == (0.0, 10.0)
    assert parse_sprt(" -1.5 , 2.5 ") == (-1.5, 2.5)
    for bad in ["", "10", "0,10,20", "a,b", "0;10", "5,0", "3,3", "0,inf", "nan,1"]:
        with pytest.raises(ArenaError, match="--sprt"):
            parse_sprt(bad)


def test_settings_check_alpha_and_beta():
    settings = SprtSettings(0, 10)
    assert settings.bounds == pytest.approx((-math.log(19), math.log(19)))
    for alpha, beta in [(0, 0.05), (1, 0.05), (-0.1, 0.05), (0.05, 1.5), (0.6, 0.5)]:
        with pytest.raises(ArenaError):
            SprtSettings(0, 10, alpha, beta)


def test_state_counts_pairs_and_decides_at_the_bounds():
    state = SprtState(SprtSettings(0, 50))
    pairs = [(1, 1), (1, 0.5), (0.5, 0.5), (0, 1), (1, 1)]
    for first, second in pairs:
        state.add_pair(first, second)
    assert state.counts == [0, 0, 2, 1, 2]
    assert (state.wins, state.draws, state.losses, state.pairs) == (6, 3, 1, 5)
    assert state.llr == gsprt_llr([0, 0, 2, 1, 2], 0, 50)
    assert state.decision is None
    assert state.elo() == elo_difference_pairs([0, 0, 2, 1, 2])
    while state.decision is None:
        state.add_pair(1, 1)
    assert state.decision == "H1" and state.llr >= math.log(19)
    losing = SprtState(SprtSettings(0, 50))
    while losing.decision is None:
        losing.add_pair(0, 0.5)
    assert losing.decision == "H0" and losing.llr <= -math.log(19)


def test_pairs_cycle_through_the_maps_and_default_to_the_games_default_maps(shipped_registry):
    plan = plan_compare("floodfill", "random", None, shipped_registry, time_limit=1.0, seed=3)
    assert [plan.pair(k)[0].game_map.name for k in range(4)] == ["empty_room", "center_block", "diagonal_blocks",
                                                               "empty_room"]
    assert all(plan.pair(k)[0].game_map is plan.pair(k)[1].game_map for k in range(4))
    snafu = plan_compare("mindless", "floodfill", None, shipped_registry, time_limit=1.0, seed=3)
    assert [m.name for m in snafu.game_maps] == ["snafu_15x15"]


def test_plan_checks_the_map_and_bots(shipped_registry):
    plan = plan_compare("floodfill", "random", "empty_room", shipped_registry, time_limit=1.0, seed=3)
    first, second = plan.pair(4)
    assert first.bots == (plan.new, plan.old) and second.bots == (plan.old, plan.new)
    assert first.seed == second.seed and (first.index, second.index) == (8, 9)
    assert plan.pair(5)[0].seed != first.seed
    with pytest.raises(ArenaError, match="4 seats"):
        plan_compare("floodfill", "random", "four_corners", shipped_registry, time_limit=1.0, seed=0)
    with pytest.raises(ArenaError, match="unknown bot 'flodfill'"):
        plan_compare("flodfill", "random", "empty_room", shipped_registry, time_limit=1.0, seed=0)
    with pytest.raises(ArenaError, match="--time-limit"):
        plan_compare("floodfill", "random", "empty_room", shipped_registry, time_limit=0, seed=0)


@pytest.mark.slow
def test_run_compare_decides_the_same_with_any_number_of_workers(shipped_registry, shipped_config):
    def plan(**limits):
        return plan_compare("floodfill", "random", "empty_room", shipped_registry, time_limit=1.0, seed=0, **limits)

    seen = []
    here = run_compare(plan(), SprtSettings(0, 50), shipped_registry, shipped_config,
                       lambda state: seen.append(state.pairs), in_process=True)
    assert (here.decision, here.state.pairs, here.state.counts) == ("H1", 23, [0, 1, 2, 5, 15])
    assert seen == list(range(1, 24))
    two = run_compare(plan(workers=2), SprtSettings(0, 50), shipped_registry, shipped_config)
    assert (two.decision, two.state.counts, two.state.llr) == (here.decision, here.state.counts, here.state.llr)
    capped = run_compare(plan(max_pairs=4), SprtSettings(0, 50), shipped_registry, shipped_config, in_process=True)
    assert (capped.decision, capped.state.pairs, capped.interrupted) == (None, 4, False)
    with pytest.raises(ArenaError, match="--max-pairs"):
        plan(max_pairs=0)
    with pytest.raises(ArenaError, match="--workers"):
        plan(workers=0)


@pytest.mark.slow
def test_compare_command_prints_llr_and_the_decision():
    result = invoke("compare", "floodfill", "random", "--sprt", "0,50", "-w", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # without --map, the pairs cycle through the game's default maps
    assert lines[0] == ("floodfill vs random on empty_room, center_block, diagonal_blocks: H0 +0 Elo, H1 +50 Elo, "
                        "alpha 0.05, beta 0.05")
    progress = [line for line in lines if line.startswith("pair ")]
    # Plain output: pairs 1 to 10, then every 10th, then the deciding pair.
    assert [int(line.split()[1]) for line in progress] == [*range(1, 11), 20, 23]
    assert progress[-1] == ("pair 23 (46 games)  W-D-L 31-14-1  LLR 3.07 [-2.94, 2.94]  Elo +270.7 ± 122.6")
    assert lines[-3] == "H1 accepted: LLR 3.07 reached the bound 2.94 after 23 pairs (46 games)"
    assert lines[-2] == "Elo +270.7 ± 122.6 (95%, from pairs), LOS 100.0%  pairs: LL 0, LD 1, DD+WL 4, WD 5, WW 13"
    # (31 wins - 1 loss) / 46 games
    assert lines[-1] == "Success +0.652 (games won minus games lost, over games played: Cloppert 2007)"


@pytest.mark.slow
def test_compare_command_without_a_decision_and_with_a_failing_bot(bot_dir):
    capped = invoke("compare", "floodfill", "wallhugger", "--sprt", "0,50", "-w", "1", "--max-pairs", "3",
                    "--seed", "5", "--map", "center_block")
    assert capped.exit_code == 0, capped.output
    assert capped.stdout.splitlines()[-3:-1] == [
        "no decision after 3 pairs",
        "every game was drawn (6 games): no difference between the bots was measured; try other maps (--map) or "
        "a longer comparison"]
    # A bot that crashes loses its games, and the test still decides.
    crashing = invoke("compare", "crasher", "random", "--sprt", "0,20", "--alpha", "0.1", "--beta", "0.1",
                      "-w", "1", "--bots-dir", str(bot_dir))
    assert crashing.exit_code == 0, crashing.output
    assert any(line.startswith("H0 accepted: LLR ") for line in crashing.stdout.splitlines())
    assert "[-2.20, 2.20]" in crashing.stdout  # log(0.1 / 0.9), log(0.9 / 0.1)


def test_compare_user_errors_are_one_line_and_exit_2():
    cases = {
        ("--sprt", "abc"): "error: --sprt takes two Elo differences ELO0,ELO1 such as 0,10, not 'abc'",
        ("--sprt", "10,0"): "error: --sprt ELO0,ELO1 needs ELO0 below ELO1, not '10,0'",
        ("--sprt", "0,10", "--alpha", "0"): "error: --alpha must be between 0 and 1 (exclusive), not 0",
        ("--sprt", "0,10", "--beta", "1.5"): "error: --beta must be between 0 and 1 (exclusive), not 1.5",
        ("--sprt", "0,10", "--alpha", "0.6", "--beta", "0.5"): "error: --alpha plus --beta must be below 1",
        ("--sprt", "0,10", "--max-pairs", "0"): "error: --max-pairs must be at least 1",
        ("--sprt", "0,10", "--workers", "0"): "error: --workers must be at least 1",
        ("--sprt", "0,10", "--time-limit", "0"): "error: --time-limit must be positive",
        ("--sprt", "0,10", "--map", "four_corners"): "error: maps/four_corners.txt has 4 seats; compare plays two "
                                                     "bots, so give 2-seat maps",
    }
    for args, expected in cases.items():
        result = invoke("compare", "floodfill", "random", *args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output
        lines = [line for line in result.stderr.splitlines() if line.startswith("error")]
        assert len(lines) == 1 and not result.stdout.strip(), (args, result.output)
        assert lines[0].replace(str(REPO) + "/", "").startswith(expected), (args, lines[0])
    unknown = invoke("compare", "floodfill", "randon", "--sprt", "0,10")
    assert unknown.exit_code == 2
    errors = [line for line in unknown.stderr.splitlines() if line.startswith("error")]
    assert len(errors) == 1 and errors[0].startswith("error: unknown bot 'randon'; did you mean: random")


@pytest.mark.slow
def test_ctrl_c_stops_with_the_figures_so_far(tmp_path):
    write_module(tmp_path / "bots", "slow.py", "import time\nfrom arena import bot\n\n"
                 "@bot(name='slow', game='tron')\ndef slow(obs, rng):\n    time.sleep(0.02)\n"
                 "    moves = obs.safe_moves()\n    return moves[0] if moves else 'N'\n")
    env = {k: v for k, v in os.environ.items() if k != "ARENA_BOTS_PATH"}
    process = subprocess.Popen([sys.executable, "-m", "arena", "compare", "slow", "random", "--sprt", "0,5",
                                "--map", "open_30", "-w", "2"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    header = process.stdout.readline()
    first = process.stdout.readline()  # Ctrl-C once the first pair is played
    assert header.startswith("slow vs random") and first.startswith("pair 1 "), (header, first)
    process.send_signal(signal.SIGINT)
    # read on through the same buffered reader: communicate() would skip lines readline() already buffered
    stdout, stderr = process.stdout.read(), process.stderr.read()
    assert process.wait(timeout=30) == 130, stderr
    lines = [first.rstrip("\n"), *stdout.splitlines()]
    pairs = int(lines[-4].split()[1])
    assert lines[-3] == f"no decision after {pairs} pairs (stopped)"
    assert lines[-2].startswith("Elo ") and lines[-1].startswith("Success ") and "Traceback" not in stderr
