"""hillclimb: plays a cat-and-mouse policy found by hill climbing (``arena train catmouse-...``).

``hillclimb:policy=FILE`` plays a policy file: a full policy (version 1) on the board it was trained for,
or a window policy (version 2) on any board at least 3x3. Without ``policy`` it plays the window
policies that ship with arena.
"""

from arena import Bot
from arena.engines.catmouse.policies import (
    SHIPPED_POLICY,
    PolicyError,
    cached_policy,
    choose_full_move,
    choose_window_move,
    observed_board_key,
)


class HillClimb(Bot):
    """Plays a trained policy file: a full policy for its board, or a window policy on any board."""

    name = "hillclimb"
    games = ("catmouse",)
    roles = ("cat", "mouse")

    def __init__(self, policy: str = ""):
        self.path = policy or str(SHIPPED_POLICY)

    def start(self, info):
        """Load the policy (once per process) and pick the moves of this game's role."""
        self.policy = cached_policy(self.path)
        self.moves = self.policy.for_role(info.role, self.path)
        self.checked = False

    def act(self, obs):
        """The policy's move for this position."""
        if self.policy.kind == "window":
            if obs.width < 3 or obs.height < 3:
                raise PolicyError(f"{self.path}: a window policy needs a board at least 3x3")
            return choose_window_move(self.moves, obs)
        if not self.checked:
            if observed_board_key(obs) != self.policy.layout_key():
                raise PolicyError(f"{self.path}: this full policy is for the board "
                                  f"{self.policy.layout_key()}, not {observed_board_key(obs)}")
            self.checked = True
        return choose_full_move(self.moves, obs)
