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
from app.tables.chat import ChatRow
from engine.review import Suggestion

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
    # A hint asked at a table without the beginner hints option.
    HINTS_OFF = "hints_off"
    # A hint asked when it is not the seat's turn (the engine's code for the same thing).
    NOT_YOUR_TURN = "not_your_turn"
    # Talk: an empty or overlong chat line, or one seat talking faster than the table allows.
    CHAT_EMPTY = "chat_empty"
    CHAT_TOO_LONG = "chat_too_long"
    CHAT_TOO_FAST = "chat_too_fast"
    # Undo by consent: another request is being decided; no request to answer.
    UNDO_PENDING = "undo_pending"
    NO_UNDO_REQUEST = "no_undo_request"


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


class HintIn(BaseModel):
    """Beginner hints (a table with the ``hints`` option): the search bot's move for the
    asking seat, on the table ``version`` it sees; answered with a ``hint`` message."""

    type: Literal["hint"]
    version: StrictInt


# A chat line holds at most this many characters (after trimming); longer ones are refused.
CHAT_MAX_CHARS = 200
# The one-tap reactions, shown as a bubble at the seat (the client draws each one).
Reaction = Literal["thumbs_up", "wow", "laugh", "oops", "well_played"]
REACTIONS: tuple[Reaction, ...] = ("thumbs_up", "wow", "laugh", "oops", "well_played")


class ChatIn(BaseModel):
    """A seated player says something at the table (checked by :func:`chat_text`)."""

    type: Literal["chat"]
    text: str = Field(max_length=4 * CHAT_MAX_CHARS)


class ReactIn(BaseModel):
    """A seated player's one-tap reaction."""

    type: Literal["react"]
    reaction: Reaction


class UndoAskIn(BaseModel):
    """The player who made the last action asks to take it back (the others must agree)."""

    type: Literal["undo_ask"]
    version: StrictInt


class UndoAnswerIn(BaseModel):
    """Another player's answer to a pending undo request of ``version``."""

    type: Literal["undo_answer"]
    version: StrictInt
    allow: bool


_Incoming = (
    _ActionEnvelope | PingIn | ResyncIn | HintIn | ChatIn | ReactIn | UndoAskIn | UndoAnswerIn
)
ClientMessage = Annotated[_Incoming, Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[_Incoming] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A frame that is not a valid message; ``code`` is an ``ErrorCode`` or, for an action
    that is not one, the engine's refusal code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


Incoming = ActionIn | PingIn | ResyncIn | HintIn | ChatIn | ReactIn | UndoAskIn | UndoAnswerIn


def parse(raw: str | bytes) -> Incoming:
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


def chat_text(text: str) -> str:
    """The line to store: control characters become spaces, the ends are trimmed.

    Raises:
        ProtocolError: ``chat_empty`` or ``chat_too_long``.
    """
    cleaned = "".join(" " if ch < " " or ch == "\x7f" else ch for ch in text).strip()
    if not cleaned:
        raise ProtocolError(ErrorCode.CHAT_EMPTY, "say something")
    if len(cleaned) > CHAT_MAX_CHARS:
        raise ProtocolError(
            ErrorCode.CHAT_TOO_LONG, f"a chat line holds at most {CHAT_MAX_CHARS} characters"
        )
    return cleaned


class ErrorOut(TypedDict):
    type: Literal["error"]
    code: str
    message: str


class PongOut(TypedDict):
    type: Literal["pong"]


class HintChoice(TypedDict):
    action: dict[str, engine.JSON]  # engine.action_to_json
    value: float  # the seat's expected score for the hand after it


class HintOut(TypedDict):
    """The search bot's suggestion: ``action`` with its expected score ``value`` over
    ``worlds`` sampled deals, and the next best choice (``runner_up``: null when the move
    was forced) for the one-line reason the client writes."""

    type: Literal["hint"]
    version: int
    action: dict[str, engine.JSON]
    value: float
    runner_up: HintChoice | None
    worlds: int


class ChatLineOut(TypedDict):
    id: int
    seat: int
    at: str  # ISO 8601, UTC
    text: str  # as said: clients show it as text, never as markup


class ChatOut(TypedDict):
    """Lines said at the table: one new line, or on connecting the recent ones (oldest
    first); ``id`` orders them and lets a client drop a line it already has."""

    type: Literal["chat"]
    lines: list[ChatLineOut]
    recent: bool  # the lines said before this socket connected (nothing new to announce)


class ReactionOut(TypedDict):
    type: Literal["reaction"]
    seat: int
    reaction: Reaction


class NextTableOut(TypedDict):
    """The next game of this table is open ("Play again"): its invite code (public)."""

    type: Literal["next_table"]
    code: str


UndoState = Literal["asked", "done", "refused", "expired", "cancelled"]


class UndoOut(TypedDict):
    """An undo request and how it ends: ``asked`` (with who still has to agree, until
    ``deadline``, Unix time), then ``done``, ``refused`` (``by`` that seat), ``expired`` or
    ``cancelled`` (the table moved on first)."""

    type: Literal["undo"]
    state: UndoState
    seat: int
    version: int
    deadline: float
    waiting: list[int]
    by: int | None


class UndoVoteOut(TypedDict):
    """Between processes only: a person's answer to an undo request that another process
    decides (relayed by the fan-out, never sent to a browser)."""

    type: Literal["undo_vote"]
    seat: int
    version: int
    allow: bool


ServerMessage = (
    ErrorOut | PongOut | HintOut | ChatOut | ReactionOut | NextTableOut | UndoOut | UndoVoteOut
)


def undo_vote_message(seat: int, version: int, allow: bool) -> UndoVoteOut:
    return {"type": "undo_vote", "seat": seat, "version": version, "allow": allow}


def undo_message(
    state: UndoState,
    *,
    seat: int,
    version: int,
    deadline: float,
    waiting: list[int],
    by: int | None = None,
) -> UndoOut:
    return {
        "type": "undo",
        "state": state,
        "seat": seat,
        "version": version,
        "deadline": round(deadline, 1),
        "waiting": waiting,
        "by": by,
    }


def next_table_message(invite_code: str) -> NextTableOut:
    return {"type": "next_table", "code": invite_code}


def chat_line(row: ChatRow) -> ChatLineOut:
    return {"id": row.id, "seat": row.seat, "at": row.at.isoformat(), "text": row.text}


def chat_message(rows: list[ChatRow]) -> ChatOut:
    """Lines just said (stored rows)."""
    return {"type": "chat", "lines": [chat_line(row) for row in rows], "recent": False}


def recent_chat_message(lines: list[ChatLineOut]) -> ChatOut:
    """What was said before a socket connected."""
    return {"type": "chat", "lines": lines, "recent": True}


def reaction_message(seat: int, reaction: Reaction) -> ReactionOut:
    return {"type": "reaction", "seat": seat, "reaction": reaction}


def error_message(code: str, message: str) -> ErrorOut:
    return {"type": "error", "code": code, "message": message}


PONG: PongOut = {"type": "pong"}


def hint_message(version: int, suggestion: Suggestion) -> HintOut:
    second = suggestion.runner_up
    return {
        "type": "hint",
        "version": version,
        "action": engine.action_to_json(suggestion.action),
        "value": suggestion.value,
        "runner_up": None
        if second is None
        else {"action": engine.action_to_json(second.action), "value": second.value},
        "worlds": suggestion.worlds,
    }


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
