"""``arena submit``'s side of the API, on the standard library alone: pack a bot and post it to a league.

A ``.py`` file is sent as it is; a folder (which must hold an ``arena-bot.toml``) is sent as a ``.zip`` of its
files, leaving out caches and hidden entries. The request is ``POST /api/submissions`` as
``multipart/form-data`` with the team's token in ``Authorization: Bearer TOKEN``; the answer is the new
version as JSON, or a 4xx whose ``detail`` says why it was refused.
"""

from __future__ import annotations

import io
import json
import secrets
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError

MANIFEST = "arena-bot.toml"
SKIPPED = ("__pycache__", ".git", ".hg", ".svn", ".venv", "node_modules")
"""Folders never packed: caches, version control and environments a bot does not need to run."""
TIMEOUT = 300.0
"""Seconds to wait for the server's answer: a submission is built before it is answered."""


@dataclass(frozen=True)
class Upload:
    """What is sent: the file name the server sees and its bytes."""

    filename: str
    data: bytes


def pack(path: Path) -> Upload:
    """The upload for a bot at ``path``: a ``.py`` file as it is, or a folder with ``arena-bot.toml`` as a zip."""
    if path.is_file():
        if path.suffix != ".py":
            raise ArenaError(f"{path} is not a .py file; submit a bot's .py file or its folder")
        return Upload(path.name, path.read_bytes())
    if path.is_dir():
        if not (path / MANIFEST).is_file():
            raise ArenaError(f"{path} has no {MANIFEST}; a folder bot declares how it runs there")
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for file in sorted(_files(path)):
                archive.write(file, file.relative_to(path).as_posix())
        return Upload(f"{path.resolve().name}.zip", buffer.getvalue())
    raise ArenaError(f"{path} does not exist")


def _files(folder: Path) -> list[Path]:
    found = []
    for entry in folder.iterdir():
        if entry.name in SKIPPED or entry.name.startswith("."):
            continue
        if entry.is_symlink():
            raise ArenaError(f"{entry} is a link; a submitted folder holds files and folders only")
        if entry.is_dir():
            found += _files(entry)
        elif entry.is_file():
            found.append(entry)
    return found


def multipart_body(upload: Upload) -> tuple[bytes, str]:
    """The ``multipart/form-data`` body posting ``upload`` as the form's ``file`` field, and its content type."""
    boundary = f"arena-{secrets.token_hex(16)}"
    quoted = upload.filename.replace("\\", "_").replace('"', "_").replace("\r", "_").replace("\n", "_")
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{quoted}\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n").encode()
    return head + upload.data + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def api_url(server: str, path: str) -> str:
    """The address of API ``path`` on ``server`` (``http://host:port``, maybe with a prefix it is served under)."""
    parsed = urllib.parse.urlsplit(server)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ArenaError(f"{server!r} is not a server address like http://127.0.0.1:8000")
    return server.rstrip("/") + path


def submit(path: Path, server: str, token: str) -> dict[str, Any]:
    """Send the bot at ``path`` to the league at ``server`` as the team whose token is ``token``; returns the new
    version as the server describes it. Raises :class:`ArenaError` with the server's reason when it refuses."""
    if not token:
        raise ArenaError("no token: pass --token or set ARENA_TOKEN")
    url = api_url(server, "/api/submissions")
    body, content_type = multipart_body(pack(path))
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": content_type, "Accept": "application/json"})
    return _json_answer(request, url)


def _json_answer(request: urllib.request.Request, url: str) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return _decode(response.read(), url)
    except urllib.error.HTTPError as exc:
        detail = _detail(exc.read())
        raise ArenaError(f"the server refused it ({exc.code}): {detail}") from None
    except urllib.error.URLError as exc:
        raise ArenaError(f"cannot reach {url}: {exc.reason}") from None
    except (TimeoutError, ConnectionError) as exc:
        raise ArenaError(f"cannot reach {url}: {exc}") from None


def _decode(raw: bytes, url: str) -> dict[str, Any]:
    try:
        answer = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ArenaError(f"{url} did not answer with JSON; is it an arena league?") from None
    if not isinstance(answer, dict):
        raise ArenaError(f"{url} answered with something other than a JSON object")
    return answer


def _detail(raw: bytes) -> str:
    """The reason in an error answer: its JSON ``detail``, or its text."""
    try:
        detail = json.loads(raw).get("detail")
    except (UnicodeDecodeError, json.JSONDecodeError, AttributeError):
        return raw.decode("utf-8", "replace").strip()[:300] or "no reason given"
    if isinstance(detail, list):  # FastAPI's validation errors
        return "; ".join(str(item.get("msg", item)) if isinstance(item, dict) else str(item) for item in detail)
    return str(detail)
