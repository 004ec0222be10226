"""Groups of friends: create a group, claim a name, open a table in it, link seats, load its
tables' histories (keyword-only functions).

A player of a group is a *name* (trimmed, NFC, case-folded: ``name_key``). A browser claims a
name with a claim token (cookie ``mu_group_{code}``; the database keeps its hash), and every
seat this browser holds at the group's tables (its ``mu_seat_*`` cookies, as "my tables" reads
them) is linked to that name, so the games show up on every device that claimed it.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import SessionFactory
from app.groups import summaries
from app.groups.models import Group, GroupMember, GroupSeat
from app.history import mine
from app.lobby import schemas as lobby_schemas
from app.lobby import service as lobby_service
from app.room.hub import Hub
from app.tables import tokens
from app.tables.live import LiveTable
from app.tables.models import DeletedTable, Seat, Table

# 24 random bytes = 192 bits (the house floor is 128).
_CODE_BYTES = 24
GROUP_NAME_MAX = 60
# A group page reads its tables' summaries; beyond this many it shows the newest only.
MAX_TABLES = 200


def claim_cookie_name(code: str) -> str:
    return f"mu_group_{code}"


def name_key(name: str) -> str:
    """ "Anna" and "anna " are the same friend (as on "my tables")."""
    return unicodedata.normalize("NFC", name).strip().casefold()[: lobby_schemas.NAME_MAX]


def clean_group_name(value: str) -> str:
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name:
        raise ValueError("the name is empty")
    if len(name) > GROUP_NAME_MAX:
        raise ValueError(f"the name is longer than {GROUP_NAME_MAX} characters")
    return name


@dataclass(frozen=True, slots=True)
class Member:
    name: str
    key: str
    devices: int


@dataclass(frozen=True, slots=True)
class GroupInfo:
    id: int
    code: str
    name: str
    created_at: datetime | None


@dataclass(frozen=True, slots=True)
class GroupTable:
    """One table of the group: its summary (the engine's results of its finished hands, its
    totals, names and status: ``app.groups.summaries``) and each seat's player key."""

    summary: summaries.TableSummary
    keys: tuple[str, ...]  # per seat: the linked claimed name's key, else the seat name's


async def create_group(*, session_factory: SessionFactory, name: str) -> GroupInfo:
    code = secrets.token_urlsafe(_CODE_BYTES)
    async with session_factory() as session, session.begin():
        group = Group(code=code, name=name)
        session.add(group)
        await session.flush()
        return GroupInfo(group.id, group.code, group.name, group.created_at)


async def find_group(*, session_factory: SessionFactory, code: str) -> GroupInfo | None:
    async with session_factory() as session:
        group = await session.scalar(select(Group).where(Group.code == code))
    return None if group is None else GroupInfo(group.id, group.code, group.name, group.created_at)


async def members(*, session_factory: SessionFactory, group: GroupInfo) -> list[Member]:
    """The claimed names, each once (with how many devices claimed it), by name."""
    query = (
        select(GroupMember.name_key, func.min(GroupMember.name), func.count())
        .where(GroupMember.group_id == group.id)
        .group_by(GroupMember.name_key)
    )
    async with session_factory() as session:
        rows = (await session.execute(query)).all()
    return sorted((Member(name, key, count) for key, name, count in rows), key=lambda m: m.key)


async def claimed_name(
    *, session_factory: SessionFactory, group: GroupInfo, token: str | None
) -> Member | None:
    """The name this browser claimed in the group (its claim cookie), if any."""
    if not token:
        return None
    query = select(GroupMember).where(
        GroupMember.group_id == group.id,
        GroupMember.claim_token_hash == tokens.hash_token(token),
    )
    async with session_factory() as session:
        member = await session.scalar(query)
    return None if member is None else Member(member.name, member.name_key, 1)


async def claim(
    *, session_factory: SessionFactory, group: GroupInfo, name: str, old_token: str | None
) -> str:
    """Claim ``name`` on this browser: a new claim token (its hash stored); the browser's old
    claim in this group, if any, is given up."""
    token = secrets.token_urlsafe(_CODE_BYTES)
    async with session_factory() as session, session.begin():
        if old_token:
            old = await session.scalar(
                select(GroupMember).where(
                    GroupMember.group_id == group.id,
                    GroupMember.claim_token_hash == tokens.hash_token(old_token),
                )
            )
            if old is not None:
                await session.delete(old)
        # The spelling of the name's first claim is the one everybody sees.
        first = await session.scalar(
            select(GroupMember.name)
            .where(GroupMember.group_id == group.id, GroupMember.name_key == name_key(name))
            .order_by(GroupMember.id)
            .limit(1)
        )
        session.add(
            GroupMember(
                group_id=group.id,
                name=first or name,
                name_key=name_key(name),
                claim_token_hash=tokens.hash_token(token),
            )
        )
    return token


async def open_table(
    *,
    session_factory: SessionFactory,
    hub: Hub,
    group: GroupInfo,
    request: lobby_schemas.TableCreate,
    host_token: str,
) -> LiveTable:
    """A new table of the group (the lobby's own creation, then its group set)."""
    live = await lobby_service.create_table(
        session_factory=session_factory, hub=hub, request=request, host_token=host_token
    )
    async with session_factory() as session, session.begin():
        table = await session.get(Table, live.table_id)
        assert table is not None  # just created
        table.group_id = group.id
    return live


