"""Tournament formats: gauntlet, swiss (pairings, rounds, resume) and the persistent ladder."""

import json
import re
import sqlite3
from collections import Counter
from dataclasses import replace

import pytest
import trueskill

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.plugins.registry import PluginConfig, load_registry
from arena.stats.ladder_rule import SLACK, Candidate, RatingState, match_environment, plan_matches, weight
from arena.stats.ratings import MU, SIGMA
from arena.stats.standings import PlayedGame
from arena.storage.history import played_from_rows
from arena.storage.store import Store
from arena.tournament.definition import TournamentDefinition
from arena.tournament.persistent_ladder import NEVER, LadderEntry, pair_round
from arena.tournament.plan import plan_tournament
from arena.tournament.runner import TournamentRun, play_tournament, stages
from arena.tournament.schedules import max_swiss_rounds, swiss_pairings
from tests.cli_runner import CliRunner
from tests.helpers import round_robin_run, write_module

runner = CliRunner()
SHIPPED = ["chaser", "floodfill", "random", "wallhugger"]


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def stderr_lines(text):
    return [line for line in text.splitlines() if line.strip()]


def ok_json(result):
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return json.loads(result.stdout)


def stored_games(db="arena.db", run_id=1):
    """(schedule index, labels by seat, ranks) of a stored run's games."""
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT idx, seats, ranks, map FROM games WHERE run_id = ? ORDER BY idx", (run_id,)).fetchall()
    conn.close()
    return [(idx, tuple(s["label"] for s in json.loads(seats)), tuple(json.loads(ranks)), game_map)
            for idx, seats, ranks, game_map in rows]


def user_error(*args):
    result = invoke(*args)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = stderr_lines(result.stderr)
    assert len(lines) == 1, result.stderr
    return lines[0]


# --- gauntlet -----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_gauntlet_plays_only_the_gauntlet_bots_pairings_in_both_seats():
    data = ok_json(invoke("tournament", "empty_room", "center_block", "--gauntlet", "floodfill",
                          "-b", "random,chaser,wallhugger", "-n", "2", "-w", "1", "-f", "json"))
    assert data["games_played"] == data["games_scheduled"] == 3 * 2 * 2
    games = {row["bot"]: row["games"] for row in data["standings"]}
    assert games == {"floodfill": 12, "random": 4, "chaser": 4, "wallhugger": 4}  # floodfill joined the field
    pairs = {(row["bot"], row["opponent"]) for row in data["head_to_head"]}
    assert pairs == {(a, b) for other in ("random", "chaser", "wallhugger")
                     for a, b in (("floodfill", other), (other, "floodfill"))}

    played = stored_games()
    assert all("floodfill" in labels for _, labels, _, _ in played)
    seats = Counter((game_map, labels) for _, labels, _, game_map in played)
    assert len(seats) == 12 and set(seats.values()) == {1}  # every pairing, on every map, once in each seat
    assert Counter(labels.index("floodfill") for _, labels, _, _ in played) == {0: 6, 1: 6}
    runs = ok_json(invoke("runs", "-f", "json"))
    assert runs[0]["format"] == "gauntlet"


def test_gauntlet_bot_already_in_the_field_is_not_added_twice_and_every_seat_is_balanced(shipped_registry, bot_dir):
    listed = plan_tournament(TournamentDefinition(maps=("empty_room",), bots=tuple(SHIPPED), format="gauntlet",
                                          gauntlet="random", games=4), shipped_registry)
    assert [spec.label for spec in listed.bots] == SHIPPED
    schedule = listed.first_stage()
    assert len(schedule) == listed.total_games() == 3 * 4
    assert Counter(setup.bots.index(listed.gauntlet) for setup in schedule) == {0: 6, 1: 6}

    # on a four-player map: every group that includes the gauntlet bot, the bot in every seat equally often
    registry = load_registry(PluginConfig(bot_dirs=(str(bot_dir),), use_cwd_bots=False, use_env_path=False))
    four = plan_tournament(TournamentDefinition(maps=("four_corners",), bots=tuple(SHIPPED), format="gauntlet",
                                        gauntlet="steady:first=S", games=4), registry)
    assert [spec.label for spec in four.bots] == ["steady:first=S", *SHIPPED]
    schedule = four.first_stage()
    assert len(schedule) == 4 * 4  # C(4, 3) groups of three opponents, 4 seatings each
    assert all(four.gauntlet in setup.bots for setup in schedule)
    assert Counter(setup.bots.index(four.gauntlet) for setup in schedule) == {0: 4, 1: 4, 2: 4, 3: 4}
    assert len({frozenset(s.label for s in setup.bots) for setup in schedule}) == 4


