"""The HTTP API through httpx against the ASGI app."""

from __future__ import annotations

import asyncio
import hashlib
import re
from typing import Any

import httpx
import pytest
import sqlalchemy.exc
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

import engine
from app.config import async_database_url
from app.main import ROUTES, release
from app.tables import repository
from app.tables.models import Seat


async def new_table(api: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    response = await api.post("/api/tables", json={"players": 3, **body})
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


async def take_seat(api: httpx.AsyncClient, code: str, **body: Any) -> httpx.Response:
    return await api.post(f"/api/tables/{code}/seats", json={"name": "Anna", **body})


async def test_create_table(api: httpx.AsyncClient) -> None:
    created = await new_table(api, players=5)
    code = created["invite_code"]
    assert len(code) >= 32  # 24 random bytes, URL-safe base64
    assert created["invite_url"] == f"http://test/t/{code}"
    info = (await api.get(f"/api/tables/{code}")).json()
    assert info["options"] == {
        "players": 5,
        "variant": "classic",
        "target_score": 200,
        "hands": None,
        "takeover_seconds": 60,
        "on_dropout": "bot",
        "removed_colours": None,
        "hints": False,
        "pace": "live",
        "move_hours": 24,
        "correspondence_bots": False,
        "reserved": [],
        "reserved_until": None,
        "practice": None,  # a game, not a practice table (app/practice)
        "deals_of": None,  # dealt at random, not another game's deals
        "newcomers_take_bots": True,
    }
    assert info["status"] == "waiting" and info["you"] is None and info["hand_number"] == 0
    assert [seat["occupied"] for seat in info["seats"]] == [False] * 5
    # The rules card, from the engine.
    assert info["rules"] == engine.to_json(engine.rules_summary("classic", 5))
    assert info["rules"]["goals"][3] == 33 and info["rules"]["unverified"] == []


async def test_create_table_by_hands(api: httpx.AsyncClient) -> None:
    created = await new_table(api, hands=4)
    info = (await api.get(f"/api/tables/{created['invite_code']}")).json()
    assert info["options"]["hands"] == 4 and info["options"]["target_score"] is None


async def test_end_condition_defaults_come_from_the_engine(api: httpx.AsyncClient) -> None:
    created = await new_table(api, players=4, variant="revised")
    info = (await api.get(f"/api/tables/{created['invite_code']}")).json()
    expected = engine.GameOptions(4, "revised")
    assert info["options"]["variant"] == "revised"
    assert info["options"]["hands"] == expected.hands
    assert info["options"]["target_score"] == expected.target_score


@pytest.mark.parametrize(
    "body",
    [
        {"players": 2},
        {"players": 7},
        {"players": 5, "variant": "chess"},
        {"players": 5, "target_score": 0},
        {"players": 5, "hands": 0},
        {"players": 5, "hands": 3, "target_score": 100},
        {"players": 5, "removed_colours": ["red", "blue"]},  # only 3 players leave colours out
        {"players": 3, "removed_colours": ["red"]},  # classic leaves out two
        {"players": 3, "removed_colours": ["red", "pink"]},
        {},
    ],
)
async def test_create_table_rejects_bad_options(api: httpx.AsyncClient, body: Any) -> None:
    assert (await api.post("/api/tables", json=body)).status_code == 422


async def test_join_returns_token_cookie_and_rejoin_link(api: httpx.AsyncClient) -> None:
    code = (await new_table(api))["invite_code"]
    response = await take_seat(api, code, name="  Anna  ")
    assert response.status_code == 201
    body = response.json()
    assert body["seat"] == 0 and len(body["token"]) >= 32
    assert body["rejoin_url"] == f"http://test/t/{code}#rejoin={body['token']}"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"mu_seat_{code}={body['token']};")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    info = (await api.get(f"/api/tables/{code}")).json()  # the cookie identifies the caller
    assert info["you"] == 0 and info["seats"][0]["name"] == "Anna"


async def test_you_from_query_token(api: httpx.AsyncClient) -> None:
    code = (await new_table(api))["invite_code"]
    await take_seat(api, code, name="Anna")
    token = (await take_seat(api, code, name="Bert")).json()["token"]
    api.cookies.clear()
    assert (await api.get(f"/api/tables/{code}")).json()["you"] is None
    assert (await api.get(f"/api/tables/{code}", params={"token": token})).json()["you"] == 1
    assert (await api.get(f"/api/tables/{code}", params={"token": "x"})).json()["you"] is None


