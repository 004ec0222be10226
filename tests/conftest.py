"""Suite-wide settings.

Skipped tests are summed up by reason, one line each (``SKIPPED [117] PostgreSQL half skipped:
no PostgreSQL answers at 127.0.0.1:5432``), not one line per test.

CI sets ``MU_REQUIRE_POSTGRES=1`` and ``MU_REQUIRE_BROWSER=1``: then a run in which no test of
that kind actually passed is a failed run, so a missing database or browser can never turn
into a silently green suite of skips.

Order: the slow tests first, the browser tests last (see ``pytest_collection_modifyitems``).
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterator

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--screenshots",
        action="store_true",
        help="write the browser tests' screenshots to artifacts/screenshots/ (make screenshots)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every process (each xdist worker collects the same) runs the tests in this order:
    the slow ones of a tier first, so that none of them starts last and keeps one worker busy
    while the other has finished; and the browser tests after everything else, so that a
    worker launches its Chromium once and closes it once (see ``pytest_runtest_setup``)."""
    items.sort(key=lambda item: ("browser" in item.keywords, "slow" not in item.keywords))


def pytest_runtest_setup(item: pytest.Item) -> None:
    # Playwright's sync API holds an event loop on the main thread while it is open, which an
    # asyncio test or fixture could not run beside: close the browser before any other test.
    if "browser" not in item.keywords:
        browsers = sys.modules.get("tests.browser.chromium")
        if browsers is not None:
            browsers.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test marked ``no_cover`` runs without the coverage tracer (CI's ``--cov``): the long
    seeded random-play tests run every line of the engine thousands of times, which the tracer
    made three to four times slower, and the other tests cover those lines.

    pytest-cov's own ``no_cover`` does not do it under pytest-xdist: a worker holds two started
    ``Coverage`` objects, and stopping the latest (all pytest-cov does) resumes the tracer of the
    one before. So every started one is stopped here, and started again in the same order."""
    coverage = sys.modules.get("coverage") if item.get_closest_marker("no_cover") else None
    stopped = []
    while coverage is not None and (running := coverage.Coverage.current()) is not None:
        running.stop()
        stopped.append(running)
    try:
        return (yield)
    finally:
        for running in reversed(stopped):
            running.start()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    browsers = sys.modules.get("tests.browser.chromium")
    if browsers is not None:
        browsers.close()
    _judge_required(session, exitstatus)


_REQUIRED = {"postgres": "MU_REQUIRE_POSTGRES", "browser": "MU_REQUIRE_BROWSER"}
_passed: dict[str, int] = dict.fromkeys(_REQUIRED, 0)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed:
        for marker in _REQUIRED:
            if marker in report.keywords:
                _passed[marker] += 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    for reason, count in reasons.most_common():
        terminalreporter.write_line(f"SKIPPED [{count}] {reason}")


def _judge_required(session: pytest.Session, exitstatus: int) -> None:
    # Under pytest-xdist every worker reports its tests to the controller, which counts them
    # all: only the controller (no ``workerinput``) judges the whole run.
    if hasattr(session.config, "workerinput"):
        return
    if session.config.option.collectonly or exitstatus != 0:
        return
    missing = [m for m, env in _REQUIRED.items() if os.environ.get(env) and not _passed[m]]
    if missing:
        print(f"\nREQUIRED TESTS DID NOT RUN: {', '.join(missing)}")
        session.exitstatus = 1
