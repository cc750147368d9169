"""What each page shows, read from the league: the dicts the JSON API returns and the templates render."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from typing import Any

from arena.core.errors import ArenaError
from arena.league.facade import League
from arena.league.models import GameInfo, Organiser, Team
from arena.league.web import privacy, views
from arena.report.charts import ChartLayout, SparklineLayout, point_layout, sparkline_layout
from arena.stats.proportions import score_rate

MAX_GAMES = 500
"""The most games one request may list."""


class NotFound(ArenaError):
    """A bot or game this league does not have (answered 404)."""


def leaderboard(league: League) -> dict[str, Any]:
    """The leaderboard: every team's active bot, best first, with its crashes, time-outs and illegal moves in
    ranked games; the bots whose every version was disabled (listed, unranked); how many rated games there are."""
    counts = league.failure_counts()
    rows = [views.board_row(row, counts.get((row.team, row.bot, row.number), {})) for row in league.leaderboard()]
    disabled = [{"team": team, "bot": bot, "label": f"{team}/{bot}", "number": number, "status": "disabled",
                 "url": views.bot_path(team, bot)} for team, bot, number in league.disabled_bots()]
    return {"rows": rows, "disabled": disabled, "games": sum(row["games"] for row in rows) // max(1, league.players),
            "paused": league.paused}


def bot(league: League, team: str, name: str, with_logs: bool = False, games: int = 20) -> dict[str, Any]:
    """A bot's page; :class:`NotFound` for a bot the league does not have."""
    try:
        info = league.bot(team, name, games)
    except ArenaError as exc:
        raise NotFound(str(exc)) from None
    return views.bot(info, with_logs)


def games(league: League, bot: str | None, limit: int) -> dict[str, Any]:
    """The newest games, of one bot (``team/bot``) or all."""
    if not 1 <= limit <= MAX_GAMES:
        raise ArenaError(f"limit must be 1 to {MAX_GAMES}")
    try:
        found = league.games(bot or None, limit)
    except ArenaError as exc:
        raise NotFound(str(exc)) from None
    return {"bot": bot or None, "limit": limit, "games": [views.game(info) for info in found]}


def game(league: League, game_id: int, who: Team | Organiser | None = None) -> dict[str, Any]:
    """One finished game as ``who`` may read it (:mod:`~arena.league.web.privacy`): each failure's kind and
    short reason, with the reason, traceback and stderr in full for ``who``'s own seats (the organiser's: all);
    :class:`NotFound` if there is no game ``game_id``."""
    try:
        info = league.game_info(game_id)
    except ArenaError as exc:
        raise NotFound(str(exc)) from None
    found = views.game(info)  # a game without failures, read by anyone: its line of the games' list
    visible = privacy.visible_seats(who, info.seats)
    if visible or any(seat.failure for seat in info.seats):
        shown = named_files(privacy.record_for(league.game_record(game_id), visible, isinstance(who, Organiser)),
                            info)
        found["reason"] = shown["result"]["reason"]
        for key in ("failures", "stderr"):
            if shown.get(key):
                found[key] = shown[key]
    return found


def record(league: League, game_id: int, who: Team | Organiser | None = None) -> dict[str, Any]:
    """One finished game's record as ``who`` may read it (see :func:`game`)."""
    try:
        info = league.game_info(game_id)
        found = league.game_record(game_id)
    except ArenaError as exc:
        raise NotFound(str(exc)) from None
    return named_files(privacy.record_for(found, privacy.visible_seats(who, info.seats), isinstance(who, Organiser)),
                       info)


def named_files(record: dict[str, Any], info: GameInfo) -> dict[str, Any]:
    """``record`` with the files of each seat's bot named by team, bot and version (``bob/crasher v1
    crasher.py:11``), not by the temporary folder the bot played from: in its failures, its logs and the result's
    reason."""
    def named(match: re.Match[str]) -> str:
        folder = match.group(0).rstrip("/").rsplit("/", 1)[-1]
        owners = [player for player in info.seats if folder.startswith(f"{player.team}_{player.bot}-")]
        if len({(p.team, p.bot, p.number) for p in owners}) != 1:
            return ""  # whose it is is unclear: the file's own name, never the host's folder
        return f"{owners[0].label} v{owners[0].number} "

    def text(value: Any) -> Any:
        return PLAYED_FROM.sub(named, value) if isinstance(value, str) else value

    shown = dict(record)
    if isinstance(record.get("failures"), list):
        shown["failures"] = [{key: text(value) if key in ("detail", "traceback", "stderr") else value
                              for key, value in entry.items()} if isinstance(entry, dict) else entry
                             for entry in record["failures"]]
    if isinstance(record.get("stderr"), dict):
        shown["stderr"] = {seat: text(log) for seat, log in record["stderr"].items()}
    if isinstance(record.get("result"), dict) and "reason" in record["result"]:
        shown["result"] = {**record["result"], "reason": text(record["result"]["reason"])}
    return shown


