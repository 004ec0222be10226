"""Gzip for the files every table page loads (scripts, styles, the scripts' strings, the rules).

Only public, static-like responses are compressed: a response that holds a secret (a seat or
host token) next to text an attacker may choose could leak it through its compressed size
(BREACH), so API answers and pages stay as they are. The table page's budget (150 KB with
everything it loads) counts bytes on the wire; compressed, the scripts cost about a third.
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

# Path prefixes of responses that never carry a secret.
PUBLIC = ("/static/", "/i18n/", "/api/rules")
MINIMUM_SIZE = 1024


class PublicGzip:
    """Gzip (when the client accepts it) for ``PUBLIC`` paths only."""

    def __init__(self, app: ASGIApp) -> None:
        self._plain = app
        self._gzip = GZipMiddleware(app, minimum_size=MINIMUM_SIZE)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(PUBLIC):
            await self._gzip(scope, receive, send)
        else:
            await self._plain(scope, receive, send)
