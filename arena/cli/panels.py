"""The panels ``arena --help`` groups its commands in, by what a user is doing.

A command names its panel as typer's ``rich_help_panel`` does (``app.command("x", rich_help_panel=PLAY)``,
``app.add_typer(group, rich_help_panel=TOOLS)``); the help page stays plain text, one section per panel, in the
order of :data:`PANELS`. A plugin's command may name one of these panels (in any case), or a panel of its own,
listed after them; one that names none is listed under :data:`PLUGINS`, last.
"""

from __future__ import annotations

# typer (0.29 on) carries its own copy of click: its commands and help formatter are that copy's classes
from typer import _click as click
from typer.core import TyperGroup

PLAY = "Play"
RESULTS = "Results"
LEAGUE = "League"
RESEARCH = "Research"
TOOLS = "Tools"
PANELS = (PLAY, RESULTS, LEAGUE, RESEARCH, TOOLS)
"""The built-in panels, in the order the help page shows them."""

PLUGINS = "Plugins"
"""The panel of a command that names none (only a plugin's can)."""


def panel_of(command: click.Command) -> str:
    """The panel ``command`` is listed under: the one it names (a built-in one matched in any case), else
    :data:`PLUGINS`."""
    named = getattr(command, "rich_help_panel", None)
    if not isinstance(named, str) or not named.strip():
        return PLUGINS
    named = named.strip()
    return next((panel for panel in PANELS if panel.casefold() == named.casefold()), named)


def grouped_commands(commands: list[tuple[str, click.Command]]) -> dict[str, list[tuple[str, click.Command]]]:
    """The ``(name, command)`` pairs ``commands`` by panel, each in the order given: the built-in panels first
    (those with a command), then the plugins' own in the order first met, then :data:`PLUGINS`."""
    found: dict[str, list[tuple[str, click.Command]]] = {}
    for name, command in commands:
        found.setdefault(panel_of(command), []).append((name, command))
    order = [*PANELS, *(panel for panel in found if panel not in PANELS and panel != PLUGINS), PLUGINS]
    return {panel: found[panel] for panel in order if panel in found}


class PanelGroup(TyperGroup):
    """A typer group whose plain help page lists its commands in one section per panel, not all in one."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Write a section of the help page for each panel, the commands' names in one column across them."""
        commands: list[tuple[str, click.Command]] = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                commands.append((name, command))
        if not commands:
            return
        width = max(len(name) for name, _ in commands)
        limit = formatter.width - 6 - width
        for panel, members in grouped_commands(commands).items():
            rows = []
            for name, command in members:
                short = command.get_short_help_str(limit)
                rows.append((name.ljust(width) if short else name, short))
            with formatter.section(panel):
                formatter.write_dl(rows)
