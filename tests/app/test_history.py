"""History pages and JSON: score sheet, CSV, finished hands, replay, my tables, privacy.

Games are played through the server's own single writer (``Room.act``) with seeded deals, on
SQLite and PostgreSQL like the rest of tests/app; every number is checked against the engine's
results as the server recorded them (``live.last_result``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

import engine
from app.history import words
from app.main import release
from tests.app.conftest import AppFactory
from tests.app.helpers import act_as_seated, choose

NAMES = ["Anna", "Ben", "Conny", "Dora"]
AppClient = tuple[FastAPI, httpx.AsyncClient]
VOID = {"input", "br", "meta", "link", "col", "img", "hr", "wbr"}


@dataclass
class Table:
    app: FastAPI
    http: httpx.AsyncClient
    code: str
    tokens: list[str]
    results: list[dict[str, Any]] = field(default_factory=list)

    @property
    def totals(self) -> list[list[int]]:
        """Running totals after each hand, summed from the engine's per-hand results."""
        running, out = [0] * len(self.tokens), []
        for res in self.results:
            running = [t + s for t, s in zip(running, res["total"], strict=True)]
            out.append(running)
        return out


@pytest.fixture
async def http(make_app: AppFactory) -> AsyncIterator[AppClient]:
    app = make_app()
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        yield app, client
    await release(app)


async def open_table(
    app: FastAPI,
    client: httpx.AsyncClient,
    players: int = 4,
    names: list[str] | None = None,
    variant: str = "classic",
) -> Table:
    created = await client.post("/api/tables", json={"players": players, "variant": variant})
    assert created.status_code == 201, created.text
    code = created.json()["invite_code"]
    tokens = []
    for name in (names or NAMES)[:players]:
        seat = await client.post(f"/api/tables/{code}/seats", json={"name": name})
        tokens.append(seat.json()["token"])
    client.cookies.clear()  # the join set a seat cookie; each test decides which it holds
    return Table(app, client, code, tokens)


def pick(kind: str, view: dict[str, Any], bids: int) -> dict[str, Any]:
    """An action for a hand meant to end as ``kind``: "played", "eklat" or "allpass"."""
    prompt = view["prompt"]
    if prompt["type"] == "discard":  # the revised edition's Crown with 3 players
        return {"type": "discard", "cards": prompt["cards"][: prompt["count"]]}
    if prompt["type"] != "bid":
        return choose(view)
    if kind == "allpass":
        return {"type": "pass"}
    if kind == "eklat":  # two single-card bids, then nobody goes higher: a tie at the top
        return {"type": "bid", "cards": [view["hand"][0]["id"]]} if bids < 2 else {"type": "pass"}
    # Two bids of different size: a chief and a vice, so trumps and a partner come up.
    if bids < 2:
        return {"type": "bid", "cards": [card["id"] for card in view["hand"][: bids + 1]]}
    return {"type": "pass"}


async def play(table: Table, kind: str, stop_after: int | None = None) -> None:
    """Play one hand through the room; ``stop_after`` actions leaves it running."""
    room = await table.app.state.hub.room(table.code)
    number, bids, done = room.live.hand_number, 0, 0
    while room.live.hand_number == number and not room.live.game.over:
        if stop_after is not None and done == stop_after:
            return
        hand = room.live.hand
        seat = hand.to_move
        action = pick(kind, engine.to_json_object(engine.view(hand, seat)), bids)
        bids += action["type"] == "bid"
        assert (
            await act_as_seated(room, seat, room.live.version, engine.action_from_json(action))
            is None
        )
        done += 1
    assert room.live.game.last_result is not None
    table.results.append(engine.to_json_object(room.live.game.last_result))


