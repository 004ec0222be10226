"""The host's pages: the big-screen table display (``/t/{code}/display``) with its join QR
code (``/t/{code}/qr.svg``, made here with segno: nothing is fetched from elsewhere), and the
page of a deleted table (410)."""

from __future__ import annotations

import io
from typing import Annotated

import segno
from fastapi import APIRouter, Request, Response
from fastapi import Path as Path_
from fastapi.responses import HTMLResponse
from starlette.types import Scope

from app.deps import BaseUrlDep, HubDep
from app.web import i18n, templating
from app.web import pages as web_pages
from app.web.pages import PageLanguage

router = APIRouter(include_in_schema=False)

_ENVIRONMENTS = {lang: templating.environment(i18n.translations(lang)) for lang in i18n.LANGUAGES}
_NO_STORE = {"Cache-Control": "no-store"}
Code = Annotated[str, Path_(max_length=128)]


def join_url(base_url: str, invite_code: str) -> str:
    return f"{base_url}/t/{invite_code}"


def qr_svg(url: str) -> str:
    """``url`` as a QR code in SVG: dark modules on white, a quiet zone of four modules."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", scale=10, border=4, dark="#000", light="#fff", xmldecl=False,
        svgns=True, title="QR", nl=False,
    )  # fmt: skip
    return out.getvalue().decode("utf-8")


@router.get("/t/{invite_code}/display", response_class=HTMLResponse)
async def display(
    request: Request, invite_code: Code, lang: PageLanguage, hub: HubDep, base_url: BaseUrlDep
) -> HTMLResponse:
    """The table for a shared screen: the felt large, no hand, no chat input; a QR code and
    the short code to join from a phone. Follows the table over the spectator socket."""
    await hub.get_room(invite_code)  # 404 for an unknown table
    html = web_pages.render(
        _ENVIRONMENTS,
        "display.html",
        lang,
        path=request.url.path,
        code=invite_code,
        short=invite_code[:6],
        join_url=join_url(base_url, invite_code),
    )
    return web_pages.respond(html, lang, remember=False, headers=_NO_STORE)


@router.get("/t/{invite_code}/qr.svg")
async def qr(invite_code: Code, hub: HubDep, base_url: BaseUrlDep) -> Response:
    """The join link as a QR code (SVG)."""
    await hub.get_room(invite_code)
    svg = qr_svg(join_url(base_url, invite_code))
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def gone_page(scope: Scope) -> HTMLResponse:
    """The page of a deleted table: it says so, and offers the home page."""
    request = Request(scope)
    lang = i18n.choose(
        request.query_params.get("lang"),
        request.cookies.get(i18n.LANG_COOKIE),
        request.headers.get("accept-language"),
    )
    html = web_pages.render(_ENVIRONMENTS, "gone.html", lang, path=request.url.path)
    return web_pages.respond(html, lang, remember=False, status_code=410, headers=_NO_STORE)
