"""Server -> client messages (see docs/protocol.md, "Server -> client"): their types and the
functions that build and encode them.

Every message but the view is a small TypedDict encoded by orjson. The view (rendered by
``present.py`` as typed values) is written by :func:`view_frame` without a Python dict in
between. Talk and undo messages are also what the fan-out relays to the other processes
(``wire.py`` validates them there), so they are ``typing_extensions.TypedDict``s, which
pydantic can check on Python 3.11.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import orjson
from typing_extensions import TypedDict

import engine
from app.protocol import present, recordjson
from app.protocol.inbound import Reaction
from app.protocol.present import (
    Snapshot,
    TableNow,
    around_inputs,
    table_around,
)
from app.tables.chat import ChatRow
from engine.review import Suggestion


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


# Talk: said at the table, pushed to every socket there and relayed to the other processes.
TalkOut = ChatOut | ReactionOut | NextTableOut
ServerMessage = ErrorOut | PongOut | HintOut | TalkOut | UndoOut


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


def view_text(snapshot: Snapshot, seat: int | None) -> str:
    """The view frame of ``seat`` at ``snapshot``, rendered once per snapshot and seat (every
    spectator, and a person's second tab, gets the same text)."""
    frame = snapshot.frames.get(seat)
    if frame is None:
        if not snapshot.shared_json:  # everyone's part (the hand's public fields, the table)
            shared = shared_json(
                present.public_hand(snapshot), present.table_now(snapshot), around_json(snapshot)
            )
            snapshot.shared_json.append(shared_text(shared))
        own = own_text(snapshot, seat)
        frame = view_frame(own, snapshot.shared_json[0], snapshot.live.version)
        snapshot.frames[seat] = frame
    return frame


def shared_json(hand: Mapping[str, Any], now: TableNow, around: bytes) -> bytes:
    """The part of a view frame that is the same for every recipient of a snapshot: the hand's
    public fields (``present.public_hand``, none before the first deal), then the table's
    (``now``, and ``around`` from :func:`around_json`)."""
    table = recordjson.dumps(now)[:-1] + b"," + around[1:]
    if not hand:
        return table
    return recordjson.dumps(hand)[:-1] + b"," + table[1:]


def around_json(snapshot: Snapshot) -> bytes:
    """``present.table_around`` of ``snapshot`` encoded: the room's previous snapshot's bytes
    while ``present.around_inputs`` are equal (most actions change none of them), else
    encoded afresh and kept for the next snapshot."""
    inputs = around_inputs(snapshot)
    held = snapshot.around_json
    if held and held[0][0] == inputs:
        return held[0][1]
    encoded = recordjson.dumps(table_around(snapshot))
    pause = present.pause_view(snapshot)
    if pause is not None:  # only where there is one: other tables' views stay as they were
        encoded = encoded[:-1] + b',"pause":' + orjson.dumps(pause) + b"}"
    held[:] = [(inputs, encoded)]
    return encoded


def own_text(snapshot: Snapshot, seat: int | None) -> str:
    """``present.seat_part`` of ``seat`` encoded, as the opening of a JSON object (no closing
    brace, see :func:`view_frame`): the room's previous snapshot's text while the part is equal
    (every seat's but the movers': their cards and prompt did not change), else encoded afresh
    and kept for the next snapshot."""
    own = present.seat_part(snapshot, seat)
    held = snapshot.own_json.get(seat)
    if held is not None and held[0] == own:
        return held[1]
    text = recordjson.dumps(own)[:-1].decode()
    snapshot.own_json[seat] = (own, text)
    return text


def shared_text(shared: bytes) -> str:
    """:func:`shared_json`'s object as the close of a JSON object (no opening brace), decoded
    once per snapshot for :func:`view_frame`."""
    return shared[1:].decode()


def view_frame(own: str, shared: str, version: int) -> str:
    """``{"type": "view", "version": v, "view": {...}}``: the recipient's own keys (``own``,
    from :func:`own_text`), then the shared ones (``shared``, from :func:`shared_text`).

    A view is ~2-7 KB and every action sends one to each seat. Most of it (the displays, the
    auction, the tricks, the table) is the same for every recipient: that part is built,
    encoded and decoded once per snapshot, and only the recipient's own cards and prompt per
    recipient (and only when they changed). orjson writes the typed parts (``recordjson``: the
    records views repeat are encoded once), and the JSON objects, whose keys never overlap,
    are joined into one without a Python dict in between, the large shared text copied once.
    """
    return f'{{"type":"view","version":{version},"view":{own},{shared}}}'
