"""Engine state -> what one recipient may see. The only place views are built.

A view is rendered per recipient at send time from :func:`engine.view`, which already redacts
other seats' hands; this module adds the table's public data. The engine state itself, and the
deal seeds, are never serialised.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from app.tables.live import LiveTable


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table at one version plus who is connected: enough to render anyone's view."""

    live: LiveTable
    connected: tuple[bool, ...]
    # Seats of away people a bot is playing for (takeover), see app/bots/runner.py.
    stand_ins: frozenset[int] = frozenset()
    # Encoded view frames by seat (None: spectators), filled as connections send: every
    # spectator, and a person's second tab, gets the same bytes, rendered once.
    frames: dict[int | None, str] = field(default_factory=dict, compare=False, repr=False)


def seats(snapshot: Snapshot) -> list[dict[str, Any]]:
    return [
        {
            "name": info.name if info else None,
            "bot": bool(info and info.bot),
            "bot_level": info.bot_level if info and info.bot else None,
            "connected": snapshot.connected[index],
            "bot_playing": index in snapshot.stand_ins,
        }
        for index, info in enumerate(snapshot.live.seats)
    ]


def _waiting_view(live: LiveTable, seat: int | None) -> dict[str, Any]:
    # Before the first deal there is no engine hand; keep the keys a client reads every time.
    return {
        "variant": live.options.variant,
        "players": live.options.players,
        "phase": "waiting",
        "to_move": None,
        "dealer": live.game.dealer,
        "seat": seat,
        "hand": [],
        "prompt": None,
    }


def render(snapshot: Snapshot, seat: int | None) -> dict[str, Any]:
    """The view for ``seat`` (None: a spectator), engine keys first, then the table's."""
    live = snapshot.live
    base = engine.view(live.hand, seat) if live.hand is not None else _waiting_view(live, seat)
    return {
        **base,
        "version": live.version,
        "status": live.status,
        "hand_number": live.hand_number,
        "seats": seats(snapshot),
        "totals": list(live.game.totals),
        "last_result": live.last_result,
        "game_over": live.game.over,
        "winners": list(live.game.winners) if live.game.over else [],
    }
