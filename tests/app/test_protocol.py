"""The wire format on its own: parsing client frames, encoding server messages."""

from __future__ import annotations

import json

import pytest

from app.realtime import protocol
from app.realtime.protocol import ActionIn, ErrorCode, PingIn


def code_of(raw: str | bytes) -> ErrorCode:
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.parse(raw)
    return caught.value.code


def test_action_and_ping() -> None:
    message = protocol.parse('{"type":"action","version":3,"action":{"type":"pass"},"id":7}')
    assert message == ActionIn(type="action", version=3, action={"type": "pass"})
    assert protocol.parse(b'{"type":"ping"}') == PingIn(type="ping")


@pytest.mark.parametrize("raw", ["", "{", "nan]", b"\xc3\x28"])
def test_bad_json(raw: str | bytes) -> None:
    assert code_of(raw) == ErrorCode.BAD_JSON


@pytest.mark.parametrize(
    "raw",
    [
        "null",
        "[1]",
        '{"type":"action","version":true,"action":{}}',
        '{"type":"action","version":1.5,"action":{}}',
        '{"type":"view","version":1,"view":{}}',
    ],
)
def test_bad_message(raw: str) -> None:
    assert code_of(raw) == ErrorCode.BAD_MESSAGE


def test_size_is_counted_in_bytes() -> None:
    fits = json.dumps({"type": "ping", "pad": "x" * 4000})
    assert isinstance(protocol.parse(fits), PingIn)
    too_big = json.dumps({"type": "ping", "pad": "é" * 2100}, ensure_ascii=False)
    assert len(too_big) < protocol.MAX_MESSAGE_BYTES < len(too_big.encode())
    assert code_of(too_big) == ErrorCode.TOO_LARGE


def test_encoding_is_compact() -> None:
    text = protocol.encode(protocol.view_message(4, {"phase": "play"}))
    assert text == '{"type":"view","version":4,"view":{"phase":"play"}}'
    assert json.loads(protocol.encode(protocol.PONG)) == {"type": "pong"}
