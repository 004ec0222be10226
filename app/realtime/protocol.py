"""The WebSocket wire format, in one place (see docs/protocol.md).

Client -> server messages are pydantic models behind one discriminated union, validated by a
single module-level TypeAdapter; the action inside becomes a typed engine action through
``engine.action_from_json``, the one parser of untrusted action JSON. Server -> client messages
are built by the functions at the bottom: views (rendered by ``present.py`` as typed values) are
encoded by orjson, which writes the engine's frozen dataclasses and enums natively, in exactly
the JSON form ``engine.to_json`` defines. Refused input always gets an ``error`` reply with a
stable code; only a bad seat token (1008, policy violation) or persistent flooding (4429)
closes the socket.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal, TypedDict

import orjson
from pydantic import BaseModel, Field, StrictInt, TypeAdapter, ValidationError

import engine
from app.realtime.present import View

MAX_MESSAGE_BYTES = 4096

# Close codes: 1008 is the standard "policy violation"; 4404 is ours (4000-4999 is the range
# RFC 6455 leaves to applications) for an invite code that names no table.
CLOSE_BAD_TOKEN = 1008
CLOSE_UNKNOWN_TABLE = 4404
# Ours: a spectator socket beyond the table's SPECTATORS_PER_TABLE (seated players always get in).
CLOSE_SPECTATORS_FULL = 4503
# Ours: the socket kept sending over its message budget (``rate_limited``) and was dropped.
CLOSE_TOO_MANY_MESSAGES = 4429
# The standard "going away": the process is shutting down; the client reconnects (to it once
# it is back, or through the load balancer to another process).
CLOSE_GOING_AWAY = 1001


class ErrorCode(StrEnum):
    """Protocol-level refusals; the engine's IllegalAction codes are forwarded beside these."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    TOO_LARGE = "too_large"
    SPECTATOR = "spectator"
    STALE_VERSION = "stale_version"
    # The database did not answer (down, restarting, timed out): send the action again.
    UNAVAILABLE = "unavailable"
    # More messages than the socket's budget allows: this one was ignored.
    RATE_LIMITED = "rate_limited"


class _ActionEnvelope(BaseModel):
    """An action message as sent: the action inside is still untrusted JSON."""

    type: Literal["action"]
    version: StrictInt
    action: dict[str, object]  # an object; what it says is the engine's to read


@dataclass(frozen=True, slots=True)
class ActionIn:
    """An engine action, taken on the table ``version`` the client saw."""

    version: int
    action: engine.Action


class PingIn(BaseModel):
    type: Literal["ping"]


class ResyncIn(BaseModel):
    """The client saw a version gap (or doubts its view): send the current view again."""

    type: Literal["resync"]


ClientMessage = Annotated[_ActionEnvelope | PingIn | ResyncIn, Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[_ActionEnvelope | PingIn | ResyncIn] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A frame that is not a valid message; ``code`` is an ``ErrorCode`` or, for an action
    that is not one, the engine's refusal code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse(raw: str | bytes) -> ActionIn | PingIn | ResyncIn:
    """One client frame -> a message.

    Raises:
        ProtocolError: too large, not JSON, not a known message of the right shape, or an
            ``action`` message whose action the engine does not read as one.
    """
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            ErrorCode.TOO_LARGE, f"messages are limited to {MAX_MESSAGE_BYTES} bytes"
        )
    try:
        # orjson, not the standard library: json.loads recurses once per nesting level and
        # raised RecursionError (killing the socket) on a 1,500-deep "[[[..." that fits in
        # 4 KB; orjson stops at depth 1024 with its ValueError. It also refuses NaN.
        data = orjson.loads(raw)
    except (ValueError, RecursionError) as exc:  # also catches undecodable bytes
        raise ProtocolError(ErrorCode.BAD_JSON, f"not JSON: {exc}") from None
    try:
        message = _CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "message"
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{where}: {first['msg']}") from None
    if not isinstance(message, _ActionEnvelope):
        return message
    try:
        # The envelope is sound; the action is the engine's to read (bad_action, trump_not_allowed).
        return ActionIn(message.version, engine.action_from_json(message.action))
    except engine.IllegalAction as exc:
        raise ProtocolError(exc.code, exc.message) from None


class ErrorOut(TypedDict):
    type: Literal["error"]
    code: str
    message: str


class PongOut(TypedDict):
    type: Literal["pong"]


ServerMessage = ErrorOut | PongOut


def error_message(code: str, message: str) -> ErrorOut:
    return {"type": "error", "code": code, "message": message}


PONG: PongOut = {"type": "pong"}


def encode(message: ServerMessage) -> str:
    # orjson: compact, keys in insertion order, so clients (and ws_bench) may read the
    # envelope's prefix cheaply.
    return orjson.dumps(message).decode()


def view_frame(view: View) -> str:
    """``{"type": "view", "version": v, "view": {...}}``: the hand's keys, then the table's.

    A view is ~5 KB and every action sends one to each seat: orjson writes the typed parts
    directly (the standard library took ~80 us per view, orjson ~7 us), and the two JSON
    objects, whose keys never overlap, are joined into one without a Python dict in between.
    """
    hand = orjson.dumps(view.hand)
    table = orjson.dumps(view.table)
    body = hand[:-1] + b"," + table[1:]
    return f'{{"type":"view","version":{view.table.version},"view":{body.decode()}}}'
