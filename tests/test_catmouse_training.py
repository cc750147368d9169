import json

import numpy as np
import pytest

from arena.core.errors import ArenaError
from arena.engines.catmouse.policies import (
    Policy,
    PolicyError,
    choose_window_move,
    load_policy,
    save_policy,
    window_entry,
    window_fields,
)
from arena.games.catmouse.game import CatMouseGame
from arena.games.catmouse.layouts import layout_rows, open_map
from arena.games.catmouse.rules import CAT, MOUSE, open_layout
from arena.learning.catmouse.batch import play_full_batch, play_window_batch
from arena.learning.catmouse.full_policy_trainer import FullSettings, FullTrainer, initial_policy
from arena.learning.catmouse.plain import play_full, play_window
from arena.learning.catmouse.training_rules import Rules
from arena.learning.catmouse.window_policy_trainer import WindowSettings, WindowTrainer
from arena.play.referee import run_match

BOARD_8X7 = tuple(layout_rows(open_layout(8, 7)))
BOARD_5X5 = tuple(layout_rows(open_layout(5, 5)))


def random_full_tables(rules, count, rng):
    layout = rules.layout
    tables = []
    for role in (CAT, MOUSE):
        table = np.zeros((count, layout.cells ** 2), dtype=np.int64)
        for entry in range(layout.cells ** 2):
            here = divmod(entry, layout.cells)[role]
            options = [target for _, target in layout.moves_from[here]]
            table[:, entry] = np.array(options)[rng.integers(len(options), size=count)]
        tables.append(table)
    return tables


@pytest.mark.parametrize(("rows", "cols", "first", "limit", "repeat"), [
    (5, 5, MOUSE, 20, False), (4, 6, CAT, None, True), (3, 7, MOUSE, 5, True)])
