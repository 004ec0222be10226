"""A table's short code (issue 38, point 5): the table display shows it, and typed on the home
page (``/j?code=…``) or as a short address (``/j/{code}``) it leads to the table's invite page;
six characters of an unambiguous alphabet, read in any case, a clear page for a wrong one, and
guessing limited by the join rate.

Every test runs on SQLite and PostgreSQL (the ``make_app`` and ``client`` fixtures).
"""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from app.tables import tokens
from tests.app.conftest import AppFactory

_SHOWN = re.compile(r'data-testid="display-code"><strong>([^<]*)</strong>')


def open_table(client: TestClient) -> tuple[str, str]:
    """A new table's invite code and the short code its display shows."""
    code = client.post("/api/tables", json={"players": 3}).json()["invite_code"]
    page = client.get(f"/t/{code}/display")
    assert page.status_code == 200
    found = _SHOWN.search(page.text)
    assert found, "the display shows no short code"
    return code, found.group(1)


def test_short_codes_are_six_unambiguous_characters() -> None:
    codes = {tokens.new_short_code() for _ in range(2000)}
    assert len(codes) > 1990
    for code in codes:
        assert len(code) == 6 and not set(code) & set("0o1liOLI"), code
    assert tokens.read_short_code(" AbC-234 ") == "abc234"
    for wrong in ("abc23", "abc2345", "abc10o", "abc 2é4"):
        assert tokens.read_short_code(wrong) is None, wrong


def test_the_display_shows_a_short_code_that_leads_to_the_table(client: TestClient) -> None:
    code, short = open_table(client)
    other, other_short = open_table(client)
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{6}", short) and short != other_short
    # The display says where to type it: the server's address, without the scheme.
    page = client.get(f"/t/{code}/display").text
    assert f"testserver/j/{short}" in page
    for typed in (f"/j/{short}", f"/j/{short.lower()}", f"/j?code={short[:3]}-{short[3:]}"):
        response = client.get(typed, follow_redirects=False)
        assert response.status_code == 303, typed
        assert response.headers["location"] == f"/t/{code}", typed
    assert client.get(f"/j/{other_short}", follow_redirects=False).headers["location"] == (
        f"/t/{other}"
    )
    # The home page has the field for it.
    home = client.get("/").text
    assert 'action="/j"' in home and 'name="code"' in home


def test_a_wrong_code_gets_a_clear_page(client: TestClient) -> None:
    _code, short = open_table(client)
    wrong = "".join("2" if ch != "2" else "3" for ch in short)
    for typed in (f"/j/{wrong}", "/j/OIL10O", "/j?code=", "/j?code=%3Cb%3E"):
        response = client.get(typed, follow_redirects=False)
        assert response.status_code == 404, typed
        assert "No table has this code" in response.text
        assert "<b>" not in response.text
    german = client.get(f"/j/{wrong}?lang=de")
    assert german.status_code == 404 and "Kein Tisch hat diesen Code" in german.text


def test_guessing_codes_is_rate_limited(make_app: AppFactory) -> None:
    with TestClient(make_app(join_rate="3/minute")) as client:
        _code, short = open_table(client)
        for _ in range(3):
            assert client.get(f"/j/{short}", follow_redirects=False).status_code == 303
        refused = client.get(f"/j/{short}", follow_redirects=False)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