async def test_seats_fill_in_order_and_start_the_game(api: httpx.AsyncClient) -> None:
    code = (await new_table(api))["invite_code"]
    seats = [(await take_seat(api, code, name=name)).json()["seat"] for name in "ABC"]
    assert seats == [0, 1, 2]
    info = (await api.get(f"/api/tables/{code}")).json()
    assert info["status"] == "playing" and info["hand_number"] == 1
    full = await take_seat(api, code, name="D")
    assert full.status_code == 409 and full.json()["detail"]["code"] == "table_full"


async def test_seat_taken(api: httpx.AsyncClient) -> None:
    code = (await new_table(api))["invite_code"]
    assert (await take_seat(api, code, seat=2)).json()["seat"] == 2
    taken = await take_seat(api, code, name="Bert", seat=2)
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "seat_taken"
    assert (await take_seat(api, code, name="Cleo")).json()["seat"] == 0


async def test_no_such_seat(api: httpx.AsyncClient) -> None:
    code = (await new_table(api))["invite_code"]
    response = await take_seat(api, code, seat=4)
    assert response.status_code == 422 and response.json()["detail"]["code"] == "no_such_seat"


@pytest.mark.parametrize(
    "name",
    [
        "",
        "   ",
        "x" * 25,
        " " + "y" * 25,
        "An\x00na",
        "An\nna",
        "Bob\x7f",
        "evil\u202egnp",
        "a\u2028b",
    ],
)
async def test_bad_names(api: httpx.AsyncClient, name: str) -> None:
    code = (await new_table(api))["invite_code"]
    assert (await take_seat(api, code, name=name)).status_code == 422


@pytest.mark.parametrize("name", ["Ä" * 24, " Zoë ", "李小龍", "👩‍👩‍👧"])
async def test_good_names(api: httpx.AsyncClient, name: str) -> None:
    code = (await new_table(api))["invite_code"]
    assert (await take_seat(api, code, name=name)).status_code == 201


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", '{"players": NaN}'),
        ("/api/tables", '{"players": 4, "takeover_seconds": Infinity}'),
        ("/api/tables", '{"players": 4, "target_score": -Infinity}'),
        ("{table}/seats", '{"name": NaN}'),
        ("{table}/seats", '{"name": "Anna", "seat": Infinity}'),
    ],
)
async def test_non_finite_numbers_are_a_clean_422(
    api: httpx.AsyncClient, path: str, body: str
) -> None:
    """Issue 14, defect 2: ``NaN``/``Infinity`` in a JSON body answered 500 (the 422 handler
    could not serialise the echoed input) and reset the connection. Now a 422 whose body is
    valid JSON, and nothing changed."""
    code = (await new_table(api))["invite_code"]
    before = (await api.get(f"/api/tables/{code}")).json()
    headers = {"content-type": "application/json"}
    url = path.replace("{table}", f"/api/tables/{code}")
    response = await api.post(url, content=body, headers=headers)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert detail["code"] == "invalid_request"
    (error,) = detail["errors"]
    assert error["loc"][0] == "body" and error["input"] in {"nan", "inf", "-inf"}
    assert (await api.get(f"/api/tables/{code}")).json() == before


async def test_unknown_table(api: httpx.AsyncClient) -> None:
    for response in [
        await api.get("/api/tables/nope"),
        await api.get("/api/tables/nope/scoresheet"),
        await take_seat(api, "nope"),
        await api.post("/api/tables/nope/rejoin", json={"token": "whatever"}),
    ]:
        assert response.status_code == 404
        assert response.json()["detail"]["code"] == "unknown_table"


async def test_rejoin_sets_the_seat_cookie(api: httpx.AsyncClient) -> None:
    code = (await new_table(api))["invite_code"]
    token = (await take_seat(api, code)).json()["token"]
    api.cookies.clear()
    response = await api.post(f"/api/tables/{code}/rejoin", json={"token": token})
    assert response.status_code == 200 and response.json() == {"seat": 0}
    assert response.headers["set-cookie"].startswith(f"mu_seat_{code}={token};")
    assert (await api.get(f"/api/tables/{code}")).json()["you"] == 0


async def test_old_rejoin_links_lead_to_the_new_form(api: httpx.AsyncClient) -> None:
    response = await api.get("/t/abc/rejoin/s3cr3t")
    assert response.status_code == 303 and response.headers["location"] == "/t/abc#rejoin=s3cr3t"
    assert "set-cookie" not in response.headers  # the page redeems it, by POST


