"""The standings of a season (or of all time), kept between requests.

A board is rebuilt only when something it counts changed: its games (their ids and
``version``s: every accepted change bumps a table's version), the seats linked to names, or
the claimed names. A season's ratings start from the all-time ratings at its start
(``ratings.season_start``); those are computed once from the earlier games and kept the same
way, in the process and in the database (``group_rating_starts``, with a digest of what they
were computed from), so the group page's cost follows the season it shows, not the group's
whole history, after a restart too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from app.db import SessionFactory
from app.groups import ratings, service, standings
from app.groups.kept import Kept
from app.groups.models import GroupRatingStart
from app.groups.seasons import Game, Season
from app.groups.service import GroupInfo, Member

BOARDS: Kept[standings.Standings] = Kept(128)
CARRIED: Kept[dict[str, ratings.Rating]] = Kept(128)


def _marks(games: Sequence[Game]) -> tuple[tuple[int, int], ...]:
    return tuple((g.table_id, g.version) for g in games)


async def board(
    *,
    session_factory: SessionFactory,
    group: GroupInfo,
    members: Sequence[Member],
    chosen: standings.Filter,
    games: Sequence[Game],
    season: Season | None,
) -> standings.Standings:
    """The standings of ``season`` (None: all time) among the group's ``games``."""
    links = await service.links_mark(session_factory=session_factory, group=group)
    scope = list(games) if season is None else list(season.games)
    earlier = [] if season is None or not scope else [g for g in games if _before(g, scope[0])]
    key = (group.code, chosen, None if season is None else (season.number, season.start))
    signature = (_marks(scope), _marks(earlier), links, tuple(members))
    found = BOARDS.get(key, signature)
    if found is not None:
        return found
    start = None
    if earlier:
        carried = await _all_time(session_factory, group, chosen, earlier, links)
        start = ratings.season_start(carried)
    tables = await service.load_tables(
        session_factory=session_factory, group=group, table_ids=[g.table_id for g in scope]
    )
    return BOARDS.put(key, signature, standings.build(tables, members, chosen, start))


def _before(game: Game, first: Game) -> bool:
    return (game.created_at, game.table_id) < (first.created_at, first.table_id)


async def _all_time(
    session_factory: SessionFactory,
    group: GroupInfo,
    chosen: standings.Filter,
    earlier: Sequence[Game],
    links: tuple[int, int],
) -> dict[str, ratings.Rating]:
    """The all-time ratings after ``earlier`` (every game before a season), kept."""
    key = (group.code, chosen, earlier[-1].table_id)
    signature = (_marks(earlier), links)
    found = CARRIED.get(key, signature)
    if found is not None:
        return found
    scope = f"{chosen.variant or ''}/{chosen.players or ''}/{earlier[-1].table_id}"
    digest = hashlib.sha256(repr(signature).encode()).hexdigest()
    rates = await _stored_start(session_factory, group.id, scope, digest)
    if rates is None:
        tables = await service.load_tables(
            session_factory=session_factory, group=group, table_ids=[g.table_id for g in earlier]
        )
        board = standings.build(tables, [], chosen)
        rates = {p.key: p.rating for p in board.players if p.rating is not None}
        await _store_start(session_factory, group.id, scope, digest, rates)
    return CARRIED.put(key, signature, rates)


async def _stored_start(
    session_factory: SessionFactory, group_id: int, scope: str, digest: str
) -> dict[str, ratings.Rating] | None:
    query = select(GroupRatingStart.digest, GroupRatingStart.ratings).where(
        GroupRatingStart.group_id == group_id, GroupRatingStart.scope == scope
    )
    async with session_factory() as session:
        row = (await session.execute(query)).first()
    if row is None or row[0] != digest:
        return None
    return {key: ratings.Rating(mu, sigma) for key, (mu, sigma) in row[1].items()}


async def _store_start(
    session_factory: SessionFactory,
    group_id: int,
    scope: str,
    digest: str,
    rates: dict[str, ratings.Rating],
) -> None:
    stored = {key: [rating.mu, rating.sigma] for key, rating in rates.items()}
    async with session_factory() as session, session.begin():
        dialect = session.get_bind().dialect.name
        insert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(GroupRatingStart)
        statement = insert.values(group_id=group_id, scope=scope, digest=digest, ratings=stored)
        await session.execute(
            statement.on_conflict_do_update(
                index_elements=["group_id", "scope"],
                set_={"digest": digest, "ratings": stored},
            )
        )
