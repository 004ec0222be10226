"""Where the test suite's time goes: per tier and per module, from pytest's JUnit XML.

    .venv/bin/python -m pytest -n auto --junitxml=/tmp/suite.xml
    .venv/bin/python bench/suite_tiers.py /tmp/suite.xml [--modules 20]

A test's time is its setup, call and teardown as its worker measured them: under xdist the
tiers' sums add up to about the workers' count times the wall time, not to the wall time.
The tiers are the README's: engine (tests/engine and the doctests), app on SQLite, app on
PostgreSQL (the tests marked ``postgres``: ``[postgres]`` variants and PostgreSQL-only
modules), browser.
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from collections import defaultdict

POSTGRES_ONLY = (
    "tests.app.test_db_restart",
    "tests.app.test_pgbouncer",
    "tests.app.test_multiprocess",
    "tests.app.test_host_multiprocess",
    "tests.app.test_drivers",
)


def tier(classname: str, name: str) -> str:
    if classname.startswith("tests.browser"):
        return "browser"
    if classname.startswith("tests.app"):
        postgres = "postgres" in name or (
            classname.startswith(POSTGRES_ONLY) and "sqlite" not in name
        )
        return "app PostgreSQL" if postgres else "app SQLite"
    return "engine"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("junit", help="pytest --junitxml output")
    parser.add_argument("--modules", type=int, default=15, help="how many modules to list")
    args = parser.parse_args()
    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    modules: dict[str, float] = defaultdict(float)
    for case in ET.parse(args.junit).iter("testcase"):
        classname, name = case.get("classname", ""), case.get("name", "")
        took = float(case.get("time", 0))
        seconds[tier(classname, name)] += took
        counts[tier(classname, name)] += 1
        modules[classname] += took
    print(f"{'tier':16} {'tests':>6} {'seconds':>9}")
    for key in ("engine", "app SQLite", "app PostgreSQL", "browser"):
        print(f"{key:16} {counts[key]:6d} {seconds[key]:9.1f}")
    print(f"{'all':16} {sum(counts.values()):6d} {sum(seconds.values()):9.1f}")
    print(f"\nthe {args.modules} slowest modules (seconds)")
    for module, took in sorted(modules.items(), key=lambda item: -item[1])[: args.modules]:
        print(f"{took:9.1f}  {module}")


if __name__ == "__main__":
    main()
