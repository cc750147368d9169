"""npz: plays a policy network trained with ``arena.rl`` and saved as ``.npz`` (``npz:file=agent.npz``)."""

from arena.rl.policy import SavedPolicyBot


class NpzPolicy(SavedPolicyBot):
    """Plays a small numpy network saved by ``arena.rl.MLPPolicy.save``: ``npz:file=PATH``."""

    name = "npz"
    games = ("tron", "snafu", "catmouse", "pawnrace")
    in_default_field = False  # it plays only with a file of weights trained for the game's board
