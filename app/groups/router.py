"""Group pages: create a group (``POST /g``), its page ``/g/{code}`` (members, tables,
standings, ratings and their chart), claim a name, open a table in the group.

Plain HTML forms that post and redirect (303): every page is complete without JavaScript.
The group code is the group's only key, like a table's invite code: the pages say ``noindex``
and ``no-store`` (``app.web.render.PrivateRoute``). The head-to-head page and the seasons form
are in the OpenAPI document with every answer they give (pages as ``text/html``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi import Path as Path_
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from app.deps import BaseUrlDep, HubDep, SessionFactoryDep
from app.groups import boards, charts, headtohead, schemas, seasons, service
from app.history.i18n import Text
from app.history.rendering import render
from app.http import ratelimits
from app.lobby import router as lobby_router
from app.lobby import schemas as lobby_schemas
from app.tables import tokens, waiting
from app.web import rules
from app.web.pages import PageLanguage
from app.web.render import PrivateRoute

router = APIRouter(route_class=PrivateRoute)

CodePath = Annotated[str, Path_(max_length=128)]
_SEE_OTHER = 303
_COOKIE_MAX_AGE = 365 * 24 * 3600
# The group page lists the newest tables (open ones first to hand), and the newest games of
# the season shown; the season's every game is one link away (``games=all``): a group's page
# costs the same after a thousand games as after twenty, unless someone asks for them all.
TABLES_SHOWN = 20
GAMES_SHOWN = 20

_PAGE = {"text/html": {"schema": {"type": "string"}}}
_NO_GROUP = {"description": "no group has this code: a page that says so", "content": _PAGE}


@router.post("/g", dependencies=[ratelimits.limited("create_table")], include_in_schema=False)
async def create_group(
    request: Request,
    sessions: SessionFactoryDep,
    lang: PageLanguage,
    name: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    """A new group; its page is its private link."""
    try:
        clean = service.clean_group_name(name)
    except ValueError:
        return render(request, "groups/new.html", lang, status_code=422, error="group_name")
    group = await service.create_group(session_factory=sessions, name=clean)
    return RedirectResponse(f"/g/{group.code}", status_code=_SEE_OTHER)


@router.get("/g/{code}", response_class=HTMLResponse, include_in_schema=False)
async def group_page(
    request: Request,
    code: CodePath,
    sessions: SessionFactoryDep,
    lang: PageLanguage,
    variant: Annotated[str, Query(max_length=16)] = "",
    players: Annotated[str, Query(max_length=2)] = "",
    season: Annotated[str, Query(max_length=8)] = "",
    games: Annotated[str, Query(max_length=8)] = "",
) -> HTMLResponse:
    """Members, tables, standings and ratings of the group (filtered by edition and players):
    of the current season, of an earlier one (``season``: its number) or of all time
    (``season=all``); its newest games, or all of them (``games=all``)."""
    return await _group_response(
        request, code, sessions, lang, variant, players, season, all_games=games == "all"
    )


async def _group_response(
    request: Request,
    code: str,
    sessions: Any,
    lang: str,
    variant: str = "",
    players: str = "",
    season: str = "",
    *,
    all_games: bool = False,
    status_code: int = 200,
    error: str | None = None,
) -> HTMLResponse:
    group = await service.find_group(session_factory=sessions, code=code)
    if group is None:
        return render(request, "groups/missing.html", lang, status_code=404)
    me = await service.claimed_name(
        session_factory=sessions,
        group=group,
        token=request.cookies.get(service.claim_cookie_name(code)),
    )
    if me is not None:  # seats taken since the last visit join the name
        await service.link_seats(
            session_factory=sessions, group=group, member=me, cookies=request.cookies
        )
    chosen = schemas.parse_filter(variant, players)
    members = await service.members(session_factory=sessions, group=group)
    rule = await seasons.load_rule(session_factory=sessions, group=group)
    games = await seasons.load_games(session_factory=sessions, group=group)
    cut = seasons.cut(rule, games, seasons.today())
    shown = schemas.parse_season(season, cut)
    board = await boards.board(
        session_factory=sessions,
        group=group,
        members=members,
        chosen=chosen,
        games=games,
        season=shown,
    )
    tables = await service.load_tables(session_factory=sessions, group=group, limit=TABLES_SHOWN)
    deleted = await service.deleted_tables(session_factory=sessions, group=group)
    rating_chart, score_chart = charts.drawn(board, Text(lang))
    return render(
        request,
        "groups/group.html",
        lang,
        status_code=status_code,
        group=group,
        me=me,
        members=members,
        tables=tables[::-1],
        board=board,
        games_shown=board.games if all_games else board.games[:GAMES_SHOWN],
        chosen=chosen,
        rule=rule,
        seasons=cut,
        shown=shown,
        season_query="all" if shown is None else str(shown.number),
        rules=rules.rules_for(lang),
        options=await waiting.form_options(session_factory=sessions, group_id=group.id),
        rating_chart=rating_chart,
        score_chart=score_chart,
        error=error,
        deleted=deleted,
    )


@router.post("/g/{code}/claim", include_in_schema=False)
async def claim_name(
    request: Request,
    code: CodePath,
    sessions: SessionFactoryDep,
    lang: PageLanguage,
    base_url: BaseUrlDep,
    name: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    """Claim a name on this browser (a cookie), and link this browser's seats to it."""
    group = await service.find_group(session_factory=sessions, code=code)
    if group is None:
        return render(request, "groups/missing.html", lang, status_code=404)
    try:
        clean = lobby_schemas.clean_name(name)
    except ValueError:
        return await _group_response(
            request, code, sessions, lang, status_code=422, error="member_name"
        )
    cookie = service.claim_cookie_name(code)
    token = await service.claim(
        session_factory=sessions, group=group, name=clean, old_token=request.cookies.get(cookie)
    )
    member = service.Member(clean, service.name_key(clean), 1)
    await service.link_seats(
        session_factory=sessions, group=group, member=member, cookies=request.cookies
    )
    response = RedirectResponse(f"/g/{code}", status_code=_SEE_OTHER)
    response.set_cookie(
        cookie,
        token,
        max_age=_COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=base_url.startswith("https://"),
    )
    return response


