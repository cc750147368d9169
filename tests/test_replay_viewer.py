"""The HTML replay viewer, driven in a real headless Chromium: controls, keys, the address, the header and result,
the board as drawn (the pixel of a known head), nothing fetched, and a page for every shipped game."""

import json

import pytest

from arena.cli.main import app
from arena.core.game import Result
from arena.core.maps import parse_map
from arena.core.records import build_record
from arena.core.view import SEAT_COLOURS
from arena.play.referee import play
from arena.report.replay_page import build_replay_html, result_text
from arena.storage.replay import adjudicate, new_game
from arena.tournament.single_game import single_game
from tests.cli_runner import CliRunner

runner = CliRunner()


def play_record(registry, bots, map_spec=None, options=None, seed=3, size=None):
    """The record of one game between shipped ``bots``."""
    _, _, setup = single_game(bots, registry, map_spec=map_spec, options=options, seed=seed, size=size,
                              time_limit=5.0)
    return play(setup, registry).record(setup)


def view_after(record, registry, turns):
    """The game's own view of the position after ``turns`` turns of ``record``."""
    game = new_game(record, registry)
    for turn in record["turns"][:turns]:
        game.apply({int(seat): action for seat, action in turn.items()})
    return game.view()


class Viewer:
    """A replay page open in the browser, with everything it requested and every script error."""

    def __init__(self, page, path, address=""):
        self.page, self.requests, self.errors = page, [], []
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        page.goto(path.as_uri() + address)
        self.uri = path.as_uri()

    def turn(self):
        return self.page.locator("#turn").inner_text()

    def pixel(self, x, y, dx=0.0):
        """The canvas colour ``#rrggbb`` in board cell ``(x, y)``, ``dx`` cells right of its centre."""
        return self.page.evaluate("""([x, y, dx]) => {
            const canvas = document.getElementById("board"), size = Number(canvas.dataset.cell);
            const ratio = canvas.width / canvas.clientWidth;
            const px = Math.round((x * size + size / 2 + dx * size) * ratio);
            const py = Math.round((y * size + size / 2) * ratio);
            const [r, g, b] = canvas.getContext("2d").getImageData(px, py, 1, 1).data;
            return "#" + [r, g, b].map(v => v.toString(16).padStart(2, "0")).join("");
        }""", [x, y, dx])


def head_colour_is_drawn(viewer, view, seat):
    piece = next(p for p in view.pieces if p.seat == seat)
    return viewer.pixel(piece.x, piece.y, dx=-0.33) == SEAT_COLOURS[seat]


