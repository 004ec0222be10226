"""The table WebSocket: ``/ws/{invite_code}``, seat token from ``?token=`` or the seat cookie.

No token makes a spectator. A token that holds no seat at this table closes the socket with
1008; everything else a client gets wrong is answered with an ``error`` message and the socket
stays open, unless it keeps sending over its message budget (``ratelimit.py``): then 4429.
A table takes at most ``SPECTATORS_PER_TABLE`` spectators; one more is closed with 4503.
A process that is shutting down closes sockets with 1001 ("going away"). The host's decisions
(app/host) close sockets with 4403 (removed), 4423 (closed to spectators), 4410 (deleted).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app import logging as log
from app.config import Settings
from app.http import errors, metrics
from app.protocol import inbound, messages
from app.protocol.inbound import ErrorCode, RefusalCode
from app.room import changes, hints, pause
from app.room.connection import Connection
from app.room.hub import Hub
from app.room.ratelimit import TokenBucket
from app.room.room import Room
from app.tables import tokens

router = APIRouter()
_SLOW_DOWN = "too many messages: this one was ignored; slow down"


@router.websocket("/ws/{invite_code}")
async def table_socket(websocket: WebSocket, invite_code: str, token: str | None = None) -> None:
    # Accept first, then close with a code: a close before the handshake reaches browsers as
    # a bare 1006, and the client could not tell a bad link from a network failure.
    await websocket.accept()
    hub: Hub = websocket.app.state.hub
    if hub.draining:
        await websocket.close(inbound.CLOSE_GOING_AWAY, "going away")
        return
    if not _same_origin(websocket):
        await websocket.close(inbound.CLOSE_BAD_TOKEN, "cross-site connection refused")
        return
    room = await _room(websocket, hub, invite_code)
    if room is None:
        return
    token = token or websocket.cookies.get(tokens.seat_cookie_name(invite_code))
    seat = await room.seat_of(token) if token else None
    if token and seat is None:
        await websocket.close(inbound.CLOSE_BAD_TOKEN, "this token holds no seat here")
        return
    # The lookups may have yielded, and the hub may drop idle rooms whenever we yield: take its
    # current room again (no await when cached) and attach at once.
    room = await _room(websocket, hub, invite_code)
    if room is None:
        return
    if room.live.host.deleted:
        await websocket.close(inbound.CLOSE_TABLE_DELETED, "the host deleted this table")
        return
    if seat is None and room.live.host.closed_to_spectators:
        await websocket.close(inbound.CLOSE_TABLE_CLOSED, "the host closed this table")
        return
    # Counted and attached with no await between: the cap cannot be overrun by a race.
    if seat is None and room.spectators >= websocket.app.state.settings.spectators_per_table:
        metrics.TOO_MANY.labels("spectators").inc()
        await websocket.close(inbound.CLOSE_SPECTATORS_FULL, "too many spectators at this table")
        return
    token_hash = tokens.hash_token(token) if token else None
    sent_away = room.live.host.spectators_sent_away
    await _serve(room, Connection(websocket, seat, token_hash=token_hash, sent_away=sent_away))


async def _room(websocket: WebSocket, hub: Hub, invite_code: str) -> Room | None:
    """The table's room, or None after closing the socket with "unknown table"."""
    room = await hub.room(invite_code)
    if room is None:
        await websocket.close(inbound.CLOSE_UNKNOWN_TABLE, "unknown table")
    return room


def _same_origin(websocket: WebSocket) -> bool:
    """Browsers send the page's Origin; the seat cookie must not work for another site's page.

    Clients that are not browsers send no Origin and are let through (they need the token).
    """
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    allowed = {websocket.headers.get("host")}
    base_url = websocket.app.state.settings.base_url
    if base_url:
        allowed.add(urlsplit(base_url).netloc)
    return urlsplit(origin).netloc in allowed


async def _serve(room: Room, connection: Connection) -> None:
    settings: Settings = connection.websocket.app.state.settings
    budget = TokenBucket(rate=settings.ws_messages_per_second, burst=settings.ws_message_burst)
    over_budget = 0
    sender = asyncio.create_task(connection.pump())
    room.attach(connection)
    open_sockets = metrics.SOCKETS.labels("spectator" if connection.seat is None else "seat")
    open_sockets.inc()
    try:
        for greeting in room.talk.welcome():  # no await since attaching: no line falls between
            connection.push(greeting)
        while not sender.done():
            await connection.room_for_replies()  # a client that does not read is not read
            message = await connection.websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not budget.take():
                over_budget += 1
                if over_budget >= settings.ws_abuse_limit:
                    log.event("flooding", table=room.live.table_id, seat=connection.seat)
                    await connection.close(inbound.CLOSE_TOO_MANY_MESSAGES, "too many messages")
                    break
                metrics.TOO_MANY.labels("ws_messages").inc()
                _refuse(connection, ErrorCode.RATE_LIMITED, _SLOW_DOWN)
                continue
            raw = message.get("text")
            await _handle(room, connection, raw if raw is not None else message.get("bytes", b""))
    except WebSocketDisconnect:
        pass
    finally:
        open_sockets.dec()
        room.detach(connection)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


