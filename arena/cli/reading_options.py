"""The options of the pawn race learners' readings of their paper, shared by ``arena playability`` and
``arena train pawnrace-td`` so that both say the same."""

from __future__ import annotations

from typing import Annotated

import typer

Init = Annotated[str | None, typer.Option(
    help="The network's initial weights: random, mirror (black's is white's turned 180 degrees with the "
         "colours swapped) or zero [default: random; a table starts at zero].", show_default=False)]
LossReward = Annotated[float | None, typer.Option(
    help="The loser's reward for the last move, e.g. -1 (the paper's for the network) [default: 0 for the "
         "network, -50 for the table].", show_default=False)]
NetworkInputs = Annotated[str | None, typer.Option(
    help="parts (two inputs per free square: the sum of the paper's parts) or printed (one per free square: "
         "the paper's printed count) [default: parts].", show_default=False)]
TableKey = Annotated[str | None, typer.Option(
    help="The table's key: full (with the waiting pawns: a deviation from the paper) or paper (the paper's: "
         "without them) [default: full, the deviation].", show_default=False)]
