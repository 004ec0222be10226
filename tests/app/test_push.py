"""Web Push without any outside service: a local push receiver stands in for the browser
vendor's push service, the test holds the browser's keys (an ECDH P-256 pair and a 16-byte
auth secret) and decrypts what arrives with http_ece (aes128gcm)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from starlette.testclient import TestClient, WebSocketTestSession

from app.notify import store
from app.notify.sender import Notifier
from tests.app.conftest import AppFactory
from tests.app.helpers import choose, create_table, seat_everyone, view_at
from tests.app.test_again import _finished as finished_game
from tests.waiting import wait_until

Arrival = tuple[str, bytes, dict[str, str]]  # path, body, headers (lower-case names)
PAYLOAD_KEYS = {"table", "kind", "url", "title", "body"}
_COLOURS = re.compile(r"\b(red|green|blue|yellow|black|rot|grün|blau|gelb|schwarz)\b", re.I)


@dataclass
class Receiver:
    """A push service on 127.0.0.1: records each POST; paths under /gone/ answer 410."""

    port: int = 0
    arrived: list[Arrival] = field(default_factory=list)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def wait_for(
        self, count: int, timeout: float = 10.0
    ) -> list[tuple[str, bytes, dict[str, str]]]:
        with contextlib.suppress(AssertionError):  # the caller compares what did arrive
            wait_until(lambda: len(self.arrived) >= count, timeout, "pushes")
        return list(self.arrived)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802  (the http.server name)
            body = self.rfile.read(int(self.headers["Content-Length"]))
            headers = {name.lower(): value for name, value in self.headers.items()}
            state.arrived.append((self.path, body, headers))
            self.send_response(410 if self.path.startswith("/gone/") else 201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: Any) -> None:
            """Quiet."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


