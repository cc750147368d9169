"""Real Ray clusters for tests that own what they start.

Each cluster lives under a temp dir of its own (every node's ``--temp-dir`` is inside it), listens on ports the
OS picked, and is stopped by stopping the processes started under that dir and what they started: never
``ray stop``, which stops every Ray on the machine. Its nodes and every process that joins it get their
environment from the caller, so HOME and the token can point at temp dirs rather than the user's ~/.ray; a
node may be given settings of its own on top (a PATH without a program, as on a machine that lacks it).
"""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

RAY = Path(sys.executable).parent / "ray"
STOP_SECONDS = 10


@dataclass(frozen=True)
class RayCluster:
    """A running cluster: where its nodes keep their files, and the address its head listens on."""

    root: Path
    address: str

    @property
    def node_ip(self) -> str:
        """The address Ray gave this machine in the cluster (its own pick among the machine's; every node here
        has it)."""
        return (self.root / "head" / "ray_current_cluster").read_text().strip().rpartition(":")[0]

    def join(self, name: str, num_cpus: int = 2, env: Mapping[str, str] | None = None) -> Path:
        """Start another node of ``num_cpus`` CPUs on this machine, with ``env`` on top of this process's
        environment; its temp dir, which identifies its processes."""
        temp_dir = self.root / name
        ray_start(temp_dir, f"--address={self.address}", f"--num-cpus={num_cpus}", env=env)
        return temp_dir


@contextmanager
def ray_cluster(num_cpus: int = 2, env: Mapping[str, str] | None = None) -> Iterator[RayCluster]:
    """A head node of ``num_cpus`` CPUs on this machine, with the environment of this process (set it first)
    and ``env`` on top, stopped on leaving, with every node that joined it."""
    # short: Ray's socket paths under it must fit in 107 bytes
    root = Path(tempfile.mkdtemp(prefix="arena-ray-", dir="/tmp" if os.path.isdir("/tmp") else None))
    try:
        ray_start(root / "head", "--head", "--port=0", f"--num-cpus={num_cpus}", "--include-dashboard=false",
                  "--dashboard-port=0", env=env)
        port = (root / "head" / "ray_current_cluster").read_text().strip().rpartition(":")[2]
        yield RayCluster(root, f"127.0.0.1:{port}")
    finally:
        stop_processes_under(root, at_once=True)  # a throwaway cluster: nothing to wind down, its files go next
        subprocess.run(["rm", "-rf", str(root)], check=False)


def ray_start(temp_dir: Path, *args: str, env: Mapping[str, str] | None = None) -> None:
    """``ray start`` a node whose files are under ``temp_dir``, every port it opens chosen by the OS, with ``env``
    on top of this process's environment (its processes, Ray's workers included, inherit it)."""
    temp_dir.mkdir(parents=True)
    # no autoscaler and no log monitor: a fixed cluster, and no command here shows its workers' logs
    lean = ["--no-monitor", "--include-log-monitor=false"]
    ports = ["--dashboard-agent-listen-port=0", "--dashboard-agent-grpc-port=0", "--metrics-export-port=0",
             "--runtime-env-agent-port=0"]
    if importlib.util.find_spec("grpc") is not None:  # with Ray Client installed, a node serves it on 10001
        ports.append(f"--ray-client-server-port={free_port()}")
    started = subprocess.run([str(RAY), "start", *args, f"--temp-dir={temp_dir}", "--node-ip-address=127.0.0.1",
                              "--disable-usage-stats", *lean, *ports], capture_output=True, text=True, timeout=120,
                             env={**os.environ, **(env or {})})
    assert started.returncode == 0, started.stdout + started.stderr


def free_port() -> int:
    """A TCP port no one listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop_processes_under(directory: Path, at_once: bool = False) -> int:
    """Stop every process whose command line names ``directory`` or a path inside it, and what they started
    (SIGTERM, then SIGKILL for any still there after a while; only SIGKILL ``at_once``, as a machine that
    dies); how many of them were raylets."""
    doomed = processes_under(directory)
    raylets = sum(1 for pid, args in doomed.items() if Path(args.split()[0]).name == "raylet")
    for sig in (signal.SIGKILL,) if at_once else (signal.SIGTERM, signal.SIGKILL):
        for pid in doomed:
            with suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + STOP_SECONDS
        while (remaining := set(doomed) & set(live_processes())) and time.monotonic() < deadline:
            time.sleep(0.1)
        if not remaining:
            break
        doomed = {pid: doomed[pid] for pid in remaining}
    return raylets


def processes_under(directory: Path) -> dict[int, str]:
    """The live processes (pid: command line) started with a path under ``directory``, and their descendants."""
    live = live_processes()
    inside = str(directory)

    def names_it(args: str) -> bool:
        for word in args.split():
            path = word.partition("=")[2] if word.startswith("-") else word
            if path == inside or path.startswith(inside + "/"):
                return True
        return False

    doomed = {pid for pid, (_, args) in live.items() if names_it(args)} - {os.getpid()}
    grew = True
    while grew:
        children = {pid for pid, (ppid, _) in live.items() if ppid in doomed} - doomed
        doomed |= children
        grew = bool(children)
    return {pid: live[pid][1] for pid in doomed}


def live_processes() -> dict[int, tuple[int, str]]:
    """Every process that has not exited (zombies aside): pid to (parent pid, command line)."""
    listing = subprocess.run(["ps", "-ww", "-eo", "pid=,ppid=,stat=,args="], capture_output=True, text=True,
                             check=True).stdout
    processes = {}
    for line in listing.splitlines():
        fields = line.split(None, 3)
        if len(fields) == 4 and not fields[2].startswith("Z"):
            processes[int(fields[0])] = (int(fields[1]), fields[3])
    return processes
