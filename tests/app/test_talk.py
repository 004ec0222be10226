"""Talk at the table: chat lines are stored with the table, pushed to everyone there (the
spectators too), kept as typed (escaping is the client's, as text), limited in length and
rate per seat with typed errors; reactions are pushed, not stored, and rate-limited too."""

from __future__ import annotations

from contextlib import ExitStack

from starlette.testclient import TestClient

from app.protocol import messages, wire
from app.protocol.inbound import CHAT_MAX_CHARS
from app.room.talk import CHAT_BURST, REACTION_BURST
from tests.app.helpers import create_table, next_of_type, seat_everyone


def _table(client: TestClient) -> tuple[str, list[str]]:
    code = create_table(client, players=3)
    return code, seat_everyone(client, code)


def test_a_line_is_pushed_to_everyone_and_stored(client: TestClient) -> None:
    code, tokens = _table(client)
    markup = '<img src=x onerror="alert(1)"> & <b>hi</b>'
    with ExitStack() as stack:
        anna = stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[0]}"))
        bert = stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[1]}"))
        watcher = stack.enter_context(client.websocket_connect(f"/ws/{code}"))
        next_of_type(watcher, "view")
        anna.send_json({"type": "chat", "text": f"  {markup}\n"})
        heard = [next_of_type(ws, "chat") for ws in (anna, bert, watcher)]
    line = heard[0]["lines"][0]
    assert heard[0]["recent"] is False
    assert all(message == heard[0] for message in heard)
    # Stored and sent as typed (trimmed, the newline gone): the client shows it as text.
    assert line["seat"] == 0 and line["text"] == markup
    # A page opened later gets the recent lines (read from the database) first.
    with client.websocket_connect(f"/ws/{code}") as late:
        assert next_of_type(late, "chat") == {"type": "chat", "lines": [line], "recent": True}


def test_empty_and_overlong_lines_are_refused_and_not_stored(client: TestClient) -> None:
    code, tokens = _table(client)
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        ws.send_json({"type": "chat", "text": " \t\n "})
        assert next_of_type(ws, "error")["code"] == "chat_empty"
        ws.send_json({"type": "chat", "text": "x" * (CHAT_MAX_CHARS + 1)})
        assert next_of_type(ws, "error")["code"] == "chat_too_long"
        ws.send_json({"type": "chat", "text": "é" * CHAT_MAX_CHARS})
        assert next_of_type(ws, "chat")["lines"][0]["text"] == "é" * CHAT_MAX_CHARS
        ws.send_json({"type": "chat", "text": "x" * 5000})
        assert next_of_type(ws, "error")["code"] == "too_large"


def test_spectators_read_but_do_not_talk(client: TestClient) -> None:
    code, _tokens = _table(client)
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "chat", "text": "hello"})
        assert next_of_type(ws, "error")["code"] == "spectator"
        ws.send_json({"type": "react", "reaction": "laugh"})
        assert next_of_type(ws, "error")["code"] == "spectator"


def test_a_seat_talking_too_fast_is_told_so(client: TestClient) -> None:
    code, tokens = _table(client)
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        for n in range(CHAT_BURST):
            ws.send_json({"type": "chat", "text": f"line {n}"})
            assert next_of_type(ws, "chat")["lines"][0]["text"] == f"line {n}"
        ws.send_json({"type": "chat", "text": "one too many"})
        assert next_of_type(ws, "error")["code"] == "chat_too_fast"
    # A second socket of the same seat shares the seat's budget.
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as again:
        again.send_json({"type": "chat", "text": "still too fast"})
        assert next_of_type(again, "error")["code"] == "chat_too_fast"


def test_reactions_are_pushed_and_limited(client: TestClient) -> None:
    code, tokens = _table(client)
    with ExitStack() as stack:
        anna = stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[0]}"))
        bert = stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[1]}"))
        for _n in range(REACTION_BURST):
            bert.send_json({"type": "react", "reaction": "well_played"})
            assert next_of_type(anna, "reaction") == {
                "type": "reaction",
                "seat": 1,
                "reaction": "well_played",
            }
        bert.send_json({"type": "react", "reaction": "well_played"})
        assert next_of_type(bert, "error")["code"] == "chat_too_fast"
        bert.send_json({"type": "react", "reaction": "<script>"})
        assert next_of_type(bert, "error")["code"] == "bad_message"


def test_the_history_shows_the_talk_escaped(client: TestClient) -> None:
    code, tokens = _table(client)
    with client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as ws:
        ws.send_json({"type": "chat", "text": "<script>alert(1)</script> nice trump"})
        next_of_type(ws, "chat")
    page = client.get(f"/t/{code}/sheet", params={"lang": "en"}).text
    assert 'data-testid="history-chat-line"' in page and "<b>P1</b>" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; nice trump" in page
    assert "<script>alert(1)" not in page


def test_talk_is_relayed_between_processes_as_one_notification() -> None:
    line = {"id": 3, "seat": 1, "at": "x", "text": "a:b"}
    message = {"type": "chat", "lines": [line], "recent": False}
    text = wire.encode(wire.Relay(7, "proc", wire.Talk(message)))  # type: ignore[arg-type]
    assert wire.decode(text) == wire.Relay(7, "proc", wire.Talk(message))  # type: ignore[arg-type]
    assert wire.decode("t:7:proc:{not json") is None
    assert wire.decode('t:7:proc:{"type":"view"}') is None


def test_every_relayed_kind_parses() -> None:
    for said in (
        wire.Talk(messages.reaction_message(1, "wow")),
        wire.Talk(messages.next_table_message("abc")),
        wire.UndoStatus(
            messages.undo_message("asked", seat=0, version=4, deadline=1.5, waiting=[1])
        ),
        wire.UndoVote(1, 4, True),
    ):
        text = wire.encode(wire.Relay(7, "proc", said))
        assert wire.decode(text) == wire.Relay(7, "proc", said)
