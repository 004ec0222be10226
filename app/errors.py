"""Request validation errors as 422, whatever bytes the client sent.

FastAPI's default handler echoes the offending input, and for a body that is not UTF-8 its
encoder fails while decoding those bytes: the client got a 500 and its connection was reset
(found by tests/app/test_fuzz_ws.py). Same answer shape, bytes decoded leniently.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    lenient = {bytes: lambda raw: raw.decode("utf-8", "replace")}
    detail = jsonable_encoder(exc.errors(), custom_encoder=lenient)
    return JSONResponse({"detail": detail}, status_code=422)


def install(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation_error)
