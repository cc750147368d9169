"""Numbers a user can get wrong, refused in one line before anything runs or is written: NaN and infinity in
every float option of every command (plugin commands included), in tournament files and in bot specs;
seeds outside what the random generators take; and options given without their value."""

import inspect
import sys
import types
import typing
from pathlib import Path

import pytest
import typer

from arena.cli.main import app, main
from arena.core.numbers import SEED_MAX
from arena.tournament.schedules import game_seed

NON_FINITE = ["nan", "inf", "-inf", "1e999", "NaN", "-Infinity"]
BAD_SEEDS = ["-5", str(SEED_MAX + 1), "99999999999999999999999"]


def run(monkeypatch, capsys, *args):
    """``arena ARGS`` through the console script's entry point: exit status, stdout, stderr."""
    monkeypatch.setattr(sys, "argv", ["arena", *args])
    with pytest.raises(SystemExit) as exit_info:
        main()
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def _base(value_type):
    if typing.get_origin(value_type) in (typing.Union, types.UnionType):
        value_type = next(arg for arg in typing.get_args(value_type) if arg is not type(None))
    if typing.get_origin(value_type) is list:
        value_type = typing.get_args(value_type)[0]
    return value_type


def every_command(command=None, path=()):
    """Every command of the assembled command line: its words after ``arena`` and its click command."""
    command = command or typer.main.get_command(app)
    for name, sub in getattr(command, "commands", {}).items():
        if hasattr(sub, "commands"):
            yield from every_command(sub, (*path, name))
        else:
            yield (*path, name), sub


def options_of_type(wanted):
    """(command words, option) for every option whose value is of type ``wanted`` (``"seed"``: an int
    option named seed), read from the type hints of the functions behind the commands."""
    found = []
    for words, command in every_command():
        hints = typing.get_type_hints(inspect.unwrap(command.callback), include_extras=True)
        for param in command.params:
            hint = hints.get(param.name)
            if hint is None or not param.opts[0].startswith("-"):
                continue
            base = _base(typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Annotated else hint)
            if (wanted is float and base is float) or (wanted == "seed" and base is int and "seed" in param.name):
                found.append((words, param.opts[0]))
                NAMES[(words, param.opts[0])] = " / ".join(f"'{name}'" for name in param.opts)
    return found


NAMES: dict = {}
"""How click names an option in its errors (``'--learning-rate' / '--alpha'`` for one with two names)."""


FLOAT_OPTIONS = options_of_type(float)
SEED_OPTIONS = options_of_type("seed")


def test_the_walk_finds_the_number_options_of_core_and_plugin_commands():
    for expected in [(("tournament",), "--time-limit"), (("tournament",), "--grace"), (("compare",), "--alpha"),
                     (("tournament",), "--build-timeout"), (("play",), "--delay"), (("replay",), "--delay"),
                     (("ladder",), "--time-limit"), (("train", "pawnrace-td"), "--lambda")]:
        assert expected in FLOAT_OPTIONS
    for expected in [(("tournament",), "--seed"), (("compare",), "--seed"), (("ladder",), "--seed"),
                     (("check", "bot"), "--seed"), (("train", "catmouse-full"), "--seed")]:
        assert expected in SEED_OPTIONS
    assert len(FLOAT_OPTIONS) >= 15 and len(SEED_OPTIONS) >= 8


@pytest.mark.parametrize(("words", "option"), FLOAT_OPTIONS, ids=lambda x: " ".join(x) if isinstance(x, tuple) else x)
def test_every_float_option_refuses_nan_and_infinity(monkeypatch, capsys, words, option):
    for value in NON_FINITE:
        code, out, err = run(monkeypatch, capsys, *words, option, value)
        assert (code, out) == (2, "")
        assert err == (f"error: Invalid value for {NAMES[(words, option)]}: '{value}' is not a finite number "
                       f"(see 'arena {' '.join(words)} --help')\n")
    assert list(Path.cwd().iterdir()) == []


@pytest.mark.parametrize(("words", "option"), SEED_OPTIONS, ids=lambda x: " ".join(x) if isinstance(x, tuple) else x)
def test_every_seed_option_refuses_seeds_out_of_range(monkeypatch, capsys, words, option):
    for value in BAD_SEEDS:
        code, out, err = run(monkeypatch, capsys, *words, option, value)
        assert (code, out) == (2, "")
        assert err == (f"error: Invalid value for '{option}': a seed is a whole number from 0 to {SEED_MAX}, "
                       f"not {int(value)} (see 'arena {' '.join(words)} --help')\n")
    assert list(Path.cwd().iterdir()) == []


def test_the_largest_seed_plays(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, "tournament", "empty_room", "-b", "random,wallhugger", "-n", "2",
                         "-w", "1", "--seed", str(SEED_MAX), "-f", "csv")
    assert code == 0, err
    assert out.startswith("rank,bot,")
    assert 0 <= game_seed(SEED_MAX, 0, 1) <= SEED_MAX


