"""Bots in any language: programs that speak a line protocol over stdin and stdout.

A bot directory holding an ``arena-bot.toml`` manifest (:mod:`.manifest`) is a bot; ``exec:command=...``
names a program directly (:class:`.bot.ExecBot`). :mod:`.process` runs one program per game,
:mod:`.protocols` speaks ``arena-json`` and ``aic2010``, :mod:`.build` builds it before its first game.
"""
