"""Structured log lines: ``event=commit table=17 version=42 seq=40`` (key=value, one per event).

Operators grep and aggregate these (by table, by event); the values are numbers and short
codes, and anything with spaces or quotes is quoted so a line always splits the same way.

No secret is ever written: the handlers that :func:`configure` sets up pass every line, ours
and uvicorn's access and WebSocket lines alike, through :func:`redact`.
"""

from __future__ import annotations

import logging
import re
from typing import Any

logger = logging.getLogger("mu")

LOG_FORMAT = "%(asctime)s level=%(levelname)s logger=%(name)s %(message)s"


def _value(value: Any) -> str:
    text = str(value)
    if not text or any(char in text for char in ' "=\n'):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return text


def event(name: str, *, level: int = logging.INFO, **fields: Any) -> None:
    """Log ``event=name`` and the fields as key=value pairs (nothing is built when disabled)."""
    if not logger.isEnabledFor(level):
        return
    pairs = " ".join(f"{key}={_value(value)}" for key, value in fields.items())
    logger.log(level, "event=%s %s", name, pairs)


# Where a seat or host token can stand in a line: a ``?token=`` query (the WebSocket's and the
# table info's, for clients other than browsers), the path of a rejoin link of the old form
# (``/t/{code}/rejoin/{token}``), a bearer credential. Invite codes are not secrets.
_SECRETS = re.compile(r"""([?&]token=|/rejoin/|\bbearer\s+)[^&\s"'/?#]+""", re.IGNORECASE)
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with every token-shaped secret replaced by ``[redacted]``.

    >>> redact('"WebSocket /ws/abc?token=s3cr3t&x=1" 101')
    '"WebSocket /ws/abc?token=[redacted]&x=1" 101'
    >>> redact("GET /t/abc/rejoin/s3cr3t HTTP/1.1")
    'GET /t/abc/rejoin/[redacted] HTTP/1.1'
    """
    return _SECRETS.sub(lambda match: match.group(1) + REDACTED, text)


class RedactSecrets(logging.Filter):
    """A handler filter: the record's final message, redacted (:func:`redact`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def configure(level: str = "INFO") -> None:
    """Root logging for ``python -m app``: key=value lines with a timestamp and level; uvicorn's
    and Alembic's loggers propagate here, so their lines are redacted too."""
    logging.basicConfig(level=level, format=LOG_FORMAT)
    for handler in logging.getLogger().handlers:
        if not any(isinstance(known, RedactSecrets) for known in handler.filters):
            handler.addFilter(RedactSecrets())
