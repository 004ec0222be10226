"""A group's seasons (app/groups/seasons.py, boards.py): where seasons start and end (the
calendar year, listed dates, every N games), the group page's season switch and winner mark,
and per-season ratings that start from the all-time rating as docs/groups.md says."""

from __future__ import annotations

import html
import random
import re
from datetime import UTC, date, datetime, timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

import engine
from app.db import SessionFactory
from app.groups import boards, ratings, router, seasons, service, standings
from app.groups.models import Group
from app.groups.seasons import Game, Rule
from app.tables import live as live_mod
from app.tables import tokens
from app.tables.models import Action, Hand, Seat, Table
from app.tables.options import TableOptions
from engine.bots import make_bot
from tests.app.test_groups import new_group
from tests.app.test_history import http  # noqa: F401  (fixture)

AppClient = tuple[FastAPI, httpx.AsyncClient]
NAMES = ("Anna", "Ben", "Cleo", "Dan")


async def store_game(
    sessions: SessionFactory,
    group_code: str,
    created_at: datetime,
    seed: int,
    *,
    names: tuple[str, ...] = NAMES,
    hands: int = 2,
) -> int:
    """A finished game of the group, played by the heuristic bot and stored as the server
    stores it (seeds and action log), its table opened at ``created_at``: the table's id."""
    options = TableOptions(players=len(names), hands=hands)
    live = live_mod.new_table(table_id=0, invite_code="t", options=options)
    for seat, name in enumerate(names):
        live = live_mod.seat(live, seat, live_mod.SeatInfo(name, f"h{seat}"))
    bot, rng = make_bot("heuristic"), random.Random(seed)
    hand_rows, action_rows = [], []
    while not live.game.over:
        number, dealer, deal = (
            live.game.hand_number + 1,
            live.game.next_dealer,
            rng.randrange(2**62),
        )
        hand_rows.append((number, dealer, deal))
        live = live_mod.deal(live, deal)
        while live.hand is not None and not live.hand.is_over:
            seat = live.hand.to_move
            assert seat is not None
            action = bot.act(engine.view(live.hand, seat), rng)
            live = live_mod.play(live, seat, action)
            action_rows.append((len(action_rows) + 1, number, seat, engine.action_to_json(action)))
    async with sessions() as session, session.begin():
        group = await session.scalar(select(Group).where(Group.code == group_code))
        assert group is not None
        table = Table(
            invite_code=tokens.new_invite_code(), options=options.to_json(),
            version=len(action_rows), group_id=group.id, created_at=created_at,
        )  # fmt: skip
        session.add(table)
        await session.flush()
        for seat, name in enumerate(names):
            token = tokens.hash_token(f"{table.id}-{seat}")
            session.add(Seat(table_id=table.id, seat=seat, name=name, token_hash=token))
        for number, dealer, deal in hand_rows:
            session.add(
                Hand(
                    table_id=table.id,
                    number=number,
                    dealer=dealer,
                    seed=deal,
                    created_at=created_at,
                )
            )
        for seq, number, seat, action in action_rows:
            at = created_at + timedelta(minutes=seq)
            session.add(
                Action(
                    table_id=table.id, seq=seq, hand_number=number, seat=seat, action=action,
                    created_at=at,
                )
            )  # fmt: skip
        return table.id


def game(day: date, table_id: int = 1) -> Game:
    return Game(table_id, 1, datetime(day.year, day.month, day.day, 20, tzinfo=UTC))


def test_calendar_year_seasons_by_default() -> None:
    games = [game(date(2025, 3, 1), 1), game(date(2025, 12, 31), 2), game(date(2026, 1, 1), 3)]
    cut = seasons.cut(Rule(), games, date(2026, 5, 1))
    assert [(s.start, s.end, len(s.games), s.current) for s in cut] == [
        (date(2025, 1, 1), date(2026, 1, 1), 2, False),
        (date(2026, 1, 1), None, 1, True),
    ]
    # A new year with no game yet: the current season is empty, last year's is over.
    later = seasons.cut(Rule(), games, date(2027, 1, 2))
    assert [len(s.games) for s in later] == [2, 1, 0] and later[-1].current