async def test_rejoin_with_wrong_token(api: httpx.AsyncClient) -> None:
    code = (await new_table(api))["invite_code"]
    response = await api.post(f"/api/tables/{code}/rejoin", json={"token": "forged"})
    assert response.status_code == 404 and response.json()["detail"]["code"] == "unknown_seat"
    assert "set-cookie" not in response.headers


async def test_scoresheet_before_play(api: httpx.AsyncClient) -> None:
    code = (await new_table(api))["invite_code"]
    await take_seat(api, code)
    sheet = (await api.get(f"/api/tables/{code}/scoresheet")).json()
    assert sheet == {
        "players": 3,
        "names": ["Anna", None, None],
        "rows": [],
        "totals": [0, 0, 0],
        "over": False,
        "winners": [],
        "hints": [],
    }


async def test_only_token_hashes_are_stored(api: httpx.AsyncClient, database_url: str) -> None:
    code = (await new_table(api))["invite_code"]
    token = (await take_seat(api, code)).json()["token"]
    engine = create_async_engine(async_database_url(database_url))
    try:
        async with engine.connect() as conn:
            hashes = (await conn.execute(select(Seat.token_hash))).scalars().all()
    finally:
        await engine.dispose()
    assert hashlib.sha256(token.encode()).hexdigest() in hashes
    assert token not in hashes


async def test_openapi_describes_the_http_api(api: httpx.AsyncClient) -> None:
    paths = (await api.get("/openapi.json")).json()["paths"]
    for path in [
        "/api/tables",
        "/api/tables/{invite_code}",
        "/api/tables/{invite_code}/seats",
        "/api/tables/{invite_code}/scoresheet",
        "/api/tables/{invite_code}/rejoin",
    ]:
        assert path in paths


async def test_api_docs_load_nothing_from_elsewhere(api: httpx.AsyncClient) -> None:
    """Issue 14, defect 8: ``/docs`` loaded Swagger UI from a CDN (and started it with an
    inline script the security policy blocks). Now every script and style it names is ours,
    and is there."""
    page = await api.get("/docs")
    assert page.status_code == 200
    assert "//" not in page.text.replace("<!doctype", "")  # no absolute or external URL
    assert "<script>" not in page.text
    for asset in re.findall(r'(?:src|href)="(/[^"]+)"', page.text):
        assert (await api.get(asset)).status_code == 200, asset
    assert (await api.get("/redoc")).status_code == 404


async def test_api_docs_can_be_switched_off(make_app: Any) -> None:
    app = make_app(api_docs=False)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://test"
    ) as http:
        assert (await http.get("/docs")).status_code == 404
        assert (await http.get("/openapi.json")).status_code == 404
        assert (await http.get("/healthz")).status_code == 200
    await release(app)


async def test_the_apps_of_a_process_share_one_inclusion_of_the_routers(make_app: Any) -> None:
    """Each app takes the feature routers' one inclusion (``app.main.ROUTES``) as it is: their
    routes' parameters and models are resolved once per process, not again for every app (the
    tests build one per test), and each app still answers on every route and serves the same
    API document."""
    apps = [make_app(), make_app()]
    for app in apps:
        included = [route for route in app.router.routes if route in ROUTES.routes]
        assert [id(route) for route in included] == [id(route) for route in ROUTES.routes]
    documents = []
    for app in apps:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://test"
        ) as http:
            assert (await http.get("/healthz")).status_code == 200
            assert (await http.get("/api/tables/nosuchtable")).status_code == 404
            documents.append((await http.get("/openapi.json")).json())
        await release(app)
    assert documents[0] == documents[1]


async def test_security_headers_on_every_response(api: httpx.AsyncClient) -> None:
    """Issue 14, defect 6: no response carried security headers. Every kind now does: pages,
    static files, API answers (errors too), the health check."""
    code = (await new_table(api))["invite_code"]
    for response in [
        await api.get("/"),
        await api.get(f"/t/{code}"),
        await api.get("/static/css/mu.css"),
        await api.get("/static/favicon.svg"),
        await api.get(f"/api/tables/{code}"),
        await api.get("/api/tables/nope"),
        await api.post("/api/tables", json={"players": 99}),
        await api.get("/healthz"),
    ]:
        csp = dict(
            directive.strip().split(" ", 1)
            for directive in response.headers["content-security-policy"].split(";")
        )
        assert csp["default-src"] == "'self'" and csp["frame-ancestors"] == "'none'"
        assert "unsafe-inline" not in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["referrer-policy"] == "no-referrer"
    assert "strict-transport-security" not in response.headers  # plain http here


