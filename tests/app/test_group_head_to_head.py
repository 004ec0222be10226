"""Head to head (app/groups/headtohead.py): figures counted by hand on small hand-made games,
then the page on games stored and replayed as the server does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast

import httpx
from fastapi import FastAPI

import engine
from app.groups import headtohead, seasons, service
from app.groups.service import GroupTable
from tests.app.test_group_seasons import store_game
from tests.app.test_groups import new_group
from tests.app.test_history import http  # noqa: F401  (fixture)

AppClient = tuple[FastAPI, httpx.AsyncClient]
T = engine.TrumpKind


def hand(chief: int, team: tuple[int, ...], success: bool, trump: T, bid: int) -> Any:
    players = 4
    return engine.HandResult(
        kind=engine.Outcome.PLAYED, chief=chief, team=team,
        opponents=tuple(s for s in range(players) if s not in team), success=success,
        chief_trump=trump, bid=bid, total=(0,) * players,
    )  # fmt: skip


def table(keys: tuple[str, ...], results: list[Any], totals: tuple[int, ...] | None) -> Any:
    """A stand-in for a table's summary: only what the figures read."""
    records = [SimpleNamespace(number=n, result=r) for n, r in enumerate(results, start=1)]
    summary = SimpleNamespace(hands=records, over=totals is not None, totals=totals)
    return cast(GroupTable, SimpleNamespace(keys=keys, summary=summary))


def test_figures_counted_by_hand() -> None:
    eklat = engine.HandResult(kind=engine.Outcome.STALEMATE, provocateur=0, total=(0, 0, 0, 0))
    first = table(
        ("a", "b", "c", "d"),
        [
            hand(0, (0, 1), True, T.RED, 3),  # a chief, b partner: made
            hand(1, (1,), False, T.SEVEN, 4),  # b chief alone, a against: failed
            hand(0, (0, 2), False, T.RED, 4),  # a chief, c partner, b against: failed
            eklat,  # no chief: counts as a hand together only
        ],
        (10, 5, 0, -15),
    )
    # a without b: a's record as chief, not the pair's.
    apart = table(("a", "c", "d", "e"), [hand(0, (0, 1), True, T.NONE, 5)], (3, 3, 0, 0))
    # Level at the end; b chief with a as partner: made.
    level = table(("b", "a", "c", "d"), [hand(0, (0, 1), True, T.BLUE, 3)], (7, 7, 1, 0))
    playing = table(("c", "b", "a", "d"), [hand(2, (2, 1), True, T.RED, 3)], None)

    pair = headtohead.compare([first, apart, level, playing], "a", "b")
    assert (pair.games, pair.over, pair.hands) == (3, 2, 6)
    assert (pair.a_ahead, pair.b_ahead, pair.level) == (1, 0, 1)
    # a was chief in 3 hands with b at the table: b partner twice (both made), against once
    # (failed).
    a_chief = pair.a_chief
    assert a_chief.hands == 3 and a_chief.chosen_rate == 2 / 3
    assert (a_chief.with_other.hands, a_chief.with_other.won) == (2, 2)
    assert (a_chief.against_other.hands, a_chief.against_other.won) == (1, 0)
    b_chief = pair.b_chief
    assert (b_chief.hands, b_chief.with_other.hands, b_chief.with_other.won) == (2, 1, 1)
    assert (b_chief.against_other.hands, b_chief.against_other.won) == (1, 0)

    a_rec = pair.chief_records["a"]  # every hand a led, b there or not
    assert (a_rec.overall.hands, a_rec.overall.won) == (4, 3)
    assert {k: (r.hands, r.won) for k, r in a_rec.by_trump.items()} == {
        T.RED: (3, 2),
        T.NONE: (1, 1),
    }
    assert {k: (r.hands, r.won) for k, r in a_rec.by_bid.items()} == {
        3: (2, 2),
        4: (1, 0),
        5: (1, 1),
    }
    assert {k: (r.hands, r.won) for k, r in a_rec.by_partner.items()} == {
        "b": (2, 2),
        "c": (2, 1),
    }
    b_rec = pair.chief_records["b"]
    assert {k: (r.hands, r.won) for k, r in b_rec.by_partner.items()} == {"": (1, 0), "a": (1, 1)}
    assert b_rec.overall.rate == 0.5


async def test_head_to_head_page_on_stored_games(http: AppClient) -> None:  # noqa: F811
    app, client = http
    sessions = app.state.session_factory
    code = await new_group(client)
    start = datetime(seasons.today().year, 1, 2, 20, tzinfo=UTC)
    await store_game(sessions, code, start, 21, hands=3)
    await store_game(sessions, code, start + timedelta(days=1), 22, hands=3)
    await store_game(sessions, code, start + timedelta(days=2), 23, names=("Anna", "Cleo", "Dan"))

    group = await service.find_group(session_factory=sessions, code=code)
    assert group is not None
    tables = await service.load_tables(session_factory=sessions, group=group)
    expected = headtohead.compare(tables, "anna", "ben")
    assert expected.games == 2 and expected.over == 2 and expected.hands == 6
    assert expected.a_ahead + expected.b_ahead + expected.level == 2

    page = await client.get(f"/g/{code}/vs", params={"a": "anna", "b": "ben"})
    assert page.status_code == 200
    assert page.headers["x-robots-tag"].startswith("noindex")
    text = page.text
    assert 'data-testid="vs-games">2<' in text and 'data-testid="vs-hands">6<' in text
    ahead = f"Anna {expected.a_ahead} · Ben {expected.b_ahead} · level {expected.level}"
    assert ahead in text
    anna = expected.chief_records["anna"].overall
    assert f"{anna.won} of {anna.hands} made" in text
    # The same figures again, kept: the tables unchanged.
    again = await client.get(f"/g/{code}/vs", params={"a": "anna", "b": "ben"})
    assert again.text == text

    german = await client.get(
        f"/g/{code}/vs", params={"a": "anna", "b": "ben"}, headers={"Accept-Language": "de"}
    )
    assert "Direkter Vergleich" in german.text or "Partien zusammen" in german.text
    for odd in ({"a": "anna", "b": "anna"}, {"a": "anna", "b": "nobody"}, {}):
        chooser = await client.get(f"/g/{code}/vs", params=odd)
        assert chooser.status_code == 200 and 'data-testid="vs-choose"' in chooser.text
    assert (await client.get("/g/nope/vs")).status_code == 404
    # The group page offers the comparison.
    assert f'action="/g/{code}/vs"' in (await client.get(f"/g/{code}")).text


async def test_the_openapi_document_has_the_vs_page_and_the_seasons_form(
    http: AppClient,  # noqa: F811
) -> None:
    """Documented with what they really answer (tests/app/test_api_contract.py checks it); the
    other group pages stay out, like every HTML page."""
    _, client = http
    paths = (await client.get("/openapi.json")).json()["paths"]
    assert not {"/g", "/g/{code}", "/g/{code}/claim", "/g/{code}/tables"} & paths.keys()
    vs = paths["/g/{code}/vs"]["get"]["responses"]
    assert {"200", "404", "422"} <= vs.keys() and "text/html" in vs["404"]["content"]
    form = paths["/g/{code}/seasons"]["post"]["responses"]
    assert "Location" in form["303"]["headers"] and "text/html" in form["404"]["content"]
    assert {"text/html", "application/json"} <= form["422"]["content"].keys()