def test_seasons_from_listed_dates() -> None:
    rule = seasons.parse_rule("dates", "2026-06-01, 2026-03-01", "")
    assert rule.starts == (date(2026, 3, 1), date(2026, 6, 1))
    games = [game(date(2026, 1, 10), 1), game(date(2026, 3, 1), 2), game(date(2026, 5, 31), 3)]
    games.append(game(date(2026, 6, 1), 4))
    cut = seasons.cut(rule, games, date(2026, 4, 1))
    # The games before the first date make a season of their own; a start day is inside.
    assert [[g.table_id for g in s.games] for s in cut] == [[1], [2, 3], [4]]
    assert [s.current for s in cut] == [False, True, False]
    assert cut[0].start == date(2026, 1, 10) and cut[1].end == date(2026, 6, 1)


def test_seasons_of_n_games() -> None:
    rule = seasons.parse_rule("games", "", "2")
    five = [game(date(2026, 1, d), d) for d in range(1, 6)]
    cut = seasons.cut(rule, five, date(2026, 2, 1))
    assert [(s.first, s.last, len(s.games), s.current) for s in cut] == [
        (1, 2, 2, False),
        (3, 4, 2, False),
        (5, 6, 1, True),
    ]
    # A full last season: the next one has begun.
    full = seasons.cut(rule, five[:4], date(2026, 2, 1))
    assert [(len(s.games), s.current) for s in full] == [(2, False), (2, False), (0, True)]


@pytest.mark.parametrize(
    ("kind", "starts", "every"),
    [("dates", "", ""), ("dates", "2026-13-01", ""), ("games", "", "0"), ("games", "", "x")]
    + [("games", "", "1001"), ("weeks", "", "")],
)
def test_impossible_rules_are_refused(kind: str, starts: str, every: str) -> None:
    with pytest.raises(ValueError):
        seasons.parse_rule(kind, starts, every)


async def test_group_page_shows_the_current_season_and_earlier_ones_with_a_winner(
    http: AppClient,  # noqa: F811
) -> None:
    app, client = http
    sessions = app.state.session_factory
    code = await new_group(client)
    this_year = seasons.today().year
    last = datetime(this_year - 1, 6, 1, 20, tzinfo=UTC)
    await store_game(sessions, code, last, 1)
    await store_game(sessions, code, last + timedelta(days=7), 2)
    await store_game(sessions, code, datetime(this_year, 1, 5, 20, tzinfo=UTC), 3)

    page = (await client.get(f"/g/{code}")).text
    assert f"Season {this_year}" in page and "season-winner" not in page
    assert "1 game ·" in page  # the current season's games only
    assert f'href="/g/{code}?season=1"' in page  # the earlier season, listed

    earlier = (await client.get(f"/g/{code}?season=1")).text
    assert f"Season {this_year - 1}" in earlier and "2 games ·" in earlier
    assert 'data-testid="season-winner"' in earlier and "final table" in earlier
    all_time = (await client.get(f"/g/{code}?season=all")).text
    assert "3 games ·" in all_time and "season-winner" not in all_time
    german = (await client.get(f"/g/{code}?season=1", headers={"Accept-Language": "de"})).text
    assert f"Saison {this_year - 1}" in german and "Saisonsieg" in german