async def link_seats(
    *,
    session_factory: SessionFactory,
    group: GroupInfo,
    member: Member,
    cookies: Mapping[str, str],
) -> int:
    """Link the seats this browser holds at the group's tables to ``member``'s name; a seat
    already linked keeps its name. Returns how many seats were linked now."""
    wanted = dict(mine.seat_cookies(cookies))
    if not wanted:
        return 0
    query = (
        select(Seat.table_id, Seat.seat, Seat.token_hash, Table.invite_code)
        .join(Table, Table.id == Seat.table_id)
        .where(Table.group_id == group.id, Table.invite_code.in_(wanted))
    )
    async with session_factory() as session:
        rows = (await session.execute(query)).all()
    linked = 0
    for table_id, seat, token_hash, code in rows:
        if tokens.matches(wanted[code], token_hash):
            linked += await _link(session_factory, group.id, table_id, seat, member.key)
    return linked


async def _link(
    session_factory: SessionFactory, group_id: int, table_id: int, seat: int, key: str
) -> int:
    try:
        async with session_factory() as session, session.begin():
            exists = await session.scalar(
                select(GroupSeat.id).where(GroupSeat.table_id == table_id, GroupSeat.seat == seat)
            )
            if exists is not None:
                return 0
            session.add(GroupSeat(group_id=group_id, table_id=table_id, seat=seat, name_key=key))
    except IntegrityError:  # another request linked it first: the first link stands
        return 0
    return 1


async def deleted_tables(*, session_factory: SessionFactory, group: GroupInfo) -> int:
    """How many of the group's tables their host (or the retention job) deleted: they no
    longer count in the standings, and the group page says so (app/host/deletion.py)."""
    query = select(func.count()).where(DeletedTable.group_id == group.id)
    async with session_factory() as session:
        return int(await session.scalar(query) or 0)


async def load_tables(
    *,
    session_factory: SessionFactory,
    group: GroupInfo,
    table_ids: Sequence[int] | None = None,
    limit: int = MAX_TABLES,
) -> list[GroupTable]:
    """The group's tables with their summaries (``app.groups.summaries``: made from the
    server's own replay once per table version, then read as stored) and the players' keys,
    oldest first: the newest ``limit``, or those of ``table_ids`` (a season's, a pair's)."""
    query = select(Table.id, Table.invite_code, Table.version).where(Table.group_id == group.id)
    if table_ids is None:
        query = query.order_by(Table.id.desc()).limit(limit)
    else:
        query = query.where(Table.id.in_(table_ids)).order_by(Table.id.desc())
    async with session_factory() as session:
        found = (await session.execute(query)).all()
        links = await _links(session, group.id)
        wanted = [(table_id, code, version) for table_id, code, version in reversed(found)]
        summarized = await summaries.current(
            session_factory=session_factory, session=session, tables=wanted
        )
    return [GroupTable(s, _keys(s.names, links.get(s.table_id, {}))) for s in summarized]


async def links_mark(*, session_factory: SessionFactory, group: GroupInfo) -> tuple[int, int]:
    """What changes whenever a seat of the group is linked to a name or a linked table is
    deleted (links are only ever added): (how many, the newest's id)."""
    query = select(func.count(), func.max(GroupSeat.id)).where(GroupSeat.group_id == group.id)
    async with session_factory() as session:
        count, newest = (await session.execute(query)).one()
    return int(count), int(newest or 0)


async def seat_keys(
    *, session_factory: SessionFactory, group: GroupInfo, table_ids: Sequence[int]
) -> dict[int, tuple[tuple[str, str], ...]]:
    """Per table, each seat's (player key, name at the table), from the seat rows and links
    (no replay)."""
    async with session_factory() as session:
        links = await _links(session, group.id)
        rows = (
            await session.execute(
                select(Seat.table_id, Seat.seat, Seat.name)
                .where(Seat.table_id.in_(table_ids))
                .order_by(Seat.table_id, Seat.seat)
            )
        ).all()
    names: dict[int, list[str]] = {}
    for table_id, _seat, name in rows:
        names.setdefault(table_id, []).append(name)
    return {
        tid: tuple(zip(_keys(seated, links.get(tid, {})), seated, strict=True))
        for tid, seated in names.items()
    }


async def _links(session: AsyncSession, group_id: int) -> dict[int, dict[int, str]]:
    rows = await session.execute(
        select(GroupSeat.table_id, GroupSeat.seat, GroupSeat.name_key).where(
            GroupSeat.group_id == group_id
        )
    )
    links: dict[int, dict[int, str]] = {}
    for table_id, seat, key in rows:
        links.setdefault(table_id, {})[seat] = key
    return links


def _keys(names: Sequence[str], links: Mapping[int, str]) -> tuple[str, ...]:
    """Per seat, who played it; two seats of one table are never the same player (two bots of
    one name, say): a repeated key gets its seat number."""
    keys: list[str] = []
    for seat, name in enumerate(names):
        key = links.get(seat, name_key(name))
        keys.append(f"{key}#{seat + 1}" if key in keys else key)
    return tuple(keys)
