"""A group's standings: its games with their totals, and per player what the hands came to.

Read from the tables' summaries (``app.groups.summaries``: the engine's typed results of the
hands and the totals of its score sheets, as the server's replay gave them); nothing here
scores a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import engine
from app.groups import ratings
from app.groups.service import GroupTable, Member
from app.history.mine import Tally


@dataclass(frozen=True, slots=True)
class Filter:
    variant: str | None = None  # "classic" / "revised"; None: both
    players: int | None = None  # 3..6; None: any

    def admits(self, table: GroupTable) -> bool:
        summary = table.summary
        return (self.variant is None or summary.variant == self.variant) and (
            self.players is None or summary.players == self.players
        )


@dataclass(frozen=True, slots=True)
class GameLine:
    code: str
    created_at: datetime | None
    variant: str
    names: tuple[str, ...]
    hands: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]  # once over
    status: str


@dataclass(slots=True)
class PlayerLine(Tally):
    key: str
    name: str
    claimed: bool = False
    games: set[str] = field(default_factory=set)
    games_over: int = 0
    games_won: int = 0
    score: int = 0
    bids: int = 0  # hands in which the player showed cards in the auction
    eklats: int = 0  # Eklats the player provoked (C13)
    rating: ratings.Rating | None = None
    # (the group's hand count, the player's running score) after each of the player's hands
    score_history: list[tuple[int, int]] = field(default_factory=list)

    @property
    def average_score(self) -> float | None:
        return self.score / self.hands if self.hands else None


@dataclass(frozen=True, slots=True)
class Standings:
    games: list[GameLine]
    players: list[PlayerLine]
    rated_hands: int
    hands: int
    # every hand of these tables the chosen filter admits, for the ratings that continue them
    rated: tuple[ratings.RatedHand, ...] = ()


def build(
    tables: Sequence[GroupTable],
    members: Sequence[Member],
    chosen: Filter,
    start: Mapping[str, ratings.Rating] | None = None,
) -> Standings:
    """The games and players of the tables ``chosen`` admits; ratings over those hands (each
    player's first from ``start``'s rating, a season's, else a newcomer's)."""
    claimed = {m.key: m.name for m in members}
    players: dict[str, PlayerLine] = {}
    games: list[GameLine] = []
    rated: list[ratings.RatedHand] = []
    hands = 0
    for table in tables:
        summary = table.summary
        if not chosen.admits(table) or not summary.hands:
            continue
        games.append(
            GameLine(
                summary.invite_code, summary.created_at, summary.variant, summary.names,
                len(summary.hands), summary.totals, summary.winners, summary.status,
            )
        )  # fmt: skip
        seated = zip(table.keys, summary.names, strict=True)
        lines = [_player(players, key, name, claimed) for key, name in seated]
        for seat, line in enumerate(lines):
            line.games.add(summary.invite_code)
            if summary.over:
                line.games_over += 1
                line.games_won += seat in summary.winners
        for hand in summary.hands:
            hands += 1
            _count_hand(lines, hand.result)
            order = (summary.table_id, hand.number)
            rated.append(ratings.RatedHand(hand.finished_at, order, table.keys, hand.result))
    _score_histories(players, rated)
    rates, matches = ratings.rate(rated, start)
    for key, rating in rates.items():
        players[key].rating = rating
    ordered = sorted(
        players.values(),
        key=lambda p: (-(p.rating.ordinal if p.rating else -1e9), -p.hands, p.name.casefold()),
    )
    return Standings(games[::-1], ordered, matches, hands, tuple(rated))


def _player(
    players: dict[str, PlayerLine], key: str, name: str, claimed: dict[str, str]
) -> PlayerLine:
    line = players.get(key)
    if line is None:
        line = players[key] = PlayerLine(key, claimed.get(key, name), key in claimed)
    return line


def _score_histories(players: dict[str, PlayerLine], hands: list[ratings.RatedHand]) -> None:
    """Each player's running score over the group's hands, in the order they finished."""
    for index, hand in enumerate(ratings.in_finish_order(hands), start=1):
        for seat, key in enumerate(hand.keys):
            line = players[key]
            last = line.score_history[-1][1] if line.score_history else 0
            line.score_history.append((index, last + hand.result.total[seat]))


def _count_hand(lines: Sequence[PlayerLine], result: engine.HandResult) -> None:
    for seat, line in enumerate(lines):
        line.score += result.total[seat]
        line.bids += bool(result.bids and result.bids[seat])
        line.eklats += result.provocateur == seat
        line.count(result, seat)
