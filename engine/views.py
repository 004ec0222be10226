"""What one seat may know (redaction lives here, in the engine).

``view(state, seat)`` is the only way a state leaves the engine: a JSON-ready dict holding
the viewer's own hidden cards, everything public (displays, the auction, tricks, trumps,
roles, counts) and, for the seat to move, a ``prompt`` listing exactly what it may do.
``seat=None`` is a spectator, who sees no hidden card at all.  Once the hand is over its
``result`` and the whole original ``deal`` are public.

``roles`` names the two roles for the client (classic chief/vice, revised Crown/Shield).
Revised views also carry ``crown`` and ``shield`` (the live holders during the auction, R5)
and, with three players, ``kitty`` and ``discards``: their cards are hidden from everyone
but the Crown until the hand is over (R3).
"""

from __future__ import annotations

from typing import Any

from engine.cards import COLOURS, card_dict
from engine.scoring import hand_result
from engine.state import AUCTION, DISCARD, OVER, PARTNER, PLAY, VICE_TRUMP, HandState
from engine.trumps import TRUMP, kind_to_str, trump_ranking


def _cards(ids: list[int] | tuple[int, ...]) -> list[dict[str, Any]]:
    return [card_dict(c) for c in ids]


def _plays(plays: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> list[dict[str, Any]]:
    return [{"seat": s, "card": card_dict(c)} for s, c in plays]


def _trick_record(trick: tuple[int, tuple[tuple[int, int], ...], int, int]) -> dict[str, Any]:
    leader, plays, winner, points = trick
    return {"leader": leader, "cards": _plays(plays), "winner": winner, "points": points}


def _auction_leader(state: HandState) -> int | None:
    if state.rules.roles_move:
        return state.chief  # R5: the live Crown (ties never take it over)
    top = max(state.counts)
    leaders = [s for s, count in enumerate(state.counts) if count == top]
    return leaders[0] if top and len(leaders) == 1 else None


def _trump_ranking(state: HandState) -> list[dict[str, Any]] | None:
    """Once both trumps are settled: every trump card in play, strongest group first."""
    if state.table is None:
        return None
    return [
        {"tier": tier, "ids": list(ids)} for tier, ids in trump_ranking(state.table, state.colours)
    ]


def _trump_value(kind: int | None) -> str | None:
    return None if kind is None else kind_to_str(kind)


def prompt(state: HandState) -> dict[str, Any] | None:
    """What the seat to move may do, or ``None`` when nobody is to move."""
    seat, phase = state.to_move, state.phase_id
    if seat is None:
        return None
    if phase == AUCTION:
        room = min(state.turn_cap - state.counts[seat], len(state.hands[seat]))
        return {"type": "bid", "max_cards": max(room, 0), "can_pass": True}
    if phase == PLAY:
        return _play_prompt(state, seat)
    if phase == PARTNER:
        return {"type": "partner", "options": state.partner_options()}
    if phase == DISCARD:
        return {"type": "discard", "count": state.discards_left, "cards": state.discard_options()}
    role = "vice" if phase == VICE_TRUMP else "chief"
    options = [kind_to_str(k) for k in state.trump_options()]
    return {"type": "trump", "role": role, "options": options}


def _play_prompt(state: HandState, seat: int) -> dict[str, Any]:
    legal = state.legal_plays(seat)
    follow = None
    if state.trick and len(legal) < len(state.hands[seat]) + len(state.displays[seat]):
        follow = "trump" if state.led == TRUMP else COLOURS[state.led]
    return {"type": "play", "cards": sorted(legal), "must_follow": follow}


def _revised_keys(state: HandState, seat: int | None, over: bool) -> dict[str, Any]:
    """R3, R5: the live Crown and Shield; the kitty and the discards, shown to the Crown
    (once it holds them) and to everyone when the hand is over."""
    crown = state.chief
    out: dict[str, Any] = {"crown": crown, "shield": state.vice, "kitty": None, "discards": None}
    if not state.kitty:
        return out
    taken = state.phase_id != AUCTION and crown is not None
    sees = over or (taken and seat == crown)
    out["kitty"] = {
        "size": len(state.kitty),
        "holder": crown if taken else None,
        "cards": _cards(state.kitty) if sees else [],
    }
    out["discards"] = {
        "seat": crown if taken else None,
        "count": len(state.discarded),
        "cards": _cards(state.discarded) if sees else [],
    }
    return out


def view(state: HandState, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` (``None``: a spectator) may see of ``state``."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} at a table of {state.players}")
    over = state.phase_id == OVER
    tricks = state.tricks
    out: dict[str, Any] = {
        "variant": state.rules.name,
        "players": state.players,
        "colours": [COLOURS[c] for c in state.colours],
        "phase": state.phase,
        "to_move": state.to_move,
        "dealer": state.dealer,
        "seat": seat,
        "hand": _cards(sorted(state.hands[seat])) if seat is not None else [],
        "hand_counts": [len(h) for h in state.hands],
        "displays": [_cards(d) for d in state.displays],
        "bids": list(state.counts),
        "auction": [
            {"seat": s, "type": "bid" if shown else "pass", "cards": _cards(shown)}
            for s, shown in state.auction_log
        ],
        "auction_leader": _auction_leader(state),
        "trick": _plays(state.trick),
        "trick_leader": state.trick[0][0] if state.trick else None,
        "trick_number": len(tricks) + 1 if state.phase_id == PLAY else None,
        "last_trick": _trick_record(tricks[-1]) if tricks else None,
        "tricks": [_trick_record(t) for t in tricks],
        "tricks_won": list(state.tricks_won),
        "trump_ranking": _trump_ranking(state),
        "trumps": {
            "vice": _trump_value(state.vice_kind) if state.vice is not None else None,
            "chief": _trump_value(state.chief_kind),
        },
        "chief": state.chief,
        "vice": state.vice,
        "partner": state.partner,
        "bid": state.bid,
        "team_goal": state.rules.goal(state.players, state.bid) if state.bid else None,
        "prompt": prompt(state) if seat is not None and seat == state.to_move else None,
        "roles": state.rules.roles(),
    }
    if state.rules.roles_move:
        out |= _revised_keys(state, seat, over)
    if over:
        out["result"] = hand_result(state)
        out["deal"] = [_cards(h) for h in state.deal]
    return out
