"""A ceiling on HTTP request bodies, before anything reads them into memory.

uvicorn and FastAPI read a body whole, whatever its size; every body this API takes is a
small JSON object. A request that declares (``Content-Length``) or streams more than
``HTTP_BODY_MAX_BYTES`` is answered 413 ``too_large`` and changes nothing.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def _too_large(max_bytes: int) -> dict[str, str]:
    return {"code": "too_large", "message": f"request bodies are limited to {max_bytes} bytes"}


class BodyLimit:
    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            response = JSONResponse({"detail": _too_large(self.max_bytes)}, status_code=413)
            await response(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:  # streamed without a (true) length
                raise HTTPException(413, detail=_too_large(self.max_bytes))  # type: ignore[arg-type]
            return message

        await self.app(scope, counted, send)
