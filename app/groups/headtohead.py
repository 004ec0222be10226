"""Two players of a group face to face (docs/groups.md): their games together, who finished
ahead, and, when one was the chief (the revised Crown), how often the other was the chosen
partner and how the team did; per player, the hands as chief by trump, by bid and by partner.

Read from the engine's typed results (``engine.HandResult``: ``chief``, ``partner``, ``team``,
``chief_trump``, ``bid``, ``success``) and score sheets' totals, in the tables' summaries
(``app.groups.summaries``); nothing is scored again. Only the tables at which one of the two
sat are read, and the figures are kept until one of those tables (or a link of a seat to a
name) changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import engine
from app.db import SessionFactory
from app.groups import service
from app.groups.kept import Kept
from app.groups.seasons import Game
from app.groups.service import GroupInfo, GroupTable, Member


@dataclass(slots=True)
class Record:
    """Hands and how many of them the chief's team made (``success``)."""

    hands: int = 0
    won: int = 0

    def add(self, success: bool | None) -> None:
        self.hands += 1
        self.won += bool(success)

    @property
    def rate(self) -> float | None:
        return self.won / self.hands if self.hands else None


@dataclass(slots=True)
class AsChief:
    """``chief``'s hands as chief at the tables ``other`` also sat at: ``other`` as the
    partner, and as an opponent."""

    chief: str
    other: str
    hands: int = 0
    with_other: Record = field(default_factory=Record)
    against_other: Record = field(default_factory=Record)

    @property
    def chosen_rate(self) -> float | None:
        return self.with_other.hands / self.hands if self.hands else None


@dataclass(slots=True)
class ChiefRecord:
    """One player's hands as chief (at all their tables of the group): overall, by the trump
    they named, by their bid, and by partner (``""``: alone)."""

    key: str
    overall: Record = field(default_factory=Record)
    by_trump: dict[engine.TrumpKind, Record] = field(default_factory=dict)
    by_bid: dict[int, Record] = field(default_factory=dict)
    by_partner: dict[str, Record] = field(default_factory=dict)

    def add(self, result: engine.HandResult, keys: Sequence[str]) -> None:
        self.overall.add(result.success)
        if result.chief_trump is not None:
            self.by_trump.setdefault(result.chief_trump, Record()).add(result.success)
        if result.bid is not None:
            self.by_bid.setdefault(result.bid, Record()).add(result.success)
        partner = _partner(result, keys)
        self.by_partner.setdefault(partner, Record()).add(result.success)


@dataclass(slots=True)
class HeadToHead:
    a: str
    b: str
    games: int = 0  # tables both sat at, with a hand
    over: int = 0  # of them, finished games
    a_ahead: int = 0  # finished with a higher total than the other
    b_ahead: int = 0
    level: int = 0
    hands: int = 0  # hands both played
    a_chief: AsChief = field(init=False)
    b_chief: AsChief = field(init=False)
    chief_records: dict[str, ChiefRecord] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.a_chief, self.b_chief = AsChief(self.a, self.b), AsChief(self.b, self.a)


def _partner(result: engine.HandResult, keys: Sequence[str]) -> str:
    """The chief's partner's key (``""``: the chief played alone)."""
    if result.chief is None:
        return ""
    others = [seat for seat in result.team if seat != result.chief]
    return keys[others[0]] if others else ""


def compare(tables: Sequence[GroupTable], a: str, b: str) -> HeadToHead:
    """The figures of players ``a`` and ``b`` (keys) over ``tables`` (any of the group's)."""
    pair = HeadToHead(a, b, chief_records={a: ChiefRecord(a), b: ChiefRecord(b)})
    for table in tables:
        keys = table.keys
        for hand in table.summary.hands:
            result = hand.result
            if result.kind == engine.Outcome.PLAYED and result.chief is not None:
                chief = keys[result.chief]
                if chief in pair.chief_records:
                    pair.chief_records[chief].add(result, keys)
        if a in keys and b in keys and table.summary.hands:
            _count_pair(pair, table, keys.index(a), keys.index(b))
    return pair


def _count_pair(pair: HeadToHead, table: GroupTable, a: int, b: int) -> None:
    pair.games += 1
    summary = table.summary
    if summary.over:
        pair.over += 1
        ahead = summary.totals[a] - summary.totals[b]
        pair.a_ahead += ahead > 0
        pair.b_ahead += ahead < 0
        pair.level += ahead == 0
    for hand in summary.hands:
        pair.hands += 1
        result = hand.result
        if result.kind != engine.Outcome.PLAYED or result.chief not in (a, b):
            continue
        side, other = (pair.a_chief, b) if result.chief == a else (pair.b_chief, a)
        side.hands += 1
        (side.with_other if other in result.team else side.against_other).add(result.success)


KEPT: Kept[HeadToHead] = Kept(64)


Seated = dict[int, tuple[tuple[str, str], ...]]


SEATS: Kept[Seated] = Kept(64)


async def seated(
    *, session_factory: SessionFactory, group: GroupInfo, games: Sequence[Game]
) -> Seated:
    """Per game, each seat's (player key, name): the seat rows, no replay; kept until a game
    (its version) or a link of a seat changes."""
    links = await service.links_mark(session_factory=session_factory, group=group)
    signature = (tuple((g.table_id, g.version) for g in games), links)
    found = SEATS.get(group.code, signature)
    if found is not None:
        return found
    seats = await service.seat_keys(
        session_factory=session_factory, group=group, table_ids=[g.table_id for g in games]
    )
    return SEATS.put(group.code, signature, seats)


def players(seats: Seated, members: Sequence[Member]) -> dict[str, str]:
    """Everybody who played a game of the group, by key: their claimed name, else the name
    they had at their first table; in alphabetical order."""
    names = {m.key: m.name for m in members}
    found: dict[str, str] = {}
    for table in seats.values():
        for key, name in table:
            found.setdefault(key, names.get(key, name))
    return dict(sorted(found.items(), key=lambda item: item[1].casefold()))


async def head_to_head(
    *,
    session_factory: SessionFactory,
    group: GroupInfo,
    games: Sequence[Game],
    seats: Seated,
    a: str,
    b: str,
) -> HeadToHead:
    """The figures of ``a`` and ``b`` over the group's ``games``: reads only the summaries of
    the tables where one of them sat, kept until one of those tables changes."""
    keys = {tid: {key for key, _ in table} for tid, table in seats.items()}
    theirs = [g for g in games if keys.get(g.table_id, set()) & {a, b}]
    links = await service.links_mark(session_factory=session_factory, group=group)
    signature = (tuple((g.table_id, g.version) for g in theirs), links)
    found = KEPT.get((group.code, a, b), signature)
    if found is not None:
        return found
    tables = await service.load_tables(
        session_factory=session_factory,
        group=group,
        table_ids=[g.table_id for g in theirs],
    )
    return KEPT.put((group.code, a, b), signature, compare(tables, a, b))
