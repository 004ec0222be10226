"""WebSocket fuzzing against a live server process: thousands of bad messages, no harm done.

Every message is something the server must refuse: bad JSON, wrong types, huge numbers,
unknown cards, other tables' data, replayed versions, oversized frames, spectators acting.
Each gets exactly one ``error`` reply, nothing crashes (no 5xx, no traceback in the log), and
the table is unchanged: same version, same views, and it still plays afterwards.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from tests.app.helpers import choose
from tests.app.processes import Seat, Server, open_table

pytestmark = pytest.mark.processes  # starts server processes

MESSAGES = 3000
PLAYERS = 3

Maker = Callable[[random.Random, "Target"], str | bytes | dict[str, Any] | list[Any]]


class Target:
    """What the fuzzer knows about the live table (to aim just beside what is legal)."""

    def __init__(self, version: int, mover: int, other_code: str, other_id: int) -> None:
        self.version = version
        self.mover = mover
        self.other_code = other_code
        self.other_id = other_id


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Server]:
    # Thousands of messages as fast as the server answers: beyond any per-socket budget.
    unlimited = {"WS_MESSAGES_PER_SECOND": "1000000", "WS_MESSAGE_BURST": "1000000"}
    process = Server(database_url, multi_process=database_url.startswith("postgres"), env=unlimited)
    try:
        await asyncio.to_thread(process.start)
        yield process
    finally:
        process.close()


def huge(rng: random.Random) -> int:
    return rng.choice([2**63, 2**64 + 1, -(2**70), 10**30, 2**31, -1])


def garbage_action(rng: random.Random, target: Target) -> dict[str, Any]:
    """An action object no rule accepts, whoever sends it."""
    return rng.choice(
        [
            {},
            {"type": "play"},
            {"type": "play", "card": rng.choice([999, -1, huge(rng), "8", 8.5, None, [8]])},
            {"type": "bid", "cards": rng.choice([[999], [-3], [huge(rng)], "27", [None], {}])},
            {"type": "bid", "cards": []},
            {"type": "trump", "trump": rng.choice(["purple", 99, None, "", "x" * 300])},
            {"type": "partner", "seat": rng.choice([99, -1, huge(rng), "1", None])},
            {"type": "discard", "cards": [huge(rng)]},
            {"type": rng.choice(["fold", "", "PLAY", "resign", 7, None])},
            {"type": "play", "card": 999, "table_id": target.other_id},
        ]
    )


def plausible_action(rng: random.Random) -> dict[str, Any]:
    """Shaped like a legal action (may even be legal): only sent where it must be refused."""
    return rng.choice(
        [
            {"type": "pass"},
            {"type": "bid", "cards": [rng.randrange(60)]},
            {"type": "trump", "trump": rng.choice(["red", "7", "none"])},
            {"type": "partner", "seat": rng.randrange(PLAYERS)},
            {"type": "play", "card": rng.randrange(60)},
        ]
    )


def bad_json(rng: random.Random, _target: Target) -> str | bytes:
    return rng.choice(
        [
            "{",
            "not json",
            '{"type": "action", "version": 3,',
            "",
            "\x00\x01",
            "[1, 2",
            "{'type': 'ping'}",
            "NaNx",
            bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))) + b"\xff\xfe",
            b"\xc3\x28",
        ]
    )


def wrong_types(rng: random.Random, target: Target) -> Any:
    return rng.choice(
        [
            [],
            42,
            "action",
            None,
            True,
            {"type": 5},
            {"type": None},
            {"type": "hello"},
            {"type": "action"},
            {"type": "action", "version": str(target.version), "action": {"type": "pass"}},
            {"type": "action", "version": float(target.version), "action": {"type": "pass"}},
            {"type": "action", "version": None, "action": {"type": "pass"}},
            {"type": "action", "version": True, "action": {"type": "pass"}},
            {"type": "action", "version": target.version, "action": "pass"},
            {"type": "action", "version": target.version, "action": ["pass"]},
            {"type": "action", "version": target.version, "action": None},
            {"type": ["action"], "version": target.version, "action": {"type": "pass"}},
        ]
    )


def stale_or_huge_version(rng: random.Random, target: Target) -> dict[str, Any]:
    """Replayed (old), future and absurd versions carrying plausible actions."""
    version = rng.choice(
        [target.version - 1, 0, target.version + 1, target.version + 1000, huge(rng)]
    )
    action = plausible_action(rng) if rng.random() < 0.7 else garbage_action(rng, target)
    return {"type": "action", "version": version, "action": action}


def at_current_version(rng: random.Random, target: Target) -> dict[str, Any]:
    """The current version but an action that no rule accepts (the mover may send these)."""
    message = {"type": "action", "version": target.version, "action": garbage_action(rng, target)}
    if rng.random() < 0.3:  # keys of another table: ignored, never a way into it
        message |= {"table_id": target.other_id, "invite_code": target.other_code}
    return message


def oversized(rng: random.Random, target: Target) -> str | bytes:
    # Over the 4,096-byte message limit, within the frame limit (WS_MAX_FRAME_BYTES, 16 KiB);
    # larger frames close the socket (tests/app/test_limits.py).
    filler = "x" * rng.randrange(4097, 16_000)
    text = json.dumps({"type": "action", "version": target.version, "pad": filler})
    return text.encode() if rng.random() < 0.3 else text


MAKERS: list[Maker] = [bad_json, wrong_types, stale_or_huge_version, at_current_version, oversized]


def plan(rng: random.Random, target: Target, sockets: int) -> list[list[str | bytes]]:
    """MESSAGES frames spread over the sockets (the last one is the spectator's)."""
    frames: list[list[str | bytes]] = [[] for _ in range(sockets)]
    for _ in range(MESSAGES):
        index = rng.randrange(sockets)
        maker = rng.choice(MAKERS)
        if index != target.mover and index < PLAYERS and rng.random() < 0.2:
            # Another seat than the mover: even a plausible action on the current version
            # must be refused (not its turn).
            message: Any = {
                "type": "action",
                "version": target.version,
                "action": plausible_action(rng),
            }
        elif index == PLAYERS and rng.random() < 0.3:
            message = {"type": "action", "version": target.version, "action": {"type": "pass"}}
        else:
            message = maker(rng, target)
        frames[index].append(message if isinstance(message, str | bytes) else json.dumps(message))
    return frames


async def fire(seat: Seat, frames: list[str | bytes]) -> list[dict[str, Any]]:
    """Send every frame, then a ping; the replies before the pong answer the frames."""
    for frame in frames:
        await seat.send(frame)
    await seat.send({"type": "ping"})
    replies = []
    while (reply := await seat.reply(timeout=60))["type"] != "pong":
        replies.append(reply)
    return replies


def without_presence(message: dict[str, Any]) -> dict[str, Any]:
    view = message["view"]
    return {
        **view,
        "seats": [{**seat, "connected": None, "takeover_at": None} for seat in view["seats"]],
    }


def http_fuzz(base: str, code: str, rng: random.Random) -> list[int]:
    """A few hundred odd HTTP requests: never a 5xx (lax ones may even create a table)."""
    bodies: list[Any] = [
        {"players": huge(rng)},
        {"players": "5"},
        {"players": 5, "hands": 0},
        {"players": 5, "variant": "x" * 5000},
        [],
        None,
        {"name": "\x00"},
        {"name": "A", "seat": huge(rng)},
        {"name": "B" * 100},
    ]
    statuses = []
    with httpx.Client(base_url=base, timeout=10) as http:
        for _ in range(200):
            body = rng.choice(bodies)
            path = rng.choice(
                ["/api/tables", f"/api/tables/{code}/seats", "/api/tables/nope/seats"]
            )
            statuses.append(http.post(path, json=body).status_code)
            statuses.append(http.post(path, content=rng.randbytes(30)).status_code)
        statuses.append(http.get(f"/api/tables/{'z' * 3000}").status_code)
    return statuses


async def test_thousands_of_bad_messages_change_nothing(server: Server) -> None:
    rng = random.Random(20261122)
    code, tokens = await asyncio.to_thread(open_table, [server.http], PLAYERS)
    other_code, _ = await asyncio.to_thread(open_table, [server.http], PLAYERS)
    other_id = httpx.get(f"{server.http}/api/tables/{other_code}").json()["table_id"]
    sockets = [await Seat.connect(server.ws, code, token) for token in [*tokens, None]]
    before = [await seat.at(PLAYERS) for seat in sockets]
    target = Target(PLAYERS, before[0]["view"]["to_move"], other_code, other_id)

    frames = plan(rng, target, len(sockets))
    replies = await asyncio.gather(*(fire(s, f) for s, f in zip(sockets, frames, strict=True)))

    for sent, answered in zip(frames, replies, strict=True):
        assert len(answered) == len(sent)  # one reply per message...
        assert all(reply["type"] == "error" and reply["code"] for reply in answered)  # an error
    codes = {reply["code"] for answered in replies for reply in answered}
    assert {"bad_json", "bad_message", "too_large", "stale_version", "spectator"} <= codes
    assert {"not_your_turn"} <= codes and len(codes) >= 8

    after = [seat.view for seat in sockets]
    assert [m and m["version"] for m in after] == [PLAYERS] * len(sockets)
    assert [without_presence(m or {}) for m in after] == [without_presence(m) for m in before]
    statuses = await asyncio.to_thread(http_fuzz, server.http, code, rng)
    assert all(status < 500 for status in statuses), sorted(set(statuses))
    assert httpx.get(f"{server.http}/api/tables/{code}").json()["version"] == PLAYERS

    # Still a working table: the mover's real action is taken.
    mover = target.mover
    await sockets[mover].send(
        {"type": "action", "version": PLAYERS, "action": choose(before[mover]["view"])}
    )
    assert (await sockets[0].at(PLAYERS + 1))["version"] == PLAYERS + 1
    await asyncio.gather(*(seat.close() for seat in sockets))
    assert server.process is not None and server.process.poll() is None
    output = server.output()
    assert "Traceback" not in output and "500 Internal" not in output
