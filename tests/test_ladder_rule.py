"""One ladder: ``arena ladder`` and the league pair by the same rule and rate by the same path
(:mod:`arena.stats.ladder_rule`), so the same inputs give the same matches and the same ratings."""

from dataclasses import replace

from arena.core.bot import BotSpec
from arena.league import rating_updates, scheduling
from arena.play.referee import MatchSetup
from arena.plugins.registry import PluginConfig, load_registry
from arena.stats import ladder_rule
from arena.stats.ladder_rule import Candidate, carried, match_environment, plan_matches, rate_all
from arena.stats.ratings import MU, SIGMA, Rating
from arena.storage.rating_rows import LadderRow
from arena.storage.store import Store
from arena.tournament import persistent_ladder
from arena.tournament.persistent_ladder import NEVER, LadderEntry, current_entries, pair_round, predecessors, update
from tests.helpers import write_module


def test_the_ladder_and_the_league_call_the_one_rule():
    assert scheduling.plan_matches is persistent_ladder.plan_matches is ladder_rule.plan_matches
    assert rating_updates.RatingState is persistent_ladder.RatingState is ladder_rule.RatingState


def test_the_same_field_gives_the_ladder_the_matches_the_league_plans():
    # what the league's schedule_ranked hands the rule: its active versions as candidates, 2 games a match
    candidates = [Candidate(1, 31.0, 2.0, 6.0, 40), Candidate(2, 25.0, 3.5, 5.5, 30), Candidate(3, 24.5, 1.5, 7.0, 50),
                  Candidate(4, 18.0, 4.0, 5.5, 20), Candidate(5, 25.0, SIGMA, 5.5, 0), Candidate(6, 29.0, 2.5, 6.5, 36)]
    env = match_environment(7, 40)
    league, league_after = plan_matches(candidates, 2, 2, 3, env)
    entries = [LadderEntry(c.key, f"bot{c.key}", c.mu, c.sigma, c.scheduled, 3, c.pass_, c.scheduled)
               for c in candidates]
    pairs, after = pair_round(entries, env, 2)
    # the new version (5) first, with its best match; then the lowest pass (4 by fewer games), with its best
    assert [(a.bot_id, b.bot_id) for a, b in pairs] == [(m[0].key, m[1].key) for m in league] == [
        (5, 3), (4, 3), (2, 6)]
    assert [(e.bot_id, e.pass_, e.scheduled) for e in after] == [(c.key, c.pass_, c.scheduled) for c in league_after]


def setup(first, second, index):
    return MatchSetup("tron", (BotSpec(first), BotSpec(second)), index=index)


def test_the_ladder_rates_a_round_as_the_league_rates_the_same_games(tmp_path):
    with Store(tmp_path / "arena.db") as store:
        a1, b, c = (store.bot_id(label, label, "v1", f"bots/{label}.py") for label in "abc")
        entries = [LadderEntry(bot_id, label, MU, SIGMA, 0, NEVER) for bot_id, label in ((a1, "a"), (b, "b"), (c, "c"))]
        first = [(setup("a", "b", 0), (1, 2)), (setup("b", "a", 1), (1, 1)), (setup("c", "a", 2), (2, 1)),
                 (setup("b", "c", 3), (1, 2))]
        update(store, "tron", entries, first, 0)
        a2 = store.bot_id("a", "a", "v2", "bots/a.py")  # a changed: a new version, linked to the old one
        entries = [LadderEntry(a2, "a", MU, SIGMA, 0, NEVER), *entries[1:]]
        second = [(setup("a", "c", 4), (1, 2)), (setup("c", "a", 5), (1, 1)), (setup("b", "a", 6), (2, 1))]
        update(store, "tron", entries, second, 1)
        ladder = store.ladder("tron")
        draws = store.ladder_draws("tron")
        linked = predecessors(store)
    assert linked[a2] == a1
    # the league's path: the same games, in the same order, through RatingState with the version links
    ids = {"a": a1, "b": b, "c": c}
    games = [([(ids[s.bots[0].label], None), (ids[s.bots[1].label], None)], ranks) for s, ranks in first]
    ids["a"] = a2
    games += [([(ids[s.bots[0].label], None), (ids[s.bots[1].label], None)], ranks) for s, ranks in second]
    league = rate_all(games, linked.get)
    assert {bot: (row.mu, row.sigma, row.games) for (bot, _), row in ladder.items()} == {
        bot: (rating.mu, rating.sigma, league.games[(bot, None)]) for (bot, _), rating in league.ratings.items()}
    assert draws == (league.ties, league.pairs) == (2, 7)
    # a2 started from a1's rating carried over, not from the prior
    before = rate_all(games[:4], linked.get)
    assert before.start_of((a2, None), linked.get) == carried(before.ratings[(a1, None)]) != Rating(MU, SIGMA)
    # a1 left the ladder (no pass); the others keep the pass and games scheduled they were saved with
    assert ladder[(a1, None)].pass_ is None and ladder[(a1, None)].last_round == 0
    rating = league.ratings[(a2, None)]
    assert ladder[(a2, None)] == LadderRow(rating.mu, rating.sigma, 3, 1, 0.0, 0)


ALPHA = """
    from arena import bot


    @bot(name="alpha", game="tron")
    def alpha(obs, rng):
        \"\"\"Version {version}.\"\"\"
        moves = obs.safe_moves()
        return moves[0] if moves else "N"
    """


def entries_with(store, bots, version):
    write_module(bots, "alpha.py", ALPHA.format(version=version))
    registry = load_registry(PluginConfig(bot_dirs=(str(bots),)))
    return {e.label: e for e in current_entries(store, registry, registry.game("tron"))}


def test_a_new_version_joins_with_the_lowest_pass_from_its_predecessors_rating_and_so_does_one_back(tmp_path):
    bots = tmp_path / "bots"
    with Store(tmp_path / "arena.db") as store:
        first = entries_with(store, bots, 1)
        assert {(e.pass_, e.scheduled, e.mu, e.sigma) for e in first.values()} == {(0.0, 0, MU, SIGMA)}
        # a round the rule scheduled (the passes it left) in which alpha beat chaser twice
        passes = {label: 3.0 + index for index, label in enumerate(sorted(first))}
        played = [replace(e, pass_=passes[e.label], scheduled=4) for e in first.values()]
        update(store, "tron", played, [(setup("alpha", "chaser", 0), (1, 2)), (setup("chaser", "alpha", 1), (2, 1))], 0)
        old = store.ladder("tron")[(first["alpha"].bot_id, None)]
        second = entries_with(store, bots, 2)
        new = second["alpha"]
        assert new.bot_id != first["alpha"].bot_id
        lowest = min(passes[label] for label in first if label != "alpha")
        assert (new.pass_, new.scheduled, new.games, new.last_round) == (lowest, 0, 0, NEVER)
        assert Rating(new.mu, new.sigma) == carried(Rating(old.mu, old.sigma)) and new.mu > MU
        update(store, "tron", list(second.values()), [], 1)
        assert store.ladder("tron")[(first["alpha"].bot_id, None)].pass_ is None  # the old version left
        back = entries_with(store, bots, 1)["alpha"]  # the old version again: its own rating, the lowest pass
        assert back.bot_id == first["alpha"].bot_id
        assert (back.mu, back.sigma, back.games, back.pass_, back.scheduled) == (old.mu, old.sigma, 2, lowest, 0)