async def test_pages_load_nothing_inline_or_foreign(api: httpx.AsyncClient) -> None:
    """Issue 14, defect 6: the strict policy holds only if pages have no inline script, style
    or data: URL (the favicon was one) and reference nothing on another host."""
    code = (await new_table(api))["invite_code"]
    for path in ["/", f"/t/{code}", "/me/tables"]:
        html = (await api.get(path)).text
        assert "data:" not in html and "style=" not in html and "<style" not in html
        assert "http://" not in html.replace("http://www.w3.org", "")
        assert "https://" not in html
        for script in html.split("<script")[1:]:
            opening = script.lstrip()
            assert opening.startswith(("src=", 'type="module" src=', 'type="module" async src=')), (
                script[:80]
            )


async def test_health(api: httpx.AsyncClient) -> None:
    response = await api.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


async def test_head_is_answered_wherever_get_is(api: httpx.AsyncClient) -> None:
    code = (await new_table(api))["invite_code"]
    for path in ("/", f"/t/{code}", f"/api/tables/{code}", "/healthz", "/static/js/net.js"):
        got, head = await api.get(path), await api.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"]
    assert (await api.head("/api/tables/nosuchcode")).status_code == 404
    assert (await api.head("/api/tables")).status_code == 405  # POST only: no GET to stand for


async def test_racing_joins_get_one_seat_each(api: httpx.AsyncClient) -> None:
    code = (await new_table(api))["invite_code"]
    same = await asyncio.gather(*(take_seat(api, code, name=f"P{i}", seat=1) for i in range(4)))
    assert sorted(response.status_code for response in same) == [201, 409, 409, 409]
    rest = await asyncio.gather(*(take_seat(api, code, name=f"Q{i}") for i in range(4)))
    assert sorted(response.status_code for response in rest) == [201, 201, 409, 409]
    info = (await api.get(f"/api/tables/{code}")).json()
    assert info["status"] == "playing" and info["version"] == 3


async def test_an_unreachable_database_is_a_503(
    api: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def unreachable(**_: Any) -> None:
        raise sqlalchemy.exc.OperationalError("INSERT ...", {}, OSError("connection refused"))

    monkeypatch.setattr(repository, "create_table", unreachable)
    response = await api.post("/api/tables", json={"players": 3})
    assert response.status_code == 503
    detail = response.json()["detail"]
    assert detail["code"] == "unavailable" and "try again" in detail["message"]


PAGE = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


@pytest.mark.parametrize(
    ("fault", "status", "code", "title"),
    [
        (None, 404, "not_found", "Seite nicht gefunden"),
        (
            sqlalchemy.exc.OperationalError("SELECT", {}, OSError("refused")),
            503,
            "unavailable",
            "Gleich wieder da",
        ),
        (RuntimeError("a bug"), 500, "internal", "Etwas ist schiefgegangen"),
    ],
)
async def test_a_browser_gets_the_problem_page_and_a_program_its_json(
    make_app: Any,
    monkeypatch: pytest.MonkeyPatch,
    fault: Exception | None,
    status: int,
    code: str,
    title: str,
) -> None:
    """No address, the database out of reach, a fault of ours: a browser's navigation gets the
    one problem page (its language, a way on, not stored); a program gets the ``ErrorBody``."""

    async def failing(**_: Any) -> None:
        assert fault is not None
        raise fault

    if fault is not None:
        monkeypatch.setattr(repository, "invite_code_of_short", failing)
        monkeypatch.setattr(repository, "create_table", failing)
    app = make_app()
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        page_path = "/no/such/page" if fault is None else "/j/abcdef"
        german = {**PAGE, "Accept-Language": "de-DE,de;q=0.9"}
        response = await http.get(page_path, headers=german)
        assert response.status_code == status
        assert response.headers["content-type"].startswith("text/html")
        assert response.headers["cache-control"] == "no-store"
        html = response.text
        assert 'data-testid="page-problem"' in html and f'data-code="{code}"' in html
        assert f"<h1>{title}</h1>" in html and 'href="/"' in html
        assert "a bug" not in html and "Traceback" not in html
        # The same address asked for by a program, and the API asked for by a browser: JSON.
        program = await http.get(page_path, headers={"Accept": "application/json"})
        api_call = (
            await http.get("/api/no/such", headers=PAGE)
            if fault is None
            else await http.post("/api/tables", json={"players": 3}, headers=PAGE)
        )
        for answer in (program, api_call):
            assert answer.status_code == status, answer.text
            assert answer.json()["detail"]["code"] == code
            assert "a bug" not in answer.text
    await release(app)
