"""``GET /metrics``: Prometheus metrics of this process.

HTTP requests (count, latency, sizes by route template, so no invite code or token in a label)
come from prometheus-fastapi-instrumentator; the table server's own are below. Each process
has its own: with several, scrape each one. ``METRICS=false`` switches the endpoint off.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from fastapi import FastAPI
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_fastapi_instrumentator import Instrumentator

# Milliseconds matter here: an action should reach every seat within a few.
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

SOCKETS = Gauge("mu_websockets_open", "Open table WebSockets.", ["kind"])
ACTIONS = Counter(
    "mu_actions_total", "Actions received, by outcome: applied, or the refusal code.", ["outcome"]
)
REFUSALS = Counter(
    "mu_ws_errors_total", "WebSocket error replies other than refused actions, by code.", ["code"]
)
ACTION_FANOUT = Histogram(
    "mu_action_fanout_seconds",
    "From an action's arrival to its new views queued for every local socket of the table.",
    buckets=_FAST,
)
COMMIT = Histogram("mu_commit_seconds", "One change's commit to the database.", buckets=_FAST)
NOTIFY_LAG = Histogram(
    "mu_notify_lag_seconds",
    "From this process's commit to hearing its own notification back (PostgreSQL fan-out).",
    buckets=_FAST,
)
CATCH_UPS = Counter(
    "mu_catch_ups_total",
    "Rooms brought up to date with other processes' commits, by source: the actions carried"
    " in their notes, or the log (PostgreSQL fan-out).",
    ["source"],
)
TABLES_LIVE = Gauge("mu_tables_live", "Tables held in memory by this process.")
TABLES_ACTIVE = Gauge("mu_tables_active", "Tables with at least one socket on this process.")
TOO_MANY = Counter("mu_rate_limited_total", "Requests and messages refused by a limit.", ["limit"])


def since(start: float) -> float:
    return time.perf_counter() - start


def install(app: FastAPI, *, live: Callable[[], int], active: Callable[[], int]) -> None:
    """Instrument ``app``'s HTTP routes and serve ``/metrics``; ``live``/``active`` count the
    process's tables when scraped."""
    TABLES_LIVE.set_function(live)
    TABLES_ACTIVE.set_function(active)
    # The HTTP metrics in a registry of the app's own (the instrumentator registers them once
    # per registry; tests build many apps in one process), which also reports the process-wide
    # ones above.
    registry = CollectorRegistry()
    registry.register(REGISTRY)
    instrumentator = Instrumentator(excluded_handlers=["/metrics"], registry=registry)
    instrumentator.instrument(app).expose(app, include_in_schema=False)
