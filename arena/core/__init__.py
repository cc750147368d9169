"""The core types: Game, Bot, bot specs, maps, game records and the error family.

It imports nothing from the layers above (plugins, play, stats, storage, tournament, report, cli) and
names no particular game.
"""
