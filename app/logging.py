"""Structured log lines: ``event=commit table=17 version=42 seq=40`` (key=value, one per event).

Operators grep and aggregate these (by table, by event); the values are numbers and short
codes, and anything with spaces or quotes is quoted so a line always splits the same way.
"""

from __future__ import annotations

import logging
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


def configure(level: str = "INFO") -> None:
    """Root logging for ``python -m app``: key=value lines with a timestamp and level."""
    logging.basicConfig(level=level, format=LOG_FORMAT)