def test_gauntlet_errors():
    assert user_error("tournament", "empty_room", "--gauntlet", "flodfill") == \
        "error: unknown bot 'flodfill'; did you mean: floodfill?"
    assert user_error("tournament", "empty_room", "--gauntlet", "floodfill", "-f", "swiss") == \
        "error: --gauntlet goes with a gauntlet, not a swiss tournament"
    assert user_error("tournament", "empty_room", "-f", "gauntlet") == \
        "error: a gauntlet needs the bot that meets the field: --gauntlet BOT"


# --- swiss pairings -----------------------------------------------------------------------------------


def met(*pairs):
    return {frozenset(pair) for pair in pairs}


def test_swiss_pairs_the_best_placed_bots_with_each_other():
    assert swiss_pairings(list("abcdef"), set(), set()) == ([("a", "b"), ("c", "d"), ("e", "f")], None)


def test_swiss_never_repeats_a_pairing():
    pairs, bye = swiss_pairings(list("abcd"), met("ab"), set())
    assert (pairs, bye) == ([("a", "c"), ("b", "d")], None)
    pairs, _ = swiss_pairings(list("abcd"), met("ab", "ac"), set())
    assert pairs == [("a", "d"), ("b", "c")]


def test_swiss_backtracks_when_the_greedy_choice_dead_ends():
    # greedy a-b leaves c and d, who have met: a must take c instead
    assert swiss_pairings(list("abcd"), met("cd"), set()) == ([("a", "c"), ("b", "d")], None)
    # greedy a-b then c-d leaves e and f, who have met, and c has met e and f too: a must give up b
    played = met("ef", "ce", "cf", "de")
    assert swiss_pairings(list("abcdef"), played, set()) == ([("a", "c"), ("b", "e"), ("d", "f")], None)


def test_swiss_gives_the_bye_to_the_lowest_bot_without_one():
    assert swiss_pairings(list("abcde"), set(), set()) == ([("a", "b"), ("c", "d")], "e")
    assert swiss_pairings(list("abcde"), set(), {"e"}) == ([("a", "b"), ("c", "e")], "d")
    assert swiss_pairings(list("abcde"), set(), {"e", "d", "c", "b"}) == ([("b", "c"), ("d", "e")], "a")
    # everyone has had one: the lowest again
    assert swiss_pairings(list("abcde"), set(), set("abcde"))[1] == "e"


def test_swiss_with_no_pairing_left_says_so():
    with pytest.raises(ArenaError, match="no pairing without a repeated pairing is left; use fewer --rounds"):
        swiss_pairings(list("abcd"), met("ab", "ac", "ad"), set())


def test_max_swiss_rounds():
    assert [max_swiss_rounds(n) for n in (2, 3, 4, 5, 6, 7, 10)] == [1, 3, 3, 2, 3, 3, 5]


def test_swiss_rounds_are_checked_against_the_field():
    assert user_error("tournament", "empty_room", "-f", "swiss", "--rounds", "4", "-b", ",".join(SHIPPED)) == \
        "error: 4 bots can play at most 3 swiss rounds (more could leave a round with no new pairing)"
    assert user_error("tournament", "empty_room", "-f", "swiss") == \
        "error: a swiss tournament needs --rounds N (at least 1)"
    assert user_error("tournament", "four_corners", "-f", "swiss", "--rounds", "1") == \
        "error: swiss pairs two bots at a time: use 2-player maps"


def fake_result(labels, points):
    """A played game where the bot in seat 0 scores ``points`` (1 win, 0.5 draw, 0 loss)."""
    ranks = {1.0: (1, 2), 0.5: (1, 1), 0.0: (2, 1)}[points]
    return PlayedGame(tuple((label, None) for label in labels), ranks, {}, (0.0, 0.0), "empty_room")


