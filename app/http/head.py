"""``HEAD`` wherever ``GET`` is (uptime monitors and link checkers send HEAD).

Starlette answers HEAD for its own routes and static files, but FastAPI's routes take only the
methods they declare, so ``HEAD /`` was a 405. This middleware, outermost, serves a HEAD
request as the GET it stands for and drops the body: the status and headers (the length, the
type, the cache headers) are those of the GET.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)
