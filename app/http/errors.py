"""App-wide error answers.

- Request validation errors as 422, whatever bytes the client sent. FastAPI's default handler
  echoes the offending input, and for a body that is not UTF-8 its encoder fails while
  decoding those bytes: the client got a 500 and its connection was reset (found by
  tests/app/test_fuzz_ws.py). Same answer shape, bytes decoded leniently. Python's JSON parser
  also accepts ``NaN`` and ``Infinity``, which JSON itself cannot carry: echoed as is, they made
  the answer unserialisable (500, connection reset); they are echoed as the strings "nan", "inf".
- A database that cannot be reached (down, restarting, a lock or pool wait that timed out)
  as 503 with a plain message, not a 500 with a trace: the client may simply try again.
- The JSON error body every API answers with, ``{"detail": {"code": ..., "message": ...}}``
  (``ErrorBody``): the validation errors of a 422 ``invalid_request`` in ``detail.errors``,
  and Starlette's own errors (400 ``bad_body``, 404, 405 ...) in the same shape. A 405's
  ``Allow`` lists the methods of every route at that path, not of the first one only.
- A browser that asked for a page (a navigation: ``GET`` accepting ``text/html``, outside
  ``/api/``) gets a page instead, for a 404, a 503 and a fault of ours (500): the hook the
  shell passes to ``install`` (``app/web/problems.py``, the one look of every problem page).
  Programs keep the JSON body, a 500 included (``internal``, logged with its trace).
- The OpenAPI document says so (``install_openapi``): every operation documents the errors it
  can answer with (400 and 413 where it reads a body, 422 where it takes input, 503), all
  as ``ErrorBody`` (a form whose 422 shows its page again keeps that ``text/html`` beside it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeAlias

import psycopg
import sqlalchemy.exc
from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from app import logging as log

# What the drivers raise when the database is out of reach: SQLAlchemy wraps its drivers'
# errors; the commit pool (app/tables/writer.py) raises psycopg's own, PoolTimeout included.
DATABASE_UNAVAILABLE = (sqlalchemy.exc.OperationalError, psycopg.OperationalError)
UNAVAILABLE_MESSAGE = "the database is not reachable just now; nothing was lost, try again"
INTERNAL_MESSAGE = "the server failed to answer; nothing accepted was lost, try again"

# (request, status, code) -> the page a browser gets for that error (app/web/problems.py).
PageHook: TypeAlias = Callable[[Request, int, str], Response]


def wants_page(request: Request) -> bool:
    """A browser's navigation to a page, as opposed to a program's (or a script's) request."""
    return (
        request.method in ("GET", "HEAD")
        and not request.url.path.startswith("/api/")
        and "text/html" in request.headers.get("accept", "")
    )


class ValidationIssue(BaseModel):
    """One thing wrong with a request (pydantic's error, its input echoed)."""

    model_config = ConfigDict(extra="allow")

    loc: list[str | int] = Field(description="where: body, query, path, then the field names")
    msg: str
    type: str


class ErrorDetail(BaseModel):
    code: str = Field(description="stable, for programs: e.g. unknown_table, invalid_request")
    message: str = Field(description="for people")
    errors: list[ValidationIssue] | None = Field(
        default=None, description="422 invalid_request only: what was wrong, per field"
    )


class ErrorBody(BaseModel):
    detail: ErrorDetail


def error_response(status_code: int, code: str, message: str) -> JSONResponse:
    """An ``ErrorBody`` answer: a stable machine ``code`` and a message for people."""
    return JSONResponse({"detail": {"code": code, "message": message}}, status_code=status_code)


def _finite(number: float) -> float | str:
    return number if math.isfinite(number) else str(number)


async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    lenient = {bytes: lambda raw: raw.decode("utf-8", "replace"), float: _finite}
    issues = jsonable_encoder(exc.errors(), custom_encoder=lenient)
    return JSONResponse(validation_body(issues), status_code=422)


def validation_body(issues: list[Any]) -> dict[str, Any]:
    message = "the request is not valid; see errors"
    return {"detail": {"code": "invalid_request", "message": message, "errors": issues}}


def _page_hook(request: Request) -> PageHook | None:
    hook: PageHook | None = getattr(request.app.state, "problem_page", None)
    return hook if hook is not None and wants_page(request) else None


async def _database_unavailable(request: Request, exc: Exception) -> Response:
    log.event("database_unavailable", path=request.url.path, error=type(exc).__name__)
    if page := _page_hook(request):
        return page(request, 503, "unavailable")
    return error_response(503, "unavailable", UNAVAILABLE_MESSAGE)


async def _internal_error(request: Request, exc: Exception) -> Response:
    """A fault of ours (Starlette still re-raises it, so the server logs its trace)."""
    log.event("internal_error", path=request.url.path, error=type(exc).__name__)
    if page := _page_hook(request):
        return page(request, 500, "internal")
    return error_response(500, "internal", INTERNAL_MESSAGE)


_HTTP_CODES = {
    400: "bad_body",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
}


def _allowed_methods(request: Request) -> str:
    """Every method some route at this path answers (Starlette names only the first route's)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches({**request.scope, "method": "\0"})
        if match != Match.NONE:
            methods.update(getattr(route, "methods", None) or ())
    if "GET" in methods:
        methods.add("HEAD")
    return ", ".join(sorted(methods))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404 and (page := _page_hook(request)):
        return page(request, 404, "not_found")
    detail: Any = exc.detail
    if not (isinstance(detail, dict) and {"code", "message"} <= detail.keys()):
        detail = {"code": _HTTP_CODES.get(exc.status_code, "error"), "message": str(detail)}
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = _allowed_methods(request)
    return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=headers)


def install(app: FastAPI, page: PageHook | None = None) -> None:
    """The handlers; with ``page``, browsers' navigations get pages for 404, 500 and 503."""
    app.state.problem_page = page
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(500, _internal_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    for error in DATABASE_UNAVAILABLE:
        app.add_exception_handler(error, _database_unavailable)


def error_doc(description: str) -> dict[str, Any]:
    """An OpenAPI response whose body is an ``ErrorBody``."""
    schema = {"$ref": "#/components/schemas/ErrorBody"}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def amend_openapi(app: FastAPI, amend: Callable[[dict[str, Any]], None]) -> None:
    """Have ``amend`` complete the OpenAPI document FastAPI generates (once: it is kept)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        document = generate()
        amend(document)
        app.openapi_schema = document
        return document

    app.openapi = openapi  # type: ignore[method-assign]


def install_openapi(app: FastAPI) -> None:
    """Complete the generated OpenAPI document with the errors every operation may answer."""
    amend_openapi(app, _document_errors)


def _document_errors(document: dict[str, Any]) -> None:
    for path, operations in document.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            if "requestBody" in operation:
                responses.setdefault("400", error_doc("bad_body: the body is not readable JSON"))
                responses.setdefault("413", error_doc("too_large: the body is over the limit"))
            if "requestBody" in operation or operation.get("parameters"):
                mine = responses.get("422", {})
                own = f"; {mine.get('description', '')}" if "ErrorBody" in str(mine) else ""
                responses["422"] = error_doc(f"invalid_request (errors lists what){own}")
                if page := mine.get("content", {}).get("text/html"):  # a form's page, shown again
                    responses["422"]["content"]["text/html"] = page
                    responses["422"]["description"] += f"; text/html: {mine['description']}"
            if path.startswith("/api/"):
                unavailable = error_doc("unavailable: the database is not reachable")
                responses.setdefault("503", unavailable)
    schemas = document.get("components", {}).get("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
