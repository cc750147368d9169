"""The league: a self-hosted ladder that never stops, with teams, tokens, bot submissions and a final.

:class:`arena.league.facade.League` is the whole library a front end needs (the ``arena league`` commands,
the web server in :mod:`arena.league.web`): open a league folder, authenticate a token, submit a bot,
read the leaderboard and the games, and the organiser's operations. It is a thin facade over one module per
part (teams and tokens, versions, the queue and scheduling, rating updates, the final, read views, maps),
each a set of functions of a :class:`~arena.league.context.LeagueContext`; their SQL on the store's own
tables (games, runs) goes through :class:`~arena.storage.store.Store`. :class:`arena.league.ladder_loop.LeagueLadder`
plays its ranked games continuously through an executor, in a background thread. Who meets and how ranked
games are rated is :mod:`arena.stats.ladder_rule`, the rule ``arena ladder`` plays by too. The old import paths
(``arena.server...``) are kept for one release by :mod:`arena.server`.

Sits beside the command line: it may import every layer below it (tournament, storage, stats, play,
plugins, report, core), never :mod:`arena.cli`; the command line imports it.
"""
