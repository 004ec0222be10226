"""A Babel extraction method for the lesson files: their ``title`` and every step's
``text`` become msgids of the ``lessons`` domain (see ``app/lesson/babel.cfg``)."""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any


def extract_lesson(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Yield ``(line, funcname, message, comments)`` for each text of one lesson file."""
    raw = fileobj.read().decode("utf-8")
    data = tomllib.loads(raw)
    lines = raw.splitlines()
    texts = [data["title"], *(step["text"] for step in data["steps"])]
    for text in texts:
        line = next((i + 1 for i, row in enumerate(lines) if text[:40] in row), 0)
        yield line, "_", text, []