class Cells(HTMLParser):
    """Text and attributes of every element that has a ``data-testid``."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.stack: list[str | None] = []
        self.text: dict[str, list[str]] = {}
        self.attrs: dict[str, dict[str, str | None]] = {}
        self.numbers: dict[str, list[str]] = {}  # text outside <abbr> markers (dealer, chief)
        self.in_abbr = 0
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        testid = found.get("data-testid")
        if testid:
            self.text.setdefault(testid, [])
            self.numbers.setdefault(testid, [])
            self.attrs[testid] = found
        self.in_abbr += tag == "abbr"
        if tag not in VOID:
            self.stack.append(testid)

    def handle_endtag(self, tag: str) -> None:
        self.in_abbr -= tag == "abbr"
        if tag not in VOID:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        for testid in self.stack:
            if testid:
                self.text[testid].append(data)
                if not self.in_abbr:
                    self.numbers[testid].append(data)

    def __getitem__(self, testid: str) -> str:
        return " ".join("".join(self.text[testid]).split())

    def value(self, testid: str) -> str:
        """The number a sheet cell shows (without its markers), or "" for a blank cell."""
        return "".join(self.numbers[testid]).strip()


def shown(value: int) -> str:
    return words.number(value)


def assert_private(response: httpx.Response) -> None:
    assert response.headers["x-robots-tag"].startswith("noindex")
    assert response.headers["cache-control"] == "no-store"
    if response.headers["content-type"].startswith("text/html"):
        assert '<meta name="robots" content="noindex' in response.text


# ----- the score sheet ------------------------------------------------------------------------


async def test_sheet_numbers_equal_the_engine_results_hand_by_hand(http: AppClient) -> None:
    table = await open_table(*http)
    for kind in ("played", "eklat", "allpass", "played"):
        await play(table, kind)
    await play(table, "played", stop_after=5)  # hand 5 stays in progress
    assert [r["kind"] for r in table.results] == ["played", "stalemate", "all_passed", "played"]

    page = await table.http.get(f"/t/{table.code}/sheet")
    assert page.status_code == 200
    assert_private(page)
    cells = Cells(page.text)
    for number, (res, totals) in enumerate(zip(table.results, table.totals, strict=True), 1):
        assert cells.attrs[f"hand-{number}"]["data-kind"] == res["kind"]
        for seat in range(4):
            if res["kind"] == "played":
                assert cells.value(f"points-{number}-{seat}") == shown(res["card_points"][seat])
                bonus = res["bonus"][seat]
                assert cells.value(f"bonus-{number}-{seat}") == (shown(bonus) if bonus else "")
            elif res["kind"] == "stalemate":
                score = res["total"][seat]
                assert cells.value(f"eklat-{number}-{seat}") == (shown(score) if score else "")
            else:
                assert cells.value(f"allpass-{number}-{seat}") == ""
            assert cells.value(f"saldo-{number}-{seat}") == shown(totals[seat])
            assert cells.attrs[f"saldo-{number}-{seat}"]["data-value"] == str(totals[seat])
        if res["kind"] == "played":
            assert cells[f"points-{number}-bid"] == str(res["bid"])
    assert "hand-5" not in cells.text and "5" in cells["sheet-running"]
    leader = max(table.totals[-1])
    for seat, total in enumerate(table.totals[-1]):
        assert ("leader" in (cells.attrs[f"player-{seat}"]["class"] or "")) == (total == leader)

    server_sheet = (await table.http.get(f"/api/tables/{table.code}/scoresheet")).json()
    assert server_sheet["totals"] == table.totals[-1]
    listing = (await table.http.get(f"/api/tables/{table.code}/hands")).json()
    assert [h["number"] for h in listing["hands"]] == [1, 2, 3, 4] and listing["running"] == 5
    assert [h["score"] for h in listing["hands"]] == [r["total"] for r in table.results]


async def test_csv_parses_and_matches_the_engine(http: AppClient) -> None:
    table = await open_table(*http)
    for kind in ("played", "eklat", "allpass"):
        await play(table, kind)
    response = await table.http.get(f"/t/{table.code}/sheet.csv")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    assert_private(response)
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert len(rows) == 3
    for row, res, totals in zip(rows, table.results, table.totals, strict=True):
        assert row["kind"] == res["kind"]
        assert row["bid"] == ("" if res["bid"] is None else str(res["bid"]))
        assert row["chief"] == ("" if res["chief"] is None else NAMES[res["chief"]])
        for seat, name in enumerate(NAMES):
            assert int(row[f"{name} points"]) == res["card_points"][seat]
            assert int(row[f"{name} bonus"]) == res["bonus"][seat]
            assert int(row[f"{name} score"]) == res["total"][seat]
            assert int(row[f"{name} total"]) == totals[seat]


async def test_csv_neutralises_formula_names(http: AppClient) -> None:
    table = await open_table(*http, players=3, names=["=HYPERLINK(1)", "Ben", "Cleo"])
    header = (await table.http.get(f"/t/{table.code}/sheet.csv")).text.splitlines()[0]
    assert "'=HYPERLINK(1) points" in header and ",=" not in header


# ----- privacy --------------------------------------------------------------------------------


def _no_cards(text: str) -> None:
    assert "data-card-id" not in text and '"color"' not in text and '"deal"' not in text


async def _every_view(table: Table, number: int) -> list[httpx.Response]:
    base = f"/t/{table.code}"
    paths = [
        f"{base}/sheet",
        f"{base}/sheet.csv",
        f"{base}/hands/{number}",
        f"{base}/hands/{number}?step=3&seat=all",
        f"{base}/hands/{number}?step=3&seat=0&partial=1",
        f"/api/tables/{table.code}/hands",
        f"/api/tables/{table.code}/hands/{number}",
        "/me/tables",
    ]
    return [await table.http.get(path) for path in paths]


async def test_a_running_hand_is_never_revealed(http: AppClient) -> None:
    table = await open_table(*http)
    table.http.cookies.set(f"mu_seat_{table.code}", table.tokens[0])
    await play(table, "played", stop_after=12)  # bids, trumps, partner, a few cards
    for response in await _every_view(table, 1):
        assert_private(response)
        _no_cards(response.text)
    refused = await table.http.get(f"/api/tables/{table.code}/hands/1")
    assert refused.status_code == 409
    assert refused.json()["detail"]["code"] == "hand_in_progress"
    assert (await table.http.get(f"/t/{table.code}/hands/1")).status_code == 409

    await play(table, "played")  # hand 1 is over now, hand 2 gets dealt and started
    await play(table, "played", stop_after=7)
    room = await table.app.state.hub.room(table.code)
    assert room.live.hand_number == 2
    hidden_now = [sorted(hand) for hand in room.live.hand.hands]
    responses = await _every_view(table, 2)
    for response in responses:
        assert_private(response)
        _no_cards(response.text)
    assert responses[2].status_code == 409 and responses[6].status_code == 409
    finished = (await table.http.get(f"/api/tables/{table.code}/hands/1")).json()
    shown_deal = [sorted(card["id"] for card in cards) for cards in finished["deal"]]
    assert shown_deal != hidden_now  # hand 1's deal, not the running one's
    listing = (await table.http.get(f"/api/tables/{table.code}/hands")).json()
    assert [h["number"] for h in listing["hands"]] == [1]
    # A step past the end of hand 1 stops at its end: it never runs on into hand 2.
    page = await table.http.get(f"/t/{table.code}/hands/1?step=9999&seat=all&partial=1")
    assert Cells(page.text).attrs["replay"]["data-step"] == str(finished["steps"])


async def test_errors_are_clear_and_private(http: AppClient) -> None:
    app, client = http
    table = await open_table(app, client, players=3)
    await play(table, "allpass")
    cases = {
        "/t/nope/sheet": 404,
        "/t/nope/sheet.csv": 404,
        "/t/nope/hands/1": 404,
        "/api/tables/nope/hands": 404,
        "/api/tables/nope/hands/1": 404,
        f"/api/tables/{table.code}/hands/7": 404,
        f"/t/{table.code}/hands/7": 404,
        f"/t/{table.code}/hands/1?seat=9": 422,
    }
    for path, status in cases.items():
        response = await client.get(path)
        assert response.status_code == status, path
        assert_private(response)
    unknown = await client.get("/api/tables/nope/hands/1")
    assert unknown.json()["detail"]["code"] == "unknown_table"
    missing = await client.get(f"/api/tables/{table.code}/hands/7")
    assert missing.json()["detail"]["code"] == "unknown_hand"


# ----- finished hands and their replay --------------------------------------------------------


async def test_hand_json_replays_to_the_same_tricks_and_result(http: AppClient) -> None:
    table = await open_table(*http)
    await play(table, "played")
    hand = (await table.http.get(f"/api/tables/{table.code}/hands/1")).json()
    assert hand["result"] == table.results[0]
    assert len(hand["tricks"]) == 15 and sum(t["points"] for t in hand["tricks"]) == 60
    # Independently: deal the shown cards again and apply the logged actions.
    state = engine.deal_from([[c["id"] for c in cards] for cards in hand["deal"]], hand["dealer"])
    for logged in hand["actions"]:
        state = engine.apply(state, logged["seat"], engine.action_from_json(logged["action"]))
    assert engine.to_json(engine.result(state)) == table.results[0]
    assert engine.to_json(engine.view(state, None).tricks) == hand["tricks"]
    took = f"took {hand['result']['team_points']} of {hand['result']['team_goal']} needed"
    assert took in hand["explanation"]


TRICK = re.compile(r'<div class="trick won">(.*?)</div>', re.S)
PLAY = re.compile(r'data-testid="replay-play-(\d)">\s*<span class="card[^"]*" data-card-id="(\d+)"')
WINNER = re.compile(r'class="played winner" data-testid="replay-play-(\d)"')


async def test_the_replay_reproduces_every_trick(http: AppClient) -> None:
    table = await open_table(*http)
    await play(table, "played")
    hand = (await table.http.get(f"/api/tables/{table.code}/hands/1")).json()
    seen = []
    for step in range(hand["steps"] + 1):
        page = await table.http.get(f"/t/{table.code}/hands/1?step={step}&seat=all&partial=1")
        assert page.status_code == 200
        block = TRICK.search(page.text)
        if block:
            plays = [{"seat": int(s), "card": int(c)} for s, c in PLAY.findall(block.group(1))]
            winner = int(WINNER.findall(block.group(1))[0])
            seen.append({"cards": plays, "winner": winner})
    expected = [
        {"cards": [{"seat": p["seat"], "card": p["card"]["id"]} for p in trick["cards"]],
         "winner": trick["winner"]}
        for trick in hand["tricks"]
    ]  # fmt: skip
    assert seen == expected


async def test_replay_is_seen_from_the_viewers_seat_by_default(http: AppClient) -> None:
    table = await open_table(*http)
    await play(table, "played")
    table.http.cookies.set(f"mu_seat_{table.code}", table.tokens[2])
    page = await table.http.get(f"/t/{table.code}/hands/1")
    cells = Cells(page.text)
    assert cells.attrs["replay"]["data-seat"] == "2" and cells.attrs["replay"]["data-step"] == "0"
    seat_cards = {s: re.findall(r'data-card-id="(\d+)"', _inner(page.text, s)) for s in range(4)}
    assert len(seat_cards[2]) == 15 and not seat_cards[0] and not seat_cards[3]
    assert 'href="?step=1&amp;seat=2#replay"' in page.text  # the no-JS step link
    assert "Step 0 of" in cells["step-count"]
    opened = await table.http.get(f"/t/{table.code}/hands/1?seat=all&step=1")
    assert all(len(re.findall(r"data-card-id", _inner(opened.text, s))) >= 14 for s in range(4))
    for testid in ("deal", "auction", "tricks", "explanation", "hand-score"):
        assert testid in Cells(opened.text).text


def _inner(html: str, seat: int) -> str:
    match = re.search(rf'data-testid="replay-hand-{seat}">(.*?)</div>', html, re.S)
    assert match
    return match.group(1)


# ----- the revised edition (Crown and Shield) ---------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
async def test_revised_tables_show_crown_shield_redeals_and_discards(
    http: AppClient, players: int
) -> None:
    table = await open_table(*http, players=players, variant="revised")
    for kind in ("played", "allpass"):
        await play(table, kind)
    assert [r["kind"] for r in table.results] == ["played", "redeal"]
    cells = Cells((await table.http.get(f"/t/{table.code}/sheet")).text)
    for seat in range(players):
        assert cells.value(f"saldo-2-{seat}") == shown(table.totals[-1][seat])
        assert cells.value(f"points-1-{seat}") == shown(table.results[0]["card_points"][seat])
    assert cells.attrs["hand-2"]["data-kind"] == "redeal" and cells["redeal-2-bid"] == "redeal"

    page = await table.http.get(f"/t/{table.code}/hands/1?seat=all")
    assert "Crown" in page.text and "Shield" in page.text and "Crown trump" in page.text
    hand = (await table.http.get(f"/api/tables/{table.code}/hands/1")).json()
    assert hand["roles"] == {"chief": "crown", "vice": "shield"}
    assert "team wins" in hand["explanation"] or "no bonus" in hand["explanation"]
    if players == 3:  # the kitty discard is a step of the replay like any other
        step = next(i for i, a in enumerate(hand["actions"], 1) if a["action"]["type"] == "discard")
        said = Cells((await table.http.get(f"/t/{table.code}/hands/1?step={step}")).text)
        assert "discards 3 cards" in said["replay-said"]
    redeal = (await table.http.get(f"/api/tables/{table.code}/hands/2")).json()
    assert redeal["explanation"].startswith("Nobody showed a card")


# ----- my tables ------------------------------------------------------------------------------


async def test_my_tables_lists_only_real_seats_with_statistics(http: AppClient) -> None:
    app, client = http
    first = await open_table(app, client, players=3)
    for kind in ("played", "eklat", "played"):
        await play(first, kind)
    waiting = await client.post("/api/tables", json={"players": 3})
    waiting_code = waiting.json()["invite_code"]
    seat = await client.post(f"/api/tables/{waiting_code}/seats", json={"name": "Anna"})
    stranger = await open_table(app, client, players=3)
    client.cookies.clear()
    client.cookies.set(f"mu_seat_{first.code}", first.tokens[1])
    client.cookies.set(f"mu_seat_{waiting_code}", seat.json()["token"])
    client.cookies.set(f"mu_seat_{stranger.code}", first.tokens[0])  # not a seat there
    client.cookies.set("mu_seat_unknown", "whatever")

    page = await client.get("/me/tables")
    assert page.status_code == 200
    assert_private(page)
    cells = Cells(page.text)
    assert "my-table-1" in cells.text and "my-table-2" not in cells.text
    assert stranger.code not in page.text and first.code in page.text and waiting_code in page.text

    rows = {cells[f"stats-{i}"].split()[0]: i for i in range(3) if f"stats-{i}" in cells.text}
    for seat_no, name in enumerate(NAMES[:3]):
        played = [r for r in first.results if r["kind"] == "played"]
        as_chief = [r for r in played if r["chief"] == seat_no]
        assert cells[f"stats-{rows[name]}"].split()[1:3] == ["3", str(len(as_chief))]
        avg = sum(r["card_points"][seat_no] for r in played) / len(played)
        bonus = sum(max(r["bonus"][seat_no], 0) for r in played)
        assert cells[f"stats-{rows[name]}"].split()[-2:] == [f"{avg:.1f}", str(bonus)]


async def test_my_tables_without_seats(http: AppClient) -> None:
    _app, client = http
    page = await client.get("/me/tables")
    assert page.status_code == 200 and "no-tables" in Cells(page.text).text
