"""Issue 38, point 8: the first visit is quick on a phone network.

A first visit (nothing cached, no service worker) of the table page, for a newcomer at a new
table and for a seated player in the middle of a hand, costs at most 15 requests and 150 KB on
the wire, and the page becomes usable. The times on an emulated phone network are measured by
``bench/first_visit.py`` (which uses ``first_visit`` below); a test asserts no wall time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from app.web import bundle
from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.scripted import ScriptedTable

pytestmark = pytest.mark.browser

MAX_REQUESTS = 15
MAX_BYTES = 150_000
# The DevTools network profiles (Network.emulateNetworkConditions): latency in ms, throughput
# in bytes per second. "4G" is the (150 ms, 1.6 Mbit/s); "Fast 3G" is Chromium's preset.
PROFILES: dict[str, dict[str, float]] = {
    "4G": {"latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 200_000},
    "Fast 3G": {"latency": 562.5, "downloadThroughput": 184_320, "uploadThroughput": 84_375},
}
# When the page is usable: its main control is on screen and works. A newcomer's is the join
# form (the lobby draws it from the table info; the seat request needs no socket); a seated
# player's is their hand, drawn from the first view (``body[data-version]``).
USABLE = {
    "newcomer": """() => {
        const button = document.querySelector('[data-testid="take-seat"]');
        const name = document.querySelector('[data-testid="name-input"]');
        return !!button && button.offsetParent !== null && !button.disabled
            && !!name && name.offsetParent !== null && !name.disabled;
    }""",
    "seated": """() => document.body.dataset.version !== undefined
        && !!document.querySelector('#me .hand button.card')""",
}
# Runs before the page's own scripts: notes the moment the page first is usable.
_WATCH = """(() => {
    const usable = %s;
    const check = () => {
        if (window.__muUsableAt === undefined && usable()) {
            window.__muUsableAt = performance.now();
            observer.disconnect();
        }
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { subtree: true, childList: true, attributes: true });
})();"""


@dataclass
class Visit:
    """What one first visit cost: requests (the WebSocket counts as one), bytes on the wire
    (headers, bodies, the socket's frames), and the times from navigation start in ms."""

    urls: list[str] = field(default_factory=list)
    sizes: dict[str, int] = field(default_factory=dict)
    frame_bytes: int = 0
    load_ms: float = 0.0
    usable_ms: float = 0.0

    @property
    def requests(self) -> int:
        return len(self.urls)

    @property
    def bytes(self) -> int:
        return sum(self.sizes.values()) + self.frame_bytes

    def report(self, base_url: str) -> str:
        lines = [f"{size:7d}  {url.removeprefix(base_url)}" for url, size in self.sizes.items()]
        lines += [f"{self.frame_bytes:7d}  WebSocket frames received"]
        lines += [f"{self.requests} requests, {self.bytes / 1000:.1f} KB"]
        return "\n".join(lines)


def first_visit(
    browser: Browser,
    url: str,
    usable: str,
    *,
    cookies: list[Any] | None = None,
    profile: dict[str, float] | None = None,
) -> Visit:
    """Open ``url`` in a fresh context (``cookies`` given, no cache, no service worker, on the
    network ``profile`` if any) and measure it until the page is usable and the network idle."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    if cookies:
        context.add_cookies(cookies)
    context.add_init_script(_WATCH % USABLE[usable])
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if profile is not None:
        cdp.send("Network.emulateNetworkConditions", {"offline": False, **profile})
    visit = Visit()
    urls: dict[str, str] = {}

    def sent(event: dict[str, Any]) -> None:
        if event["requestId"] not in urls:
            visit.urls.append(event["request"]["url"])
        urls[event["requestId"]] = event["request"]["url"]

    def finished(event: dict[str, Any]) -> None:
        url = urls.get(event["requestId"])
        if url is not None:
            visit.sizes[url] = visit.sizes.get(url, 0) + int(event["encodedDataLength"])

    def frame(event: dict[str, Any]) -> None:
        visit.frame_bytes += len(event["response"]["payloadData"].encode())

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.webSocketCreated", lambda event: visit.urls.append(event["url"]))
    cdp.on("Network.webSocketFrameReceived", frame)
    page.goto(url, wait_until="load")
    page.wait_for_function("() => window.__muUsableAt !== undefined", timeout=60_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    times = page.evaluate(
        """() => [performance.getEntriesByType('navigation')[0].loadEventStart,
                  window.__muUsableAt]"""
    )
    visit.load_ms, visit.usable_ms = float(times[0]), float(times[1])
    context.close()
    return visit


def seated_cookies(browser: Browser, table: ScriptedTable, seat: int) -> list[Any]:
    """The seat cookie a seated player's browser holds (their rejoin link redeemed once)."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    page.goto(table.rejoin_url(seat))
    expect(page.locator("#me .hand button.card").first).to_be_visible()
    cookies = context.cookies()
    context.close()
    return list(cookies)


def test_8_the_first_visit_is_quick_on_a_phone_network(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    """Issue 38, point 8: a newcomer's and a seated player's first visit of the table page take
    at most 15 requests and 150 KB, and the page becomes usable (its join form, its hand)."""
    code = server.new_table(4)
    newcomer = first_visit(browser, f"{server.base_url}/t/{code}", "newcomer")
    print(f"\nnewcomer, /t/{code}\n{newcomer.report(server.base_url)}")
    with ScriptedTable(server, 4) as table:
        table.play_until(lambda view: view["phase"] == "play")
        cookies = seated_cookies(browser, table, 0)
        seated = first_visit(
            browser, f"{server.base_url}/t/{table.code}", "seated", cookies=cookies
        )
    print(f"seated, mid-hand\n{seated.report(server.base_url)}")
    for visit in (newcomer, seated):
        ours = (server.base_url, server.base_url.replace("http", "ws", 1))
        assert [url for url in visit.urls if not url.startswith(ours)] == []
        assert visit.requests <= MAX_REQUESTS, json.dumps(visit.urls, indent=1)
        assert visit.bytes <= MAX_BYTES, visit.report(server.base_url)
    bundled = [url for url in newcomer.urls if "/static/bundle/" in url]
    assert bundled, "the server serves the sources: bundle/ is missing or stale (make bundle)"
    # The bundle is what production serves: one script per page, not the modules one by one,
    # kept a year (its name changes with its content) and sent compressed.
    scripts = [url for url in seated.urls if url.endswith(".js")]
    assert len(scripts) <= 2, scripts
    for url in bundled:
        for encoding in ["br", "gzip"]:
            response = server.api(
                "GET", url.removeprefix(server.base_url), headers={"Accept-Encoding": encoding}
            )
            if encoding == "br" or len(response.content) >= 1024:  # gzip spares tiny files
                assert response.headers["Content-Encoding"] == encoding, url
            assert "immutable" in response.headers["Cache-Control"], url
    for size, name in [((390, 844), "phone"), ((1280, 680), "laptop"), ((1920, 1080), "wide")]:
        context = browser.new_context(viewport={"width": size[0], "height": size[1]})
        page = context.new_page()
        page.goto(f"{server.base_url}/t/{code}")
        expect(page.get_by_test_id("take-seat")).to_be_visible()
        screenshots.take(page, f"first-visit-{name}-{size[0]}x{size[1]}.png")
        context.close()


def test_a_stale_bundle_is_never_served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages get the bundle only while it was built from the sources as they are now, and
    never with ``MU_BUNDLE=0``; else each source's own URL (the modules load one by one)."""
    manifest = tmp_path / "manifest.json"
    monkeypatch.setattr(bundle, "MANIFEST", manifest)
    files = {"js/table.js": "table-ABC.js"}

    def served(digest: str, switch: str) -> str:
        manifest.write_text(json.dumps({"sources": digest, "files": files}))
        monkeypatch.setenv("MU_BUNDLE", switch)
        bundle.built.cache_clear()
        return bundle.asset("js/table.js")

    try:
        assert served(bundle.sources_digest(), "1") == "/static/bundle/table-ABC.js"
        assert served("built from other sources", "1") == "/static/js/table.js"
        assert served(bundle.sources_digest(), "0") == "/static/js/table.js"
    finally:
        bundle.built.cache_clear()
