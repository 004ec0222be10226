"""Engine state -> what one recipient may see. The only place views are built.

A view has two parts. Everyone's (:func:`public_hand`: the spectator's view of the hand without
the fields that differ by viewer, and :func:`table_fields`: version, status, seats) is the
same for every recipient of a snapshot, so it is built and encoded once. Each recipient's own
(:func:`seat_part`: its cards, its prompt, what it sees of the kitty) comes from
``engine.seat_part``, which redacts other seats' cards, at send time. ``messages.py`` joins the
parts into one JSON object on the wire; ``tests/engine/randomplay.py`` checks that the joined
object is exactly ``engine.view`` of that seat. The engine state itself, and the deal seeds,
are never serialised.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import engine
from app.tables.live import LiveTable, Status


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table at one version plus who is connected: enough to render anyone's view."""

    live: LiveTable
    connected: tuple[bool, ...]
    # Seats of away people a bot is playing for (takeover), see app/bots/runner.py.
    stand_ins: frozenset[int] = frozenset()
    # Away people a bot will play for at these times (Unix seconds), see the bot runner.
    takeovers: dict[int, float] = field(default_factory=dict)
    # Encoded view frames by seat (None: spectators), filled as connections send: every
    # spectator, and a person's second tab, gets the same bytes, rendered once.
    frames: dict[int | None, str] = field(default_factory=dict, compare=False, repr=False)
    # The encoded part every frame of this snapshot shares (``public_hand`` and
    # ``table_fields``), once.
    shared_json: list[bytes] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def of(
        cls,
        live: LiveTable,
        connected: tuple[bool, ...],
        stand_ins: frozenset[int],
        takeovers: dict[int, float],
    ) -> Snapshot:
        """The snapshot of a room whose ``connected`` seats have a socket on some process."""
        if stand_ins:
            # A person who is back plays for themselves at once. The bot runner clears their
            # mark when it next looks, which may be after this broadcast; no view may show a
            # connected seat as played by a bot meanwhile (nor may the runner move for it).
            stand_ins = frozenset(seat for seat in stand_ins if not connected[seat])
        takeovers = {seat: at for seat, at in takeovers.items() if not connected[seat]}
        return cls(live, connected, stand_ins, takeovers)


@dataclass(frozen=True, slots=True)
class SeatView:
    """Who sits in a seat, as everyone may see it."""

    name: str | None
    bot: bool
    bot_level: str | None  # the bot's level; None for a person
    connected: bool
    bot_playing: bool  # a bot plays for this away person (takeover)
    takeover_at: float | None  # away: when (Unix time) a bot will play for them, until then


@dataclass(frozen=True, slots=True)
class WaitingView:
    """Before the first deal there is no hand to view: the keys a client reads every time."""

    variant: str
    players: int
    dealer: int | None  # who will deal the first hand
    seat: int | None
    phase: Literal["waiting"] = "waiting"
    to_move: None = None
    hand: tuple[()] = ()
    prompt: None = None


@dataclass(frozen=True, slots=True)
class TableFields:
    """What the table adds to the engine's view of the hand (the game's state around it)."""

    version: int
    status: Status
    hand_number: int
    seats: tuple[SeatView, ...]
    totals: tuple[int, ...]
    last_result: engine.HandResult | None
    game_over: bool
    winners: tuple[int, ...]
    undoable_by: int | None  # the seat that may ask to take back the last action, if any
    # The host's decisions (app/host): the table closed to newcomers / spectators, and the
    # host's last marker ({"event": "remove", "name": "Bert", "to": "bot", "by": "Anna"}, ...).
    closed_to_newcomers: bool = False
    closed_to_spectators: bool = False
    host_event: Mapping[str, Any] | None = None


def seats(snapshot: Snapshot) -> tuple[SeatView, ...]:
    return tuple(
        SeatView(
            name=info.name if info else None,
            bot=bool(info and info.bot),
            bot_level=info.bot_level if info and info.bot else None,
            connected=snapshot.connected[index],
            bot_playing=index in snapshot.stand_ins,
            takeover_at=_second(snapshot.takeovers.get(index)),
        )
        for index, info in enumerate(snapshot.live.seats)
    )


def _public(mark: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A host marker as every view shows it (no ``type``)."""
    return None if mark is None else {k: v for k, v in mark.items() if k != "type"}


def _second(at: float | None) -> float | None:
    return None if at is None else round(at, 1)


# The hand's fields that are the same for every viewer, in the view's order.
_PUBLIC_HAND = tuple(
    f.name for f in dataclasses.fields(engine.HandView) if f.name not in engine.SEAT_FIELDS
)


def seat_part(snapshot: Snapshot, seat: int | None) -> engine.SeatPart | WaitingView:
    """The recipient's own part of a view: what only ``seat`` sees of the hand (its cards,
    its prompt; ``engine.seat_part`` redacts the others'), or the waiting table before the
    first deal."""
    game = snapshot.live.game
    if game.hand is None:
        return WaitingView(game.options.variant, game.options.players, game.next_dealer, seat)
    return engine.seat_part(game.hand, seat)


def public_hand(snapshot: Snapshot) -> dict[str, Any]:
    """The hand's fields that every recipient sees alike (a spectator's view without
    ``engine.SEAT_FIELDS``); nothing before the first deal."""
    hand = snapshot.live.game.hand
    if hand is None:
        return {}
    view = engine.view(hand, None)
    return {name: getattr(view, name) for name in _PUBLIC_HAND}


def table_fields(snapshot: Snapshot) -> TableFields:
    """The table's part of a view: the same for every seat and spectator, so a connection
    encodes it once per snapshot with :func:`public_hand` (``connection._view_frame``). On
    the wire it follows them in one JSON object (``messages.view_frame``)."""
    live = snapshot.live
    game = live.game
    return TableFields(
        version=live.version,
        status=live.status,
        hand_number=game.hand_number,
        seats=seats(snapshot),
        totals=game.totals,
        last_result=game.last_result,
        game_over=game.over,
        winners=game.winners,
        undoable_by=live.undoable.seat if live.undoable is not None else None,
        closed_to_newcomers=live.host.closed_to_newcomers,
        closed_to_spectators=live.host.closed_to_spectators,
        host_event=_public(live.host.last),
    )
