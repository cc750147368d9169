"""A Tron bot that takes its time on its first moves: it sleeps (or, with busy=true, keeps the CPU busy) for
``nap`` seconds on each of its first ``naps`` moves, then answers at once. It goes straight until blocked."""

import time

from arena import Bot


class Napper(Bot):
    """Sleeps or spins on its first moves, then answers at once."""

    name = "napper"
    games = ("tron",)

    def __init__(self, nap: float = 0.3, naps: int = 5, busy: bool = False):
        self.nap, self.naps, self.busy = nap, naps, busy

    def start(self, info):
        self.heading = "E"
        self.clock = info.clock
        self.seen = []  # what its clock said at the start of each move

    def act(self, obs):
        self.seen.append(self.clock.time_left())
        if len(self.seen) <= self.naps:
            if self.busy:
                began = time.thread_time()
                while time.thread_time() - began < self.nap:
                    pass
            else:
                time.sleep(self.nap)
        safe = obs.safe_moves()
        if self.heading not in safe and safe:
            self.heading = safe[0]
        return self.heading
