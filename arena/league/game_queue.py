"""The league's queue of games: what is waiting, adding a game, dropping games, and what the workers play.

Every game has a place in the queue: its id, the index it is stored under in its run, and what its seed
derives from (with the league's seed), so every game can be replayed. A game is finished once its run
stores it; the queue keeps finished games too (the read views join them with the store). The games not
finished yet are also in ``league_waiting``, which loses each as it is stored or dropped: what is waiting is
read from there, so it costs the same however many games the league has played.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from arena.core.bot import BotSpec
from arena.league import sandboxing
from arena.league.context import CHALLENGE, KINDS, RANKED, LeagueContext
from arena.play.referee import MatchSetup
from arena.plugins.registry import PluginConfig
from arena.plugins.stored import StoredBot
from arena.storage.store import Store, now
from arena.tournament.schedules import game_seed

UNFINISHED = f"NOT {Store.stored_test('q')}"
"""The condition on a queue row ``q`` (with ``run_id`` and ``idx``) that its game is not stored yet."""
WAITING = f"league_waiting w JOIN league_queue q ON q.idx = w.idx WHERE {UNFINISHED}"
"""The queued games not finished yet, as ``q`` (a ``FROM`` clause and its condition): ``league_waiting`` loses a
game when it is stored, and the store's test covers a game stored by an arena that did not keep that table."""


def waiting(ctx: LeagueContext, kinds: Sequence[str] = KINDS) -> list[int]:
    """The ids of the queued games not finished yet, in queue order."""
    marks = ",".join("?" * len(kinds))
    return [row[0] for row in ctx.conn.execute(
        f"SELECT w.idx FROM {WAITING} AND w.kind IN ({marks}) ORDER BY w.idx", tuple(kinds))]


def drop_waiting(ctx: LeagueContext, version_ids: Sequence[int], kinds: Sequence[str] = KINDS) -> None:
    """Drop the unplayed games of these versions from the queue (inside a transaction)."""
    wanted = set(version_ids)
    for idx, kind, versions in ctx.conn.execute(f"SELECT q.idx, q.kind, q.versions FROM {WAITING}").fetchall():
        if kind in kinds and wanted & set(json.loads(versions)):
            drop(ctx, [idx])


def drop(ctx: LeagueContext, ids: Sequence[int]) -> None:
    """Take games ``ids`` off the queue (inside a transaction)."""
    rows = [(idx,) for idx in ids]
    ctx.conn.executemany("DELETE FROM league_waiting WHERE idx = ?", rows)
    ctx.conn.executemany("DELETE FROM league_queue_players WHERE idx = ?", rows)
    ctx.conn.executemany("DELETE FROM league_queue WHERE idx = ?", rows)


def finished(ctx: LeagueContext, idx: int) -> None:
    """Game ``idx`` is stored: it no longer waits (inside the transaction that stored it)."""
    ctx.conn.execute("DELETE FROM league_waiting WHERE idx = ?", (idx,))


FIRST_OF_MATCH = "SELECT min(idx) FROM league_queue WHERE kind = ? AND run_id = ? AND match = ?"
"""The place in the queue of a match's first game: one look-up in the ``league_queue_match`` index, however long
the queue (a scan of every game queued before, without it)."""


