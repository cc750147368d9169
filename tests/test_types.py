"""A plugin's own type checker sees arena's annotations (the package ships ``py.typed``), and the hooks' registrars
say what each ``register`` takes."""

import subprocess
import sys

import pytest

from tests.helpers import write_module


@pytest.mark.slow
def test_a_plugins_type_checker_catches_what_register_refuses(tmp_path):
    plugin = write_module(tmp_path, "myplugin.py", """
        from arena import Bot, Game, hookimpl
        from arena.plugins.registrars import BotRegistrar, GameRegistrar


        class Walker(Bot):
            name = "walker"
            games = ("tron",)

            def act(self, obs: object) -> str:
                return "N"


        @hookimpl
        def register_games(register: GameRegistrar) -> None:
            register("tron")


        @hookimpl
        def register_bots(register: BotRegistrar) -> None:
            register(Walker, source="myplugin.py")
            register(Walker())
        """)
    checked = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--hide-error-context",
                              "--cache-dir", str(tmp_path / "cache"), str(plugin)],
                             capture_output=True, text=True, cwd=tmp_path)
    errors = [line.split(": error: ")[1] for line in checked.stdout.splitlines() if ": error: " in line]
    assert errors == [
        'Argument 1 to "__call__" of "GameRegistrar" has incompatible type "str"; expected "type[Game]"  [arg-type]',
        'Argument 1 to "__call__" of "BotRegistrar" has incompatible type "Walker"; expected "type[Bot] | '
        'DeferredBot"  [arg-type]',
    ], checked.stdout + checked.stderr
