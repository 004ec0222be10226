"""``GET /metrics``: Prometheus text with the HTTP metrics and the table server's own."""

from __future__ import annotations

from contextlib import ExitStack

from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from tests.app.helpers import create_table as new_table
from tests.app.helpers import next_of_type, seat_everyone, step
from tests.app.test_ws_errors import everyone_connected
from tests.waiting import wait_until


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str
) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_sockets_actions_commits_and_requests(
    client: TestClient, database_url: str
) -> None:
    before = scrape(client)
    code = new_table(client, players=3)
    tokens = seat_everyone(client, code)
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={token}"))
            for token in tokens
        ]
        views = [everyone_connected(ws) for ws in sockets]
        during = scrape(client)
        views = step(sockets, views)  # one applied action
        idle = (views[0]["view"]["to_move"] + 1) % 3
        pass_ = {"type": "action", "version": views[0]["version"], "action": {"type": "pass"}}
        sockets[idle].send_json(pass_)  # refused: not this seat's turn
        assert next_of_type(sockets[idle], "error")["code"] == "not_your_turn"
        sockets[idle].send_text("{not json")
        assert next_of_type(sockets[idle], "error")["code"] == "bad_json"
        after = scrape(client)

    assert (
        value(during, "mu_websockets_open", kind="seat")
        - value(before, "mu_websockets_open", kind="seat")
        == 3
    )
    assert value(during, "mu_tables_live") >= 1 and value(during, "mu_tables_active") >= 1
    grew = lambda name, **labels: value(after, name, **labels) - value(before, name, **labels)  # noqa: E731
    assert grew("mu_actions_total", outcome="applied") == 1
    assert grew("mu_actions_total", outcome="not_your_turn") == 1
    assert grew("mu_ws_errors_total", code="bad_json") == 1
    assert grew("mu_action_fanout_seconds_count") == 1
    assert grew("mu_commit_seconds_count") >= 4  # three seats taken, one action
    created = {"handler": "/api/tables", "method": "POST", "status": "2xx"}
    assert grew("http_requests_total", **created) == 1
    text = client.get("/metrics").text
    assert code not in text and not any(token in text for token in tokens)
    if database_url.startswith("postgres"):  # the fan-out hears its own commits back
        heard = value(before, "mu_notify_lag_seconds_count")
        wait_until(
            lambda: scrape(client).get(("mu_notify_lag_seconds_count", ()), 0) > heard,
            10,
            "no notification was heard back",
        )


def test_metrics_can_be_switched_off(make_app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(make_app(metrics=False)) as client:
        assert client.get("/metrics").status_code == 404
