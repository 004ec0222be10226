"""App-wide error answers.

- Request validation errors as 422, whatever bytes the client sent. FastAPI's default handler
  echoes the offending input, and for a body that is not UTF-8 its encoder fails while
  decoding those bytes: the client got a 500 and its connection was reset (found by
  tests/app/test_fuzz_ws.py). Same answer shape, bytes decoded leniently. Python's JSON parser
  also accepts ``NaN`` and ``Infinity``, which JSON itself cannot carry: echoed as is, they made
  the answer unserialisable (500, connection reset); they are echoed as the strings "nan", "inf".
- A database that cannot be reached (down, restarting, a lock or pool wait that timed out)
  as 503 with a plain message, not a 500 with a trace: the client may simply try again.
- The JSON error body every API answers with, ``{"detail": {"code": ..., "message": ...}}``.
"""

from __future__ import annotations

import math

import psycopg
import sqlalchemy.exc
from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app import logging as log

# What the drivers raise when the database is out of reach: SQLAlchemy wraps its drivers'
# errors; the commit pool (app/tables/writer.py) raises psycopg's own, PoolTimeout included.
DATABASE_UNAVAILABLE = (sqlalchemy.exc.OperationalError, psycopg.OperationalError)
UNAVAILABLE_MESSAGE = "the database is not reachable just now; nothing was lost, try again"


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    detail: ErrorDetail


def error_response(status_code: int, code: str, message: str) -> JSONResponse:
    """An ``ErrorBody`` answer: a stable machine ``code`` and a message for people."""
    return JSONResponse({"detail": {"code": code, "message": message}}, status_code=status_code)


def _finite(number: float) -> float | str:
    return number if math.isfinite(number) else str(number)


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    lenient = {bytes: lambda raw: raw.decode("utf-8", "replace"), float: _finite}
    detail = jsonable_encoder(exc.errors(), custom_encoder=lenient)
    return JSONResponse({"detail": detail}, status_code=422)


async def _database_unavailable(request: Request, exc: Exception) -> JSONResponse:
    log.event("database_unavailable", path=request.url.path, error=type(exc).__name__)
    return JSONResponse({"detail": UNAVAILABLE_MESSAGE}, status_code=503)


def install(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation_error)
    for error in DATABASE_UNAVAILABLE:
        app.add_exception_handler(error, _database_unavailable)
