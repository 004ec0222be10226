"""Structured logs: ``key=value`` text for a person at a terminal, one JSON object per line for
machines (a pipe, a file, a log collector); ``LOG_FORMAT`` picks one whatever stderr is.

Every line, ours and uvicorn's and Alembic's alike, goes through the root handler that
:func:`configure` installs (structlog's ``ProcessorFormatter``) and carries ``timestamp``,
``level``, ``logger`` and ``event``; our events add their fields (``table``, ``version``,
``seq``, ``code`` …), and lines written while serving an HTTP request or a WebSocket carry its
``request_id`` (:class:`RequestIds`, also sent back as ``X-Request-ID``)::

    {"table": 17, "version": 42, "seq": 40, "event": "commit", "level": "info",
     "logger": "mu", "request_id": "5f0c…", "timestamp": "2026-11-22T10:01:02.345Z"}

No secret is ever written: every line, and every string value in it, passes through
:func:`redact` before it is rendered.
"""

from __future__ import annotations

import logging
import re
import secrets
import sys
from typing import Any, Literal, TextIO

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from structlog.typing import EventDict, WrappedLogger

# Where a seat or host token can stand in a line: a ``?token=`` query (the WebSocket's and the
# table info's, for clients other than browsers), the path of a rejoin link of the old form
# (``/t/{code}/rejoin/{token}``), a bearer credential. Invite codes are not secrets.
_SECRETS = re.compile(r"""([?&]token=|/rejoin/|\bbearer\s+)[^&\s"'/?#]+""", re.IGNORECASE)
REDACTED = "[redacted]"

logger = logging.getLogger("mu")
_events = structlog.stdlib.get_logger("mu")


def redact(text: str) -> str:
    """``text`` with every token-shaped secret replaced by ``[redacted]``.

    >>> redact('"WebSocket /ws/abc?token=s3cr3t&x=1" 101')
    '"WebSocket /ws/abc?token=[redacted]&x=1" 101'
    >>> redact("GET /t/abc/rejoin/s3cr3t HTTP/1.1")
    'GET /t/abc/rejoin/[redacted] HTTP/1.1'
    """
    return _SECRETS.sub(lambda match: match.group(1) + REDACTED, text)


def event(name: str, *, level: int = logging.INFO, **fields: Any) -> None:
    """Log the event ``name`` with ``fields`` (nothing is built when the level is off)."""
    if logger.isEnabledFor(level):
        _events.log(level, name, **fields)


def _redact_values(_logger: WrappedLogger, _name: str, event_dict: EventDict) -> EventDict:
    for key, value in event_dict.items():
        if isinstance(value, str):
            event_dict[key] = redact(value)
    return event_dict


class RedactSecrets(logging.Filter):
    """A handler filter: the record's final message, redacted (:func:`redact`), whatever
    formatter renders it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, dict):
            return True  # one of our events: its values are redacted by the formatter
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


_SHARED: list[structlog.typing.Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]

# Our events go through the standard library too (so a test's caplog, or any handler, sees
# them); the root handler's formatter renders them like every other line.
structlog.configure(
    processors=[
        structlog.stdlib.filter_by_level,
        *_SHARED,
        structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
    ],
    logger_factory=structlog.stdlib.LoggerFactory(),
    wrapper_class=structlog.stdlib.BoundLogger,
    cache_logger_on_first_use=True,
)


Format = Literal["json", "text"]


def default_format(stream: TextIO) -> Format:
    """``text`` when ``stream`` is a terminal (someone reads it), ``json`` otherwise."""
    isatty = getattr(stream, "isatty", None)
    return "text" if isatty is not None and isatty() else "json"


def _renderer(fmt: Format, stream: TextIO) -> structlog.typing.Processor:
    if fmt == "json":
        return structlog.processors.JSONRenderer()
    # Colours only for a terminal: ``LOG_FORMAT=text`` into a file stays plain text.
    return structlog.dev.ConsoleRenderer(colors=default_format(stream) == "text")


def configure(
    level: str = "INFO", fmt: Format | None = None, *, stream: TextIO | None = None
) -> None:
    """Root logging for ``python -m app``: one structured line per record, on ``stream``
    (stderr); ``fmt`` None: text for a terminal, JSON otherwise (:func:`default_format`)."""
    out = stream if stream is not None else sys.stderr
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=_SHARED,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            # A traceback becomes the ``exception`` string here, so it is redacted too.
            structlog.processors.format_exc_info,
            _redact_values,
            _renderer(fmt or default_format(out), out),
        ],
    )
    handler = logging.StreamHandler(out)
    handler.setFormatter(formatter)
    handler.addFilter(RedactSecrets())
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level)


class RequestIds:
    """ASGI middleware: each HTTP request and WebSocket gets a ``request_id`` in every log line
    written while it is served (the client's ``X-Request-ID`` if it sent a short, plain one),
    echoed in the response's ``X-Request-ID`` header."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = _request_id(dict(scope["headers"]).get(b"x-request-id", b""))

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
                message = {**message, "headers": headers}
            await send(message)

        with structlog.contextvars.bound_contextvars(request_id=request_id):
            await self.app(scope, receive, send_with_id)


def _request_id(sent: bytes) -> str:
    if 0 < len(sent) <= 64 and re.fullmatch(rb"[A-Za-z0-9._-]+", sent):
        return sent.decode()
    return secrets.token_hex(8)
