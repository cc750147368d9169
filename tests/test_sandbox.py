"""The sandbox's settings and commands: tournament files, builds, and --sandbox on play, check bot and ladder."""

import pytest

from arena.cli.main import app
from arena.core.errors import ArenaError
from arena.play.sandbox import SandboxLimits, build_in_sandbox
from arena.tournament.definition import load_definition
from tests.cli_runner import CliRunner
from tests.helpers import REPO, write_module

C_BOT = REPO / "examples" / "bots" / "aic2010-c"


def test_tournament_file_takes_sandbox_true_or_a_table_of_limits(tmp_path):
    (tmp_path / "on.toml").write_text('maps = ["empty_room"]\nsandbox = true\n')
    (tmp_path / "table.toml").write_text('maps = ["empty_room"]\nsandbox = {memory = "512M", processes = 16}\n')
    (tmp_path / "off.toml").write_text('maps = ["empty_room"]\nsandbox = false\n')
    assert load_definition(tmp_path / "on.toml").sandbox == SandboxLimits()
    assert load_definition(tmp_path / "table.toml").sandbox == SandboxLimits(memory=512 << 20, processes=16)
    assert load_definition(tmp_path / "off.toml").sandbox is None


@pytest.mark.parametrize(("value", "problem"), [
    ('{memory = "lots"}', "'lots' is not a size"),
    ("{disk = 5}", "unknown limit 'disk'"),
    ("{processes = 0}", "processes must be a positive whole number"),
    ('"yes"', "must be true, false or a table"),
])
def test_bad_sandbox_key_is_one_line_naming_file_and_line(tmp_path, value, problem):
    path = tmp_path / "t.toml"
    path.write_text(f'maps = ["empty_room"]\nsandbox = {value}\n')
    with pytest.raises(ArenaError) as caught:
        load_definition(path)
    assert str(caught.value).startswith(f"{path}:2: key 'sandbox': ")
    assert problem in str(caught.value)


@pytest.mark.needs("bwrap", "gcc")
def test_build_in_sandbox_builds_and_keeps_its_log(tmp_path):
    folder = tmp_path / "cbot"
    folder.mkdir()
    for name in ("arena-bot.toml", "bot.c"):
        (folder / name).write_text((C_BOT / name).read_text())
    log = build_in_sandbox(folder, timeout=120)
    assert log.ok and log.error == ""
    assert (folder / "bot").is_file()


@pytest.mark.needs("bwrap")
def test_build_in_sandbox_has_no_network_and_reports_failure(tmp_path):
    folder = tmp_path / "netbot"
    write_module(folder, "arena-bot.toml", '''
        name = "netbot"
        games = ["tron"]
        command = ["./bot"]
        build = ["python3", "-c", "import socket; print('fetching', flush=True); socket.getaddrinfo('example.com', 80)"]
        ''')
    log = build_in_sandbox(folder, timeout=60)
    assert not log.ok
    assert log.error.startswith("python3 -c import socket;")
    assert "ended with exit status 1" in log.error and "gaierror" in log.error
    assert "fetching" in log.output


@pytest.mark.needs("bwrap")
def test_build_in_sandbox_stops_at_its_time_limit(tmp_path):
    folder = tmp_path / "slow"
    write_module(folder, "arena-bot.toml", 'name = "slow"\ngames = ["tron"]\ncommand = ["./bot"]\n'
                                           'build = ["sleep", "30"]\n')
    log = build_in_sandbox(folder, timeout=1)
    assert not log.ok and log.timed_out
    assert "took more than its 1 s budget" in log.error


@pytest.mark.slow
@pytest.mark.needs("bwrap", "gcc")
def test_play_and_check_bot_take_sandbox(tmp_path):
    bots = tmp_path / "bots"
    folder = bots / "cbot"
    folder.mkdir(parents=True)
    for name in ("arena-bot.toml", "bot.c"):
        (folder / name).write_text((C_BOT / name).read_text())
    played = CliRunner().invoke(app, ["play", "random", "aic2010-c", "--sandbox", "-q", "--bots-dir", str(bots)])
    assert played.exit_code == 0, played.output
    assert "Result after" in played.output
    checked = CliRunner().invoke(app, ["check", "bot", "aic2010-c", "--sandbox", "--games", "1",
                                       "--bots-dir", str(bots)])
    assert checked.exit_code == 0, checked.output
    assert "without a crash, timeout or illegal answer" in checked.output
    assert (folder / "bot").is_file()  # built in the sandbox and copied back


@pytest.mark.needs("bwrap")
def test_sandbox_without_bubblewrap_refuses_play_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    result = CliRunner().invoke(app, ["play", "random", "random", "--sandbox", "-q"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [result.output.strip().splitlines()[0]]
    assert "apt-get install bubblewrap" in result.output
