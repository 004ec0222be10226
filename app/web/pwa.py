"""The installable app: the web app manifest, the service worker (at the root, so its scope
is the whole site) and the page it shows when the network is gone.

The worker's script is ``static/sw.js`` with two lines put in front: the static files to keep
(every file under ``static/``, listed when the app starts; with a bundle, app/web/bundle.py,
its files instead of the scripts and styles it was made of) and a version made from their
contents, so a deploy that changes a file makes browsers install the new worker and drop the
old cache.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as Path_
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app import resources
from app.web import bundle, i18n, pages, templating
from app.web.pages import PageLanguage

router = APIRouter(include_in_schema=False)

STATIC = resources.path("static")
THEME = "#1b5e4a"
# Not kept offline: the worker itself (the browser keeps it).
_SKIP = {"sw.js"}
_ENVIRONMENTS = {lang: templating.environment(i18n.translations(lang)) for lang in i18n.LANGUAGES}


@cache
def worker_script() -> str:
    # The pages load the bundle, not its sources: keep what they load.
    built = bundle.built()
    sources = {STATIC / folder for folder in bundle.SOURCES} if built else set()
    files = sorted(
        path
        for path in STATIC.rglob("*")
        if path.is_file()
        and path.name not in _SKIP
        and not path.name.startswith(".")
        and not sources & set(path.parents)
    )
    digest = hashlib.sha256()
    for path in [*files, *(bundle.FOLDER / name for name in sorted(built.values()))]:
        digest.update(path.read_bytes())
    urls = ["/static/" + path.relative_to(STATIC).as_posix() for path in files]
    urls += [bundle.URL + name for name in sorted(built.values())]
    head = (
        f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\n"
        f"const PRECACHE = {json.dumps(urls)};\n"
    )
    return head + (STATIC / "sw.js").read_text(encoding="utf-8")


@router.get("/sw.js")
def service_worker() -> Response:
    # Browsers re-check the worker on each navigation when it is not cached by HTTP.
    return Response(
        worker_script(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/manifest.webmanifest")
def manifest(lang: PageLanguage) -> JSONResponse:
    gettext = i18n.translations(lang).gettext
    body = {
        "name": gettext("Mü Online"),
        "short_name": "Mü",
        "description": gettext("Play the card game Mü with friends in the browser."),
        "lang": lang,
        "start_url": "/?source=app",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": [
            {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": "/static/icons/maskable-192.png",
                "sizes": "192x192",
                "type": "image/png",
                "purpose": "maskable",
            },
            {
                "src": "/static/icons/maskable-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    return JSONResponse(body, media_type="application/manifest+json")


@router.get("/favicon/{count}.svg")
def favicon_with_count(count: Annotated[int, Path_(ge=0, le=1000)]) -> Response:
    """The favicon with a red badge counting your turns ("Your tables"; the CSP allows images
    from this site only, so the badge cannot be drawn into a data: URL by the script)."""
    label = str(count) if count < 10 else "9+"
    badge = (
        '<circle cx="11.5" cy="4.5" r="4.5" fill="#c62828"/>'
        f'<text x="11.5" y="6.6" font-size="{6 if count < 10 else 4.6}" text-anchor="middle" '
        f'fill="white" font-family="sans-serif" font-weight="bold">{label}</text>'
        if count
        else ""
    )
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
        f'<rect width="16" height="16" rx="3" fill="{THEME}"/>'
        '<text x="8" y="12.5" font-size="11" text-anchor="middle" fill="white" '
        f'font-family="sans-serif">M</text>{badge}</svg>'
    )
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


@router.get("/offline", response_class=HTMLResponse)
def offline(request: Request, lang: PageLanguage) -> HTMLResponse:
    """What the service worker shows for a page while the network is gone."""
    html = pages.render(_ENVIRONMENTS, "offline.html", lang, path=request.url.path)
    return pages.respond(html, lang, remember=False, headers={"Cache-Control": "no-cache"})