@router.post(
    "/g/{code}/tables", dependencies=[ratelimits.limited("create_table")], include_in_schema=False
)
async def open_table(
    request: Request,
    code: CodePath,
    sessions: SessionFactoryDep,
    hub: HubDep,
    lang: PageLanguage,
    base_url: BaseUrlDep,
    form: Annotated[schemas.TableForm, Form()],
) -> Response:
    """A table of this group with the chosen options; the browser goes to its invite page
    (as the table's host: it may seat bots there)."""
    group = await service.find_group(session_factory=sessions, code=code)
    if group is None:
        return render(request, "groups/missing.html", lang, status_code=404)
    try:
        wanted = form.table_create()
    except (ValidationError, ValueError):
        return await _group_response(
            request, code, sessions, lang, status_code=422, error="table_options"
        )
    host_token = tokens.new_host_token()
    live = await service.open_table(
        session_factory=sessions, hub=hub, group=group, request=wanted, host_token=host_token
    )
    response = RedirectResponse(f"/t/{live.invite_code}", status_code=_SEE_OTHER)
    lobby_router.set_host_cookie(
        response,
        invite_code=live.invite_code,
        token=host_token,
        secure=base_url.startswith("https://"),
    )
    return response


@router.post(
    "/g/{code}/seasons",
    status_code=_SEE_OTHER,
    response_class=RedirectResponse,
    responses={
        _SEE_OTHER: {
            "description": "saved: to the group page",
            "headers": {"Location": {"description": "/g/{code}", "schema": {"type": "string"}}},
        },
        404: _NO_GROUP,
        422: {
            "description": "not a rule the form offers: the group page with a message",
            "content": _PAGE,
        },
    },
)
async def season_rule(
    request: Request,
    code: CodePath,
    sessions: SessionFactoryDep,
    lang: PageLanguage,
    kind: Annotated[str, Form(max_length=8)] = "year",
    starts: Annotated[str, Form(max_length=400)] = "",
    every: Annotated[str, Form(max_length=4)] = "",
) -> Response:
    """How the group cuts its games into seasons: the calendar year, from listed dates, or
    every N games (app/groups/seasons.py)."""
    group = await service.find_group(session_factory=sessions, code=code)
    if group is None:
        return render(request, "groups/missing.html", lang, status_code=404)
    try:
        rule = seasons.parse_rule(kind, starts, every)
    except ValueError:
        return await _group_response(
            request, code, sessions, lang, status_code=422, error="season_rule"
        )
    await seasons.save_rule(session_factory=sessions, group=group, rule=rule)
    return RedirectResponse(f"/g/{code}", status_code=_SEE_OTHER)


@router.get(
    "/g/{code}/vs",
    response_class=HTMLResponse,
    responses={
        200: {"description": "the page (the form alone without two players)"},
        404: _NO_GROUP,
    },
)
async def head_to_head(
    request: Request,
    code: CodePath,
    sessions: SessionFactoryDep,
    lang: PageLanguage,
    a: Annotated[str, Query(max_length=40)] = "",
    b: Annotated[str, Query(max_length=40)] = "",
) -> HTMLResponse:
    """Two players of the group face to face: games together, who finished ahead, the chief's
    partner choices and how the team did; each one's hands as chief by trump, bid, partner."""
    group = await service.find_group(session_factory=sessions, code=code)
    if group is None:
        return render(request, "groups/missing.html", lang, status_code=404)
    members = await service.members(session_factory=sessions, group=group)
    games = await seasons.load_games(session_factory=sessions, group=group)
    seats = await headtohead.seated(session_factory=sessions, group=group, games=games)
    names = headtohead.players(seats, members)
    pair = None
    if a in names and b in names and a != b:
        pair = await headtohead.head_to_head(
            session_factory=sessions, group=group, games=games, seats=seats, a=a, b=b
        )
    return render(request, "groups/vs.html", lang, group=group, names=names, a=a, b=b, pair=pair)
