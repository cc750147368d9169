"""A bot program run inside its sandbox: the pipes of :class:`ProgramProcess`, killed with its PID namespace."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Sequence

from arena.play.sandbox.confine import Confinement
from arena.plugins.programs.process import MAX_LINE, STDERR_CAP, ProgramProcess


class SandboxedProcess(ProgramProcess):
    """A :class:`ProgramProcess` whose program runs confined; killing it kills the sandbox's PID namespace,
    so nothing the program started survives, whatever session or process group it moved to."""

    def __init__(self, argv: Sequence[str], confinement: Confinement, max_line: int = MAX_LINE,
                 stderr_cap: int = STDERR_CAP):
        self.confinement = confinement
        self.inner_pid: int | None = None
        super().__init__(argv, confinement.cwd, max_line, stderr_cap)

    def _spawn(self, cwd: str) -> subprocess.Popen[bytes]:
        process, self.inner_pid = self.confinement.start(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
            start_new_session=True)
        return process

    def kill(self) -> None:
        """Kill the sandbox's first process (which takes its whole PID namespace with it), then bubblewrap."""
        if not self.killed and self.inner_pid is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.inner_pid, signal.SIGKILL)
        super().kill()