def _refuse(connection: Connection, code: RefusalCode, message: str) -> None:
    metrics.REFUSALS.labels(code).inc()
    connection.push(messages.error_message(code, message))


async def _handle(room: Room, connection: Connection, raw: str | bytes) -> None:
    arrived = time.perf_counter()
    try:
        message = inbound.parse(raw)
    except inbound.ProtocolError as exc:
        _refuse(connection, exc.code, exc.message)
        return
    if isinstance(message, inbound.PingIn):
        connection.push(messages.PONG)
        return
    if isinstance(message, inbound.ResyncIn):
        await _resync(room, connection)
        return
    if isinstance(message, inbound.HintIn):
        await hints.give(room, connection, message.version)
        return
    if connection.seat is None:
        # Spectators read the chat and see reactions; only the players at the table talk.
        _refuse(connection, ErrorCode.SPECTATOR, "spectators cannot act or talk")
        return
    if isinstance(message, inbound.ChatIn | inbound.ReactIn):
        await _talk(room, connection, connection.seat, message)
        return
    if isinstance(message, inbound.UndoAskIn | inbound.UndoAnswerIn):
        await _undo(room, connection, connection.seat, message)
        return
    assert connection.token_hash is not None  # a seated socket came with its token
    if isinstance(message, inbound.PauseMessage):
        await _pause(room, connection, connection.seat, connection.token_hash, message)
        return
    try:
        refusal = await changes.act(
            room, connection.seat, message.version, message.action, connection.token_hash
        )
    except errors.DATABASE_UNAVAILABLE as exc:
        # Not applied, or applied with the answer lost: either way the room kept its state,
        # and sending the action again settles it (the version guard sees a landed commit).
        log.event("unavailable", table=room.live.table_id, error=type(exc).__name__)
        metrics.ACTIONS.labels(ErrorCode.UNAVAILABLE).inc()
        connection.push(messages.error_message(ErrorCode.UNAVAILABLE, errors.UNAVAILABLE_MESSAGE))
        return
    if refusal is None:
        metrics.ACTIONS.labels("applied").inc()
        metrics.ACTION_FANOUT.observe(metrics.since(arrived))
    else:
        metrics.ACTIONS.labels(refusal.code).inc()
        log.event(
            "refused",
            table=room.live.table_id,
            version=room.live.version,
            sent=message.version,
            seat=connection.seat,
            code=refusal.code,
        )
        connection.push(messages.error_message(refusal.code, refusal.message))


async def _undo(
    room: Room,
    connection: Connection,
    seat: int,
    message: inbound.UndoAskIn | inbound.UndoAnswerIn,
) -> None:
    try:
        if isinstance(message, inbound.UndoAskIn):
            assert connection.token_hash is not None  # a seated socket came with its token
            refusal = await room.undo.ask(seat, message.version, connection.token_hash)
        else:
            refusal = await room.undo.answer(seat, message.version, message.allow)
    except errors.DATABASE_UNAVAILABLE:
        _refuse(connection, ErrorCode.UNAVAILABLE, errors.UNAVAILABLE_MESSAGE)
        return
    if refusal is not None:
        _refuse(connection, refusal.code, refusal.message)


async def _pause(
    room: Room, connection: Connection, seat: int, token_hash: str, message: inbound.PauseMessage
) -> None:
    try:
        refusal = await pause.handle(room, seat, token_hash, message)
    except errors.DATABASE_UNAVAILABLE:
        _refuse(connection, ErrorCode.UNAVAILABLE, errors.UNAVAILABLE_MESSAGE)
        return
    if refusal is not None:
        _refuse(connection, refusal.code, refusal.message)


async def _talk(
    room: Room, connection: Connection, seat: int, message: inbound.ChatIn | inbound.ReactIn
) -> None:
    if isinstance(message, inbound.ReactIn):
        refusal = room.talk.react(seat, message.reaction)
    else:
        try:
            refusal = await room.talk.say(seat, inbound.chat_text(message.text))
        except inbound.ProtocolError as exc:
            _refuse(connection, exc.code, exc.message)
            return
        except errors.DATABASE_UNAVAILABLE:
            _refuse(connection, ErrorCode.UNAVAILABLE, errors.UNAVAILABLE_MESSAGE)
            return
    if refusal is not None:
        _refuse(connection, refusal.code, refusal.message)


async def _resync(room: Room, connection: Connection) -> None:
    # With several processes this one may have missed a change: ask the database first.
    hub: Hub = connection.websocket.app.state.hub
    await hub.refresh(room)
    connection.push_view(room.snapshot())
