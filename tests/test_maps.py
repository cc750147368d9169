"""Map parsing (arena.core.maps), Tron map validation, and the shipped maps."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from arena.core.errors import MapError
from arena.core.maps import GameMap, load_map, parse_map, resolve_map
from arena.games.tron.game import TronGame
from arena.games.tron.rules import EMPTY, TRAIL, WALL

SHIPPED_MAPS = sorted((Path(__file__).resolve().parent.parent / "maps").glob("*.txt"))
TRON_MAPS = [path for path in SHIPPED_MAPS if load_map(path).header.get("game", "tron") == "tron"]

GOOD = """\
; title = Tiny room
; moves = alternating
#####
#1..#
#..2#
#####
"""


def map_error(function, *args) -> str:
    """The message of the MapError that ``function(*args)`` raises."""
    with pytest.raises(MapError) as info:
        function(*args)
    return str(info.value)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def starts(game_map: GameMap) -> dict[int, tuple[int, int]]:
    return {int(char): (x, y) for x, y, char in game_map.cells() if char in "1234"}


# --- good maps -----------------------------------------------------------------------------------


def test_good_text_map_gives_rows_size_header_and_first_row_line():
    game_map = parse_map(GOOD, name="tiny")
    assert game_map.rows == ("#####", "#1..#", "#..2#", "#####")
    assert game_map.width == 5
    assert game_map.height == 4
    assert game_map.header == {"title": "Tiny room", "moves": "alternating"}
    assert game_map.header_lines == {"title": 1, "moves": 2}
    assert game_map.first_row_line == 3
    assert game_map.format == "text"
    assert game_map.name == "tiny"
    assert game_map.text == GOOD
    assert game_map.path is None
    assert game_map.label == "tiny"
    TronGame.check_map(game_map)


def test_map_without_header_starts_rows_on_line_one():
    game_map = parse_map("####\n#12#\n####\n")
    assert game_map.header == {}
    assert game_map.first_row_line == 1
    assert game_map.rows == ("####", "#12#", "####")


def test_cells_yields_every_cell_row_by_row():
    game_map = parse_map("#1\n2.")
    assert list(game_map.cells()) == [(0, 0, "#"), (1, 0, "1"), (0, 1, "2"), (1, 1, ".")]


def test_header_lines_allow_loose_spacing_lowercase_keys_and_strip_values():
    text = ";title=Packed\n;   Author   =   Ada Lovelace   \n; long-key_2 = a = b\n; empty =\n####\n#12#\n####\n"
    game_map = parse_map(text)
    assert game_map.header == {"title": "Packed", "author": "Ada Lovelace", "long-key_2": "a = b", "empty": ""}
    assert game_map.header_lines == {"title": 1, "author": 2, "long-key_2": 3, "empty": 4}
    assert game_map.first_row_line == 5


def test_load_map_reads_a_file_and_names_the_map_after_its_stem(tmp_path):
    path = write(tmp_path, "tiny_room.txt", GOOD.encode())
    game_map = load_map(path)
    assert game_map.name == "tiny_room"
    assert game_map.path == str(path)
    assert game_map.label == str(path)
    assert game_map.rows == ("#####", "#1..#", "#..2#", "#####")
    assert game_map.header == {"title": "Tiny room", "moves": "alternating"}
    assert game_map.text == GOOD


def test_crlf_line_endings_are_stripped(tmp_path):
    path = write(tmp_path, "crlf.txt", b"; title = Windows\r\n#####\r\n#1.2#\r\n#####\r\n")
    game_map = load_map(path)
    assert game_map.rows == ("#####", "#1.2#", "#####")
    assert game_map.header == {"title": "Windows"}
    assert game_map.first_row_line == 2
    TronGame.check_map(game_map)


def test_trailing_spaces_and_trailing_blank_lines_are_tolerated():
    game_map = parse_map("#####   \n#1.2#\n#####\t\n\n  \n")
    assert game_map.rows == ("#####", "#1.2#", "#####")
    assert game_map.height == 3


def test_dot_and_space_are_both_empty_cells():
    dots = parse_map("#####\n#1..#\n#..2#\n#####")
    spaces = parse_map("#####\n#1  #\n#  2#\n#####")
    TronGame.check_map(dots)
    TronGame.check_map(spaces)
    options = TronGame.resolve_options({})
    dot_game = TronGame(dots, options, np.random.default_rng(0))
    space_game = TronGame(spaces, options, np.random.default_rng(0))
    assert dot_game.board.cells == space_game.board.cells
    board = space_game.board
    assert board.cells[board.index(2, 1)] == EMPTY
    assert board.cells[board.index(1, 2)] == EMPTY
    assert board.cells[board.index(0, 0)] == WALL
    assert board.cells[board.index(1, 1)] == TRAIL + 0
    assert board.cells[board.index(3, 2)] == TRAIL + 1


def test_ai_challenge_format_with_open_edges():
    text = "5 4\n     \n 1   \n   2 \n#   #\n"
    game_map = parse_map(text, name="aic")
    assert game_map.format == "aichallenge"
    assert game_map.rows == ("     ", " 1   ", "   2 ", "#   #")
    assert game_map.width == 5
    assert game_map.height == 4
    assert game_map.first_row_line == 2
    assert game_map.header == {}
    TronGame.check_map(game_map)
    assert starts(game_map) == {1: (1, 1), 2: (3, 2)}


def test_ai_challenge_format_with_walls_crlf_and_header(tmp_path):
    path = write(tmp_path, "aic.txt", b"; title = AIC\r\n5 3\r\n#####\r\n#1 2#\r\n#####\r\n")
    game_map = load_map(path)
    assert game_map.format == "aichallenge"
    assert game_map.rows == ("#####", "#1 2#", "#####")
    assert game_map.header == {"title": "AIC"}
    assert game_map.first_row_line == 3
    TronGame.check_map(game_map)


def test_ai_challenge_rows_may_carry_trailing_spaces_beyond_the_declared_width():
    game_map = parse_map("3 2\n1 2   \n###\n")
    assert game_map.rows == ("1 2", "###")


def test_ai_challenge_format_keeps_a_last_row_of_spaces():
    game_map = parse_map("3 3\n 1 \n 2 \n   \n")
    assert game_map.rows == (" 1 ", " 2 ", "   ")


# --- errors: the one-line message starts with file:line:col --------------------------------------


def test_empty_file_is_an_error(tmp_path):
    path = write(tmp_path, "empty.txt", b"")
    assert map_error(load_map, path) == f"{path}:1:1: the map is empty"
    assert map_error(parse_map, "") == "map:1:1: the map is empty"


def test_whitespace_only_file_is_an_error(tmp_path):
    path = write(tmp_path, "blank.txt", b"  \r\n\t\n   \n\n")
    assert map_error(load_map, path) == f"{path}:1:1: the map is empty"


def test_nul_byte_is_reported_as_binary_data_at_its_position(tmp_path):
    path = write(tmp_path, "nul.txt", b"#####\n#1\x002#\n#####\n")
    assert map_error(load_map, path) == f"{path}:2:3: binary data (NUL byte), not a text map"
    assert map_error(parse_map, "\x00") == "map:1:1: binary data (NUL byte), not a text map"


def test_invalid_utf8_is_reported_as_binary_data_at_its_position(tmp_path):
    path = write(tmp_path, "latin1.txt", b"#####\n#1.2#\n##\xff##\n")
    assert map_error(load_map, path) == f"{path}:3:3: binary data (byte 0xff), not a text map"
    path = write(tmp_path, "png.txt", b"\x89PNG\r\n\x1a\n")
    assert map_error(load_map, path) == f"{path}:1:1: binary data (byte 0x89), not a text map"


def test_invalid_utf8_column_is_right_after_a_non_ascii_header(tmp_path):
    path = write(tmp_path, "cafe.txt", "; title = Café\n".encode() + b"#1\xff2#\n")
    assert map_error(load_map, path) == f"{path}:2:3: binary data (byte 0xff), not a text map"


def test_ragged_row_is_reported_where_it_falls_short(tmp_path):
    path = write(tmp_path, "ragged.txt", b"; title = r\n#####\n#1.2#\n###\n#####\n")
    assert map_error(load_map, path) == f"{path}:4:4: ragged row: 3 cells where the widest row has 5"
    assert map_error(parse_map, "###\n#12#\n####") == "map:1:4: ragged row: 3 cells where the widest row has 4"


def test_blank_line_inside_the_rows_is_a_ragged_row():
    assert map_error(parse_map, "####\n\n#12#\n") == "map:2:1: ragged row: 0 cells where the widest row has 4"


def test_unknown_character_is_rejected_by_tron_check_map():
    game_map = parse_map("; title = x\n#####\n#1x2#\n#####\n", path="bad.txt")
    expected = ("bad.txt:3:3: unknown character 'x' (tron maps use '#', ' ' or '.', starts '1'-'4', and powerups "
                "'*', '!', '@', '^', '?')")
    assert map_error(TronGame.check_map, game_map) == expected
    assert map_error(TronGame.num_players, game_map) == expected


def test_start_digit_above_four_is_an_unknown_character():
    game_map = parse_map("#####\n#152#\n#####\n")
    expected = ("map:2:3: unknown character '5' (tron maps use '#', ' ' or '.', starts '1'-'4', and powerups "
                "'*', '!', '@', '^', '?')")
    assert map_error(TronGame.check_map, game_map) == expected


def test_map_with_only_start_one_misses_start_two():
    game_map = parse_map("; title = x\n####\n#1.#\n####\n", path="one.txt")
    assert map_error(TronGame.check_map, game_map) == "one.txt:2:1: missing start for player 2"


def test_map_with_no_starts_misses_start_one():
    assert map_error(TronGame.check_map, parse_map("###\n#.#\n###")) == "map:1:1: missing start for player 1"


def test_map_with_starts_one_and_three_misses_start_two():
    game_map = parse_map("#####\n#1.3#\n#####\n")
    assert map_error(TronGame.check_map, game_map) == "map:1:1: missing start for player 2"


def test_duplicate_start_is_reported_at_the_second_one_and_names_the_first():
    game_map = parse_map("######\n#1..2#\n#..1.#\n######\n", path="dup.txt")
    expected = "dup.txt:3:4: duplicate start for player 1 (also at line 2, column 2)"
    assert map_error(TronGame.check_map, game_map) == expected


def test_header_line_that_does_not_parse(tmp_path):
    path = write(tmp_path, "header.txt", b"; title = ok\n; no equals sign\n####\n#12#\n####\n")
    assert map_error(load_map, path) == f"{path}:2:1: header line doesn't parse; expected '; key = value'"
    assert map_error(parse_map, "; = value\n##") == "map:1:1: header line doesn't parse; expected '; key = value'"


def test_duplicate_header_key_is_case_insensitive(tmp_path):
    path = write(tmp_path, "twice.txt", b"; moves = alternating\n; title = t\n; Moves = simultaneous\n#12#\n")
    assert map_error(load_map, path) == f"{path}:3:1: header key 'moves' is set twice"


def test_header_but_no_rows(tmp_path):
    path = write(tmp_path, "header_only.txt", b"; title = nothing\n; moves = alternating\n\n  \n")
    assert map_error(load_map, path) == f"{path}:3:1: the map has a header but no rows"
    assert map_error(parse_map, "; title = x") == "map:2:1: the map has a header but no rows"


def test_ai_challenge_declared_height_does_not_match_row_count(tmp_path):
    path = write(tmp_path, "short.txt", b"5 3\n#####\n#1 2#\n")
    expected = f"{path}:1:1: declared size 5 x 3 doesn't match: the map has 2 rows"
    assert map_error(load_map, path) == expected
    path = write(tmp_path, "long.txt", b"; title = t\n5 1\n#####\n#1 2#\n")
    expected = f"{path}:2:1: declared size 5 x 1 doesn't match: the map has 2 rows"
    assert map_error(load_map, path) == expected


def test_ai_challenge_row_narrower_than_declared_width():
    expected = "map:3:5: declared width 5 doesn't match: this row has 4 cells"
    assert map_error(parse_map, "5 3\n#####\n#1 2\n#####\n") == expected


def test_ai_challenge_row_wider_than_declared_width():
    expected = "map:4:6: declared width 5 doesn't match: this row has 7 cells"
    assert map_error(parse_map, "; t = x\n5 3\n#####\n#1 2###\n#####\n") == expected


def test_ai_challenge_declared_empty_size():
    assert map_error(parse_map, "0 3\n") == "map:1:1: declared size 0 x 3 is empty"


def test_directory_is_not_a_map(tmp_path):
    assert map_error(load_map, tmp_path) == f"{tmp_path}: is a directory, not a map file"


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.txt"
    assert map_error(load_map, path) == f"{path}: cannot read map (No such file or directory)"


def test_error_messages_are_one_line(tmp_path):
    cases = [
        (parse_map, ""),
        (parse_map, "##\n#"),
        (parse_map, "; x\n##"),
        (parse_map, "5 3\n#####\n"),
        (load_map, tmp_path),
        (load_map, write(tmp_path, "bin.txt", b"\xfe\xff")),
    ]
    for function, argument in cases:
        message = map_error(function, argument)
        assert "\n" not in message
        assert "\r" not in message


# --- shipped maps ----------------------------------------------------------------------------------


def test_there_are_shipped_maps():
    assert SHIPPED_MAPS
    assert Path(SHIPPED_MAPS[0]).parent.name == "maps"


@pytest.mark.parametrize("path", TRON_MAPS, ids=lambda p: p.stem)
def test_shipped_map_parses_and_passes_tron_check(path):
    game_map = load_map(path)
    assert game_map.name == path.stem
    TronGame.check_map(game_map)
    players = TronGame.num_players(game_map)
    assert 2 <= players <= 4
    assert sorted(starts(game_map)) == list(range(1, players + 1))


@pytest.mark.parametrize("path", SHIPPED_MAPS, ids=lambda p: p.stem)
def test_shipped_map_walls_are_point_symmetric(path):
    game_map = load_map(path)
    width, height = game_map.width, game_map.height
    for x, y, char in game_map.cells():
        mirror = game_map.rows[height - 1 - y][width - 1 - x]
        assert (char == "#") == (mirror == "#"), f"{path.name}: ({x}, {y}) is {char!r} but its mirror is {mirror!r}"


@pytest.mark.parametrize("path", TRON_MAPS, ids=lambda p: p.stem)
def test_shipped_map_starts_are_placed_symmetrically(path):
    game_map = load_map(path)
    width, height = game_map.width, game_map.height
    found = starts(game_map)

    def mirror(xy: tuple[int, int]) -> tuple[int, int]:
        return width - 1 - xy[0], height - 1 - xy[1]

    if len(found) == 2:
        assert found[2] == mirror(found[1])
    else:
        positions = set(found.values())
        assert {mirror(xy) for xy in positions} == positions
        for player, xy in found.items():
            assert mirror(xy) != xy, f"{path.name}: start {player} sits on the centre"


# --- resolve_map -----------------------------------------------------------------------------------


def test_resolve_map_finds_a_shipped_map_by_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game_map = resolve_map("empty_room")
    assert game_map.name == "empty_room"
    assert Path(game_map.path).resolve() == (Path(__file__).resolve().parent.parent / "maps" / "empty_room.txt")
    TronGame.check_map(game_map)
    assert resolve_map("empty_room.txt").rows == game_map.rows


def test_resolve_map_prefers_a_map_in_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "empty_room.txt").write_text("####\n#12#\n####\n")
    monkeypatch.chdir(tmp_path)
    assert resolve_map("empty_room").rows == ("####", "#12#", "####")


def test_resolve_map_accepts_a_path(tmp_path):
    path = write(tmp_path, "mine.txt", b"####\n#21#\n####\n")
    assert resolve_map(str(path)).rows == ("####", "#21#", "####")


def test_resolve_map_unknown_name_suggests_close_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    message = map_error(resolve_map, "empty_rom")
    prefix = "empty_rom: no such map file; did you mean: "
    assert message.startswith(prefix)
    assert message.endswith("?")
    suggestions = message[len(prefix):-1].split(", ")
    assert suggestions[0] == "empty_room"


def test_resolve_map_unknown_name_with_nothing_close_lists_known_maps(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    message = map_error(resolve_map, "zzzzzzzzzzzz")
    prefix = "zzzzzzzzzzzz: no such map file; known maps: "
    assert message.startswith(prefix)
    assert sorted(message[len(prefix):].split(", ")) == sorted(p.stem for p in SHIPPED_MAPS)
