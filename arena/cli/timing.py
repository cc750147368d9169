"""The options every command that plays games shares for timing them: the per-move limit and the clocks."""

from __future__ import annotations

from typing import Annotated

import typer

from arena.core.clock import DEFAULT_TIME_LIMIT, TimeControl, check_time_limit, time_control

TimeLimit = Annotated[float | None, typer.Option(
    "--time-limit", show_default=False,
    help=f"Seconds a bot may think per move; with --time-control, the part of a move that is free, only the "
         f"rest coming off the bank [default: {DEFAULT_TIME_LIMIT:g}, or none with --time-control].")]
TimeControlOption = Annotated[str | None, typer.Option(
    "--time-control", metavar="BANK+INC", show_default=False,
    help="A clock for the whole game: BANK seconds, plus INC after each move, e.g. 10+0.1; a bot whose clock "
         "runs out loses on time [default: none].")]
FirstMove = Annotated[float | None, typer.Option(
    "--first-move", metavar="SECONDS", show_default=False,
    help="Seconds each bot's first move has of its own, before anything comes off its bank [default: none].")]
ClockOption = Annotated[str | None, typer.Option(
    "--clock", metavar="wall|cpu", show_default=False,
    help="What a move costs: wall (elapsed) or cpu (the CPU time of the bot's own process and children, or "
         "of its thread); a cpu move is still stopped after three times its allowance of elapsed time "
         "[default: wall].")]


def timing(time_limit: float | None, bank: str | None, first_move: float | None,
           clock: str | None) -> tuple[float | None, TimeControl]:
    """The per-move limit and the time control the timing options give, checked (one-line errors)."""
    control = time_control(bank, first_move, clock)
    if time_limit is None and bank is None:
        time_limit = DEFAULT_TIME_LIMIT
    check_time_limit(time_limit, control)
    return time_limit, control
