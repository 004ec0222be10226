"""The log's two formats: text for a person at a terminal, JSON for machines; LOG_FORMAT wins.

Each choice is made on a fake stream (a ``StringIO`` that says whether it is a terminal), and
the token redaction is checked in both formats.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator

import pytest

from app import logging as log
from app.config import Settings

SECRET = "s3cr3t-token"


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def _restore_root_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers, root.level = handlers, level


def _write(stream: io.StringIO) -> str:
    """Log what the app logs: one of our events and a foreign (uvicorn-like) line, both with
    a token in them."""
    log.event("commit", table=17, url=f"/ws/abc?token={SECRET}")
    logging.getLogger("uvicorn.access").info('"GET /t/abc/rejoin/%s HTTP/1.1" 303', SECRET)
    return stream.getvalue()


def test_a_terminal_gets_coloured_key_value_text() -> None:
    stream = FakeTerminal()
    log.configure(stream=stream)
    output = _write(stream)
    assert "\x1b[" in output  # coloured
    first, second = re.sub(r"\x1b\[[0-9;]*m", "", output).splitlines()
    assert "commit" in first and "table=17" in first
    assert "url='/ws/abc?token=[redacted]'" in first
    assert "rejoin/[redacted]" in second
    assert SECRET not in output
    with pytest.raises(json.JSONDecodeError):
        json.loads(first)


def test_anything_else_gets_json_lines() -> None:
    stream = io.StringIO()  # a pipe, a file, a collector: not a terminal
    log.configure(stream=stream)
    output = _write(stream)
    lines = [json.loads(line) for line in output.splitlines()]
    assert [line["event"] for line in lines][0] == "commit"
    assert lines[0]["table"] == 17 and lines[0]["url"] == "/ws/abc?token=[redacted]"
    assert lines[1]["logger"] == "uvicorn.access" and "rejoin/[redacted]" in lines[1]["event"]
    assert SECRET not in output


def test_log_format_json_wins_on_a_terminal() -> None:
    stream = FakeTerminal()
    log.configure(fmt="json", stream=stream)
    output = _write(stream)
    assert [json.loads(line)["event"] for line in output.splitlines()][0] == "commit"
    assert SECRET not in output


def test_log_format_text_wins_off_a_terminal_and_stays_plain() -> None:
    stream = io.StringIO()
    log.configure(fmt="text", stream=stream)
    output = _write(stream)
    assert "table=17" in output and "\x1b[" not in output  # no colour codes in a file
    assert "token=[redacted]" in output and SECRET not in output


def test_a_traceback_is_redacted_in_both_formats() -> None:
    for stream in (FakeTerminal(), io.StringIO()):
        log.configure(stream=stream)
        try:
            raise RuntimeError(f"failed at /ws/abc?token={SECRET}")
        except RuntimeError:
            logging.getLogger("mu").exception("crash")
        assert "token=[redacted]" in stream.getvalue()
        assert SECRET not in stream.getvalue()


def test_log_format_is_unset_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOG_FORMAT", raising=False)
    assert Settings().log_format is None
    monkeypatch.setenv("LOG_FORMAT", "json")
    assert Settings().log_format == "json"