@dataclass
class Browser:
    """What a browser's PushManager holds: its ECDH key pair and auth secret."""

    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        public = self.private.public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint
        )
        return {"endpoint": endpoint, "keys": {"p256dh": _b64(public), "auth": _b64(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.private, auth_secret=self.auth, version="aes128gcm"
        )
        payload: dict[str, Any] = json.loads(plain)
        return payload


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _subscribe(client: TestClient, code: str, token: str, sub: dict[str, Any], lang: str) -> None:
    response = client.post(
        f"/api/tables/{code}/push", params={"token": token}, json={**sub, "lang": lang}
    )
    assert response.status_code == 204, response.text


def assert_no_card(payload: dict[str, Any], code: str) -> None:
    assert set(payload) == PAYLOAD_KEYS
    text = f"{payload['title']} {payload['body']}".replace(code, "")
    assert not re.search(r"\d", text), payload
    assert not _COLOURS.search(text), payload


def test_push_key_is_made_once_and_kept(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        first = client.get("/api/push/key").json()["public_key"]
    with TestClient(make_app()) as client:  # a restart (or another process) signs alike
        assert client.get("/api/push/key").json()["public_key"] == first
    assert len(base64.urlsafe_b64decode(first + "==")) == 65


def test_subscribing_needs_the_seat_token(make_app: AppFactory) -> None:
    sub = Browser().subscription("https://push.example/abc")
    with TestClient(make_app()) as client:
        code = create_table(client)
        seat_everyone(client, code)
        refused = client.post(f"/api/tables/{code}/push", params={"token": "x" * 43}, json=sub)
        assert refused.status_code == 403
        assert client.post("/api/tables/nope/push", json=sub).status_code == 404

    with TestClient(make_app()) as client:
        code = create_table(client)
        token = seat_everyone(client, code)[0]
        bad = {**sub, "keys": {"p256dh": "short", "auth": "x"}}
        answer = client.post(f"/api/tables/{code}/push", params={"token": token}, json=bad)
        assert answer.status_code == 422


def test_turn_push_only_to_absent_seats_and_game_end_to_all(
    make_app: AppFactory, receiver: Receiver
) -> None:
    browsers = [Browser() for _ in range(3)]
    with TestClient(make_app(bot_delay_ms=0)) as client, ExitStack() as stack:
        code = create_table(client, hands=1, takeover_seconds=None)
        tokens = seat_everyone(client, code)
        for seat, (browser, token) in enumerate(zip(browsers, tokens, strict=True)):
            lang = "de" if seat == 2 else "en"
            _subscribe(client, code, token, browser.subscription(receiver.url(f"/s/{seat}")), lang)
        # Seats 0 and 1 keep their page open; seat 2 comes only to make its moves.
        sockets: dict[int, WebSocketTestSession] = {
            seat: stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[seat]}"))
            for seat in (0, 1)
        }
        views = {seat: view_at(ws, 0) for seat, ws in sockets.items()}
        view = views[0]
        turns_of_absent_seat = 0
        previous_mover: int | None = None
        while not view["view"]["game_over"]:
            version = view["version"]
            mover = view["view"]["to_move"]
            if mover == 2:
                if previous_mover != 2:
                    turns_of_absent_seat += 1
                with client.websocket_connect(f"/ws/{code}?token={tokens[2]}") as away:
                    own = view_at(away, version)
                    action = choose(own["view"])
                    away.send_json({"type": "action", "version": version, "action": action})
                    view_at(away, version + 1)
            else:
                action = choose(views[mover]["view"])
                sockets[mover].send_json({"type": "action", "version": version, "action": action})
            previous_mover = mover
            # (Seat 2 coming and going bumps no version: view_at skips those presence views.)
            views = {seat: view_at(ws, version + 1) for seat, ws in sockets.items()}
            view = views[0]
        assert turns_of_absent_seat >= 1
        expected = turns_of_absent_seat + 3  # its turns, and the end for everyone
        client.portal.call(client.app.state.notifier.idle)  # type: ignore[attr-defined]
        arrived = receiver.wait_for(expected)

    assert len(arrived) == expected, [path for path, _, _ in arrived]
    kinds: dict[str, list[str]] = {}
    for path, body, headers in arrived:
        seat = int(path.rsplit("/", 1)[1])
        assert headers["content-encoding"] == "aes128gcm"
        assert headers["authorization"].startswith("vapid t=")
        payload = browsers[seat].decrypt(body)
        assert_no_card(payload, code)
        assert payload["table"] == code and payload["url"] == f"/t/{code}"
        kinds.setdefault(path, []).append(payload["kind"])
        if seat == 2 and payload["kind"] == "turn":
            assert payload["title"] == "Du bist dran"  # the subscriber's language
    assert kinds["/s/0"] == ["game_over"]
    assert kinds["/s/1"] == ["game_over"]
    assert kinds["/s/2"] == ["turn"] * turns_of_absent_seat + ["game_over"]


def test_play_again_once_and_gone_subscription_removed(
    make_app: AppFactory, receiver: Receiver
) -> None:
    keep, gone = Browser(), Browser()
    with TestClient(make_app()) as client:
        code = create_table(client)
        tokens = seat_everyone(client, code)
        _subscribe(client, code, tokens[1], keep.subscription(receiver.url("/s/1")), "en")
        _subscribe(client, code, tokens[2], gone.subscription(receiver.url("/gone/2")), "de")
        app = client.app
        notifier: Notifier = app.state.notifier  # type: ignore[attr-defined]
        room = client.portal.call(app.state.hub.get_room, code)  # type: ignore[attr-defined]

        async def ask() -> int:
            return await notifier.notify_play_again(
                live=room.live, seats=[1, 2], asker="Anna", version=room.live.version
            )

        assert client.portal.call(ask) == 1  # seat 2's push service said 410
        assert client.portal.call(ask) == 0  # exactly once per (subscription, version, kind)

        async def left() -> list[int]:
            subs = await store.of_seats(
                app.state.db_engine,  # type: ignore[attr-defined]
                table_id=room.live.table_id,
                seats=[0, 1, 2],
            )
            return [sub.seat for sub in subs]

        assert client.portal.call(left) == [1]
        # Unsubscribing removes the other one.
        response = client.request(
            "DELETE",
            f"/api/tables/{code}/push",
            params={"token": tokens[1]},
            json={"endpoint": receiver.url("/s/1")},
        )
        assert response.status_code == 204
        assert client.portal.call(left) == []

    arrived = receiver.wait_for(2)
    assert sorted(path for path, _, _ in arrived) == ["/gone/2", "/s/1"]
    for path, body, _ in arrived:
        payload = (keep if path == "/s/1" else gone).decrypt(body)
        assert_no_card({**payload, "body": payload["body"].replace("Anna", "")}, code)
        assert payload["kind"] == "play_again"
        assert payload["title"] == ("Play again?" if path == "/s/1" else "Noch eine Partie?")


def test_the_first_play_again_pushes_the_other_people_once(
    make_app: AppFactory, receiver: Receiver
) -> None:
    browsers = [Browser() for _ in range(3)]
    with TestClient(make_app(bot_delay_ms=0)) as client:
        code, tokens = finished_game(client)
        for seat, (browser, token) in enumerate(zip(browsers, tokens, strict=True)):
            _subscribe(client, code, token, browser.subscription(receiver.url(f"/s/{seat}")), "en")
        client.portal.call(client.app.state.notifier.idle)  # type: ignore[attr-defined]
        receiver.arrived.clear()  # (nothing is sent for the finished game after subscribing)
        first = client.post(f"/api/tables/{code}/again", json={}, params={"token": tokens[0]})
        assert first.status_code == 200, first.text
        second = client.post(f"/api/tables/{code}/again", json={}, params={"token": tokens[1]})
        assert second.status_code == 200, second.text
        client.portal.call(client.app.state.notifier.idle)  # type: ignore[attr-defined]
        arrived = receiver.wait_for(2)

    assert sorted(path for path, _, _ in arrived) == ["/s/1", "/s/2"]  # not the asker
    for path, body, _ in arrived:
        payload = browsers[int(path[-1])].decrypt(body)
        assert payload["kind"] == "play_again" and "P0" in payload["body"]
        assert_no_card({**payload, "body": payload["body"].replace("P0", "")}, code)
