"""Table use cases behind the HTTP routes (keyword-only functions).

Anything that changes a table goes through its room, the table's single writer.
"""

from __future__ import annotations

from dataclasses import asdict

import engine
from app.db import SessionFactory
from app.lobby import schemas
from app.protocol import present
from app.room import changes
from app.room.hub import Hub
from app.tables import hints, repository, tokens
from app.tables.live import LiveTable, new_table
from app.tables.options import TableOptions


def invite_url(*, base_url: str, invite_code: str) -> str:
    return f"{base_url}/t/{invite_code}"


def rejoin_url(*, base_url: str, invite_code: str, token: str) -> str:
    # The token rides in the fragment: never sent to a server, logged, or put in a Referer.
    return f"{base_url}/t/{invite_code}#rejoin={token}"


async def create_table(
    *,
    session_factory: SessionFactory,
    hub: Hub,
    request: schemas.TableCreate,
    host_token: str | None = None,
) -> LiveTable:
    """Open a table; only the hash of the creator's ``host_token`` is stored (without one,
    nobody can seat bots)."""
    options = TableOptions.from_json(request.model_dump())
    invite_code = tokens.new_invite_code()
    async with session_factory() as session, session.begin():
        table = await repository.create_table(
            session=session,
            invite_code=invite_code,
            options=options.to_json(),
            host_token_hash=tokens.hash_token(host_token) if host_token else None,
        )
    live = new_table(table_id=table.id, invite_code=invite_code, options=options)
    hub.add(live)
    return live


async def join(*, hub: Hub, invite_code: str, request: schemas.SeatCreate) -> tuple[int, str]:
    """Seat a person; returns (seat, token). Raises UnknownTable or room.SeatUnavailable."""
    room = await hub.get_room(invite_code)
    return await changes.join(room, name=request.name, wanted=request.seat)


async def seat_of_token(*, hub: Hub, invite_code: str, token: str | None) -> int | None:
    """The seat this token holds at the table, or None (no token, or not this table's)."""
    room = await hub.get_room(invite_code)
    return await room.seat_of(token) if token else None


async def table_info(
    *,
    hub: Hub,
    invite_code: str,
    base_url: str,
    token: str | None,
    host_token: str | None = None,
) -> schemas.TablePublic:
    room = await hub.get_room(invite_code)
    you = await room.seat_of(token) if token else None
    host = await repository.is_host(
        db=room.store.db, invite_code=room.live.invite_code, token=host_token
    )
    snapshot = room.snapshot()
    live = snapshot.live
    return schemas.TablePublic(
        table_id=live.table_id,
        invite_code=live.invite_code,
        invite_url=invite_url(base_url=base_url, invite_code=invite_code),
        status=live.status,
        version=live.version,
        hand_number=live.hand_number,
        options=schemas.TableOptionsPublic.from_json(live.options.to_json()),
        seats=[
            schemas.SeatPublic(
                seat=index,
                occupied=seat.name is not None,
                opened=seat.bot and index in live.host.opened,
                **asdict(seat),
            )
            for index, seat in enumerate(present.seats(snapshot))
        ],
        closed_to_newcomers=live.host.closed_to_newcomers,
        you=you,
        host=host,
        rules=engine.to_json_object(
            engine.rules_summary(live.options.variant, live.options.players)
        ),
    )


async def scoresheet(*, hub: Hub, invite_code: str) -> schemas.ScoreSheet:
    room = await hub.get_room(invite_code)
    live = room.live
    sheet = engine.scoresheet(live.game)
    taken = await hints.taken(db=hub.store.db, table_id=live.table_id)
    return schemas.ScoreSheet(
        players=sheet.players,
        names=[seat.name if seat else None for seat in live.seats],
        rows=[engine.to_json_object(row) for row in sheet.rows],
        totals=list(sheet.totals),
        over=sheet.over,
        winners=list(sheet.winners),
        hints=hints.seats_per_row(taken, len(sheet.rows)),
    )
