"""Groups of friends: create, claim a name, open tables in the group, standings and ratings."""

from __future__ import annotations

import re

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from app.groups.models import GroupMember, GroupSeat
from app.tables.models import Table
from tests.app.test_history import Cells, http, open_table, play  # noqa: F401  (fixture)
from tests.app.test_history import Table as TableUnderTest

AppClient = tuple[FastAPI, httpx.AsyncClient]


async def new_group(client: httpx.AsyncClient, name: str = "Dienstagsrunde") -> str:
    created = await client.post("/g", data={"name": name})
    assert created.status_code == 303, created.text
    match = re.fullmatch(r"/g/([A-Za-z0-9_-]+)", created.headers["location"])
    assert match is not None
    return match.group(1)


async def group_table(app: FastAPI, client: httpx.AsyncClient, code: str) -> TableUnderTest:
    """A 4-player table opened from the group page's form, seated through the API."""
    form = {"players": "4", "variant": "classic", "ends": "hands", "hands": "3"}
    opened = await client.post(f"/g/{code}/tables", data=form)
    assert opened.status_code == 303, opened.text
    invite = opened.headers["location"].removeprefix("/t/")
    tokens = []
    for name in ["Anna", "Ben", "Cleo", "Dan"]:
        seat = await client.post(f"/api/tables/{invite}/seats", json={"name": name})
        tokens.append(seat.json()["token"])
    client.cookies.clear()
    return TableUnderTest(app, client, invite, tokens)


async def test_group_code_is_secret_sized_and_unknown_codes_are_404(http: AppClient) -> None:  # noqa: F811
    _app, client = http
    code = await new_group(client)
    assert len(code) >= 32  # 24 bytes from secrets: 192 bits
    page = await client.get(f"/g/{code}")
    assert page.status_code == 200 and "Dienstagsrunde" in page.text
    assert page.headers["x-robots-tag"].startswith("noindex")
    assert (await client.get("/g/nope")).status_code == 404
    empty = await client.post("/g", data={"name": "   "})
    assert empty.status_code == 422


async def test_claim_open_play_and_standings(http: AppClient) -> None:  # noqa: F811
    app, client = http
    code = await new_group(client)
    table = await group_table(app, client, code)
    sessions = app.state.session_factory
    async with sessions() as session:
        stored = await session.scalar(select(Table).where(Table.invite_code == table.code))
        assert stored is not None and stored.group_id is not None

    # Anna's browser holds her seat cookie and claims her name: the seat is linked.
    client.cookies.set(f"mu_seat_{table.code}", table.tokens[0])
    claimed = await client.post(f"/g/{code}/claim", data={"name": "anna "})
    assert claimed.status_code == 303
    assert client.cookies.get(f"mu_group_{code}")
    async with sessions() as session:  # this group's rows only: the database is shared
        mine = stored.group_id
        links = (await session.scalars(select(GroupSeat).where(GroupSeat.group_id == mine))).all()
        members = (
            await session.scalars(select(GroupMember).where(GroupMember.group_id == mine))
        ).all()
    assert [(link.seat, link.name_key) for link in links] == [(0, "anna")]
    assert [m.name for m in members] == ["anna"]
    assert all(m.claim_token_hash != client.cookies.get(f"mu_group_{code}") for m in members)

    for kind in ["played", "eklat", "played"]:
        await play(table, kind)
    page = await client.get(f"/g/{code}")
    cells = Cells(page.text)
    assert "claimed" in cells.text
    names = [cells.text[f"player-{i}"] for i in range(4)]
    assert len(names) == 4
    played = [r for r in table.results if r["kind"] == "played"]
    # Anna's line: the engine's results summed, nothing scored here.
    anna = next(i for i in range(4) if "anna" in " ".join(cells.text[f"player-{i}"]).casefold())
    text = " ".join(cells.text[f"player-{anna}"])
    assert str(sum(1 for r in played if r["chief"] == 0)) in text
    assert "<svg" in page.text and 'data-testid="rating-chart"' in page.text
    assert 'data-testid="score-chart"' in page.text

    # Another device claims the same name and sees it as its own.
    other = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")
    async with other:
        await other.post(f"/g/{code}/claim", data={"name": "Anna"})
        again = await other.get(f"/g/{code}")
        assert "On this device you are anna" in again.text

    sheet = await client.get(f"/t/{table.code}/sheet")
    assert 'data-testid="totals-chart"' in sheet.text and "<polyline" in sheet.text

    filtered = await client.get(f"/g/{code}", params={"variant": "revised"})
    assert 'data-testid="no-standings"' in filtered.text


async def test_bad_table_options_are_shown_on_the_page(http: AppClient) -> None:  # noqa: F811
    _app, client = http
    code = await new_group(client)
    nameless = await client.post(f"/g/{code}/claim", data={"name": "  "})
    assert nameless.status_code == 422 and 'data-testid="group-error"' in nameless.text
    assert not client.cookies.get(f"mu_group_{code}")
    bad = await client.post(f"/g/{code}/tables", data={"players": "9", "ends": "default"})
    assert bad.status_code == 422 and 'data-testid="group-error"' in bad.text
