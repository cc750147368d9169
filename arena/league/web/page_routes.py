"""Which API route gives each page's data: every HTML page of the league site has a JSON twin (a test checks
this table against the application's routes, so a new page without one fails)."""

from __future__ import annotations

PAGE_API: dict[str, tuple[str, str]] = {
    "/": ("GET", "/api/leaderboard"),
    "/bots/{team}/{bot}": ("GET", "/api/bots/{team}/{bot}"),
    "/games": ("GET", "/api/games"),
    "/games/{game_id}": ("GET", "/api/games/{game_id}"),
    "/final": ("GET", "/api/final"),
    "/final/bracket": ("GET", "/api/final"),
    "/api": ("GET", "/openapi.json"),
    "/sign-in": ("GET", "/api/team"),
    "/team": ("GET", "/api/team"),
    "/organiser": ("GET", "/api/organiser"),
}
"""Each page (GET) and the API route (method, path) with its data: the sign-in page's is the team of a token."""

FORM_API: dict[str, tuple[str, str]] = {
    "/team/submit": ("POST", "/api/submissions"),
    "/team/active": ("POST", "/api/team/active"),
    "/team/challenge": ("POST", "/api/challenges"),
}
"""Each team form and the API route doing the same."""

BROWSER_ONLY = {"/sign-in": "a browser's session (the API sends a token with every request)",
                "/sign-out": "ends a browser's session",
                "/organiser/{action}": "the organiser's operations (`arena league` on the server)"}
"""The forms (POST) with no API twin, and why."""
