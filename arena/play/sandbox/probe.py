"""Checking bot modules inside the sandbox: the probe that imports them runs confined, as their games do.

Under ``--sandbox`` no Python module of a bot directory or a stored version is imported in the arena's own
process, nor in an unconfined child: :class:`SandboxProbe` starts :mod:`arena.plugins.module_probe` in
bubblewrap with the run's limits, the modules bound read-only and only the probe's own result folder writable.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from arena.play.sandbox.confine import Confinement, interpreter_paths, kill_sandbox, require_sandbox
from arena.play.sandbox.limits import SandboxLimits

_BOOTSTRAP = ("import json, sys; sys.path[:] = json.load(open(sys.argv[1]))['sys_path']; "
              "from arena.plugins.module_probe import main; main(sys.argv[1:])")


class ConfinedProbe:
    """A probe running in its sandbox: its exit code once it ended; :meth:`stop` kills the whole sandbox."""

    def __init__(self, process: subprocess.Popen[bytes], inner: int | None):
        self.process, self.inner = process, inner

    def poll(self) -> int | None:
        """The exit code of bubblewrap (the probe's), or ``None`` while it runs."""
        return self.process.poll()

    def stop(self) -> None:
        """Kill the sandbox's first process (and with it all it started), then bubblewrap."""
        kill_sandbox(self.process, self.inner)


@dataclass(frozen=True)
class SandboxProbe:
    """Starts confined probes of bot modules (a :data:`arena.plugins.module_probe.ProbeStarter`); picklable,
    so that worker processes check modules the same way."""

    limits: SandboxLimits

    def __call__(self, paths: list[Path], result: Path) -> ConfinedProbe:
        """Start a probe of the modules at ``paths`` inside bubblewrap, writing its records to ``result``."""
        require_sandbox()
        folder = result.parent
        folder.chmod(0o777)  # the sandbox's own user writes the records here
        request = folder / "request.json"
        modules = [str(path.resolve()) for path in paths]
        request.write_text(json.dumps({"sys_path": [entry for entry in sys.path if entry], "modules": modules}))
        request.chmod(0o644)  # whatever the umask: the sandbox's own user reads it
        result.touch()
        result.chmod(0o666)
        confinement = Confinement(self.limits, read_only=(*interpreter_paths(), *modules), writable=(str(folder),),
                                  cwd=str(folder))
        process, inner = confinement.start([sys.executable, "-c", _BOOTSTRAP, str(request), str(result)],
                                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL, start_new_session=True)
        return ConfinedProbe(process, inner)
