"""The league's web server: FastAPI pages and a JSON API over :class:`arena.league.facade.League`.

``arena serve`` runs it under uvicorn (the ``league`` extra); ``arena submit`` talks to its API with the
standard library alone (:mod:`arena.league.web.client`). Importing this package imports nothing of FastAPI:
:mod:`arena.league.web.app` does, so the client and the upload checks work on the base install.

May import every layer below the league (report, tournament, storage, stats, play, plugins, core) and the
league itself; never :mod:`arena.cli`.
"""