def _own_seats(league: League, team: Team, games_per_bot: int) -> Iterator[tuple[GameInfo, list[int]]]:
    """Each recent game of each of ``team``'s bots (its newest ``games_per_bot``), with the seats its bot
    played: the only seats of the game whose failures and logs are the team's to read."""
    for name in sorted({v.bot for v in league.versions(team)}):
        try:
            recent = league.games(f"{team.name}/{name}", games_per_bot)
        except ArenaError:
            continue
        for info in recent:
            yield info, [index for index, player in enumerate(info.seats)
                         if player.team == team.name and player.bot == name]


def failures(league: League, team: Team, games_per_bot: int = 20) -> list[dict[str, Any]]:
    """How ``team``'s bots failed in their recent games, newest first: the kind, the detail and the traceback
    or stderr the record kept. Only the team's own bots' failures: another team's are not its to read."""
    found = []
    for info, own in _own_seats(league, team, games_per_bot):
        seats = [index for index in own if info.seats[index].failure]
        if not seats:
            continue
        record = league.game_record(info.id)
        kept = {int(f.get("seat", -1)): f for f in record.get("failures", [])}
        for index in seats:
            failure = kept.get(index, {})
            player = info.seats[index]
            stderr = failure.get("stderr") or record.get("stderr", {}).get(str(index), "")  # a program's, by seat
            named = f"{player.label} v{player.number} "
            found.append({"game": info.id, "label": player.label, "number": player.number,
                          "kind": failure.get("kind", player.failure),
                          "detail": bot_files(failure.get("detail", ""), named),
                          "traceback": bot_files(failure.get("traceback", ""), named),
                          "stderr": bot_files(stderr, named)})
    return sorted(found, key=lambda f: -f["game"])


PLAYED_FROM = re.compile(re.escape(tempfile.gettempdir().rstrip("/")) +
                         r"/arena-(?:unpacked-[^/\s]+/run-[^/\s]+|bots-[^/\s]+)/[^/\s]+/")
"""The folder a stored bot plays from in a game (unpacked for the game's process or worker)."""


def bot_files(text: str, named: str) -> str:
    """``text`` with the folder a bot played from shown as ``named`` (``bob/crasher v1 crasher.py:11``)."""
    return PLAYED_FROM.sub(named, text)


def failure_groups(league: League, team: Team, games_per_bot: int = 20) -> list[dict[str, Any]]:
    """``team``'s :func:`failures` grouped by bot, version, kind and message: how many, the first and last game,
    and one traceback and stderr (the newest), most frequent first. A bot failing the same way in every game
    reads as one entry, not one per game."""
    groups: dict[tuple[str, int, str, str], dict[str, Any]] = {}
    for failure in failures(league, team, games_per_bot):  # newest first: the first seen keeps its traceback
        key = (failure["label"], failure["number"], failure["kind"], failure["detail"])
        group = groups.get(key)
        if group is None:
            groups[key] = {"label": failure["label"], "number": failure["number"], "kind": failure["kind"],
                           "detail": failure["detail"], "count": 1, "first_game": failure["game"],
                           "last_game": failure["game"], "traceback": failure["traceback"],
                           "stderr": failure["stderr"]}
        else:
            group["count"] += 1
            group["first_game"] = min(group["first_game"], failure["game"])
    return sorted(groups.values(), key=lambda g: (-g["count"], -g["last_game"], g["label"], g["kind"]))


LOG_GAMES = 10
"""How many of each bot's newest games the team page lists the logs of."""


def logs(league: League, team: Team, games_per_bot: int = LOG_GAMES) -> list[dict[str, Any]]:
    """The logs of ``team``'s own bots in their recent games, newest first: what each printed, logged or wrote to
    stderr in the game (capped). Never another team's seat, even in the same game."""
    found = []
    for info, seats in _own_seats(league, team, games_per_bot):
        kept = league.game_record(info.id).get("stderr") or {}
        for index in seats:
            text = kept.get(str(index))
            if text:
                player = info.seats[index]
                found.append({"game": info.id, "seat": index, "label": player.label, "number": player.number,
                              "log": bot_files(text, f"{player.label} v{player.number} ")})
    return sorted(found, key=lambda log: (-log["game"], log["seat"]))


