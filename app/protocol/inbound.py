"""The WebSocket protocol's client side and its refusals (see docs/protocol.md).

Client -> server messages are pydantic models behind one discriminated union, validated by a
single module-level TypeAdapter; the action inside becomes a typed engine action through
``engine.action_from_json``, the one parser of untrusted action JSON. Server -> client messages
are in ``messages.py``; what travels between server processes is in ``wire.py``.

Refused input always gets an ``error`` reply with a stable code: an :class:`ErrorCode`, or an
engine ``IllegalAction`` code forwarded as it is (:data:`EngineCode`). Only a bad seat token
(1008, policy violation) or persistent flooding (4429) closes the socket.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal, NewType

import orjson
from pydantic import BaseModel, Field, StrictInt, TypeAdapter, ValidationError

import engine

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
# Ours (app/host): the host removed this person (their seat token is dead) or sent the
# spectators away; the page says so and does not reconnect.
CLOSE_REMOVED = 4403
# Ours: the host closed the table to spectators (a seated person always gets in).
CLOSE_TABLE_CLOSED = 4423
# Ours: the host deleted the table's history; its pages answer 410 Gone.
CLOSE_TABLE_DELETED = 4410


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
    # Undo by consent: not the asker's last action, or none that can be taken back (the same
    # code as the table's ``NothingToUndo``).
    NOTHING_TO_UNDO = "nothing_to_undo"
    # Taking a seat (HTTP ``detail.code``): the seat is someone's, every seat is, no such seat.
    SEAT_TAKEN = "seat_taken"
    TABLE_FULL = "table_full"
    NO_SUCH_SEAT = "no_such_seat"
    # The table's host (app/host, HTTP ``detail.code``): no valid host token; the host closed
    # the table to newcomers; the seat is empty, a bot's (use the bot controls) or the
    # host's own; handing over to a seat without a person; deleting a table still played.
    NOT_HOST = "not_host"
    TABLE_CLOSED = "table_closed"
    SEAT_EMPTY = "seat_empty"
    SEAT_IS_BOT = "seat_is_bot"
    REMOVE_SELF = "remove_self"
    NOT_A_PERSON = "not_a_person"
    NOT_FINISHED = "not_finished"
    # A table whose history its host deleted (410 Gone).
    TABLE_DELETED = "table_deleted"
    # Pause by consent (issue 40): the table is paused (no move until someone resumes); it is
    # not; no open request to answer; not at this table (live tables pause, correspondence
    # tables take holidays, a game in play only); a holiday's end outside what is allowed; no
    # question about a friend who dropped out to vote on.
    PAUSED = "paused"
    NOT_PAUSED = "not_paused"
    NO_PAUSE_REQUEST = "no_pause_request"
    PAUSE_NOT_HERE = "pause_not_here"
    BAD_HOLIDAY = "bad_holiday"
    NO_DROPOUT_VOTE = "no_dropout_vote"


# An ``engine.IllegalAction`` code (``not_your_turn``, ``must_follow_suit``, ...), forwarded
# unchanged beside the protocol's own: the engine may add codes this module does not list.
EngineCode = NewType("EngineCode", str)
# Every refusal code sent to a client is one or the other.
RefusalCode = ErrorCode | EngineCode


def engine_code(exc: engine.IllegalAction) -> EngineCode:
    return EngineCode(exc.code)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a change was not made (sent to the client as an ``error`` message)."""

    code: RefusalCode
    message: str

    @classmethod
    def illegal(cls, exc: engine.IllegalAction) -> Refusal:
        """The engine's refusal, its code forwarded."""
        return cls(engine_code(exc), exc.message)

    @classmethod
    def stale(cls, sent: int, current: int) -> Refusal:
        """The client's ``sent`` version is not the table's ``current`` one."""
        return cls(ErrorCode.STALE_VERSION, f"version {sent} is stale; the table is at {current}")


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


class PauseAskIn(BaseModel):
    """A seated player asks to pause the table (live tables; every person present must agree;
    asking while a request is open agrees to it)."""

    type: Literal["pause_ask"]


class PauseAnswerIn(BaseModel):
    """Another player's answer to the open pause request."""

    type: Literal["pause_answer"]
    agree: bool


class ResumeIn(BaseModel):
    """A seated player ends the pause."""

    type: Literal["resume"]


class HolidayIn(BaseModel):
    """A correspondence player is away until ``until`` (Unix time; null: back now)."""

    type: Literal["holiday"]
    until: float | None


class DropoutVoteIn(BaseModel):
    """At a table that asks the people present when someone drops out: a present player's
    vote about ``seat`` (that person): a bot plays for them now, or the table waits."""

    type: Literal["dropout_vote"]
    seat: StrictInt
    choice: Literal["bot", "wait"]


# The pause feature's messages (``app/room/pause.py`` answers them).
PauseMessage = PauseAskIn | PauseAnswerIn | ResumeIn | HolidayIn | DropoutVoteIn

_Incoming = (
    _ActionEnvelope
    | PingIn
    | ResyncIn
    | HintIn
    | ChatIn
    | ReactIn
    | UndoAskIn
    | UndoAnswerIn
    | PauseAskIn
    | PauseAnswerIn
    | ResumeIn
    | HolidayIn
    | DropoutVoteIn
)
ClientMessage = Annotated[_Incoming, Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[_Incoming] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A frame that is not a valid message; ``code`` is an ``ErrorCode`` or, for an action
    that is not one, the engine's refusal code."""

    def __init__(self, code: RefusalCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


Incoming = (
    ActionIn
    | PingIn
    | ResyncIn
    | HintIn
    | ChatIn
    | ReactIn
    | UndoAskIn
    | UndoAnswerIn
    | PauseMessage
)


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
        raise ProtocolError(engine_code(exc), exc.message) from None


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