def test_numpy_engines_play_exactly_the_plain_games(rows, cols, first, limit, repeat):
    rng = np.random.default_rng(7)
    rules = Rules(open_layout(rows, cols), first, limit, repeat)
    cat, mouse = random_full_tables(rules, 12, rng)
    winner, moves, distance = play_full_batch(rules, cat, mouse)
    for game in range(12):
        assert play_full(rules, cat[game].tolist(), mouse[game].tolist()) == \
            (winner[game], moves[game], distance[game])
    u = rng.random((40, rules.max_plies))
    policies = rng.integers(0, 4, (2, 729))
    for cat_side, mouse_side in ((("window", policies), "random"), (("window", policies), "wary"),
                                 ("greedy", ("window", policies)), ("random", "random")):
        caught, plies, total = play_window_batch(rules, cat_side, mouse_side, u, groups=2)
        for game in range(80):
            def one(side, group=game // 40):
                return ("window", policies[group].tolist()) if isinstance(side, tuple) else side
            result = play_window(rules, one(cat_side), one(mouse_side), u[game % 40])
            assert result[:2] == (caught[game], plies[game]) and result[2] == pytest.approx(total[game], abs=1e-9)


def test_window_entries_follow_the_documented_layout():
    # 5x5, cat bottom-left (0, 4), mouse (1, 3): the window is clamped to start at x 0 (left edge) and
    # y 2 (bottom edge); the cat sits at (0, 2) in it, the mouse at (1, 1).
    assert window_entry(5, 5, (0, 4), (1, 3)) == ((((0 * 3 + 2) * 3 + 1) * 3 + 1) * 3 + 1) * 3 + 2
    assert window_fields(window_entry(5, 5, (0, 4), (1, 3))) == (0, 2, 1, 1, 1, 2)
    assert window_fields(window_entry(15, 15, (7, 7), (8, 6))) == (0, 1, 1, 0, 0, 0)
    assert window_fields(window_entry(15, 15, (13, 1), (14, 0))) == (1, 1, 2, 0, 2, 1)
    assert window_entry(15, 15, (0, 0), (3, 0)) is None


def test_the_bot_and_the_engines_choose_the_same_window_moves():
    from arena.learning.catmouse import batch, plain

    rng = np.random.default_rng(3)
    policy = rng.integers(0, 4, 729)
    moves = "".join("UDLR"[k] for k in policy)
    for rows, cols in ((5, 5), (4, 7), (3, 3), (6, 2)):
        game = CatMouseGame(open_map(rows, cols), {}, rng)
        layout = game.layout
        rules = Rules(layout, CAT, 10, False)
        pairs = [(cat, mouse) for cat in range(layout.cells) for mouse in range(layout.cells) if cat != mouse]
        for side in (CAT, MOUSE):
            here = np.array([pair[side] for pair in pairs])
            other = np.array([pair[1 - side] for pair in pairs])
            chosen = batch._choose(rules, ("window", policy[None, :]), side, here, other, np.zeros(len(pairs)),
                                   np.zeros(len(pairs), dtype=np.int64))
            for (cat, mouse), vectorised in zip(pairs, chosen, strict=True):
                game.state.cat, game.state.mouse, game.state.to_move = cat, mouse, side
                expected = choose_window_move(moves, game.observe(side))
                single = plain._choose(("window", policy.tolist()), side, (cat, mouse)[side], (cat, mouse)[1 - side],
                                       cols, rows, layout.targets, 0.0)
                assert "UDLR"[single] == "UDLR"[vectorised] == expected, (rows, cols, cat, mouse, side)


@pytest.mark.slow
def test_the_notebook_variant_replays_the_article_notebook():
    # The tallies after 10,000 iterations of the article's notebook loop (numpy legacy seed 0), from an
    # independent line-by-line transcription of that loop.
    trainer = FullTrainer(FullSettings(BOARD_8X7, iterations=10_000, variant="notebook"))
    trainer.run()
    assert trainer.wins == {"cat": 1636, "mouse": 8364}


def test_skipping_unvisited_candidates_changes_nothing():
    class PlaysEveryCandidate(FullTrainer):
        def _replay_current(self):
            super()._replay_current()
            self.visited = [np.ones(self.entries, dtype=bool), np.ones(self.entries, dtype=bool)]

    settings = FullSettings(BOARD_8X7, iterations=3000, seed=5, cells=(1, 3))
    fast, slow = FullTrainer(settings), PlaysEveryCandidate(settings)
    fast.run()
    slow.run()
    assert slow.played > 10 * fast.played
    assert fast.wins == slow.wins and fast.checkpoint()["cat"] == slow.checkpoint()["cat"]
    assert fast.checkpoint()["mouse"] == slow.checkpoint()["mouse"]


def test_plain_and_batch_engines_train_the_same_policies():
    plain = FullTrainer(FullSettings(BOARD_8X7, iterations=4000, seed=2))
    batch = FullTrainer(FullSettings(BOARD_8X7, iterations=4000, seed=2, engine="batch"))
    plain.run()
    batch.run()
    assert plain.checkpoint() | {"settings": None} == batch.checkpoint() | {"settings": None}


@pytest.mark.parametrize("variant", ["arena", "notebook"])
def test_a_stopped_full_run_resumes_exactly(variant):
    settings = FullSettings(BOARD_8X7, iterations=3000, seed=4, variant=variant)
    straight = FullTrainer(settings)
    straight.run()
    first = FullTrainer(settings)
    calls = iter(range(10**6))
    assert first.run(should_stop=lambda: next(calls) >= 1234) is False
    assert first.iteration == 1234
    data = json.loads(json.dumps(first.checkpoint()))
    resumed = FullTrainer(FullSettings.from_json(data["settings"]), data)
    assert resumed.run() is True
    assert resumed.checkpoint() == straight.checkpoint()


def test_acceptance_follows_the_article_rules():
    from arena.learning.catmouse.full_policy_trainer import acceptance_key

    def better(learner, new, old, variant="arena"):
        return acceptance_key(learner, *new, variant) > acceptance_key(learner, *old, variant)

    assert better(CAT, (CAT, 30, 0), (MOUSE, 5, 1))          # a win beats a loss
    assert better(CAT, (CAT, 9, 0), (CAT, 11, 0))            # a quicker win
    assert better(CAT, (MOUSE, 5, 1), (MOUSE, 9, 2))         # a loss nearer the mouse
    assert better(CAT, (MOUSE, 9, 2), (MOUSE, 5, 2))         # then a longer loss
    assert better(MOUSE, (MOUSE, 3, 1), (CAT, 40, 0))
    assert better(MOUSE, (CAT, 12, 0), (CAT, 10, 0))         # a longer loss
    assert better(MOUSE, (MOUSE, 5, 4), (MOUSE, 9, 3))       # a win farther from the cat
    assert not better(MOUSE, (MOUSE, 5, 4), (MOUSE, 9, 3), "notebook")  # the notebook's code: a longer win
    assert not better(CAT, (CAT, 11, 0), (CAT, 11, 0))


def test_initial_policies_are_up_then_down_on_the_top_row():
    layout = open_layout(3, 2)
    cat, mouse = initial_policy(layout, CAT), initial_policy(layout, MOUSE)
    cells = layout.cells
    assert [int(cat[c * cells]) for c in range(cells)] == [1, 1, 0, 0, 0, 0]
    assert [int(mouse[m]) for m in range(cells)] == [1, 1, 0, 0, 0, 0]


def small_window(**changes):
    return WindowSettings(BOARD_5X5, **{"iterations": 8, "candidates": 3, "games": 40, "seed": 1, **changes})


def test_window_training_keeps_the_best_of_the_current_policy_and_its_candidates():
    trainer = WindowTrainer(small_window())
    reports = [trainer.step() for _ in range(8)]
    assert [report.iteration for report in reports] == list(range(1, 9))
    assert trainer.milestones[0] == {"event": "start", "iteration": 0, "opponent": "random",
                                     "wins": trainer.milestones[0]["wins"]}
    assert all(0 <= report.score.wins <= 40 for report in reports)
    assert trainer.played == 40 + 8 * 4 * 40 + 40 * sum(m["event"] == "start" for m in trainer.milestones[1:])


def test_window_training_moves_to_the_next_opponent_once_every_game_is_won():
    trainer = WindowTrainer(small_window(start="closer", iterations=3))
    trainer.run()
    events = [(m["event"], m["opponent"], m["iteration"]) for m in trainer.milestones]
    assert events[:3] == [("start", "random", 0), ("all won", "random", 1), ("start", "wary", 1)]
    assert trainer.opponent == "wary"


def test_a_stopped_window_run_resumes_exactly():
    straight = WindowTrainer(small_window())
    straight.run()
    first = WindowTrainer(small_window())
    calls = iter(range(100))
    assert first.run(should_stop=lambda: next(calls) >= 3) is False
    data = json.loads(json.dumps(first.checkpoint()))
    resumed = WindowTrainer(WindowSettings.from_json(data["settings"]), data)
    resumed.run()
    ignore = {"seconds_playing": None}
    assert resumed.checkpoint() | ignore == straight.checkpoint() | ignore


def test_window_settings_are_checked():
    with pytest.raises(ArenaError, match="opponent 'greedy' cannot play the mouse; choose from: random, wary"):
        small_window(opponents=("greedy",))
    with pytest.raises(ArenaError, match="--cells 0-3: give a range like 1-10, from at least 1"):
        small_window(cells=(0, 3))
    with pytest.raises(ArenaError, match="a window policy trains on a board at least 3x3"):
        WindowSettings(("CM",))


def test_policy_files_round_trip_and_bad_files_are_one_line_errors(tmp_path):
    trainer = FullTrainer(FullSettings(tuple(layout_rows(open_layout(3, 3))), iterations=50))
    trainer.run()
    path = tmp_path / "full.json"
    save_policy(trainer.policy(), path)
    loaded = load_policy(path)
    assert loaded.kind == "full" and loaded.moves == trainer.policy().moves
    assert loaded.layout_key() == "3x3:.../.../..."
    cases = {
        "missing.json": None,
        "text.json": "hello",
        "other.json": json.dumps({"format": "something else"}),
        "kind.json": json.dumps({"format": "arena-catmouse-policy/1", "kind": "half"}),
        "short.json": json.dumps({"format": "arena-catmouse-policy/1", "kind": "window", "cat": "UD"}),
        "empty.json": json.dumps({"format": "arena-catmouse-policy/1", "kind": "window"}),
        "off.json": json.dumps({"format": "arena-catmouse-policy/1", "kind": "full", "board": {"rows": [".."]},
                                "cat": "-LL-"}),
    }
    messages = {}
    for name, text in cases.items():
        if text is not None:
            (tmp_path / name).write_text(text)
        with pytest.raises(PolicyError) as error:
            load_policy(tmp_path / name)
        messages[name] = str(error.value).replace(str(tmp_path) + "/", "")
    assert messages == {
        "missing.json": "missing.json: no such policy file",
        "text.json": "text.json: not a JSON policy file (Expecting value: line 1 column 1 (char 0))",
        "other.json": 'other.json: not a catmouse policy file (expected "format": "arena-catmouse-policy/1")',
        "kind.json": "kind.json: kind 'half' is not one of: full, window",
        "short.json": "short.json: the cat policy must be a string of 729 moves (U, D, L, R or -)",
        "empty.json": "empty.json: holds neither a cat nor a mouse policy",
        "off.json": "off.json: the cat policy's entry 1 moves the cat from (0, 0) L, off the board or into an "
                    "obstacle",
    }


def test_a_trained_full_policy_plays_the_same_game_in_the_arena(tmp_path):
    trainer = FullTrainer(FullSettings(BOARD_8X7, iterations=5000, seed=1))
    trainer.run()
    path = tmp_path / "full.json"
    save_policy(trainer.policy(), path)
    spec = f"hillclimb:policy={path}"
    outcome = run_match("catmouse", [spec, spec], game_map="catmouse_8x7", options={"repeat": "on"})
    assert outcome.failure_kinds == {}
    assert outcome.ranks == ((1, 2) if trainer.winner == CAT else (2, 1))
    assert outcome.turns == trainer.moves
    window = Policy("window", {"cat": "U" * 729})
    save_policy(window, tmp_path / "window.json")
    assert load_policy(tmp_path / "window.json").moves == {"cat": "U" * 729}
