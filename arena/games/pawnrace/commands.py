"""The pawn-race commands: ``arena solve pawnrace`` (perfect play on small boards) and ``arena solve
pawnrace-claims`` (the paper's claims about small boards against the solver)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from arena.cli.common import Options, command_group, out, parse_options, user_errors
from arena.core.errors import ArenaError
from arena.core.maps import resolve_map
from arena.games.pawnrace.game import PawnRaceGame
from arena.games.pawnrace.rules import Setup
from arena.games.pawnrace.solver import Verdict, verdict

PAPER = "Kalles and Kanellopoulos (2001)"


def add_commands(app: typer.Typer) -> None:
    """Add the pawn-race commands to the ``arena`` application."""
    solve = command_group(app, "solve", "Solve games exactly.")
    solve.command("pawnrace")(user_errors(solve_command))
    solve.command("pawnrace-claims")(user_errors(claims_command))


def solve_command(
    maps: Annotated[list[str] | None, typer.Argument(help="Pawn-race maps [default: pawnrace_5x5].",
                                                     show_default=False)] = None,
    option: Options = None,
) -> None:
    """Who wins each pawn-race configuration with perfect play, and in how many moves."""
    extra = parse_options(option)
    verdicts = []
    for spec in maps or list(PawnRaceGame.default_maps):
        game_map = resolve_map(spec)
        if game_map.header.get("game") != PawnRaceGame.name:
            raise ArenaError(f"{game_map.label} is not a pawnrace map")
        PawnRaceGame.check_map(game_map)
        options = PawnRaceGame.resolve_options({**game_map.header, **extra})
        verdicts.append((game_map.name, verdict(PawnRaceGame.setup_of(game_map, options))))
    table = Table(title="Perfect play", title_justify="left")
    for header in ("map", "n", "a", "pawns", "removal", "positions", "winner", "moves (both)", "winner's moves"):
        table.add_column(header)
    for name, found in verdicts:
        table.add_row(name, *_cells(found))
    out.print(table)


def claims_command() -> None:
    """The paper's two claims about small boards, against the solver's verdict under this arena's rules."""
    small = verdict(Setup(5, 2, 1))
    rows = [(f"the first player wins n=5, a=2, beta=1 in the minimum of 4 moves ({PAPER})",
             f"{small.winner} wins in {small.winner_moves} moves of its own",
             small.winner == "white" and small.winner_moves == 4)]
    seconds = [found for n in (5, 6) for a in (1, 2) for removal in ("all", "mover")
               for found in [verdict(Setup(n, a, 1, removal))]]
    black = [found for found in seconds if found.winner == "black"]
    detail = ", ".join(f"n={f.setup.n} a={f.setup.a} removal={f.setup.removal}" for f in black)
    rows.append((f"the second player can never win with beta = 1 ({PAPER})",
                 f"black wins {len(black)} of {len(seconds)} boards with n <= 6" + (f": {detail}" if black else ""),
                 not black))
    table = Table(title="The paper's claims, solved", title_justify="left")
    for header in ("claim", "solver", "holds"):
        table.add_column(header)
    for claim, found, holds in rows:
        table.add_row(claim, found, "yes" if holds else "no")
    out.print(table)


def _cells(found: Verdict) -> list[str]:
    setup = found.setup
    winner = found.winner or "draw"
    moves = str(found.plies) if found.winner else "-"
    return [str(setup.n), str(setup.a), str(setup.pawns), setup.removal, f"{found.positions:,}", winner, moves,
            str(found.winner_moves) if found.winner else "-"]



