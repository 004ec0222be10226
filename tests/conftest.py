"""Suite-wide settings.

CI sets ``MU_REQUIRE_POSTGRES=1`` and ``MU_REQUIRE_BROWSER=1``: then a run in which no test of
that kind actually passed is a failed run, so a missing database or browser can never turn
into a silently green suite of skips.
"""

from __future__ import annotations

import os

import pytest

_REQUIRED = {"postgres": "MU_REQUIRE_POSTGRES", "browser": "MU_REQUIRE_BROWSER"}
_passed: dict[str, int] = dict.fromkeys(_REQUIRED, 0)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed:
        for marker in _REQUIRED:
            if marker in report.keywords:
                _passed[marker] += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if session.config.option.collectonly or exitstatus != 0:
        return
    missing = [m for m, env in _REQUIRED.items() if os.environ.get(env) and not _passed[m]]
    if missing:
        print(f"\nREQUIRED TESTS DID NOT RUN: {', '.join(missing)}")
        session.exitstatus = 1
