"""Helpers for driving tables through the Starlette test client."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from typing import Any

import anyio
from starlette.testclient import TestClient, WebSocketTestSession

import engine
from app.room import changes
from app.room.room import Room

TIMEOUT = 5.0


def create_table(client: TestClient, players: int = 3, **options: Any) -> str:
    response = client.post("/api/tables", json={"players": players, **options})
    assert response.status_code == 201, response.text
    return str(response.json()["invite_code"])


def join(client: TestClient, code: str, name: str, seat: int | None = None) -> str:
    body: dict[str, Any] = {"name": name} if seat is None else {"name": name, "seat": seat}
    response = client.post(f"/api/tables/{code}/seats", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["token"])


def seat_everyone(client: TestClient, code: str, players: int = 3) -> list[str]:
    """Fill the table (which deals hand 1); the client keeps no seat cookie afterwards."""
    tokens = [join(client, code, f"P{seat}", seat) for seat in range(players)]
    client.cookies.clear()
    return tokens


def receive(ws: WebSocketTestSession, timeout: float = TIMEOUT) -> dict[str, Any]:
    """The next server message, failing the test instead of hanging when none comes.

    The test session has no receive timeout of its own, so this reads its message stream
    (a private attribute) under anyio.fail_after.
    """

    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(next_message)
    assert message["type"] == "websocket.send", message
    result: dict[str, Any] = json.loads(message["text"])
    return result


def receive_raw(ws: WebSocketTestSession, timeout: float = TIMEOUT) -> dict[str, Any]:
    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    result: dict[str, Any] = ws.portal.call(next_message)
    return result


def nothing_pending(ws: WebSocketTestSession, wait: float = 0.2) -> bool:
    try:
        receive(ws, timeout=wait)
    except TimeoutError:
        return True
    return False


def next_of_type(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """Skip messages (e.g. presence views) until one of ``kind`` arrives."""
    while True:
        message = receive(ws)
        if message["type"] == kind:
            return message


def view_at(ws: WebSocketTestSession, version: int) -> dict[str, Any]:
    """The first view at ``version`` or later; earlier ones (presence updates) are skipped."""
    while True:
        message = next_of_type(ws, "view")
        if message["version"] >= version:
            return message


def connect_all(
    stack: ExitStack, client: TestClient, code: str, tokens: list[str]
) -> tuple[list[WebSocketTestSession], list[dict[str, Any]]]:
    """A socket for each token (closed with ``stack``) and each one's view at the same version.

    The first seat's first view is its view: no later one need come. (Reading past it waited
    for a presence update, which a second process does not send when every seat already has a
    socket on the first one and it has heard so: that timed out under load.)"""
    sockets = [
        stack.enter_context(client.websocket_connect(f"/ws/{code}?token={token}"))
        for token in tokens
    ]
    first = next_of_type(sockets[0], "view")
    return sockets, [first, *(view_at(ws, first["version"]) for ws in sockets[1:])]


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A legal action from the prompt: the dealer opens with one card, everyone else passes,
    then the first offered trump, partner, discards and playable card."""
    prompt = view["prompt"]
    if prompt["type"] == "bid":
        nobody_bid = all(not cards for cards in view["bids"])
        if nobody_bid or not prompt["can_pass"]:
            return {"type": "bid", "cards": [view["hand"][0]["id"]]}
        return {"type": "pass"}
    if prompt["type"] == "trump":
        return {"type": "trump", "trump": prompt["options"][0]}
    if prompt["type"] == "partner":
        return {"type": "partner", "seat": prompt["options"][0]}
    if prompt["type"] == "discard":
        return {"type": "discard", "cards": prompt["cards"][: prompt["count"]]}
    return {"type": "play", "card": prompt["cards"][0]}


def random_choice(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A uniformly random action from a wire view's prompt, as a client would build it: a bid
    of 0 (a pass) to ``max_cards`` random hand cards, a random option, discard or card."""
    prompt = view["prompt"]
    kind = prompt["type"]
    if kind == "bid":
        hand = [card["id"] for card in view["hand"]]
        k = rng.randint(0, min(prompt["max_cards"], len(hand)))
        return {"type": "bid", "cards": sorted(rng.sample(hand, k))} if k else {"type": "pass"}
    if kind == "trump":
        return {"type": "trump", "trump": rng.choice(prompt["options"])}
    if kind == "partner":
        return {"type": "partner", "seat": rng.choice(prompt["options"])}
    if kind == "discard":
        return {"type": "discard", "cards": sorted(rng.sample(prompt["cards"], prompt["count"]))}
    return {"type": "play", "card": rng.choice(prompt["cards"])}


def step(sockets: list[WebSocketTestSession], views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seat to move plays ``choose``; returns every seat's next view."""
    mover = views[0]["view"]["to_move"]
    version = views[0]["version"]
    action = choose(views[mover]["view"])
    sockets[mover].send_json({"type": "action", "version": version, "action": action})
    return [view_at(ws, version + 1) for ws in sockets]


def play_until(
    sockets: list[WebSocketTestSession], views: list[dict[str, Any]], hand_number: int
) -> list[dict[str, Any]]:
    """Play until hand ``hand_number`` is being played (or the game is over)."""
    while views[0]["view"]["hand_number"] < hand_number and not views[0]["view"]["game_over"]:
        views = step(sockets, views)
    return views


async def act_as_seated(room: Room, seat: int, version: int, action: engine.Action) -> Any:
    """``room``'s change for ``action`` made by the token holding ``seat`` now (a Refusal or
    None)."""
    info = room.live.seats[seat]
    assert info is not None, f"nobody sits in seat {seat}"
    return await changes.act(room, seat, version, action, info.token_hash)
