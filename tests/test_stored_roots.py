"""Where stored versions are unpacked: a private root per process (or per ladder, shared with its workers), never
another process's, removed by its last user, and swept by the next process once its users were killed."""

import os
import signal
import stat
import subprocess
import sys

import pytest

from arena.plugins.stored import StoredBot, prune_unpacked, unpacked
from arena.plugins.stored_roots import base_folder, join_root, make_root, process_root

HOLD = """
import sys
from arena.plugins.stored_roots import join_root, process_root
root = join_root(sys.argv[1]).path if len(sys.argv) > 1 else process_root()
print(root, flush=True)
sys.stdin.readline()
"""


def holders(*args):
    """Python processes started at once, each holding a root (its own, or the one its ``args`` item names)
    until its stdin closes; and their roots."""
    processes = [subprocess.Popen([sys.executable, "-c", HOLD, *map(str, arg)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True) for arg in args]
    return [(process, process.stdout.readline().strip()) for process in processes]


def finish(process):
    process.stdin.close()
    assert process.wait(30) == 0


@pytest.mark.slow  # Python processes that import the arena
def test_two_processes_never_share_a_root_and_each_root_goes_when_its_process_exits():
    (first, first_root), (second, second_root) = holders((), ())
    assert first_root != second_root and first_root != str(process_root())
    for root in (first_root, second_root):
        assert os.path.dirname(root) == str(base_folder())
        assert stat.S_IMODE(os.stat(root).st_mode) == 0o700
    finish(first)
    assert not os.path.exists(first_root) and os.path.isdir(second_root)
    finish(second)
    assert not os.path.exists(second_root)


@pytest.mark.slow  # Python processes that import the arena
def test_a_shared_root_goes_with_its_last_user_and_a_killed_users_root_is_swept():
    owner = make_root()
    (worker, joined), (killed, root) = holders((owner.path,), ())
    assert joined == str(owner.path)
    assert not owner.release() and owner.path.is_dir()  # the worker still uses it
    finish(worker)
    assert not owner.path.exists()

    killed.send_signal(signal.SIGKILL)
    killed.wait()
    assert os.path.isdir(root)  # nobody ran its exit
    make_root().release()  # the next root made sweeps the ones nobody holds
    assert not os.path.exists(root)
    assert join_root(root) is None and join_root("/tmp") is None


def test_a_version_is_unpacked_readable_by_anyone_who_is_shown_its_folder_whatever_its_modes_and_the_umask(tmp_path):
    bot = StoredBot("alice/maker", "0123abcd", "program",
                    (("arena-bot.toml", 0o600, b'name = "maker"\n'), ("lib/tool.sh", 0o700, b"exit 0\n")))
    old = os.umask(0o077)
    try:
        root = make_root()
        folder = unpacked(bot, root.path)
    finally:
        os.umask(old)
    modes = {path.relative_to(folder).as_posix(): stat.S_IMODE(path.stat().st_mode)
             for path in (folder, *folder.rglob("*"))}
    assert modes == {".": 0o755, "arena-bot.toml": 0o644, "lib": 0o755, "lib/tool.sh": 0o755}
    assert folder.parent == root.path and folder.name.startswith("alice_maker-0123abcd-")
    assert unpacked(bot, root.path) == folder
    assert root.release() and not root.path.exists()


def test_the_folders_of_versions_no_longer_played_are_pruned():
    bots = [StoredBot(f"team/bot{number}", f"{number:08x}", "python", ((f"bot{number}.py", 0o644, b"# bot\n"),))
            for number in range(3)]
    root = make_root()
    folders = [unpacked(bot, root.path) for bot in bots]
    assert prune_unpacked(root.path, bots[1:]) == [folders[0].name]
    assert [folder.is_dir() for folder in folders] == [False, True, True] and (root.path / ".lock").is_file()
    root.release()
