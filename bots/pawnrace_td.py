from arena import Bot
from arena.engines.pawnrace.td_model import Features, Network, choose, choose_by_network, load_model
from arena.games.pawnrace.rules import Setup, move_name


class PawnRaceTd(Bot):
    """Plays a trained TD(lambda) model (table or network) greedily: the afterstate its side values most."""

    name = "td"
    games = ("pawnrace",)
    in_default_field = False  # it plays only with a model trained on the game's board

    def __init__(self, model: str = "runs/pawnrace-td/model.json"):
        data = load_model(model)
        settings = data["settings"]
        self.path = model
        self.setup = Setup(settings["n"], settings["a"], settings["pawns"], settings["removal"],
                           settings["max_moves"])
        self.win_reward = settings["win_reward"]
        self.tables = data.get("tables")
        self.key = settings.get("key", "full")
        if data["kind"] == "network":
            self.features = Features(self.setup, settings.get("network_inputs", "parts"))
            self.networks = [Network(self.features.size, weights=weights) for weights in data["networks"]]

    @classmethod
    def check_parameters(cls, params):
        """Refuse a model file that cannot be read before any game is played."""
        load_model(params.get("model", "runs/pawnrace-td/model.json"))

    def act(self, obs):
        """The greedy move by the table of this bot's side (ties broken with the bot's rng)."""
        if (obs.n, obs.a) != (self.setup.n, self.setup.a):
            raise ValueError(f"{self.path} was trained on {self.setup.n} x {self.setup.n} with {self.setup.a} x "
                             f"{self.setup.a} bases, not {obs.n} x {obs.n} with {obs.a} x {obs.a}")
        position = obs.position()
        if self.tables is None:
            move, _ = choose_by_network(self.setup, self.networks[position.to_move], self.features, position,
                                        self.rng)
        else:
            move, _, _ = choose(self.setup, self.tables[position.to_move], position, self.win_reward, self.rng,
                                 key=self.key)
        return move_name(move)
