"""The league: a self-hosted ladder that never stops, with teams, tokens, bot submissions and a final.

:class:`arena.league.facade.League` is the whole library a front end needs (the ``arena league`` commands,
the web server in :mod:`arena.league.web`): open a league folder, authenticate a token, submit a bot,
read the leaderboard and the games, and the organiser's operations. :class:`arena.league.league_ladder.LeagueLadder`
plays its ranked games continuously through an executor, in a background thread.

Sits beside the command line: it may import every layer below it (tournament, storage, stats, play,
plugins, report, core), never :mod:`arena.cli`; the command line imports it.
"""