SPARKLINE_POINTS = 40
"""How many of a bot's newest ratings its leaderboard sparkline draws."""
CHART_POINTS = 400
"""How many of each version's newest ratings the bot page's chart draws."""


def bot_page(league: League, team: str, name: str, with_logs: bool = False, games: int = 20) -> dict[str, Any]:
    """A bot's page: :func:`bot`, with each version's rating history and the head to head with intervals."""
    found = bot(league, team, name, with_logs, games)
    for version in found["versions"]:
        version["history"] = [{"game": idx, "mu": mu, "sigma": sigma, "rating": mu - 3 * sigma,
                               "high": mu + 3 * sigma}
                              for idx, mu, sigma in league.rating_history(version["id"], CHART_POINTS)]
    rows = []
    for label, wins, draws, losses in league.head_to_head(team, name):
        rate = score_rate(wins, draws, losses)
        other_team, _, other_bot = label.partition("/")
        rows.append({"label": label, "url": views.bot_path(other_team, other_bot), "games": wins + draws + losses,
                     "wins": wins, "draws": draws, "losses": losses, "score": rate.score, "low": rate.lower,
                     "high": rate.upper})
    found["head_to_head"] = rows
    return found


def sparklines(league: League, board: dict[str, Any]) -> dict[str, SparklineLayout]:
    """Each leaderboard bot's sparkline: its active version's newest ratings (mu - 3 sigma)."""
    lines = {}
    for row in board["rows"]:
        active = [v.id for v in league.versions(row["team"], row["bot"]) if v.number == row["number"]]
        history = league.rating_history(active[0], SPARKLINE_POINTS) if active else []
        values = [mu - 3 * sigma for _, mu, sigma in history]
        lines[row["label"]] = sparkline_layout(values, title=f"{row['label']}: rating over its last {len(values)} "
                                                             "games")
    return lines


def rating_chart(found: dict[str, Any]) -> ChartLayout:
    """The bot page's chart: mu after each rated game, one line per version along the league's games, in a band
    of mu - 3 sigma to mu + 3 sigma (the rank is the band's low edge: it rises as sigma shrinks, even for a bot
    that loses)."""
    ids = sorted({point["game"] for version in found["versions"] for point in version["history"]})
    position = {game_id: index for index, game_id in enumerate(ids)}
    shown = [version for version in found["versions"] if version["history"]]
    series = {f"v{v['number']}": [(position[p["game"]], p["mu"]) for p in v["history"]] for v in shown}
    bands = {f"v{v['number']}": [(position[p["game"]], p["rating"], p["high"]) for p in v["history"]] for v in shown}
    return point_layout(f"{found['label']}: mu after each rated game, in a band of mu \u00b1 3 sigma", series,
                        "its rated games, oldest first", bands=bands)


def organiser_versions(league: League) -> list[dict[str, Any]]:
    """Every version of every team's bots, by team, bot and number (newest first): what the organiser picks
    from to disable one. ``value`` is what the organiser's form sends back (``team/bot/number``)."""
    found = []
    for team in league.teams():
        for info in league.versions(team):
            found.append({"team": team.name, "bot": info.bot, "number": info.number, "status": info.status,
                          "active": info.active, "value": f"{team.name}/{info.bot}/{info.number}",
                          "label": f"{team.name}/{info.bot} v{info.number}"})
    return found


def chosen_version(value: str) -> tuple[str, str, int]:
    """A version the organiser picked (``team/bot/number``) as ``(team, bot, number)``, or an
    :class:`ArenaError` saying what is wrong."""
    team, _, rest = value.strip().partition("/")
    bot, _, number = rest.rpartition("/")
    if not team or not bot or not number.isdigit():
        raise ArenaError(f"pick a version from the list (team/bot/number), not {value[:40]!r}")
    return team, bot, int(number)


def organiser(league: League) -> dict[str, Any]:
    """The organiser's page: ranked play paused or not, the teams, every version, the maps, the deadline, the
    queue and the workers."""
    workers = league.workers()
    return {"paused": league.paused, "teams": [team.name for team in league.teams()],
            "versions": organiser_versions(league), "maps": list(league.settings.maps),
            "deadline": league.deadline(), "final_started": league.final_started(),
            "queue": [vars(entry) | {"players": list(entry.players)} for entry in league.queue()],
            "workers": None if workers is None else vars(workers)}


def final(league: League) -> dict[str, Any]:
    """The final with its table and (an elimination final) its bracket; :class:`NotFound` without a final."""
    if not league.final_started():
        raise NotFound("this league has had no final (start one with `arena league final`)")
    return league.final_summary()