TOURNAMENT_FILES = {
    "time_limit = nan": "t.toml:3: key 'time_limit': nan is not a finite number",
    "time_limit = inf": "t.toml:3: key 'time_limit': inf is not a finite number",
    "time_limit = -inf": "t.toml:3: key 'time_limit': -inf is not a finite number",
    "seed = -1": f"t.toml:3: key 'seed': a seed is a whole number from 0 to {SEED_MAX}, not -1",
    f"seed = {SEED_MAX + 1}": f"t.toml:3: key 'seed': a seed is a whole number from 0 to {SEED_MAX}, "
                              f"not {SEED_MAX + 1}",
    "options = { moves = nan }": "t.toml:3: key 'options': nan is not a finite number",
}


@pytest.mark.parametrize("line", list(TOURNAMENT_FILES))
def test_a_tournament_file_with_a_non_finite_number_or_a_bad_seed_is_refused(monkeypatch, capsys, line):
    Path("t.toml").write_text(f'maps = ["empty_room"]\nbots = ["random", "wallhugger"]\n{line}\n')
    code, out, err = run(monkeypatch, capsys, "tournament", "t.toml")
    assert (code, out, err) == (2, "", f"error: {TOURNAMENT_FILES[line]}\n")
    assert sorted(p.name for p in Path.cwd().iterdir()) == ["t.toml"]


def test_a_bot_spec_number_must_be_finite(monkeypatch, capsys):
    for value in ("nan", "inf", "-inf"):
        code, out, err = run(monkeypatch, capsys, "tournament", "empty_room", "-b", f"minimax:think={value},random")
        assert (code, out) == (2, "")
        assert err == f"error: bot spec 'minimax:think={value}': parameter think: '{value}' is not a finite number\n"
    assert list(Path.cwd().iterdir()) == []


MISSING = {
    ("report", "--html"): "--html needs a value (FILE): write a self-contained HTML report here "
                          "(see 'arena report --help')",
    ("ratings", "--history"): "--history needs a value (BOT): a bot's rating after each run it played, version "
                              "by version, with the change (see 'arena ratings --help')",
    ("show", "1", "1", "--html"): "--html needs a value (FILE): write game GAME as a self-contained HTML replay "
                                  "page (see 'arena show --help')",
    ("tournament", "-b"): "-b needs a value (SPECS): bot specs, comma separated (see 'arena tournament --help')",
    ("train", "pawnrace-td", "--lambda"): "--lambda needs a value (NUMBER): trace decay lambda "
                                          "(see 'arena train pawnrace-td --help')",
}


@pytest.mark.parametrize("args", list(MISSING), ids=" ".join)
def test_an_option_without_its_value_names_it_and_what_it_takes(monkeypatch, capsys, args):
    assert run(monkeypatch, capsys, *args) == (2, "", f"error: {MISSING[args]}\n")


@pytest.mark.slow
def test_every_option_without_its_value_says_what_it_takes(monkeypatch, capsys):
    checked = 0
    for words, command in every_command():
        for param in command.params:
            if not param.opts[0].startswith("-") or param.is_flag or param.is_eager:
                continue
            code, out, err = run(monkeypatch, capsys, *words, param.opts[0])
            assert (code, out) == (2, "")
            assert err.startswith(f"error: {param.opts[0]} needs a value ({param.metavar})"), err
            assert err.endswith(f" (see 'arena {' '.join(words)} --help')\n") and err.count("\n") == 1, err
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("args", [("tournament", "--grace", "-0.5"), ("play", "random", "random", "--delay", "-1"),
                                  ("replay", "1", "0", "--delay", "-1")], ids=" ".join)
def test_a_negative_grace_or_delay_is_refused(monkeypatch, capsys, args):
    option, value = args[-2:]
    assert run(monkeypatch, capsys, *args) == (2, "", f"error: Invalid value for '{option}': must be at least 0, "
                                                      f"not {value} (see 'arena {args[0]} --help')\n")


@pytest.mark.parametrize("value", ["nan", "inf", "+inf"])
def test_a_program_bots_manifest_refuses_non_finite_budgets(value):
    from arena.core.errors import ArenaError
    from arena.plugins.programs.manifest import read_manifest

    for key in ("build_timeout", "startup_timeout"):
        path = Path("arena-bot.toml")
        path.write_text(f'name = "x"\ngames = ["tron"]\ncommand = ["./x"]\n{key} = {value}\n')
        with pytest.raises(ArenaError) as refused:
            read_manifest(path)
        assert str(refused.value) == (f"arena-bot.toml: {key} must be a positive, finite number of seconds, "
                                      f"not {float(value)}")
