"""Tournaments: definitions (TOML), schedules (round robin, gauntlet, swiss), the runner, the ladder, SPRT.

It may import every layer below it: core, plugins, play, stats and storage.
"""
