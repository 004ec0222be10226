"""The installable app in headless Chromium: manifest, service worker, offline page, a push
delivered to the worker over the DevTools protocol, and the "Notify me" button."""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.driver import join

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

WIDE = {"width": 1280, "height": 800}


def _worker_active(page: Page) -> str:
    """The worker's state once it left "activating" (``ready`` resolves already then)."""
    state: str = page.evaluate(
        """async () => {
            const worker = (await navigator.serviceWorker.ready).active;
            if (worker.state === "activating") {
                await new Promise((done) => worker.addEventListener("statechange", done));
            }
            return worker.state;
        }"""
    )
    return state


def test_manifest_and_icons(server: Server) -> None:
    manifest = server.api("GET", "/manifest.webmanifest?lang=de").json()
    assert manifest["display"] == "standalone" and manifest["start_url"].startswith("/")
    assert manifest["description"].startswith("Spiel das Kartenspiel")
    purposes = {icon.get("purpose", "any") for icon in manifest["icons"]}
    assert purposes == {"any", "maskable"}
    for icon in manifest["icons"]:
        response = server.api("GET", icon["src"])
        assert response.status_code == 200 and response.content[:4] == b"\x89PNG"


# The full browser: the headless shell has no notification centre, so there a service worker's
# showNotification shows nothing and getNotifications() stays empty.
@pytest.mark.full_chromium
def test_worker_activates_caches_and_handles_a_push(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    context.grant_permissions(["notifications"], origin=server.base_url)
    page = context.new_page()
    page.goto(server.base_url + "/")
    assert _worker_active(page) == "activated"
    cached = page.evaluate(
        """async () => {
            const keys = [];
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                for (const request of await cache.keys()) keys.push(request.url);
            }
            return keys.map((url) => new URL(url).pathname);
        }"""
    )
    # The table page's script: the bundle's (app/web/bundle.py) where the server serves one.
    table_script = re.compile(r"/static/(js/table|bundle/table-\w+)\.js")
    assert "/offline" in cached and any(table_script.fullmatch(path) for path in cached)

    # The push: the DevTools protocol hands the worker a message as a push service would.
    cdp = context.new_cdp_session(page)
    registrations: list[dict[str, object]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 5
    while not registrations and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # the CDP events arrive only while Playwright runs
    assert registrations
    page.evaluate(
        """() => {
            window.pushes = [];
            const heard = (event) => window.pushes.push(event.data);
            navigator.serviceWorker.addEventListener("message", heard);
        }"""
    )
    push = {"table": "abc", "kind": "turn", "url": "/t/abc", "title": "Your turn", "body": "Hi"}
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": server.base_url + "/",
            "registrationId": str(registrations[0]["registrationId"]),
            "data": json.dumps(push),
        },
    )
    # Polled inside one evaluate: a string predicate (wait_for_function) is evaluated with
    # eval() in the page, which the page's Content-Security-Policy refuses.
    pushes = page.evaluate(
        """async () => {
            for (let tries = 0; tries < 200 && !window.pushes.length; tries++)
                await new Promise((go) => setTimeout(go, 25));
            return window.pushes;
        }"""
    )
    assert pushes[:1] == [{"type": "push", "push": push}]
    # The worker tells the page and shows the notification side by side: the message may come
    # first, so wait for the notification itself (a state), then look at it.
    shown = page.evaluate(
        """async () => {
            const registration = await navigator.serviceWorker.ready;
            for (let tries = 0; tries < 200; tries++) {
                const shown = await registration.getNotifications();
                if (shown.length)
                    return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag }));
                await new Promise((go) => setTimeout(go, 25));
            }
            return [];
        }"""
    )
    assert shown == [{"title": "Your turn", "body": "Hi", "tag": "abc:turn"}]

    # Without the network a page comes from the worker: the offline page.
    context.set_offline(True)
    page.goto(server.base_url + "/t/some-table")
    expect(page.get_by_test_id("offline")).to_be_visible()
    context.close()


def test_notify_button_for_seated_players(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    code = server.new_table(3)
    for viewport, name in ((PHONE, "390x844"), (WIDE, "1280x800")):
        context = browser.new_context(viewport=viewport, locale="de-DE")
        page = context.new_page()
        page.goto(f"{server.base_url}/t/{code}")
        expect(page.get_by_test_id("name-input")).to_be_visible()
        expect(page.get_by_test_id("notify-button")).to_be_hidden()  # not seated yet
        join(
            page,
            server.base_url,
            code,
            "Anna" if name == "390x844" else "Bert",
            0 if name == "390x844" else 1,
        )
        button = page.get_by_test_id("notify-button")
        expect(button).to_be_visible()
        expect(button).to_have_text("Benachrichtigen")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        screenshots.take(page, f"push-notify-button-{name}.png")
        page.goto(f"{server.base_url}/offline?lang=de")
        screenshots.take(page, f"push-offline-{name}.png")
        context.close()