def test_every_round_that_prepare_allows_can_be_paired(bot_dir):
    """prepare allows max_swiss_rounds(n) rounds and no more; whatever the results, each allowed round pairs."""
    import random

    registry = load_registry(PluginConfig(bot_dirs=(str(bot_dir),), use_cwd_bots=False, use_env_path=False))
    variants = ["steady", "steady:first=E", "steady:first=S", "steady:first=W", "steady:patience=1",
                "steady:patience=2"]
    for count in (5, 6):
        labels = variants[:count]
        rounds = max_swiss_rounds(count)
        with pytest.raises(ArenaError, match=f"at most {rounds} swiss rounds"):
            plan_tournament(TournamentDefinition(maps=("empty_room",), bots=tuple(labels), format="swiss",
                                         rounds=rounds + 1, games=2), registry)
        tournament = plan_tournament(TournamentDefinition(maps=("empty_room",), bots=tuple(labels), format="swiss",
                                                  rounds=rounds, games=2), registry)
        chooser = random.Random(count)
        for _ in range(200):
            run = TournamentRun(tournament)
            planned = []
            for stage in stages(run):
                planned.extend(frozenset(s.label for s in stage[i].bots) for i in range(0, len(stage), 2))
                for pair_start in range(0, len(stage), 2):
                    points = chooser.choice((0, 1, 2))
                    first, second = stage[pair_start], stage[pair_start + 1]
                    run.played[first.index] = fake_result([s.label for s in first.bots], points / 2)
                    run.played[second.index] = fake_result([s.label for s in second.bots], 1 - points / 2)
            assert len(planned) == len(set(planned)) == rounds * (count // 2)


# --- swiss tournaments ------------------------------------------------------------------------------


@pytest.mark.slow
def test_swiss_tournament_end_to_end():
    data = ok_json(invoke("tournament", "empty_room", "--format", "swiss", "--rounds", "3", "-n", "2", "-w", "2",
                          "--seed", "6", "-b", ",".join(SHIPPED), "-f", "json"))
    assert data["games_played"] == data["games_scheduled"] == 3 * 2 * 2
    assert {row["bot"]: row["games"] for row in data["standings"]} == dict.fromkeys(SHIPPED, 6)

    played = stored_games()
    assert [idx for idx, *_ in played] == list(range(12))
    rounds = [played[i:i + 4] for i in range(0, 12, 4)]
    round_pairs = [{frozenset(labels) for _, labels, _, _ in games} for games in rounds]
    assert [len(pairs) for pairs in round_pairs] == [2, 2, 2]
    assert round_pairs[0] == {frozenset(("chaser", "floodfill")), frozenset(("random", "wallhugger"))}
    assert len(set.union(*round_pairs)) == 6  # 4 bots, 3 rounds: every pairing exactly once
    for games in rounds:  # both seats in every pairing
        assert Counter(frozenset(labels) for _, labels, _, _ in games) == Counter(
            {frozenset(labels): 2 for _, labels, _, _ in games})
        assert len({labels for _, labels, _, _ in games}) == 4

    # round 2: the leader after round 1 meets the best-placed bot it hasn't met
    scores = dict.fromkeys(SHIPPED, 0.0)
    for _, labels, ranks, _ in rounds[0]:
        for seat, label in enumerate(labels):
            other = ranks[1 - seat]
            scores[label] += 1.0 if ranks[seat] < other else 0.5 if ranks[seat] == other else 0.0
    ranking = sorted(SHIPPED, key=lambda label: (-scores[label], SHIPPED.index(label)))
    leader = ranking[0]
    opponent = next(label for label in ranking[1:] if frozenset((leader, label)) not in round_pairs[0])
    assert frozenset((leader, opponent)) in round_pairs[1]
    assert ok_json(invoke("runs", "-f", "json"))[0]["format"] == "swiss"


def comparable(standings):
    """Standings without thinking times (which differ from run to run)."""
    return ([(r.label, r.rating, r.games, r.wins, r.draws, r.losses, dict(r.failures)) for r in standings.rows],
            standings.head_to_head, standings.played, standings.scheduled, standings.draw_probability)


@pytest.mark.parametrize("stop_after", [4, 6])
def test_swiss_interrupted_and_resumed_gives_the_uninterrupted_results(shipped_registry, shipped_config, stop_after):
    definition = TournamentDefinition(maps=("empty_room",), bots=tuple(SHIPPED), format="swiss", rounds=3, games=2,
                                      seed=8)
    seen = []

    def stop(outcome):
        seen.append(outcome.index)
        if len(seen) == stop_after:  # 4: right after round 1; 6: in the middle of round 2
            raise KeyboardInterrupt

    with Store("arena.db") as store:
        tournament = plan_tournament(definition, shipped_registry)
        run_id = store.create_run("swiss", "tron", "swiss", definition.as_json(), tournament.fingerprint,
                                  tournament.total_games())
        first = TournamentRun(tournament, run_id=run_id)
        play_tournament(first, shipped_registry, shipped_config, store=store, on_outcome=stop, in_process=True)
        assert first.interrupted
        assert store.played_indices(run_id) == set(range(stop_after))

        resumed = TournamentRun(plan_tournament(definition, shipped_registry), run_id=run_id)
        rows = list(store.games(run_id=run_id))
        resumed.played.update({row.idx: game for row, game in zip(rows, played_from_rows(rows), strict=True)})
        play_tournament(resumed, shipped_registry, shipped_config, store=store, in_process=True)
        assert not resumed.interrupted
        assert store.played_indices(run_id) == set(range(12))
        assert sorted(resumed.played) == list(range(12))

    whole, _ = round_robin_run(["empty_room"], SHIPPED, shipped_registry, shipped_config, games=2, seed=8,
                               format="swiss", rounds=3)
    assert comparable(resumed.standings()) == comparable(whole.standings())
    assert {i: (s.bots, s.seed) for i, s in resumed.setups.items()} == {i: (s.bots, s.seed)
                                                                         for i, s in whole.setups.items()}
    assert {i: g.ranks for i, g in resumed.played.items()} == {i: g.ranks for i, g in whole.played.items()}


# --- ladder -------------------------------------------------------------------------------------------

ENV = match_environment(0, 0)
"""Where a ladder with no games rated yet measures match quality: the smoothed draw rate (0 + 1) / (0 + 2)."""


def entry(bot_id, label, mu, pass_, scheduled=20, sigma=2.0, games=20, last_round=5):
    return LadderEntry(bot_id, label, mu, sigma, games, last_round, pass_, scheduled)


def labels_of(pairs):
    return [(a.label, b.label) for a, b in pairs]


def test_ladder_pairs_by_the_league_rule_lowest_pass_first_with_its_best_match():
    waiter, x = entry(1, "waiter", 20, 1.0), entry(2, "x", 24, 5.0)
    y, z = entry(3, "y", 24.2, 5.0), entry(4, "z", 35, 5.0)
    # by match quality alone x and y would meet (0.90); the lowest pass starts each match, with its best opponent
    assert trueskill.quality_1vs1(ENV.create_rating(24, 2), ENV.create_rating(24.2, 2), env=ENV) > 0.9
    pairs, after = pair_round([z, y, x, waiter], ENV, 2)
    # two matches for four bots; after its first match the waiter's pass is 1 + 2 / 1.24 = 2.61, still the
    # lowest: it plays the second match too, and y and z sit out
    assert labels_of(pairs) == [("waiter", "x"), ("waiter", "x")]
    assert [(e.label, round(e.pass_, 3), e.scheduled) for e in after] == [
        ("z", 5.0, 20), ("y", 5.0, 20), ("x", 8.226, 24), ("waiter", 4.226, 24)]
    assert after[3].pass_ == 1.0 + 2 * 2 / weight(2.0)
    # with less to catch up it plays once, and the next lowest pass meets its best opponent
    assert labels_of(pair_round([z, y, x, replace(waiter, pass_=4.0)], ENV, 2)[0]) == [("waiter", "x"), ("y", "x")]
    # a new version (the lowest pass, no games scheduled, the prior's sigma) plays first
    new = entry(5, "new", 25, 1.0, scheduled=0, sigma=25 / 3, games=0, last_round=NEVER)
    assert labels_of(pair_round([x, y, new, z, waiter], ENV, 2)[0]) == [("new", "y"), ("waiter", "x")]
    # equal passes: the one scheduled fewer games first
    a, b = entry(6, "a", 25, 3.0, scheduled=30), entry(7, "b", 25.1, 3.0, scheduled=10)
    assert labels_of(pair_round([a, b, z, y], ENV, 2)[0]) == [("b", "a"), ("b", "a")]
    # an opponent more than SLACK (4) weighted games ahead is left out, however good the match: far (pass 5.5)
    # only once the waiter's pass has moved to 2.61
    far = entry(8, "far", 20.5, 1.0 + SLACK + 0.5)
    assert labels_of(pair_round([waiter, far, z, y], ENV, 2)[0]) == [("waiter", "y"), ("waiter", "far")]


def test_ladder_with_an_odd_field_sits_out_the_bots_in_no_match_who_go_first_next_round():
    field = [entry(1, "a", 30, 4.0), entry(2, "b", 25, 4.0), entry(3, "c", 20, 4.0), entry(4, "d", 26, 3.0),
             entry(5, "e", 24, 4.0)]
    pairs, after = pair_round(field, ENV, 2)
    assert labels_of(pairs) == [("d", "b"), ("a", "d")]  # d: the lowest pass, then the lowest again with a
    playing = {e.label for pair in pairs for e in pair}
    assert {e.label for e in field} - playing == {"c", "e"}
    following, _ = pair_round(after, ENV, 2)
    assert labels_of(following) == [("c", "e"), ("a", "d")]


ALPHA = """
    from arena import bot


    @bot(name="alpha", game="tron")
    def alpha(obs, rng):
        \"\"\"Version {version}: the first safe move.\"\"\"
        moves = obs.safe_moves()
        return moves[0] if moves else "N"
    """

BETA = """
    from arena import bot


    @bot(name="beta", game="tron")
    def beta(obs, rng):
        \"\"\"The last safe move.\"\"\"
        moves = obs.safe_moves()
        return moves[-1] if moves else "S"
    """

ROUND_LINE = re.compile(r"round (\d+) \(run (\d+)\): \d+ bots in (\d+) pairings played (\d+) games"
                        r"(?:; (.*) sat out \(a round plays one match per two bots\))?$")


def ladder(bots_dir, rounds=1):
    result = invoke("ladder", "--rounds", rounds, "-n", "2", "-w", "1", "--time-limit", "0.02", "--bots-dir", bots_dir,
                    "-f", "json")
    table = ok_json(result)
    progress = [line for line in stderr_lines(result.stderr) if line.startswith("ladder round ")]
    starts = [line for line in progress if re.match(r"ladder round \d+: 0/\d+ games \(0%\)$", line)]
    assert len(starts) == int(rounds)  # each round says at once that it started, and how many games it plays
    lines = [ROUND_LINE.match(line) for line in stderr_lines(result.stderr) if line not in progress]
    assert all(lines), result.stderr
    return table, [(int(m[1]), int(m[2]), int(m[3]), int(m[4]), m[5]) for m in lines]


def labels_by_round(number, per_round):
    """The bots that played in ladder round ``number`` (0-based) of the one ladder run, whose rounds each
    played ``per_round`` games in a row."""
    games = [labels for index, (_, labels, _, _) in enumerate(stored_games(run_id=1))
             if number * per_round <= index < (number + 1) * per_round]
    return {label for labels in games for label in labels}


def tron_bots(bots_dir):
    """Every bot the ladder sees: the shipped Tron bots of the default field and those in ``bots_dir``."""
    registry = load_registry(PluginConfig(bot_dirs=(str(bots_dir),)))
    return {entry.name for entry in registry.bots_for("tron") if entry.cls.in_default_field}


@pytest.mark.slow
def test_ladder_rounds_play_the_pairs_of_the_shared_rule_and_rate_its_way(tmp_path):
    bots = tmp_path / "bots"
    write_module(bots, "alpha.py", ALPHA.format(version=1))
    if len(tron_bots(bots)) % 2 == 0:  # an odd field, so someone sits out every round
        write_module(bots, "beta.py", BETA)
    everyone = tron_bots(bots)
    pairings = len(everyone) // 2
    table, rounds = ladder(bots, rounds=4)
    assert [(number, run, pairs, games) for number, run, pairs, games, _ in rounds] == [
        (number, 1, pairings, 2 * pairings) for number in range(4)]  # one run that grows round by round
    # the rule alone (arena.stats.ladder_rule), fed the stored games, plans every round's matches and gives
    # the stored ratings: the ladder pairs and rates by it and nothing else
    with Store("arena.db") as store:
        ids = {row["label"]: row["id"] for row in store.bot_rows()}
        stored = store.ladder("tron")
    games = stored_games()
    state = RatingState()
    candidates = [Candidate(ids[label], MU, SIGMA, 0.0, 0) for label in everyone]
    label_of = {bot_id: label for label, bot_id in ids.items()}
    for number, (*_, sat_out) in enumerate(rounds):
        played = [labels for _, labels, _, _ in games[number * 2 * pairings:(number + 1) * 2 * pairings]]
        planned, candidates = plan_matches(candidates, 2, 2, pairings, state.environment())
        assert played == [(label_of[a.key], label_of[b.key])[::order] for a, b in planned for order in (1, -1)]
        in_a_match = {label for labels in played for label in labels}
        assert (sat_out.split(", ") if sat_out else []) == sorted(everyone - in_a_match)
        for _, labels, ranks, _ in games[number * 2 * pairings:(number + 1) * 2 * pairings]:
            state.add_game([(ids[label], None) for label in labels], ranks, lambda _: None)
        candidates = [replace(c, mu=state.ratings[(c.key, None)].mu, sigma=state.ratings[(c.key, None)].sigma)
                      if (c.key, None) in state.ratings else c for c in candidates]
    assert {bot: (row.mu, row.sigma, row.games) for (bot, _), row in stored.items() if row.games} == {
        bot: (rating.mu, rating.sigma, state.games[(bot, None)]) for (bot, _), rating in state.ratings.items()}
    assert {bot: (row.pass_, row.scheduled) for (bot, _), row in stored.items()} == {
        c.key: (c.pass_, c.scheduled) for c in candidates}
    with Store("arena.db") as store:
        assert store.ladder_draws("tron") == (state.ties, state.pairs) and state.pairs == 4 * 2 * pairings
    assert {row["bot"] for row in table} == everyone
    assert sum(int(row["games"]) for row in table) == 4 * 2 * pairings * 2
    assert all(row["status"] == "playing" for row in table)
    conservative = [float(row["mu-3σ"]) for row in table]
    assert conservative == sorted(conservative, reverse=True)
    runs = ok_json(invoke("runs", "-f", "json"))
    assert [(r["name"], r["format"], r["status"], r["games"]) for r in runs] == [
        ("tron ladder", "ladder", "complete", f"{8 * pairings}/{8 * pairings}")]


@pytest.mark.slow
def test_a_bot_dropped_into_the_bots_dir_joins_the_next_round(tmp_path):
    bots = tmp_path / "bots"
    write_module(bots, "alpha.py", ALPHA.format(version=1))
    before = tron_bots(bots)
    table, rounds = ladder(bots)
    assert rounds[0][:4] == (0, 1, len(before) // 2, 2 * (len(before) // 2))
    assert {row["bot"] for row in table} == before and "beta" not in before
    write_module(bots, "beta.py", BETA)
    table, rounds = ladder(bots)
    assert [r[:4] for r in rounds] == [(1, 1, (len(before) + 1) // 2, 2 * ((len(before) + 1) // 2))]
    first_round_games = 2 * (len(before) // 2)
    new_games = [labels for index, (_, labels, _, _) in enumerate(stored_games(run_id=1)) if index >= first_round_games]
    assert "beta" in new_games[0]  # a new bot joins with the lowest pass and no games: it plays at once
    beta = next(row for row in table if row["bot"] == "beta")
    assert (beta["games"], beta["last round"], beta["status"]) == (
        str(sum("beta" in labels for labels in new_games)), "1", "playing")


@pytest.mark.slow
def test_a_changed_bot_joins_as_a_new_entry_linked_to_the_old_one(tmp_path):
    bots = tmp_path / "bots"
    write_module(bots, "alpha.py", ALPHA.format(version=1))
    table, _ = ladder(bots, rounds=2)
    old = next(row for row in table if row["bot"] == "alpha")
    write_module(bots, "alpha.py", ALPHA.format(version=2))
    table, rounds = ladder(bots)
    assert [r[0] for r in rounds] == [2]
    alphas = [row for row in table if row["bot"] == "alpha"]
    assert len(alphas) == 2 and len(table) == len(tron_bots(bots)) + 1
    retired = next(row for row in alphas if row["version"] == old["version"])
    new = next(row for row in alphas if row["version"] != old["version"])
    assert retired["status"] == "retired" and retired["games"] == old["games"]
    assert retired["last round"] == old["last round"]
    third_round = [labels for index, (_, labels, _, _) in enumerate(stored_games(run_id=1))
                   if index >= 2 * 2 * (len(tron_bots(bots)) // 2)]
    assert "alpha" in third_round[0]  # new: the lowest pass and no games scheduled, it starts the round
    assert new["status"] == "playing" and new["last round"] == "2"
    assert new["games"] == str(sum("alpha" in labels for labels in third_round))
    assert {row["status"] for row in table if row["bot"] != "alpha"} == {"playing"}
    with Store("arena.db") as store:
        rows = {(row["label"], row["version"]): row for row in store.bot_rows()}
    assert rows[("alpha", new["version"])]["previous_id"] == rows[("alpha", old["version"])]["id"]
    assert rows[("alpha", old["version"])]["previous_id"] is None


def test_ladder_errors():
    assert user_error("ladder", "four_corners") == "error: the ladder pairs two bots at a time: use 2-player maps"
    assert user_error("ladder", "--rounds", "0") == "error: --rounds and --games must be at least 1"
    assert user_error("ladder", "--time-limit", "0") == "error: --time-limit must be positive"
