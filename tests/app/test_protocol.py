"""The wire format on its own: parsing client frames, encoding server messages."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import engine
from app.protocol import inbound, messages, present, recordjson
from app.protocol.inbound import ActionIn, ErrorCode, PingIn
from app.protocol.present import Snapshot
from app.tables import live as live_mod
from app.tables.live import SeatInfo
from app.tables.options import TableOptions


def code_of(raw: str | bytes) -> str:
    with pytest.raises(inbound.ProtocolError) as caught:
        inbound.parse(raw)
    return caught.value.code


def test_action_and_ping() -> None:
    message = inbound.parse('{"type":"action","version":3,"action":{"type":"pass"},"id":7}')
    assert message == ActionIn(version=3, action=engine.Pass())
    assert inbound.parse(b'{"type":"ping"}') == PingIn(type="ping")


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
    assert isinstance(inbound.parse(fits), PingIn)
    too_big = json.dumps({"type": "ping", "pad": "é" * 2100}, ensure_ascii=False)
    assert len(too_big) < inbound.MAX_MESSAGE_BYTES < len(too_big.encode())
    assert code_of(too_big) == ErrorCode.TOO_LARGE


def test_encoding_is_compact() -> None:
    live = live_mod.new_table(table_id=1, invite_code="x", options=TableOptions(players=3))
    for index in range(3):
        live = live_mod.seat(live, index, SeatInfo(f"P{index}", f"hash{index}"))
    live = replace(live_mod.deal(live, seed=7), version=4)
    text = messages.view_text(Snapshot(live, (True, True, True)), 0)
    # The envelope's prefix is fixed (clients and ws_bench read it cheaply); no spaces.
    assert text.startswith('{"type":"view","version":4,"view":{"seat":0,"hand":[')
    assert ", " not in text and ": " not in text
    view = json.loads(text)["view"]
    # The recipient's own keys, then the hand's public ones, then the table's.
    assert list(view)[: len(engine.SEAT_FIELDS)] == list(engine.SEAT_FIELDS)
    now = ["version", "status", "hand_number", "undoable_by"]
    around = ["seats", "totals", "last_result", "game_over", "winners"]
    host = ["closed_to_newcomers", "closed_to_spectators", "host_event"]  # app/host
    assert list(view)[-12:] == [*now, *around, *host]  # after the hand's keys
    assert view["phase"] == "auction" and view["version"] == 4 and len(view["hand"]) == 12
    # Exactly the engine's view of that seat, with the table's keys.
    assert live.hand is not None
    hand = engine.to_json_object(engine.view(live.hand, 0))
    assert {key: view[key] for key in hand} == hand
    assert len(view) == len(hand) + 12
    assert json.loads(messages.encode(messages.PONG)) == {"type": "pong"}


def test_a_waiting_table_has_no_public_hand_part() -> None:
    live = live_mod.new_table(table_id=1, invite_code="x", options=TableOptions(players=3))
    live = live_mod.seat(live, 0, SeatInfo("P0", "hash0"))
    view = json.loads(messages.view_text(Snapshot(live, (True, False, False)), 0))["view"]
    assert view["phase"] == "waiting" and view["seat"] == 0 and view["hand"] == []
    assert view["prompt"] is None and view["status"] == "waiting" and view["hand_number"] == 0


def test_each_seat_view_is_rendered_once_per_snapshot(monkeypatch: pytest.MonkeyPatch) -> None:
    live = live_mod.new_table(table_id=1, invite_code="x", options=TableOptions(players=3))
    for index in range(3):
        live = live_mod.seat(live, index, SeatInfo(f"P{index}", f"hash{index}"))
    snapshot = Snapshot(live_mod.deal(live, seed=7), connected=(True, True, True))
    renders: list[int | None] = []
    shared: list[Snapshot] = []
    real_seat_part, real_public_hand = present.seat_part, present.public_hand

    def counting_seat_part(snap: Snapshot, seat: int | None) -> object:
        renders.append(seat)
        return real_seat_part(snap, seat)

    def counting_public_hand(snap: Snapshot) -> dict[str, object]:
        shared.append(snap)
        return real_public_hand(snap)

    monkeypatch.setattr(present, "seat_part", counting_seat_part)
    monkeypatch.setattr(present, "public_hand", counting_public_hand)
    spectators = [messages.view_text(snapshot, None) for _ in range(4)]
    players = [messages.view_text(snapshot, seat) for seat in (0, 1, 0)]
    assert renders == [None, 0, 1]
    assert shared == [snapshot]  # everyone's part is everyone's: built and encoded once
    # Each frame is exactly that recipient's own part and everyone's, encoded afresh.
    everyone = messages.shared_json(
        present.public_hand(snapshot), present.table_now(snapshot), messages.around_json(snapshot)
    )
    own_1 = recordjson.dumps(present.seat_part(snapshot, 1))
    version = snapshot.live.version
    assert players[1] == (
        f'{{"type":"view","version":{version},"view":{own_1[:-1].decode()},'
        f"{everyone[1:].decode()}}}"
    )
    assert len(set(spectators)) == 1 and players[0] == players[2] != players[1]
    # Each frame is that seat's own view: a spectator's holds no hand, a player's its own.
    assert json.loads(spectators[0])["view"]["hand"] == []
    hand, dealt = json.loads(players[0])["view"]["hand"], snapshot.live.hand
    assert dealt is not None and [card["id"] for card in hand] == dealt.hands[0]
