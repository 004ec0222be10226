"""Deleting a table's history (issue 28.4): the host's deletion, the 410s, the retention job.

Every test runs on SQLite and PostgreSQL (the ``client`` fixture).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from starlette.testclient import TestClient

from app.host import deletion, retention
from app.protocol import inbound
from app.tables.models import Action, ChatLine, DeletedTable, Hand, Seat, Table
from tests.app.helpers import join, next_of_type, receive_raw, view_at


def new_table(client: TestClient) -> tuple[str, str, list[str]]:
    body = client.post("/api/tables", json={"players": 3}).json()
    code, host = body["invite_code"], body["host_token"]
    client.cookies.clear()
    seats = [join(client, code, name, seat) for seat, name in enumerate(("Anna", "Bert", "Cleo"))]
    client.cookies.clear()
    return code, host, seats


def run(client: TestClient, call: Any) -> Any:
    return client.portal.call(call)  # type: ignore[union-attr]


def backdate(client: TestClient, code: str, days: int) -> int:
    """Make the table look untouched for ``days`` days; its id."""
    db = client.app.state.db_engine  # type: ignore[attr-defined]
    then = datetime.now(UTC) - timedelta(days=days)

    async def go() -> int:
        async with db.begin() as conn:
            table_id = await conn.scalar(sa.select(Table.id).where(Table.invite_code == code))
            await conn.execute(sa.update(Table).where(Table.id == table_id).values(created_at=then))
            await conn.execute(
                sa.update(Action).where(Action.table_id == table_id).values(created_at=then)
            )
            return int(table_id)

    return int(run(client, go))


def count(client: TestClient, model: Any, table_id: int) -> int:
    db = client.app.state.db_engine  # type: ignore[attr-defined]

    async def go() -> int:
        async with db.connect() as conn:
            query = sa.select(sa.func.count()).select_from(model).where(model.table_id == table_id)
            return int(await conn.scalar(query) or 0)

    return run(client, go)  # type: ignore[no-any-return]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_table_in_play_is_not_deleted(client: TestClient) -> None:
    code, host, seats = new_table(client)
    refused = client.post(
        f"/api/tables/{code}/host/delete", json={"confirm": True}, headers=bearer(host)
    )
    assert refused.status_code == 409 and refused.json()["detail"]["code"] == "not_finished"
    other = client.post(
        f"/api/tables/{code}/host/delete", json={"confirm": True}, headers=bearer(seats[1])
    )
    assert other.status_code == 403 and other.json()["detail"]["code"] == "not_host"
    unconfirmed = client.post(f"/api/tables/{code}/host/delete", json={}, headers=bearer(host))
    assert unconfirmed.status_code == 422
    assert client.get(f"/api/tables/{code}").status_code == 200


def test_the_host_deletes_an_abandoned_table_and_its_pages_answer_410(client: TestClient) -> None:
    code, host, seats = new_table(client)
    with client.websocket_connect(f"/ws/{code}?token={seats[0]}") as ws:
        view_at(ws, 0)
        ws.send_json({"type": "chat", "text": "hallo"})
        next_of_type(ws, "chat")  # stored before the deletion (its chat goes too)
        table_id = backdate(client, code, days=2)
        response = client.post(
            f"/api/tables/{code}/host/delete", json={"confirm": True}, headers=bearer(host)
        )
        assert response.status_code == 204, response.text
        while (message := receive_raw(ws))["type"] != "websocket.close":
            pass
        assert message["code"] == inbound.CLOSE_TABLE_DELETED
    for path in (
        f"/api/tables/{code}",
        f"/api/tables/{code}/scoresheet",
        f"/api/tables/{code}/hands",
    ):
        gone = client.get(path)
        assert gone.status_code == 410, path
        assert gone.json()["detail"]["code"] == "table_deleted"
    for path in (f"/t/{code}", f"/t/{code}/sheet", f"/t/{code}/display"):
        page = client.get(path)
        assert page.status_code == 410 and 'href="/"' in page.text, path
    again = client.post(
        f"/api/tables/{code}/host/delete", json={"confirm": True}, headers=bearer(host)
    )
    assert again.status_code == 410
    with client.websocket_connect(f"/ws/{code}?token={seats[0]}") as ws:
        assert receive_raw(ws)["code"] == inbound.CLOSE_TABLE_DELETED
    # The rows go when the purge job runs (after the grace): here at once.
    db = client.app.state.db_engine  # type: ignore[attr-defined]
    run(client, lambda: deletion.purge(db, table_id, reason="host"))
    for model in (Seat, Hand, Action, ChatLine):
        assert count(client, model, table_id) == 0, model
    assert client.get(f"/api/tables/{code}").status_code == 410
    assert (
        "410"
        in client.get("/openapi.json").json()["paths"]["/api/tables/{invite_code}"]["get"][
            "responses"
        ]
    )


def test_retention_deletes_tables_idle_for_that_long(client: TestClient) -> None:
    old, _host, _seats = new_table(client)
    fresh, _host2, _seats2 = new_table(client)
    old_id = backdate(client, old, days=40)
    db = client.app.state.db_engine  # type: ignore[attr-defined]
    now = datetime.now(UTC)
    assert old_id in run(client, lambda: retention.expired(db, days=30, now=now))

    class FakeLease:
        async def renew(self) -> None:
            pass

    handler = retention.Retention(db, days=30)
    run(client, lambda: handler.run(FakeLease()))  # type: ignore[arg-type]
    assert client.get(f"/api/tables/{old}").status_code == 410
    assert client.get(f"/api/tables/{fresh}").status_code == 200

    async def tombstones() -> list[str]:
        async with db.connect() as conn:
            query = sa.select(DeletedTable.reason).where(DeletedTable.invite_code == old)
            return list(await conn.scalars(query))

    assert run(client, tombstones) == ["retention"]


def test_a_group_page_says_that_a_table_was_deleted(client: TestClient) -> None:
    created = client.post("/g", data={"name": "Dienstagsrunde"}, follow_redirects=False)
    group = created.headers["location"].removeprefix("/g/")
    form = {"players": "3", "variant": "classic", "ends": "hands", "hands": "3"}
    opened = client.post(f"/g/{group}/tables", data=form, follow_redirects=False)
    code = opened.headers["location"].removeprefix("/t/")
    assert "deleted-tables" not in client.get(f"/g/{group}").text
    backdate(client, code, days=2)
    deleted = client.post(f"/api/tables/{code}/host/delete", json={"confirm": True})
    assert deleted.status_code == 204, deleted.text
    page = client.get(f"/g/{group}", headers={"Accept-Language": "de"})
    assert "1 Tisch dieser Gruppe wurde gelöscht" in page.text
