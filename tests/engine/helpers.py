"""Stacked deals and scripted auctions for scenario tests (PokerKit-style deck stacking)."""

from __future__ import annotations

from collections.abc import Sequence

import engine
from engine.cards import COLOUR_OF, DECK_SIZE
from engine.state import HandState

LETTERS = {"R": 0, "Y": 1, "G": 2, "Bl": 3, "P": 4}
SLOT_OF_NUMBER = {0: 0, 1: 1, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 8, 8: 10, 9: 11}


def card(name: str, twin: int = 0) -> int:
    """``card("G7")`` -> id of a green 7 (``twin=1`` for the other green 7 / 1)."""
    letters, number = name[:-1], int(name[-1])
    slot = SLOT_OF_NUMBER[number] + twin
    assert twin == 0 or number in (1, 7)
    return LETTERS[letters] * 12 + slot


def cards(*names: str) -> list[int]:
    return [card(n) for n in names]


def stack(
    players: int,
    fixed: dict[int, Sequence[int]],
    colours: Sequence[int] = (0, 1, 2, 3, 4),
    *,
    size: int | None = None,
    kitty: Sequence[int] = (),
) -> list[list[int]]:
    """Hands where ``fixed[seat]`` are in that seat's hand; the rest of the deck (of
    ``colours``, less ``kitty``) fills the hands in id order.  ``size``: the hand size when
    it is not the classic one (revised 3 players: 15)."""
    size = size or {3: 12, 4: 15, 5: 12, 6: 10}[players]
    hands = [list(fixed.get(s, ())) for s in range(players)]
    used = {c for h in hands for c in h} | set(kitty)
    rest = [c for c in range(DECK_SIZE) if COLOUR_OF[c] in colours and c not in used]
    for hand in hands:
        while len(hand) < size:
            hand.append(rest.pop(0))
    assert not rest
    return hands


Step = tuple[int, Sequence[int] | None]  # (seat, cards shown) ; None = pass


def run_auction(state: HandState, script: Sequence[Step]) -> HandState:
    for seat, shown in script:
        assert state.to_move == seat, f"expected seat {seat} to move, not {state.to_move}"
        action = engine.Pass() if shown is None else engine.Bid(tuple(shown))
        state = engine.apply(state, seat, action)
    return state


def apply_json(state: HandState, seat: int | None, payload: object) -> HandState:
    """What a server does with an action sent as JSON: parse it, then apply it (either step
    may refuse it)."""
    return engine.apply(state, seat, engine.action_from_json(payload))


def passes(*seats: int) -> list[Step]:
    return [(s, None) for s in seats]


def play(state: HandState, *names: str | int) -> HandState:
    """Play cards in turn order (names like ``"R5"`` or card ids) through the public API."""
    for name in names:
        cid = card(name) if isinstance(name, str) else name
        assert state.to_move is not None
        state = engine.apply(state, state.to_move, engine.Play(cid))
    return state