@pytest.mark.slow
def test_tron_page_steps_with_the_keys_opens_at_the_address_and_fetches_nothing(tmp_path, shipped_registry,
                                                                                 browser_page):
    record = play_record(shipped_registry, ["chaser", "floodfill"], "center_block", seed=5)
    turns = len(record["turns"])
    assert turns > 8
    (tmp_path / "game.json").write_text(json.dumps(record))
    written = runner.invoke(app, ["replay", str(tmp_path / "game.json"), "--html", str(tmp_path / "game.html")])
    assert written.exit_code == 0 and "replay page written to" in written.stderr

    viewer = Viewer(browser_page, tmp_path / "game.html")
    page = viewer.page
    assert page.title() == "tron on center_block: chaser vs floodfill"
    assert page.locator("h1").inner_text() == "tron on center_block"
    assert f"seed {record['seed']}" in page.locator(".meta").inner_text()
    assert "moves = simultaneous" in page.locator(".meta").inner_text()
    players = page.locator("li.player")
    assert players.count() == 2
    assert players.nth(0).inner_text().startswith("player 1: chaser v" + record["players"][0]["version"][:10])
    assert players.nth(1).inner_text().startswith("player 2: floodfill")
    assert page.locator(".result").inner_text() == "Result: " + result_text(record)
    assert viewer.turn() == f"turn 0 / {turns}"
    assert head_colour_is_drawn(viewer, view_after(record, shipped_registry, 0), 0)

    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert viewer.turn() == f"turn 3 / {turns}"
    assert page.url.endswith("#t=3")
    after_three = view_after(record, shipped_registry, 3)
    assert head_colour_is_drawn(viewer, after_three, 0) and head_colour_is_drawn(viewer, after_three, 1)
    assert not head_colour_is_drawn(viewer, view_after(record, shipped_registry, 0), 0)  # the head has moved on
    assert page.locator("li.player .move").nth(0).inner_text() == json.dumps(record["turns"][2]["0"])
    page.keyboard.press("ArrowLeft")
    assert viewer.turn() == f"turn 2 / {turns}"
    assert page.locator("#outcome").is_hidden()

    page.keyboard.press("End")
    assert viewer.turn() == f"turn {turns} / {turns}"
    assert page.locator("#outcome").is_visible()
    assert page.locator("#outcome").inner_text() == result_text(record)
    assert result_text(record).startswith(f"Turn {turns}: ")
    page.keyboard.press("Home")
    assert viewer.turn() == f"turn 0 / {turns}"

    assert page.evaluate("document.body.dataset.speed") == "1"
    page.keyboard.press("+")
    page.keyboard.press("+")
    assert page.evaluate("document.body.dataset.speed") == "4"
    page.keyboard.press("-")
    assert page.evaluate("document.body.dataset.speed") == "2"
    page.locator("button", has_text="8x").click()
    assert page.evaluate("document.body.dataset.speed") == "8"
    page.keyboard.press("Space")
    assert page.evaluate("document.body.dataset.playing") == "true"
    page.wait_for_function("document.body.dataset.playing === 'false'")  # plays to the end and stops there
    assert page.evaluate("document.body.dataset.turn") == str(turns)
    page.locator("button", has_text="1x").click()  # slower: the pause below must come before the end
    page.keyboard.press("Space")  # from the last turn, play starts again from the first
    assert page.evaluate("document.body.dataset.playing") == "true"
    page.keyboard.press("Space")
    assert page.evaluate("document.body.dataset.playing") == "false"
    stopped = page.evaluate("document.body.dataset.turn")
    page.keyboard.press("ArrowRight")
    assert viewer.turn() == f"turn {int(stopped) + 1} / {turns}"

    page.locator("input[type=range]").fill("6")
    assert viewer.turn() == f"turn 6 / {turns}"

    assert set(viewer.requests) == {viewer.uri}  # self-contained: nothing else is fetched
    assert viewer.errors == []

    fresh = browser_page.context.browser.new_context(viewport={"width": 900, "height": 700})
    opened = Viewer(fresh.new_page(), tmp_path / "game.html", "#t=5")
    assert opened.turn() == f"turn 5 / {turns}"
    assert head_colour_is_drawn(opened, view_after(record, shipped_registry, 5), 1)
    assert opened.errors == [] and set(opened.requests) == {opened.uri}
    fresh.close()


