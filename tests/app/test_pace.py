"""Pace: correspondence tables wait for their players, remind them once before the move time
runs out (across a server restart, with an injected clock instead of hours of sleep), and let a
bot take over only when the host allowed it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from starlette.testclient import TestClient

from app.bots.takeover import takeover_limit
from app.notify.pace import Reminders
from app.tables.options import TableOptions
from tests.app.conftest import AppFactory
from tests.app.helpers import create_table, seat_everyone
from tests.app.test_push import Browser, Receiver, _subscribe, assert_no_card, receiver

__all__ = ["receiver"]  # the fixture, used by name


def _scan(client: TestClient, at: datetime) -> int:
    app = client.app
    reminders = Reminders(
        db_engine=app.state.db_engine,  # type: ignore[attr-defined]
        hub=app.state.hub,  # type: ignore[attr-defined]
        notifier=app.state.notifier,  # type: ignore[attr-defined]
        clock=lambda: at,
    )
    sent: int = client.portal.call(reminders.scan)  # type: ignore[union-attr]
    return sent


def test_the_pace_is_stored_and_shown(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        code = create_table(client, pace="correspondence", move_hours=48)
        options = client.get(f"/api/tables/{code}").json()["options"]
        assert (options["pace"], options["move_hours"], options["correspondence_bots"]) == (
            "correspondence",
            48,
            False,
        )
        live = create_table(client)
        assert client.get(f"/api/tables/{live}").json()["options"]["pace"] == "live"
        bad = client.post("/api/tables", json={"players": 3, "pace": "blitz"})
        assert bad.status_code == 422


def test_a_bot_takes_over_only_if_the_host_allowed_it() -> None:
    assert takeover_limit(TableOptions(players=3)) == 60
    assert takeover_limit(TableOptions(players=3, takeover_seconds=None)) is None
    waits = TableOptions(players=3, pace="correspondence", move_hours=24)
    assert takeover_limit(waits) is None  # the table waits, however long
    allowed = TableOptions(
        players=3, pace="correspondence", move_hours=24, correspondence_bots=True
    )
    assert takeover_limit(allowed) == 24 * 3600
    assert TableOptions.from_json(allowed.to_json()) == allowed


def test_reminder_once_before_the_time_runs_out_across_restarts(
    make_app: AppFactory, receiver: Receiver
) -> None:
    browsers = [Browser() for _ in range(3)]
    with TestClient(make_app()) as client:
        code = create_table(client, pace="correspondence", move_hours=24)
        tokens = seat_everyone(client, code)  # deals: the first turn begins now
        began = datetime.now(UTC)
        for seat, (browser, token) in enumerate(zip(browsers, tokens, strict=True)):
            _subscribe(client, code, token, browser.subscription(receiver.url(f"/s/{seat}")), "en")
        assert _scan(client, began + timedelta(hours=21)) == 0  # not yet: 22 of 24 hours

    # The server restarts; the turn's start comes from the database.
    with TestClient(make_app()) as client:
        assert _scan(client, began + timedelta(hours=22, minutes=5)) == 1
        assert _scan(client, began + timedelta(hours=23)) == 0  # once
    with TestClient(make_app()) as client:  # and once across restarts (and processes)
        assert _scan(client, began + timedelta(hours=30)) == 0
        # Nobody took the seat over: no bot was allowed, the table still waits.
        room = client.portal.call(client.app.state.hub.get_room, code)  # type: ignore[attr-defined]
        assert room.live.seq == 0 and room.snapshot().stand_ins == frozenset()

    arrived = receiver.wait_for(1)
    assert len(arrived) == 1
    path, body, _ = arrived[0]
    seat = int(path.rsplit("/", 1)[1])
    payload = browsers[seat].decrypt(body)
    assert payload["kind"] == "reminder" and payload["table"] == code
    assert_no_card(payload, code)


def test_your_tables_lists_your_turns_first(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        waiting_code, turn_code = create_table(client), create_table(client)
        cookies = {}
        for code, mine_to_move in ((waiting_code, False), (turn_code, True)):
            tokens = seat_everyone(client, code)
            room = client.portal.call(client.app.state.hub.get_room, code)  # type: ignore[attr-defined]
            to_move = room.live.hand.to_move
            seat = to_move if mine_to_move else (to_move + 1) % 3
            cookies[f"mu_seat_{code}"] = tokens[seat]
        client.cookies.update(cookies)
        mine = client.get("/api/me/tables").json()
        assert mine["your_turn"] == 1
        first, second = mine["tables"]
        assert (first["invite_code"], first["your_turn"]) == (turn_code, True)
        assert (second["invite_code"], second["your_turn"]) == (waiting_code, False)
        assert 0 <= first["turn_seconds"] < 60 and first["status"] == "playing"
        assert len(first["names"]) == 3 and first["url"] == f"/t/{turn_code}"
        client.cookies.clear()
        assert client.get("/api/me/tables").json() == {"tables": [], "your_turn": 0}
