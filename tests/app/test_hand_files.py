"""Hand files in the app: download a hand and a game, import them again, errors on the page."""

from __future__ import annotations

import re

import httpx
from fastapi import FastAPI

import engine
from engine import notation
from tests.app.test_history import NAMES, Cells, http, open_table, play  # noqa: F401

AppClient = tuple[FastAPI, httpx.AsyncClient]


def numbers(html: str) -> dict[str, str]:
    """Every number cell of a score sheet page, by its test id."""
    cells = Cells(html)
    return {
        key: "".join(cells.numbers[key]).strip()
        for key, attrs in cells.attrs.items()
        if "data-value" in attrs
    }


async def test_download_and_import_round_trip(http: AppClient) -> None:  # noqa: F811
    app, client = http
    table = await open_table(app, client, players=4)
    for kind in ["played", "eklat", "allpass", "played"]:
        await play(table, kind)

    hand = await client.get(f"/t/{table.code}/hands/1/file")
    assert hand.status_code == 200
    assert hand.headers["content-type"].startswith("text/plain")
    disposition = hand.headers["content-disposition"]
    assert re.match(r'attachment; filename="mu-hand-1-[\d-]+\.txt"', disposition)
    parsed = notation.parse(hand.text)
    assert parsed.players == tuple(NAMES[:4])
    assert engine.to_json_object(parsed.hands[0].result) == table.results[0]

    game = await client.get(f"/t/{table.code}/game.txt")
    assert game.status_code == 200 and "attachment" in game.headers["content-disposition"]
    whole = notation.parse(game.text)
    assert [engine.to_json_object(h.result) for h in whole.hands] == table.results

    page = await client.get(f"/t/{table.code}/hands/1")
    assert f'href="/t/{table.code}/hands/1/file"' in page.text
    sheet = await client.get(f"/t/{table.code}/sheet")
    assert f'href="/t/{table.code}/game.txt"' in sheet.text

    imported = await client.post("/import", data={"text": game.text})
    assert imported.status_code == 303
    target = imported.headers["location"]
    assert re.fullmatch(r"/import/[A-Za-z0-9_-]{32,}/sheet", target)
    shown = await client.get(target)
    mine = await client.get(f"/t/{table.code}/sheet")
    assert shown.status_code == 200
    assert numbers(shown.text) == numbers(mine.text) and numbers(mine.text)
    replay = await client.get(target.replace("/sheet", "/hands/1"), params={"step": 3})
    assert replay.status_code == 200 and 'data-testid="explanation"' in replay.text

    one = await client.post(
        "/import", files={"upload": ("hand.txt", hand.content, "text/plain")}, data={"text": ""}
    )
    assert one.status_code == 303 and one.headers["location"].endswith("/hands/1")


async def test_import_errors_are_typed_and_shown_with_their_line(http: AppClient) -> None:  # noqa: F811
    app, client = http
    table = await open_table(app, client, players=3)
    await play(table, "played")
    text = (await client.get(f"/t/{table.code}/hands/1/file")).text
    lines = text.splitlines()
    auction = lines.index("[Auction]") + 2  # 1-based number of the first auction line
    lines[auction - 1] = lines[auction - 1].split()[0] + " Q9"
    bad = await client.post("/import", data={"text": "\n".join(lines)})
    assert bad.status_code == 422
    cells = Cells(bad.text)
    assert cells.attrs["import-error"]["data-code"] == "bad_value"
    assert f"Line {auction}:" in " ".join(cells.text["import-error-line"])

    german = await client.post("/import?lang=de", data={"text": '[Players "A; B"]'})
    assert german.status_code == 422 and "Zeile 1:" in german.text

    huge = await client.post(
        "/import", files={"upload": ("big.txt", b"%" * (60 * 1024), "text/plain")}
    )
    assert huge.status_code in (413, 422)
    assert (await client.get("/import/nope/sheet")).status_code == 404
