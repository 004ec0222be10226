"""410 Gone for a deleted table's pages and API (``/t/{code}…``, ``/api/tables/{code}…``).

A pure ASGI middleware (sockets pass through: the endpoint closes them with 4410): a table
this process holds whose room saw the host's ``deleted`` marker, or one with a tombstone
(``deletion.is_deleted``, one indexed lookup), answers 410 with the error body
``table_deleted`` (the API) or a page that offers the home page (everything else).
"""

from __future__ import annotations

import re

from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from app.host import deletion, pages
from app.http.errors import error_response
from app.room.hub import Hub

_TABLE_PATH = re.compile(r"^/(?P<api>api/tables|t)/(?P<code>[A-Za-z0-9_-]{8,128})(?:/|$)")
MESSAGE = "the host deleted this table's history"


class Gone:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            match = _TABLE_PATH.match(scope["path"])
            if match is not None and await _deleted(scope, match["code"]):
                response: Response = (
                    pages.gone_page(scope)
                    if match["api"] == "t"
                    else error_response(410, "table_deleted", MESSAGE)
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _deleted(scope: Scope, code: str) -> bool:
    state = scope["app"].state
    hub: Hub = state.hub
    room = hub.peek(code)
    if room is not None and room.live.host.deleted:
        return True
    return await deletion.is_deleted(state.db_engine, code)
