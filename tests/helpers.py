"""What several test modules share: the repository's path, small files to write, a tournament to play."""

import sqlite3
from pathlib import Path
from textwrap import dedent

REPO = Path(__file__).resolve().parent.parent

# Where programs keep caches and settings in the user's home directory (matplotlib's font cache, Chromium's
# crash reports, numba's cache when the source is read-only, arena's own solution cache). Set while pytest
# starts, before the test modules import anything, so the tests and every process they start use a
# temporary directory instead.
USER_DIRECTORIES = ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "MPLCONFIGDIR",
                    "ARENA_CACHE")


def write_module(directory: Path, name: str, source: str) -> Path:
    """Write ``source`` (dedented) to ``directory/name``, making the directory, and return the path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(dedent(source))
    return path


def round_robin_run(maps, bots, registry, config, *, workers=1, games=2, seed=0, time_limit=1.0, in_process=None,
                    on_outcome=None, **definition):
    """Plan and play a tournament; returns the run and its outcomes by schedule index."""
    from arena.tournament.definition import TournamentDefinition
    from arena.tournament.plan import plan_tournament
    from arena.tournament.runner import TournamentRun, play_tournament

    tournament = plan_tournament(TournamentDefinition(maps=tuple(maps), bots=tuple(bots), games=games, seed=seed,
                                              time_limit=time_limit, **definition), registry)
    run = TournamentRun(tournament)
    outcomes = {}

    def collect(outcome):
        outcomes[outcome.index] = outcome
        if on_outcome is not None:
            on_outcome(outcome)

    play_tournament(run, registry, config, workers=workers, on_outcome=collect,
                    in_process=workers == 1 if in_process is None else in_process)
    return run, outcomes


def line_of(path: Path, text: str) -> int:
    """The 1-based number of the first line of ``path`` that contains ``text``."""
    return next(number for number, line in enumerate(path.read_text().splitlines(), start=1) if text in line)


VERSIONED_HUGGER = """
    from arena import bot


    @bot(name="hugger", game="tron")
    def hugger(obs, rng):
        \"\"\"Version {version}: the safe move with the most walls around it.\"\"\"
        moves = obs.safe_moves()
        return max(moves, key=obs.walls_around) if moves else "N"
    """
"""A hugger bot whose source (and so its version) changes with ``.format(version=N)``."""


def games_stored(db, below=None) -> int:
    """How many games database ``db`` holds (only those placed before ``below`` in their schedule, if given),
    read without writing (0 while it does not exist yet)."""
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            if below is not None:
                return conn.execute("SELECT count(*) FROM games WHERE idx < ?", (below,)).fetchone()[0]
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def assert_summaries_match_games(store, run_id: int) -> None:
    """Stored run ``run_id``'s summaries equal a rebuild from its games (the rebuild is rolled back), and the
    standings and analysis read from them equal the ones computed from the games themselves (the ratings too,
    once the run is finished)."""
    from arena.stats.analysis import analyse
    from arena.stats.standings import standings_from_games
    from arena.storage import summaries, summary_queries
    from arena.storage.history import played_from_rows

    store.conn.execute("BEGIN IMMEDIATE")
    try:
        kept = summaries.contents(store.conn, run_id)
        summaries.rebuild(store.conn, run_id)
        assert summaries.contents(store.conn, run_id) == kept
    finally:
        store.conn.execute("ROLLBACK")
    run = store.run(run_id)
    played = played_from_rows(list(store.games(run_id=run_id)))
    expected, got = standings_from_games(run.game, played, run.scheduled), summary_queries.standings(store, run_id)
    assert (got.played, got.scheduled, got.roles, got.head_to_head, got.draw_probability) == (
        expected.played, expected.scheduled, expected.roles, expected.head_to_head, expected.draw_probability)

    def counts(standings):
        return sorted((r.label, r.role or "", r.games, r.wins, r.draws, r.losses, dict(r.failures))
                      for r in standings.rows)

    assert counts(got) == counts(expected)
    for mine, theirs in zip(sorted(got.rows, key=lambda r: (r.label, r.role or "")),
                            sorted(expected.rows, key=lambda r: (r.label, r.role or "")), strict=True):
        assert abs(mine.think_time - theirs.think_time) <= 1e-6 * mine.games
    if run.status != "running":
        assert [(r.label, r.role, r.rating) for r in got.rows] == [(r.label, r.role, r.rating) for r in expected.rows]
    assert summary_queries.analysis(store, run_id) == analyse(played)
