"""Re-search every move of one bot in a Tron record with that bot's searcher, to see where it went wrong.

Run: python experiments/record_analysis.py RECORD.json [--bot chamber] [--spec chamber:version=2] [--nodes N ...]
[--from T] [--to T] [--board]

For each turn of the seat that ``--bot`` played, prints: the turn, whether the players are still in contact,
the move played and, for each node budget given, the move the search of ``--spec`` (a bot spec; by default the
bot's name, its default version) chooses from that position, its
value and the depth it finished; once the players are apart, each side's exact fill count (the longest path
it can still make, by :func:`arena.engines.tron.endgame.longest_path` within a node limit, ``~`` marking a
lower bound when the limit cut the search). ``--draw D`` searches with ``D`` as the value of a head-on draw
instead of the bot's own. ``--board`` draws the position (``1``/``2`` heads, ``a``/``b``
trails) at each printed turn.
"""

from __future__ import annotations

import argparse
import json
import random

import numpy as np

from arena.core.maps import parse_map
from arena.engines.tron.endgame import longest_path
from arena.engines.tron.search import Position, Searcher, action_for
from arena.games.tron.game import TronGame
from arena.games.tron.render import render_board
from arena.plugins.registry import PluginConfig, load_registry


def main() -> None:
    """Replay the record and print the analysis."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record")
    parser.add_argument("--bot", default="chamber", help="the bot whose moves to analyse, as the record names it")
    parser.add_argument("--spec", default=None, help="search as this bot spec does (default: --bot)")
    parser.add_argument("--nodes", type=int, nargs="+", default=[10_500, 200_000])
    parser.add_argument("--from", dest="start", type=int, default=0)
    parser.add_argument("--to", type=int, default=10_000)
    parser.add_argument("--board", action="store_true")
    parser.add_argument("--draw", type=int, default=None, help="search with this value of a head-on draw")
    args = parser.parse_args()

    with open(args.record) as handle:
        record = json.load(handle)
    seat = next(p["seat"] for p in record["players"] if p["bot"] == args.bot)
    game_map = parse_map(record["map"]["text"], record["map"]["name"])
    game = TronGame(game_map, record["options"], np.random.default_rng(0))
    registry = load_registry(PluginConfig(use_cwd_bots=False, use_env_path=False))
    spec = registry.spec(args.spec or args.bot)
    bot = registry.bot(spec.name).cls(**spec.params)  # its draw value and weights, as its version sets them
    print(f"{record['map']['name']}: {args.bot} is seat {seat} ({seat + 1} on the board); {record['result']['reason']}")
    for turn, actions in enumerate(record["turns"]):
        obs = game.observe(seat)
        pos = Position.from_observation(obs)
        if args.start <= turn <= args.to and len(pos.ops) == 1:
            contact = bool(pos.in_contact())
            line = f"turn {turn:3d} {'fight' if contact else 'apart'} played {actions[str(seat)]}"
            for nodes in args.nodes:
                search = Searcher(pos.stride, pos.size, evaluation=bot.evaluation, simultaneous=pos.simultaneous,
                                  rng=random.Random(0), node_limit=nodes, weights=bot.territory_weights,
                                  draw=bot.draw if args.draw is None else args.draw, **bot.search_options)
                if contact:
                    step, value, depth = search.iterate(pos.free, pos.me, pos.op)
                else:
                    step, value, depth = search.fill_root(pos.free, pos.me)
                line += f" | {nodes}: {action_for(obs, step)} {value:+d} d{depth}"
            if not contact:
                mine, exact_me = longest_path(pos.free, pos.me, pos.stride, node_limit=2_000_000)
                theirs, exact_op = longest_path(pos.free, pos.op, pos.stride, node_limit=2_000_000)
                line += f" | fill us {mine}{'' if exact_me else '~'} them {theirs}{'' if exact_op else '~'}"
            print(line)
            if args.board:
                print(render_board(game.board))
        game.apply({int(key): value for key, value in actions.items()})
        if game.result is not None:
            break


if __name__ == "__main__":
    main()
