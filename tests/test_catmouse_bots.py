import json
import random
from collections import Counter

import numpy as np
import pytest

from arena.core.maps import parse_map
from arena.engines.catmouse.policies import Policy, save_policy
from arena.games.catmouse import solver
from arena.games.catmouse.game import CatMouseGame
from arena.play.referee import run_match
from arena.report.tables import export
from tests.helpers import REPO, line_of, round_robin_run


@pytest.fixture(autouse=True)
def _cache(monkeypatch, tmp_path):
    monkeypatch.setenv("ARENA_CACHE", str(tmp_path / "cache"))
    solver.clear_memory()


def observe(rows, seat, **options):
    game = CatMouseGame(parse_map("; game = catmouse\n" + "\n".join(rows) + "\n"), options, np.random.default_rng(0))
    if game.state.to_move != seat:
        raise AssertionError("set first so the seat observed is to move")
    return game.observe(seat)


def moves_chosen(registry, name, obs, tries=60):
    cls = registry.bot(name).cls
    chosen = Counter()
    for seed in range(tries):
        player = cls()
        player.rng = random.Random(seed)
        chosen[player.act(obs)] += 1
    return set(chosen)


def test_greedy_closes_in_and_wary_keeps_away(shipped_registry):
    obs = observe(["....", "..M.", "....", "C..."], 0)
    assert moves_chosen(shipped_registry, "greedy", obs) == {"U", "R"}
    obs = observe(["....", ".C..", "..M.", "...."], 0)
    assert moves_chosen(shipped_registry, "greedy", obs) == {"D", "R"}
    obs = observe(["....", ".CM.", "....", "...."], 1, first="mouse")
    assert moves_chosen(shipped_registry, "wary", obs) == {"U", "D", "R"}  # not onto the cat
    obs = observe(["....", "..M.", ".C..", "...."], 1, first="mouse")
    assert moves_chosen(shipped_registry, "wary", obs) == {"U", "R"}  # L and D lead next to the cat
    obs = observe(["M.", ".C"], 1, first="mouse")
    assert moves_chosen(shipped_registry, "wary", obs) == {"D", "R"}  # cornered: next to the cat it must go
    obs = observe([".C.", "#M#"], 1, first="mouse")
    assert moves_chosen(shipped_registry, "wary", obs) == {"U"}  # no other move: onto the cat
    obs = observe(["C..", "...", "..M"], 1, first="mouse")
    assert moves_chosen(shipped_registry, "cm_random", obs) == {"U", "L"}


def test_the_role_bots_declare_their_roles(shipped_registry):
    roles = {name: shipped_registry.bot(name).cls.roles for name in ("cm_random", "greedy", "wary", "perfect",
                                                                     "hillclimb")}
    assert roles == {"cm_random": ("cat", "mouse"), "greedy": ("cat",), "wary": ("mouse",),
                     "perfect": ("cat", "mouse"), "hillclimb": ("cat", "mouse")}
    assert [entry.name for entry in shipped_registry.bots_for("catmouse", "mouse")] == \
        ["cm_random", "hillclimb", "npz", "perfect", "wary"]  # npz plays whichever role its network learnt


