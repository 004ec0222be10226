"""Engine state -> what one recipient may see. The only place views are built.

A view has two parts. Everyone's (:func:`public_hand`: the spectator's view of the hand without
the fields that differ by viewer; :func:`table_now`: version, status; :func:`table_around`:
seats, scores, the host's decisions, which change now and then) is the same for every
recipient of a snapshot, so it is built and encoded once (and the table's slow keys are taken
over from the previous snapshot while what they are made of is unchanged). Each recipient's own
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
from app.tables import pausing
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
    # The encoded part every frame of this snapshot shares (``public_hand``, ``table_now``
    # and ``table_around``), once, as text (``messages.shared_text``).
    shared_json: list[str] = field(default_factory=list, compare=False, repr=False)
    # Each recipient's encoded own part (``seat_part``) with the part it encodes, taken over
    # from the room's previous snapshot (``of``): used while the part is equal
    # (``messages.own_text``).
    own_json: dict[int | None, tuple[engine.SeatPart | WaitingView, str]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # The encoded ``table_around`` with its ``around_inputs``, taken over from the room's
    # previous snapshot (``of``): used while the inputs are equal (``messages.around_json``).
    around_json: list[tuple[tuple[object, ...], bytes]] = field(
        default_factory=list, compare=False, repr=False
    )

    @classmethod
    def of(
        cls,
        live: LiveTable,
        connected: tuple[bool, ...],
        stand_ins: frozenset[int],
        takeovers: dict[int, float],
        previous: Snapshot | None = None,
    ) -> Snapshot:
        """The snapshot of a room whose ``connected`` seats have a socket on some process
        (``previous``: the room's last one, whose encoded table keys may still hold)."""
        if stand_ins:
            # A person who is back plays for themselves at once. The bot runner clears their
            # mark when it next looks, which may be after this broadcast; no view may show a
            # connected seat as played by a bot meanwhile (nor may the runner move for it).
            stand_ins = frozenset(seat for seat in stand_ins if not connected[seat])
        takeovers = {seat: at for seat, at in takeovers.items() if not connected[seat]}
        snapshot = cls(live, connected, stand_ins, takeovers)
        if previous is not None:
            snapshot.around_json.extend(previous.around_json)
            snapshot.own_json.update(previous.own_json)
        return snapshot


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
class TableNow:
    """The table's keys that move with (nearly) every change."""

    version: int
    status: Status
    hand_number: int
    undoable_by: int | None  # the seat that may ask to take back the last action, if any


@dataclass(frozen=True, slots=True)
class TableAround:
    """The table's keys that change now and then (who sits where, the scores, the host's
    decisions), a function of :func:`around_inputs` alone: a snapshot takes over the previous
    one's encoding of them while those are equal (``messages.around_json``)."""

    seats: tuple[SeatView, ...]
    totals: tuple[int, ...]
    last_result: engine.HandResult | None
    game_over: bool
    winners: tuple[int, ...]
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


def table_now(snapshot: Snapshot) -> TableNow:
    """The table's keys that move with every change (everyone's, like the rest of the table's
    part: encoded once per snapshot, see ``messages.view_text``)."""
    live = snapshot.live
    undoable = live.undoable
    return TableNow(
        version=live.version,
        status=live.status,
        hand_number=live.game.hand_number,
        undoable_by=undoable.seat if undoable is not None else None,
    )


def around_inputs(snapshot: Snapshot) -> tuple[object, ...]:
    """Everything :func:`table_around` reads: equal inputs, equal keys. Between two actions
    these are mostly the very same objects (the table is replaced field by field), so
    comparing them is a few identity checks."""
    live, game = snapshot.live, snapshot.live.game
    return (
        live.seats,
        live.host,
        game.options,
        game.rows,
        game.totals,
        game.last_result,
        snapshot.connected,
        snapshot.stand_ins,
        snapshot.takeovers,
        live.pause,
    )


def table_around(snapshot: Snapshot) -> TableAround:
    """The table's keys that change now and then (see :class:`TableAround`)."""
    live, game = snapshot.live, snapshot.live.game
    return TableAround(
        seats=seats(snapshot),
        totals=game.totals,
        last_result=game.last_result,
        game_over=game.over,
        winners=game.winners,
        closed_to_newcomers=live.host.closed_to_newcomers,
        closed_to_spectators=live.host.closed_to_spectators,
        host_event=_public(live.host.last),
    )


@dataclass(frozen=True, slots=True)
class PauseRequestView:
    """An open request to pause: who asked, until when it stands (Unix time), who agreed and
    whose answer is still missing (the people present who have not agreed)."""

    seat: int
    deadline: float
    agreed: tuple[int, ...]
    waiting: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DropoutView:
    """A person who dropped out, at a table that asks the people present: who voted what."""

    seat: int
    bot: tuple[int, ...]
    wait: tuple[int, ...]
    decided: str | None  # "bot", "wait" or None (pausing.decision)


@dataclass(frozen=True, slots=True)
class PauseView:
    """The view's ``pause`` key (issue 40; only sent once the table has any of it): paused
    since when and by whose consent, the open request, the holidays (seat, until), the
    drop-out questions, and the last pause marker ({"event": "refuse", "seat": 2, ...})."""

    paused: bool
    since: float | None
    by: tuple[int, ...]
    request: PauseRequestView | None
    holidays: tuple[tuple[int, float], ...]
    dropouts: tuple[DropoutView, ...]
    last: Mapping[str, Any] | None


def pause_view(snapshot: Snapshot) -> PauseView | None:
    """The table's pause as everyone sees it, or None while there is nothing of it to show
    (most tables: their views stay as they were)."""
    live, state = snapshot.live, snapshot.live.pause
    people = {
        seat
        for seat, info in enumerate(live.seats)
        if info is not None and not info.bot and snapshot.connected[seat]
    } - snapshot.stand_ins
    request = state.request
    asked = None
    if request is not None:
        waiting = tuple(sorted(people - request.agreed))
        asked = PauseRequestView(
            request.seat, request.deadline, tuple(sorted(request.agreed)), waiting
        )
    dropouts: tuple[DropoutView, ...] = ()
    if (
        live.options.on_dropout == "ask"
        and live.options.pace == "live"
        and live.status == "playing"
    ):
        dropouts = tuple(
            _dropout(seat, state.votes_about(seat), people)
            for seat, info in enumerate(live.seats)
            if info is not None and not info.bot and not snapshot.connected[seat]
        )
    if not (state.last or dropouts):
        return None
    return PauseView(
        paused=state.paused,
        since=state.paused_at,
        by=state.paused_by,
        request=asked,
        holidays=state.holidays,
        dropouts=dropouts,
        last=state.last,
    )


def _dropout(seat: int, votes: Mapping[int, pausing.Choice], people: set[int]) -> DropoutView:
    bot = tuple(sorted(voter for voter, choice in votes.items() if choice == "bot"))
    wait = tuple(sorted(voter for voter, choice in votes.items() if choice == "wait"))
    return DropoutView(seat, bot, wait, pausing.decision(votes, people))
