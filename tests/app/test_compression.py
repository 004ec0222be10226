"""The table page's files are sent gzipped; answers that may hold a secret never are."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.app.helpers import create_table

GZIP = {"Accept-Encoding": "gzip"}


def test_scripts_styles_and_strings_are_gzipped(client: TestClient) -> None:
    for path in ("/static/js/board.js", "/static/css/mu.css", "/i18n/de.json"):
        response = client.get(path, headers=GZIP)
        assert response.status_code == 200
        assert response.headers["content-encoding"] == "gzip", path
        assert response.text  # httpx decodes it


def test_answers_with_tokens_are_not_compressed(client: TestClient) -> None:
    response = client.post("/api/tables", json={"players": 3}, headers=GZIP)
    assert response.status_code == 201 and "host_token" in response.json()
    assert "content-encoding" not in response.headers
    code = create_table(client)
    seat = client.post(f"/api/tables/{code}/seats", json={"name": "Anna"}, headers=GZIP)
    assert "content-encoding" not in seat.headers
