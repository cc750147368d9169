"""Bots that misbehave in every way a real tournament has seen lose their games, and nothing else."""


import pytest

from arena.cli.format_options import split_formats
from arena.core.errors import ArenaError
from arena.play.limits import Limits, parse_memory
from tests.cli_runner import CliRunner
from tests.verdicts import EXPECTED, ISOLATED, check_verdicts, play_gauntlet

runner = CliRunner()


@pytest.mark.slow
def test_every_kind_of_misbehaviour_loses_only_its_own_games():
    bots = [*EXPECTED, "noisy"]
    standings, reasons = play_gauntlet(bots)
    assert len(reasons) == 2 * len(bots)  # the tournament finished: every game is stored
    check_verdicts(EXPECTED, standings, [r for r in reasons if "noisy" not in {s["label"] for s in r[0]}])
    # garbage on stdout and stderr neither corrupts the JSON above nor costs the noisy bot anything
    noisy = standings["noisy"]
    assert {k: noisy[k] for k in ("timeout", "crash", "illegal", "memory")} == dict.fromkeys(
        ("timeout", "crash", "illegal", "memory"), 0)


@pytest.mark.slow
def test_isolated_bots_fail_alone_in_their_own_processes():
    standings, reasons = play_gauntlet([*ISOLATED, "noisy"], "--isolate")
    assert len(reasons) == 2 * (len(ISOLATED) + 1)
    check_verdicts(ISOLATED, standings, [r for r in reasons if "noisy" not in {s["label"] for s in r[0]}])


def test_memory_sizes_parse_and_refuse_nonsense():
    assert parse_memory("2G") == 2 << 30
    assert parse_memory("512M") == 512 << 20
    assert parse_memory("1.5GiB") == 3 << 29
    with pytest.raises(ArenaError, match="is not a size like 512M or 2G"):
        parse_memory("lots")
    with pytest.raises(ArenaError, match="too small"):
        parse_memory("10M")
    assert Limits(grace=0.1, kill_margin=0.2).kill_after(1.0) == pytest.approx(1.3)


def test_format_option_takes_a_tournament_format_and_an_output_format():
    assert split_formats(None) == (None, "table")
    assert split_formats(["swiss", "json"]) == ("swiss", "json")
    assert split_formats(["gauntlet,md"]) == ("gauntlet", "md")
    with pytest.raises(ArenaError, match="two output formats"):
        split_formats(["md", "csv"])
    with pytest.raises(ArenaError, match="not a tournament format"):
        split_formats(["latex2"])


def test_the_move_guard_writes_each_move_into_its_own_shared_slot():
    import multiprocessing

    from arena.play.limits import MoveGuard

    slots = multiprocessing.RawArray("d", 6)
    guard = MoveGuard(slots, 1)
    guard.begin(1, 0.5)
    started = slots[3]
    assert started > 0 and slots[4:6] == [1.0, 0.5] and slots[0:3] == [0.0, 0.0, 0.0]
    guard.end()
    assert slots[3] == 0.0
    guard.begin(1, 0.5)  # the same seat and limit again: the slot still says so, with the new start
    assert slots[3] >= started and slots[4:6] == [1.0, 0.5]
    guard.end()
    guard.begin(0, 0.25)  # another seat and limit: the parent reads them when it must kill the worker
    assert slots[4:6] == [0.0, 0.25]
    guard.end()
    assert slots[3:6] == [0.0, 0.0, 0.25] and slots[0:3] == [0.0, 0.0, 0.0]


def test_the_move_guard_takes_a_start_already_read():
    from arena.play.limits import DEFAULT_GRACE, MoveGuard

    slots = [0.0] * 3
    guard = MoveGuard(slots)
    guard.begin(0, 0.5, now=100.0)
    assert guard.deadline == 100.0 + 0.5 + DEFAULT_GRACE and slots == [100.0, 0.0, 0.5]
    guard.end()
    assert guard.deadline is None and slots[0] == 0.0
