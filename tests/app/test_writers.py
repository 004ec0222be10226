"""The one writer (app/tables/writer.py) on both backends: SQLAlchemy's transaction (SQLite) and
PostgreSQL's single statement. Same rows, same guard, same refusals, same bot-seat takeover."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from app.main import release
from app.tables import repository
from app.tables.models import Action, Hand, Seat, Table
from app.tables.rows import ActionRow, HandRow, SeatRow
from app.tables.writer import Acting, Change, StaleWrite, Writer


@pytest.fixture
async def app(make_app: Callable[..., FastAPI]) -> AsyncIterator[FastAPI]:
    built = make_app()
    yield built
    await release(built)


async def new_table(app: FastAPI) -> int:
    async with app.state.session_factory() as session:
        table = await repository.create_table(
            # The database outlives the app objects (whose ids Python reuses): a fresh code.
            session=session,
            invite_code=f"code-{secrets.token_hex(8)}",
            options={},
            host_token_hash=None,
        )
        await session.commit()
        return table.id


def seat_row(table_id: int, seat: int, name: str, *, bot: bool = False) -> SeatRow:
    return SeatRow(
        seat=seat,
        name=name,
        token_hash=f"{table_id}-{name}",  # unique in the whole (shared) test database
        is_bot=bot,
        bot_level="heuristic" if bot else None,
    )


def action_row(table_id: int, seq: int) -> ActionRow:
    return ActionRow(seq=seq, hand_number=1, seat=0, action={"type": "bid", "cards": [3, 17]})


async def rows(app: FastAPI, table_id: int) -> dict[str, Any]:
    async with app.state.session_factory() as session:
        version = await session.scalar(select(Table.version).where(Table.id == table_id))
        seats = (await session.scalars(select(Seat).where(Seat.table_id == table_id))).all()
        hands = (await session.scalars(select(Hand).where(Hand.table_id == table_id))).all()
        actions = (await session.scalars(select(Action).where(Action.table_id == table_id))).all()
    return {
        "version": version,
        "seats": sorted((s.seat, s.name, s.is_bot, s.bot_level) for s in seats),
        "hands": [(h.number, h.dealer, h.seed) for h in hands],
        "actions": [(a.seq, a.hand_number, a.seat, a.action) for a in actions],
    }


async def test_the_backend_gets_its_writer(app: FastAPI, database_url: str) -> None:
    writer: Writer = app.state.writer
    assert (writer.strategy == "one statement") == database_url.startswith("postgresql")


async def test_a_change_is_written_whole_with_its_version(app: FastAPI) -> None:
    writer: Writer = app.state.writer
    table_id = await new_table(app)
    seated = Change(seats=[seat_row(table_id, 0, "Ada"), seat_row(table_id, 1, "Bot", bot=True)])
    assert await writer.commit(table_id=table_id, expected_version=0, change=seated) == 1
    # 63-bit deal seeds survive the trip through JSON exactly.
    seed = 2**62 + 12345
    dealt = Change(
        hands=[HandRow(number=1, dealer=1, seed=seed)],
        actions=[action_row(table_id, 1)],
    )
    assert await writer.commit(table_id=table_id, expected_version=1, change=dealt) == 2
    assert await rows(app, table_id) == {
        "version": 2,
        "seats": [(0, "Ada", False, None), (1, "Bot", True, "heuristic")],
        "hands": [(1, 1, seed)],
        "actions": [(1, 1, 0, {"type": "bid", "cards": [3, 17]})],
    }


async def test_a_person_replaces_a_bot_in_its_row(app: FastAPI) -> None:
    writer: Writer = app.state.writer
    table_id = await new_table(app)
    bot = Change(seats=[seat_row(table_id, 2, "Bot", bot=True)])
    await writer.commit(table_id=table_id, expected_version=0, change=bot)
    person = Change(seats=[seat_row(table_id, 2, "Grace")], replaced=[2])
    assert await writer.commit(table_id=table_id, expected_version=1, change=person) == 2
    assert (await rows(app, table_id))["seats"] == [(2, "Grace", False, None)]


async def seat_ids(app: FastAPI, table_id: int) -> dict[int, int]:
    async with app.state.session_factory() as session:
        query = select(Seat.seat, Seat.id).where(Seat.table_id == table_id)
        return {row.seat: row.id for row in (await session.execute(query)).all()}


async def test_a_takeover_keeps_the_seats_row_on_every_backend(app: FastAPI) -> None:
    writer: Writer = app.state.writer
    table_id = await new_table(app)
    bots = Change(seats=[seat_row(table_id, 1, "Bot1", bot=True), seat_row(table_id, 2, "Bot2")])
    await writer.commit(table_id=table_id, expected_version=0, change=bots)
    before = await seat_ids(app, table_id)
    person = Change(seats=[seat_row(table_id, 1, "Grace")], replaced=[1])
    await writer.commit(table_id=table_id, expected_version=1, change=person)
    assert await seat_ids(app, table_id) == before  # updated in place: same row, same id
    assert (await rows(app, table_id))["seats"] == [
        (1, "Grace", False, None),
        (2, "Bot2", False, None),
    ]


def a_full_change(table_id: int) -> Change:
    """A seat, the hand it deals and the hand's first action: all of a join's kinds of row."""
    return Change(
        seats=[seat_row(table_id, 0, "Ada")],
        hands=[HandRow(number=1, dealer=0, seed=7)],
        actions=[action_row(table_id, 1)],
    )


@pytest.mark.parametrize(
    "taken",
    [
        pytest.param(lambda t: Change(seats=[seat_row(t, 0, "Bea")]), id="seat"),
        pytest.param(lambda t: Change(seats=[seat_row(t, 3, "Ada")]), id="token-hash"),
        pytest.param(
            lambda t: Change(hands=[HandRow(number=1, dealer=2, seed=9)]),
            id="hand-number",
        ),
        pytest.param(lambda t: Change(actions=[action_row(t, 1)]), id="action-seq"),
    ],
)
async def test_a_taken_unique_key_is_stale_and_writes_nothing(
    app: FastAPI, taken: Callable[[int], Change]
) -> None:
    writer: Writer = app.state.writer
    table_id = await new_table(app)
    await writer.commit(table_id=table_id, expected_version=0, change=a_full_change(table_id))
    before = await rows(app, table_id)
    with pytest.raises(StaleWrite):
        await writer.commit(table_id=table_id, expected_version=1, change=taken(table_id))
    assert await rows(app, table_id) == before


async def test_seats_hands_and_actions_are_written_all_or_nothing(app: FastAPI) -> None:
    writer: Writer = app.state.writer
    table_id = await new_table(app)
    empty = await rows(app, table_id)
    # Only the last part is refused (two actions with one seq): the seat and hand go too.
    spoiled = a_full_change(table_id)
    spoiled = Change(seats=spoiled.seats, hands=spoiled.hands, actions=[*spoiled.actions] * 2)
    with pytest.raises(StaleWrite):
        await writer.commit(table_id=table_id, expected_version=0, change=spoiled)
    assert await rows(app, table_id) == empty
    # A stale version: not even the parts that would fit are written.
    with pytest.raises(StaleWrite):
        await writer.commit(table_id=table_id, expected_version=1, change=a_full_change(table_id))
    assert await rows(app, table_id) == empty
    # On its version, all of it.
    await writer.commit(table_id=table_id, expected_version=0, change=a_full_change(table_id))
    written = await rows(app, table_id)
    assert [len(written[kind]) for kind in ("seats", "hands", "actions")] == [1, 1, 1]


async def test_a_stale_or_duplicate_change_writes_nothing(app: FastAPI) -> None:
    writer: Writer = app.state.writer
    table_id = await new_table(app)
    await writer.commit(
        table_id=table_id, expected_version=0, change=Change(actions=[action_row(table_id, 1)])
    )
    before = await rows(app, table_id)
    # The version moved on: the guard refuses.
    with pytest.raises(StaleWrite):
        await writer.commit(
            table_id=table_id, expected_version=0, change=Change(actions=[action_row(table_id, 2)])
        )
    # The version fits but the action's sequence number is taken: the unique key refuses, and
    # the version bump of the same statement or transaction is undone with it.
    with pytest.raises(StaleWrite):
        await writer.commit(
            table_id=table_id, expected_version=1, change=Change(actions=[action_row(table_id, 1)])
        )
    assert await rows(app, table_id) == before


async def test_a_change_made_by_a_seat_is_written_only_while_its_token_holds_it(
    app: FastAPI,
) -> None:
    """The acting token is checked in the commit itself, with the version: a person removed
    or replaced through another process cannot act on a process that has not caught up."""
    writer: Writer = app.state.writer
    table_id = await new_table(app)
    ada = seat_row(table_id, 0, "Ada")
    await writer.commit(table_id=table_id, expected_version=0, change=Change(seats=[ada]))
    by_ada = Acting(0, ada.token_hash)
    first = Change(actions=[action_row(table_id, 1)], acting=by_ada)
    assert await writer.commit(table_id=table_id, expected_version=1, change=first) == 2
    # Another writer gives the seat to a bot (the host removed Ada): same version guard.
    bot = seat_row(table_id, 0, "Bot", bot=True)
    await writer.commit(
        table_id=table_id, expected_version=2, change=Change(seats=[bot], replaced=[0])
    )
    before = await rows(app, table_id)
    # Ada's token, even with the current version, is refused; nothing is written.
    late = Change(actions=[action_row(table_id, 2)], acting=by_ada)
    with pytest.raises(StaleWrite):
        await writer.commit(table_id=table_id, expected_version=3, change=late)
    # A token that never held the seat, or a seat the table does not have: refused too.
    for acting in (Acting(0, "someone-else"), Acting(7, bot.token_hash)):
        with pytest.raises(StaleWrite):
            await writer.commit(
                table_id=table_id, expected_version=3, change=replace(late, acting=acting)
            )
    assert await rows(app, table_id) == before
    # The bot's token holds the seat now: its change is written.
    by_bot = replace(late, acting=Acting(0, bot.token_hash))
    assert await writer.commit(table_id=table_id, expected_version=3, change=by_bot) == 4
    assert [seq for seq, *_ in (await rows(app, table_id))["actions"]] == [1, 2]
