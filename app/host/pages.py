"""The host's pages: the big-screen table display (``/t/{code}/display``) with its join QR
code (``/t/{code}/qr.svg``, made here with segno: nothing is fetched from elsewhere) and its
short code (``/j/{short}``, or typed on the home page: ``/j?code=…``), and the page of a
deleted table (410)."""

from __future__ import annotations

import io
from typing import Annotated
from urllib.parse import quote

import segno
from fastapi import APIRouter, Query, Request, Response
from fastapi import Path as Path_
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.types import Scope

from app.deps import BaseUrlDep, DbEngineDep, HubDep
from app.http import ratelimits
from app.tables import repository, tokens
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
    request: Request,
    invite_code: Code,
    lang: PageLanguage,
    hub: HubDep,
    base_url: BaseUrlDep,
    db: DbEngineDep,
) -> HTMLResponse:
    """The table for a shared screen: the felt large, no hand, no chat input; a QR code and
    the short code to join from a phone. Follows the table over the spectator socket."""
    await hub.get_room(invite_code)  # 404 for an unknown table
    short = await repository.short_code(db=db, invite_code=invite_code) or ""
    html = web_pages.render(
        _ENVIRONMENTS,
        "display.html",
        lang,
        path=request.url.path,
        code=invite_code,
        short=short.upper(),
        # Where to type it, as a person reads it off the screen: no scheme.
        site=base_url.split("://", 1)[-1],
        join_url=join_url(base_url, invite_code),
        trick_pause_ms=request.app.state.settings.trick_pause_ms,
    )
    return web_pages.respond(html, lang, remember=False, headers=_NO_STORE)


@router.get("/j", response_class=HTMLResponse, dependencies=[ratelimits.limited("join")])
async def short_code_typed(
    request: Request,
    lang: PageLanguage,
    db: DbEngineDep,
    code: Annotated[str, Query(max_length=64)] = "",
) -> Response:
    """The home page's "Have a code?" field: on to the table with this short code."""
    return await _to_table(request, lang, db, code)


@router.get("/j/{short}", response_class=HTMLResponse, dependencies=[ratelimits.limited("join")])
async def short_address(
    request: Request,
    short: Annotated[str, Path_(max_length=64)],
    lang: PageLanguage,
    db: DbEngineDep,
) -> Response:
    """The short address the display shows: on to the table's invite page."""
    return await _to_table(request, lang, db, short)


async def _to_table(request: Request, lang: str, db: DbEngineDep, typed: str) -> Response:
    """A redirect to the invite page of the table with the short code ``typed`` (any case),
    or a page that says no table has it (404), with the field to try again. Lookups count
    against the address's join rate (app/http/ratelimits.py), so codes cannot be guessed."""
    short = tokens.read_short_code(typed)
    found = short and await repository.invite_code_of_short(db=db, short_code=short)
    if found:
        return RedirectResponse(f"/t/{quote(found, safe='')}", status_code=303)
    html = web_pages.render(
        _ENVIRONMENTS, "nocode.html", lang, path=request.url.path, typed=typed.strip()[:12]
    )
    return web_pages.respond(html, lang, remember=False, status_code=404, headers=_NO_STORE)


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
