"""What the kernel charges a sandboxed game for its process: copy-on-write pages and each kind of namespace.

Run: python benchmarks/process_kernel_costs.py [--quick]   (Linux, unprivileged user namespaces)

* a page: a forked child reads, then writes, one byte of each of 2,000 pages its parent wrote before the fork
  (the writes copy each page: what a zygote's child pays for every page of the zygote's memory it touches),
  and writes them after asking for them all at once (``MADV_POPULATE_WRITE``): microseconds a page;
* a namespace: the machine's CPU time (``/proc/stat``, so the kernel's own workers that tear namespaces down
  count) of a process forked, moved into a new user namespace and one more namespace of each kind, and
  exited, against the same with the user namespace alone: milliseconds a namespace of that kind, each in
  its turn, the median of the rounds.
"""

from __future__ import annotations

import argparse
import ctypes
import mmap
import os
import statistics
import time

from timing import Figures, add_json_option

PAGE = mmap.PAGESIZE
PAGES = 2000
MADV_POPULATE_WRITE = 23
NAMESPACES = {"network": 0x40000000, "mount": 0x00020000, "PID": 0x20000000, "IPC": 0x08000000,
              "UTS": 0x04000000}
CLONE_NEWUSER = 0x10000000

_libc = ctypes.CDLL(None, use_errno=True)


def page_costs() -> dict[str, float]:
    """Microseconds a page of reading, writing (copying) and writing after populating, in a forked child."""
    memory = mmap.mmap(-1, PAGES * PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    for index in range(PAGES):
        memory[index * PAGE] = 1
    address = ctypes.addressof(ctypes.c_char.from_buffer(memory))
    costs = {}
    for way in ("read", "write", "populate, then write"):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            started = time.perf_counter()
            if way == "populate, then write":
                _libc.madvise(ctypes.c_void_p(address), ctypes.c_size_t(PAGES * PAGE), MADV_POPULATE_WRITE)
            for index in range(PAGES):
                if way == "read":
                    _ = memory[index * PAGE]
                else:
                    memory[index * PAGE] = 2
            os.write(write, str(time.perf_counter() - started).encode())
            os._exit(0)
        os.close(write)
        costs[way] = float(os.read(read, 64)) / PAGES * 1e6
        os.close(read)
        os.waitpid(pid, 0)
    return costs


def busy_ticks() -> int:
    """The machine's busy CPU time so far, in clock ticks."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    return sum(fields) - fields[3] - fields[4]


def namespace_ms(flags: int, count: int) -> float:
    """Milliseconds of the machine's CPU a process forked into ``flags``'s namespaces and exited costs."""
    before = busy_ticks()
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            os._exit(0 if _libc.unshare(flags) == 0 else 1)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            raise SystemExit(f"unshare({flags:#x}) refused here")
    time.sleep(0.2)  # the kernel's workers finish tearing the namespaces down
    return (busy_ticks() - before) * 1000 / os.sysconf("SC_CLK_TCK") / count


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer processes and rounds")
    add_json_option(parser)
    args = parser.parse_args()
    figures = Figures.from_arguments(args)
    count, rounds = (100, 3) if args.quick else (400, 5)
    print(f"a page of the parent's, touched by a forked child ({PAGES} pages):")
    for way, cost in page_costs().items():
        print(f"  {way:22s} {cost:6.2f} us a page")
        figures.add(f"a page, {way}", cost, "us")
    extra: dict[str, list[float]] = {name: [] for name in NAMESPACES}
    for _ in range(rounds):
        alone = namespace_ms(CLONE_NEWUSER, count)
        for name, flag in NAMESPACES.items():
            extra[name].append(namespace_ms(CLONE_NEWUSER | flag, count) - alone)
    print(f"a namespace of each kind, over a process with a user namespace alone ({count} processes, "
          f"median of {rounds} rounds; the machine's CPU):")
    for name, values in extra.items():
        print(f"  {name:8s} {statistics.median(values):6.2f} ms")
        figures.add(f"a {name} namespace", statistics.median(values), "ms")
    figures.write()


if __name__ == "__main__":
    main()
