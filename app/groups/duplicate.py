"""A group's game on the deals of an earlier game, and the page that compares them (issue 39,
point 2: duplicate, as in bridge).

"Play these deals" on a finished game of the group opens a new table of the group with that
game's rules and length, whose hand ``n`` is dealt from that game's hand ``n`` seed: the same
dealer (dealers rotate the same way from the same first dealer, C3) gives every seat the same
cards. The seeds stay server-side (``live.Branch`` in the table row's ``branch`` column); the
new table's options name the game (``deals_of``, its invite code) and ``tables.deals_of`` (an
index) holds the id of the first game of those deals, so every game on them is found at once.
It is a game like any other of the group (standings, ratings). Hands beyond the earlier game's
(its revised redeals were played again, say) are dealt at random and not compared.

The comparison page puts the games side by side deal by deal, and per seat's cards says who did
better with them: the sum of that seat's scores over the hands every game finished on the same
deal. The friends at the second table could look up the first game's hands: like duplicate
bridge, it relies on the players not to.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

import engine
from app.db import SessionFactory
from app.groups.service import GroupInfo
from app.history import service as history_service
from app.room.hub import Hub
from app.tables import replay, repository, tokens
from app.tables.live import Branch, LiveTable, new_table
from app.tables.models import Hand, Table
from app.tables.options import TableOptions

MAX_GAMES = 6  # the games compared on one page: the first and the newest five on its deals


class DuplicateRefused(Exception):
    """Why no game on these deals was opened: an HTTP status and a machine code."""

    def __init__(self, status: int, code: str) -> None:
        super().__init__(code)
        self.status, self.code = status, code


async def open_on_deals(
    *, session_factory: SessionFactory, hub: Hub, group: GroupInfo, code: str, host_token: str
) -> LiveTable:
    """A new table of ``group`` dealt the cards of its finished game ``code``, hand by hand.

    Raises:
        DuplicateRefused: 404 ``unknown_game`` (not a game of this group), 409 ``game_not_over``
            (its deals are not all known yet).
    """
    async with session_factory() as session:
        rows = await repository.load_table(session=session, invite_code=code)
    if rows is None or rows.table.group_id != group.id:
        raise DuplicateRefused(404, "unknown_game")
    played = replay.rebuild(rows)
    if not played.game.over:
        raise DuplicateRefused(409, "game_not_over")
    first = rows.table.deals_of or rows.table.id  # the deals' first game
    source = TableOptions.from_json(rows.table.options)
    options = source.model_copy(
        update={
            "hands": played.game.hands_played,
            "target_score": None,
            "reserved": (),
            "reserved_until": None,
            "practice": None,
            "deals_of": code,
        }
    )
    deals = Branch(deals=tuple((hand.seed, hand.dealer) for hand in rows.hands))
    new_code = tokens.new_invite_code()
    async with session_factory() as session, session.begin():
        table = await repository.create_table(
            session=session,
            invite_code=new_code,
            options=options.to_json(),
            host_token_hash=tokens.hash_token(host_token),
            branch=deals.to_json(),
            deals_of=first,
        )
        table.group_id = group.id
    live = new_table(table_id=table.id, invite_code=new_code, options=options, branch=deals)
    hub.add(live)
    return live


@dataclass(frozen=True, slots=True)
class GameOn:
    """One game on the deals: its code, date and players."""

    code: str
    created_at: datetime | None
    names: list[str]
    first: bool  # the game whose deals the others replay


@dataclass(frozen=True, slots=True)
class DealLine:
    """Hand ``number`` of every game, on the same cards: each game's result."""

    number: int
    results: list[engine.HandResult]


@dataclass(frozen=True, slots=True)
class SeatLine:
    """What one seat's cards gave at each game over the compared hands, and who did best."""

    seat: int
    totals: list[int]
    best: list[int]  # the indexes of the games whose player did best (several on a tie)
    by: int  # how much better than the next best (0 on a tie)


@dataclass(frozen=True, slots=True)
class Comparison:
    games: list[GameOn]
    deals: list[DealLine]  # the hands every game finished on the same deal
    seats: list[SeatLine]


async def compare(
    *, session_factory: SessionFactory, group: GroupInfo, code: str
) -> Comparison | None:
    """The games of ``group`` on the deals of game ``code`` (it, or the game whose deals it
    replays, and the others on them), side by side; None unless it is a game of the group on
    deals that another game played too."""
    async with session_factory() as session:
        game = (
            await session.execute(
                sa.select(Table.id, Table.deals_of).where(
                    Table.invite_code == code, Table.group_id == group.id
                )
            )
        ).first()
        if game is None:
            return None
        first = game.deals_of or game.id
        tables = (
            await session.execute(
                sa.select(Table.id, Table.invite_code)
                .where(
                    Table.group_id == group.id,
                    sa.or_(Table.id == first, Table.deals_of == first),
                )
                .order_by(Table.id)
            )
        ).all()
        if len(tables) < 2:
            return None
        tables = [tables[0], *tables[1:][-(MAX_GAMES - 1) :]]
        ids = [row.id for row in tables]
        seeds: dict[tuple[int, int], int] = {
            (row.table_id, row.number): row.seed
            for row in await session.execute(
                sa.select(Hand.table_id, Hand.number, Hand.seed).where(Hand.table_id.in_(ids))
            )
        }
    histories = [
        await history_service.load(session_factory=session_factory, invite_code=row.invite_code)
        for row in tables
    ]
    shown = [(row, h) for row, h in zip(tables, histories, strict=True) if h is not None]
    if len(shown) < 2:
        return None
    games = [GameOn(row.invite_code, h.created_at, h.names, row.id == first) for row, h in shown]
    deals: list[DealLine] = []
    for number in range(1, max(len(h.hands) for _row, h in shown) + 1):
        seed = seeds.get((shown[0][0].id, number))
        records = [h.hand(number) for _row, h in shown]
        same = all(seeds.get((row.id, number)) == seed for row, _h in shown)
        if seed is None or not same or any(record is None for record in records):
            continue
        deals.append(DealLine(number, [record.result for record in records if record]))
    players = shown[0][1].players
    return Comparison(games, deals, [_seat(seat, deals) for seat in range(players)])


def _seat(seat: int, deals: list[DealLine]) -> SeatLine:
    count = len(deals[0].results) if deals else 0
    totals = [sum(deal.results[i].total[seat] for deal in deals) for i in range(count)]
    if not totals:
        return SeatLine(seat, [], [], 0)
    top = max(totals)
    best = [i for i, total in enumerate(totals) if total == top]
    rest = [total for total in totals if total != top]
    return SeatLine(seat, totals, best, top - max(rest) if rest and len(best) == 1 else 0)


async def codes_on_same_deals(*, session_factory: SessionFactory, codes: list[str]) -> set[str]:
    """Which of these games (the ones a group page shows) share their deals with another game,
    for its "Compare" links: two indexed reads of as many rows as codes, whatever the
    group's history."""
    if not codes:
        return set()
    async with session_factory() as session:
        shown = (
            await session.execute(
                sa.select(Table.id, Table.invite_code, Table.deals_of).where(
                    Table.invite_code.in_(codes)
                )
            )
        ).all()
        ids = [row.id for row in shown]
        replayed = set(
            (
                await session.scalars(
                    sa.select(Table.deals_of).where(Table.deals_of.in_(ids)).distinct()
                )
            ).all()
        )
    return {row.invite_code for row in shown if row.deals_of is not None or row.id in replayed}
