"""The table page's first visit on an emulated phone network (issue 38, point 8).

Starts the app (``python -m app`` on a fresh SQLite file, from this checkout) and opens the
table page in headless Chromium with nothing cached and no service worker, on the DevTools
profiles "4G" (150 ms, 1.6 Mbit/s) and "Fast 3G" (562.5 ms, 1.44 Mbit/s), once for a newcomer
at a new table and once for a seated player in the middle of a hand. Prints the requests, the
KB on the wire, and the medians of the time to the ``load`` event and to "usable" (the join
form, or the hand drawn from the first view; see ``USABLE`` in tests/browser/test_first_visit.py).

    taskset -c 0 .venv/bin/python bench/first_visit.py
    MU_BUNDLE=0 taskset -c 0 .venv/bin/python bench/first_visit.py    # the sources, unbundled
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.browser.conftest import Server  # noqa: E402
from tests.browser.scripted import ScriptedTable  # noqa: E402
from tests.browser.test_first_visit import PROFILES, first_visit, seated_cookies  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="visits per case (median)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        server = Server(Path(folder) / "mu.db")
        server.start()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            code = server.new_table(4)
            with ScriptedTable(server, 4) as table:
                table.play_until(lambda view: view["phase"] == "play")
                cookies = seated_cookies(browser, table, 0)
                cases = [
                    ("newcomer", f"{server.base_url}/t/{code}", None),
                    ("seated", f"{server.base_url}/t/{table.code}", cookies),
                ]
                print("profile  who       requests     KB  load ms usable ms")
                for profile, conditions in PROFILES.items():
                    for who, url, jar in cases:
                        visits = [
                            first_visit(browser, url, who, cookies=jar, profile=conditions)
                            for _ in range(args.repeat)
                        ]
                        load = statistics.median(v.load_ms for v in visits)
                        usable = statistics.median(v.usable_ms for v in visits)
                        print(
                            f"{profile:8} {who:9} {visits[0].requests:8d} "
                            f"{visits[0].bytes / 1000:6.1f} {load:8.0f} {usable:9.0f}"
                        )
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