def test_a_tournament_plays_every_role_assignment_and_reports_per_role(shipped_registry, shipped_config):
    run, _ = round_robin_run(["catmouse_5x5"], ["greedy", "wary", "cm_random", "perfect"], shipped_registry,
                             shipped_config, games=2, seed=3)
    seatings = Counter(tuple(spec.name for spec in setup.bots) for setup in run.setups.values())
    # greedy only catches and wary only flees, so their pairing has one assignment; the others two.
    assert seatings == {("greedy", "wary"): 2, ("greedy", "cm_random"): 2, ("greedy", "perfect"): 2,
                        ("cm_random", "wary"): 2, ("perfect", "wary"): 2,
                        ("cm_random", "perfect"): 2, ("perfect", "cm_random"): 2}
    standings = run.standings()
    assert standings.roles == ("cat", "mouse")
    cat_ratings = [row.rating.conservative for row in standings.rows if row.role == "cat"]
    assert cat_ratings == sorted(cat_ratings, reverse=True)
    assert {(row.label, row.role) for row in standings.rows} == {
        ("greedy", "cat"), ("cm_random", "cat"), ("perfect", "cat"),
        ("wary", "mouse"), ("cm_random", "mouse"), ("perfect", "mouse")}
    assert standings.head_to_head[("perfect", "wary")] == (2.0, 2)  # the cat's points against the mouse
    assert ("wary", "perfect") not in standings.head_to_head
    assert sum(games for _, games in standings.head_to_head.values()) == len(run.setups)
    data = json.loads(export(standings, "json"))
    assert [(row["rank"], row["role"]) for row in data["standings"]] == \
        [(1, "cat"), (2, "cat"), (3, "cat"), (1, "mouse"), (2, "mouse"), (3, "mouse")]
    assert {pair["role"] for pair in data["head_to_head"]} == {"cat"}
    md = export(standings, "md")
    assert md.startswith("## Standings, cat (catmouse: 14 games)")
    assert "## Standings, mouse (catmouse: 14 games)" in md and "## Head to head (cat rows, mouse columns)" in md
    cats = [row.label for row in standings.rows if row.role == "cat"]
    mice = [row.label for row in standings.rows if row.role == "mouse"]
    matrix = [[cell.strip() for cell in line.split("|")[1:-1]] for line in md.split("## Head to head")[1].splitlines()
              if line.startswith("|")]
    assert matrix[0] == ["vs", *mice]
    assert [line[0] for line in matrix[2:]] == cats
    assert matrix[2 + cats.index("perfect")][1 + mice.index("wary")] == "100% (2)"
    # With the mouse first on 5x5 the cat can force a catch, and greedy does, even against the perfect mouse.
    assert matrix[2 + cats.index("greedy")][1 + mice.index("perfect")] == "100% (2)"


def test_hillclimb_plays_a_window_policy_on_any_board(tmp_path):
    path = tmp_path / "window.json"
    save_policy(Policy("window", {"cat": "R" * 729}), path)
    outcome = run_match("catmouse", [f"hillclimb:policy={path}", "wary"], game_map="catmouse_15x15", seed=1)
    assert outcome.failure_kinds == {}
    outcome = run_match("catmouse", ["greedy", f"hillclimb:policy={path}"], game_map="catmouse_5x5", seed=1)
    assert outcome.failure_kinds == {1: "crash"}
    hillclimb = REPO / "bots" / "hillclimb.py"
    line = line_of(hillclimb, "self.policy.for_role(")
    assert outcome.reason == (f"player 2 (hillclimb:policy={path}) raised PolicyError in start(): {path} has no "
                              f"mouse policy (it holds cat) ({hillclimb}:{line}, in start)")


def test_hillclimb_without_a_policy_plays_the_shipped_window_policies():
    for bots in (["hillclimb", "cm_random"], ["cm_random", "hillclimb"]):
        outcome = run_match("catmouse", bots, game_map="catmouse_15x15", seed=2)
        assert outcome.failure_kinds == {}


def test_hillclimb_full_policy_checks_its_board(tmp_path):
    path = tmp_path / "full.json"
    board = {"rows": [".."]}
    save_policy(Policy("full", {"cat": "-RL-", "mouse": "-LR-"}, board), path)
    outcome = run_match("catmouse", [f"hillclimb:policy={path}", "wary"], game_map="catmouse_5x5", seed=1)
    assert outcome.failure_kinds == {0: "crash"}
    assert "this full policy is for the board 2x1:.., not 5x5:...../...../...../...../..... (" in outcome.reason
    outcome = run_match("catmouse", [f"hillclimb:policy={tmp_path / 'missing.json'}", "wary"],
                        game_map="catmouse_5x5", seed=1)
    assert "missing.json: no such policy file (" in outcome.reason
