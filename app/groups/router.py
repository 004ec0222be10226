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
from app.groups import boards, charts, duplicate, headtohead, schemas, seasons, service
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


def _to_new_table(invite_code: str, host_token: str, base_url: str) -> Response:
    """To a table just opened from the group page, whose host this browser becomes."""
    response = RedirectResponse(f"/t/{invite_code}", status_code=_SEE_OTHER)
    secure = base_url.startswith("https://")
    lobby_router.set_host_cookie(response, invite_code=invite_code, token=host_token, secure=secure)
    return response


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
    games_shown = board.games if all_games else board.games[:GAMES_SHOWN]
    codes = [game.code for game in games_shown]
    same = await duplicate.codes_on_same_deals(session_factory=sessions, codes=codes)
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
        games_shown=games_shown,
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
        same_deals=same,
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
    return _to_new_table(live.invite_code, host_token, base_url)


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


@router.post(
    "/g/{code}/deals/{game}",
    status_code=_SEE_OTHER,
    response_class=RedirectResponse,
    dependencies=[ratelimits.limited("create_table")],
    responses={
        _SEE_OTHER: {
            "description": "opened: to the new table's page (its host cookie set)",
            "headers": {
                "Location": {"description": "/t/{invite_code}", "schema": {"type": "string"}}
            },
        },
        404: {
            "description": "no such group (a page), or not a game of it (the group page)",
            "content": _PAGE,
        },
        409: {"description": "game_not_over: the group page with a message", "content": _PAGE},
        429: {"description": "rate_limited (see Retry-After)"},
    },
)
async def play_these_deals(
    request: Request,
    code: CodePath,
    game: CodePath,
    sessions: SessionFactoryDep,
    hub: HubDep,
    lang: PageLanguage,
    base_url: BaseUrlDep,
) -> Response:
    """A new game of the group on the deals of its finished game ``game``, hand by hand
    (duplicate: every seat gets the cards that seat had there); the browser goes to its page
    as its host."""
    group = await service.find_group(session_factory=sessions, code=code)
    if group is None:
        return render(request, "groups/missing.html", lang, status_code=404)
    host_token = tokens.new_host_token()
    try:
        live = await duplicate.open_on_deals(
            session_factory=sessions, hub=hub, group=group, code=game, host_token=host_token
        )
    except duplicate.DuplicateRefused as refused:
        return await _group_response(
            request, code, sessions, lang, status_code=refused.status, error=refused.code
        )
    return _to_new_table(live.invite_code, host_token, base_url)


@router.get(
    "/g/{code}/deals/{game}",
    response_class=HTMLResponse,
    responses={
        200: {"description": "the games on these deals side by side"},
        404: {
            "description": "no such group, or no other game on these deals: a page",
            "content": _PAGE,
        },
    },
)
async def same_deals(
    request: Request,
    code: CodePath,
    game: CodePath,
    sessions: SessionFactoryDep,
    lang: PageLanguage,
) -> HTMLResponse:
    """The group's games on the same deals, deal by deal, and who did better with each seat's
    cards."""
    group = await service.find_group(session_factory=sessions, code=code)
    if group is None:
        return render(request, "groups/missing.html", lang, status_code=404)
    compared = await duplicate.compare(session_factory=sessions, group=group, code=game)
    if compared is None:
        return await _group_response(
            request, code, sessions, lang, status_code=404, error="no_same_deals"
        )
    return render(request, "groups/deals.html", lang, group=group, compared=compared)
