"""A well-behaved opponent: goes straight until blocked, then takes the first safe move."""

from arena import Bot


class Steady(Bot):
    """Goes straight until blocked, then takes the first safe move."""

    name = "steady"
    games = ("tron",)

    def start(self, info):
        self.heading = "E"

    def act(self, obs):
        safe = obs.safe_moves()
        if self.heading not in safe and safe:
            self.heading = safe[0]
        return self.heading