def enqueue(ctx: LeagueContext, kind: str, run_id: int, versions: list[int], match: int,
            team_id: int | None = None) -> int:
    """Append one game to the queue (inside a transaction): its map rotates with the match, its seed is the
    league's seed and the match's first place in the queue."""
    idx = int(ctx.get("next_idx", 0))
    ctx.put("next_idx", idx + 1)
    first = ctx.conn.execute(FIRST_OF_MATCH, (kind, run_id, match)).fetchone()[0]
    seed = game_seed(ctx.settings.seed, idx if first is None else first)
    map_name = ctx.settings.maps[match % len(ctx.settings.maps)]
    ctx.conn.execute("INSERT INTO league_queue (idx, kind, run_id, match, versions, map, seed, team_id, "
                     "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (idx, kind, run_id, match, json.dumps(versions), map_name, seed, team_id, now()))
    ctx.conn.executemany("INSERT OR IGNORE INTO league_queue_players (version_id, idx) VALUES (?, ?)",
                         [(version_id, idx) for version_id in versions])
    ctx.conn.execute("INSERT INTO league_waiting (idx, kind, team_id) VALUES (?, ?, ?)", (idx, kind, team_id))
    ctx.store.raise_scheduled(run_id, idx + 1)
    return idx


def run_of(ctx: LeagueContext, kind: str) -> int:
    """The stored run of ``kind`` games (challenges or the final), made the first time (inside a
    transaction); the ranked games' run is made with the league."""
    key = f"{kind}_run"
    run_id = ctx.get(key)
    if run_id is None:
        name = f"{ctx.game.name} league {'challenges' if kind == CHALLENGE else 'final'}"
        run_id = ctx.store.create_run(name, ctx.game.name, f"league-{kind}", {"game": ctx.game.name},
                                      f"league-{kind}-{ctx.game.name}", 0)
        ctx.put(key, run_id)
    return int(run_id)


def paused(ctx: LeagueContext) -> bool:
    """Whether ranked play is paused (challenges and the final still play)."""
    return bool(ctx.get("paused"))


def pause(ctx: LeagueContext) -> None:
    """Pause ranked play; its waiting games are dropped (the games in hand finish and count)."""
    with ctx.store.transaction():
        ctx.put("paused", True)
        drop(ctx, waiting(ctx, (RANKED,)))


def resume(ctx: LeagueContext) -> None:
    """Resume ranked play."""
    with ctx.store.transaction():
        ctx.put("paused", False)


def setups(ctx: LeagueContext, ids: Sequence[int]) -> list[MatchSetup]:
    """The games to play for queue entries ``ids``."""
    by_name = dict(zip(ctx.settings.maps, ctx.maps, strict=True))
    found = []
    for idx in ids:
        versions, map_name, seed = ctx.conn.execute("SELECT versions, map, seed FROM league_queue WHERE idx = ?",
                                                    (idx,)).fetchone()
        game_map = by_name[map_name]
        specs = tuple(_spec(ctx, v) for v in json.loads(versions))
        found.append(MatchSetup(ctx.game.name, specs, game_map, dict(game_map.header), seed,
                                ctx.settings.time_limit, idx))
    return found


def _spec(ctx: LeagueContext, version_id: int) -> BotSpec:
    team, bot, _ = ctx.names(version_id)
    version = ctx.conn.execute("SELECT version FROM league_versions WHERE id = ?", (version_id,)).fetchone()[0]
    return BotSpec(f"{team}/{bot}@{version}", alias=f"{team}/{bot}")


def play_bots(ctx: LeagueContext, ids: Sequence[int], active: bool = False) -> tuple[StoredBot, ...]:
    """The versions the games ``ids`` play (and, with ``active``, every active version), as the workers
    register them (``team/bot@version``)."""
    wanted: set[int] = set()
    for idx in ids:
        wanted.update(json.loads(ctx.conn.execute("SELECT versions FROM league_queue WHERE idx = ?",
                                                  (idx,)).fetchone()[0]))
    if active:
        wanted.update(row[0] for row in ctx.conn.execute("SELECT version_id FROM league_active"))
    bots = []
    for version_id in sorted(wanted):
        team, bot, _ = ctx.names(version_id)
        version, kind, defines = ctx.conn.execute(
            "SELECT version, kind, defines FROM league_versions WHERE id = ?", (version_id,)).fetchone()
        files = tuple((p, m, bytes(d)) for p, m, d in ctx.conn.execute(
            "SELECT path, mode, data FROM league_files WHERE version_id = ? ORDER BY path", (version_id,)))
        bots.append(StoredBot(f"{team}/{bot}", version, kind, files, defines=defines))
    return tuple(bots)


def play_config_for(ctx: LeagueContext, ids: Sequence[int]) -> PluginConfig:
    """The plugin configuration the workers play games ``ids`` with (see :mod:`arena.league.sandboxing`)."""
    return sandboxing.play_config(play_bots(ctx, ids), ctx.settings.build_timeout)
