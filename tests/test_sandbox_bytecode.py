"""A sandboxed Python bot's bytecode: its prepare run compiles its module into its own compile cache, checked
against the source's hash, and every game of it runs that bytecode instead of compiling the module again."""

import importlib.util
import marshal
import os

import pytest

from arena.play.referee import run_match
from arena.play.sandbox import SandboxedBots, SandboxLimits
from arena.play.sandbox.bytecode import bytecode_file, cached_code
from arena.play.sandbox.probe import SandboxProbe
from arena.play.sandbox.zygotes import SWITCH
from arena.plugins.check_cache import arena_cache_dir
from arena.plugins.registry import PluginConfig, load_registry
from tests.helpers import write_module

MARKED = '''
from arena import Bot

MARK = "{mark}"

class Marked(Bot):
    name = "marked"
    games = ("tron",)

    def act(self, obs):
        raise RuntimeError("MARK " + MARK)
'''


def marks(tmp_path, registry, config):
    """The mark the bot's first move says, in one sandboxed game."""
    made = SandboxedBots(config, SandboxLimits(), registry)
    try:
        outcome = run_match("tron", ["marked", "wallhugger"], game_map="empty_room", seed=1, time_limit=5,
                            registry=registry, make_bot=made)
    finally:
        made.close()
    return outcome.failures[0].detail


@pytest.mark.needs("bwrap")
@pytest.mark.slow
def test_games_run_the_bytecode_the_prepare_run_left_in_the_compile_cache(tmp_path, monkeypatch):
    source = write_module(tmp_path, "marked.py", MARKED.format(mark="source"))
    config = PluginConfig(bot_dirs=(str(tmp_path),), use_cwd_bots=False, use_env_path=False,
                          confined=SandboxProbe(SandboxLimits()))
    registry = load_registry(config)
    assert "MARK source" in marks(tmp_path, registry, config)
    kept = list((arena_cache_dir() / "compile-cache").glob("marked-*/bytecode/*.pyc"))
    assert len(kept) == 1, kept
    assert kept[0].read_bytes()[4:8] == (3).to_bytes(4, "little")  # checked against the source's hash
    # the same module, said otherwise, in the bytecode its games would read (stamped with the source's hash),
    # and the source touched, as unpacking a version again does: its games run the bytecode all the same
    other = compile(MARKED.format(mark="cached"), str(source), "exec")
    kept[0].write_bytes(importlib.util.MAGIC_NUMBER + (3).to_bytes(4, "little")
                        + importlib.util.source_hash(source.read_bytes()) + marshal.dumps(other))
    os.utime(source, (source.stat().st_atime, source.stat().st_mtime + 100))
    assert "MARK cached" in marks(tmp_path, registry, config)  # a game forked by the bot's zygote
    monkeypatch.setenv(SWITCH, "0")
    assert "MARK cached" in marks(tmp_path, registry, config)  # a game in a sandbox of its own


def run_inner(code):
    """What calling ``inner`` of a module's ``code`` raises, and the file its frame says it is in."""
    namespace: dict = {}
    exec(code, namespace)
    with pytest.raises((KeyError, ValueError)) as raised:
        namespace["inner"]()
    return type(raised.value).__name__, raised.traceback[-1].frame.code.raw.co_filename


def test_the_bytecode_of_a_source_serves_it_in_any_folder_under_its_own_name(tmp_path):
    text = b"def inner():\n    raise ValueError('here')\n"
    first, second = tmp_path / "a" / "bot.py", tmp_path / "b" / "bot.py"
    cached_code(first, text, tmp_path / "cache", write=True)
    kept = bytecode_file(tmp_path / "cache", text)
    other = compile(b"def inner():\n    raise KeyError('kept')\n", str(first), "exec")
    kept.write_bytes(kept.read_bytes()[:16] + marshal.dumps(other))  # what is read back shows itself
    assert run_inner(cached_code(second, text, tmp_path / "cache", write=False)) == ("KeyError", str(second))
    # another source is compiled, never served the bytecode of this one
    changed = text.replace(b"here", b"there")
    assert run_inner(cached_code(second, changed, tmp_path / "cache", write=False)) == ("ValueError", str(second))