GAMES = {
    "tron alternating": dict(bots=["chaser", "random"], map_spec="center_block", options={"moves": "alternating"}),
    "tron 4 players": dict(bots=["chaser", "random", "floodfill", "wallhugger"], map_spec="four_corners"),
    "tron powerups": dict(bots=["floodfill", "chaser"], map_spec="powerup_room"),
    "snafu": dict(bots=["random", "chaser"], map_spec="snafu_15x15"),
    "catmouse": dict(bots=["greedy", "wary"], map_spec="catmouse_8x7"),
    "pawnrace": dict(bots=["pr_greedy", "pr_random"], map_spec="pawnrace_5x5"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_shipped_game_draws_its_board_pieces_and_result(name, tmp_path, shipped_registry,
                                                              browser_page):
    record = play_record(shipped_registry, **GAMES[name])
    turns = len(record["turns"])
    assert adjudicate(record, shipped_registry).agrees
    path = tmp_path / "game.html"
    path.write_text(build_replay_html(record, shipped_registry))
    viewer = Viewer(browser_page, path)
    page = viewer.page
    roles = tuple(type(new_game(record, shipped_registry)).roles)
    assert page.locator("li.player").count() == len(record["players"])
    if roles:
        assert page.locator("li.player").nth(0).inner_text().startswith(f"player 1 ({roles[0]}): ")
    page.keyboard.press("ArrowRight")
    assert viewer.turn() == f"turn 1 / {turns}"
    view = view_after(record, shipped_registry, 1)
    for piece in view.pieces[-1:]:  # the last piece drawn is on top
        assert viewer.pixel(piece.x, piece.y, dx=-0.33) == SEAT_COLOURS[piece.seat]
    page.keyboard.press("End")
    assert page.locator("#outcome").inner_text().startswith(result_text(record, roles))
    assert viewer.errors == [] and set(viewer.requests) == {viewer.uri}


def test_the_cat_and_mouse_page_names_roles_and_the_catch(shipped_registry):
    record = play_record(shipped_registry, ["greedy", "cm_random"], "catmouse_8x7", seed=1)
    assert record["result"]["ranks"] == [1, 2]
    assert result_text(record, ("cat", "mouse")).startswith(f"Turn {len(record['turns'])}: the cat (greedy) caught the "
                                                            "mouse (cm_random) at (")
    last = view_after(record, shipped_registry, len(record["turns"]))
    assert [(m.x, m.y, m.seat) for m in last.marks] == [(last.pieces[1].x, last.pieces[1].y, 1)]  # crossed: caught


def test_a_crash_is_marked_where_it_happened_and_named_in_words(shipped_registry):
    record = play_record(shipped_registry, ["chaser", "random"], "center_block", seed=2)
    loser = record["result"]["ranks"].index(max(record["result"]["ranks"]))
    game = new_game(record, shipped_registry)
    for turn in record["turns"][:-1]:
        game.apply({int(seat): action for seat, action in turn.items()})
    head = game.board.xy(game.board.heads[loser])
    move = record["turns"][-1][str(loser)]
    dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[move]
    last = view_after(record, shipped_registry, len(record["turns"]))
    assert (head[0] + dx, head[1] + dy, loser) in [(m.x, m.y, m.seat) for m in last.marks]
    bot = record["players"][loser]["bot"]
    assert f"player {loser + 1} ({bot})" in result_text(record)


def snake(x0, y0, width, rows):
    """Moves that walk a boustrophedon through ``rows`` rows of ``width`` cells from ``(x0, y0)`` going east."""
    moves = []
    for row in range(rows):
        moves += ["E" if row % 2 == 0 else "W"] * (width - 1)
        if row < rows - 1:
            moves.append("S")
    return moves


def test_a_400_turn_game_on_a_30x30_board_makes_a_page_well_under_200_kb(shipped_registry):
    rows = ["#" * 30] + ["#" + "." * 28 + "#"] * 28 + ["#" * 30]
    rows[1] = "#1" + "." * 27 + "#"
    rows[15] = "#2" + "." * 27 + "#"
    game_map = parse_map("\n".join(rows) + "\n", name="snake_30")
    first, second = snake(1, 1, 28, 14), snake(1, 15, 28, 14)
    turns = [{0: a, 1: b} for a, b in zip(first, second, strict=True)] + [{0: "S", 1: "S"}]
    record = build_record(game="tron", options={"moves": "simultaneous"}, game_map=game_map, seed=0,
                          players=[{"seat": 0, "bot": "a", "version": "1"}, {"seat": 1, "bot": "b", "version": "1"}],
                          turns=turns, result=Result((1, 1), "both moved into a trail; draw"))
    assert len(record["turns"]) >= 392 and adjudicate(record, shipped_registry).agrees
    page = build_replay_html(record, shipped_registry)
    assert len(page.encode()) < 100_000


@pytest.mark.slow
def test_show_and_export_write_pages_and_the_report_links_every_game(tmp_path, browser_page):
    played = runner.invoke(app, ["tournament", "empty_room", "-b", "chaser,random", "-n", "2", "-w", "1"])
    assert played.exit_code == 0, played.output
    shown = runner.invoke(app, ["show", "1", "1", "--html", str(tmp_path / "one.html")])
    assert shown.exit_code == 0 and "replay page of run 1, game 1 written to" in shown.stderr
    assert "tron on empty_room" in (tmp_path / "one.html").read_text()
    alone = runner.invoke(app, ["show", "1", "--html", str(tmp_path / "x.html")])
    assert alone.exit_code != 0
    assert alone.stderr.startswith("error: --html FILE writes one game: arena show RUN GAME --html FILE")

    exported = runner.invoke(app, ["export", "1", "--html", str(tmp_path / "games")])
    assert exported.exit_code == 0 and "2 replay pages and index.html written to" in exported.stderr
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == [
        "index.html", "run1-game00000.html", "run1-game00001.html"]

    report = runner.invoke(app, ["report", "1", "--html", str(tmp_path / "report.html")])
    assert report.exit_code == 0
    page = browser_page
    page.goto((tmp_path / "report.html").as_uri())
    links = page.locator("table.games a")
    assert links.count() == 2
    links.nth(1).click()
    page.wait_for_url((tmp_path / "report-games" / "run1-game00001.html").as_uri() + "#t=0", timeout=10_000)
    assert page.locator("#turn").inner_text().startswith("turn 0 / ")
    page.locator("a.back").click()
    assert page.url == (tmp_path / "report-games" / "index.html").as_uri()
    assert page.locator("table.games tbody tr").count() == 2