async def test_the_page_lists_the_newest_games_and_all_on_request(
    http: AppClient,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The games list holds the season's newest GAMES_SHOWN (its cost does not grow with the
    group's history); a link shows them all, with the same season and filters."""
    monkeypatch.setattr(router, "GAMES_SHOWN", 2)
    app, client = http
    sessions = app.state.session_factory
    code = await new_group(client)
    start = datetime(seasons.today().year, 1, 1, 20, tzinfo=UTC)
    for day in range(3):
        await store_game(sessions, code, start + timedelta(days=day), day + 1, hands=1)
    listed = re.compile(r"<td>(\d{4}-\d\d-\d\d)</td>")
    day = [(start + timedelta(days=d)).strftime("%Y-%m-%d") for d in range(3)]

    page = (await client.get(f"/g/{code}")).text
    games = page[page.index('data-testid="games"') :]
    assert "3 games ·" in page  # the standings count every game
    assert listed.findall(games) == [day[2], day[1]]
    link = re.search(r'href="([^"]+)" data-testid="all-games">All 3 games<', page)
    assert link is not None
    every = (await client.get(html.unescape(link.group(1)))).text
    assert listed.findall(every[every.index('data-testid="games"') :]) == day[::-1]
    assert 'data-testid="all-games"' not in every
    german = (await client.get(f"/g/{code}", headers={"Accept-Language": "de"})).text
    assert "Alle 3 Partien" in german
    # The games are kept between visits until the group's tables change: a new game counts.
    await store_game(sessions, code, start + timedelta(days=3), 4, hands=1)
    page = (await client.get(f"/g/{code}")).text
    assert "4 games ·" in page and "All 4 games" in page


async def test_season_ratings_start_from_the_all_time_rating(http: AppClient) -> None:  # noqa: F811
    app, client = http
    sessions = app.state.session_factory
    code = await new_group(client)
    group = await service.find_group(session_factory=sessions, code=code)
    assert group is not None
    this_year = seasons.today().year
    await store_game(sessions, code, datetime(this_year - 1, 3, 1, tzinfo=UTC), 4, hands=3)
    await store_game(sessions, code, datetime(this_year, 2, 1, tzinfo=UTC), 5, hands=3)
    games = await seasons.load_games(session_factory=sessions, group=group)
    cut = seasons.cut(Rule(), games, seasons.today())
    tables = await service.load_tables(session_factory=sessions, group=group)
    everyone = standings.Filter()
    first = standings.build(tables[:1], [], everyone)
    all_time_then, _ = ratings.rate(first.rated)
    second = standings.build(tables[1:], [], everyone)
    expected, _ = ratings.rate(second.rated, ratings.season_start(all_time_then))

    board = await boards.board(
        session_factory=sessions, group=group, members=[], chosen=everyone, games=games,
        season=cut[-1],
    )  # fmt: skip
    got = {p.key: p.rating for p in board.players}
    for key, rating in expected.items():
        shown = got[key]
        assert shown is not None
        assert (shown.mu, shown.sigma) == pytest.approx((rating.mu, rating.sigma))
        # The season's first point: the all-time mu, a newcomer's sigma.
        assert shown.history[0] == (0, pytest.approx(all_time_then[key].mu - 25))
    # The all-time ratings continue through both seasons without a reset.
    whole = await boards.board(
        session_factory=sessions, group=group, members=[], chosen=everyone, games=games,
        season=None,
    )  # fmt: skip
    direct, _ = ratings.rate(standings.build(tables, [], everyone).rated)
    for p in whole.players:
        assert p.rating is not None
        assert p.rating.mu == pytest.approx(direct[p.key].mu)


async def test_the_group_chooses_seasons_of_n_games(http: AppClient) -> None:  # noqa: F811
    app, client = http
    sessions = app.state.session_factory
    code = await new_group(client)
    start = datetime(seasons.today().year, 1, 2, tzinfo=UTC)
    for n in range(3):
        await store_game(sessions, code, start + timedelta(days=n), 10 + n, hands=1)
    saved = await client.post(f"/g/{code}/seasons", data={"kind": "games", "every": "2"})
    assert saved.status_code == 303 and saved.headers["location"] == f"/g/{code}"
    page = (await client.get(f"/g/{code}")).text
    assert "Season 2 (games 3 to 4)" in page and "1 game ·" in page
    assert "2 games ·" in (await client.get(f"/g/{code}?season=1")).text

    refused = await client.post(f"/g/{code}/seasons", data={"kind": "games", "every": "0"})
    assert refused.status_code == 422 and 'data-testid="group-error"' in refused.text
    dates = {"kind": "dates", "starts": f"{start.year}-01-03"}
    assert (await client.post(f"/g/{code}/seasons", data=dates)).status_code == 303
    page = (await client.get(f"/g/{code}")).text
    assert f"Season from {start.year}-01-03" in page and "2 games ·" in page
    assert (await client.post("/g/nope/seasons", data=dates)).status_code == 404
