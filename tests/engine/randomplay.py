"""Seeded random play with invariant checks, shared by the random-play and property tests."""

from __future__ import annotations

import math
import random
from typing import Any

import engine
from engine import Bid, Discard, Partner, Pass, Play, Trump, TrumpKind
from engine.state import AUCTION, END_TURN, PARTNER_BASE, TRUMP_BASE, HandState
from engine.trumps import trick_winner

TRUMP_WORDS = ["none", "red", "yellow", "green", "blue", "purple", *map(str, range(10))]


def random_action(state: HandState, rng: random.Random) -> engine.Action:
    """A random legal action; bids like a player who often passes (and, without the classic
    small-steps cap, shows at most 3 cards a turn, so that Crowns sometimes win)."""
    prompt = engine.legal_prompt(state)
    assert prompt is not None and state.to_move is not None
    if isinstance(prompt, engine.BidPrompt):
        if prompt.max_cards == 0 or rng.random() < 0.65:
            return Pass()
        most = min(prompt.max_cards, 3) if state.rules.roles_move else prompt.max_cards
        k = rng.randint(1, most)
        return Bid(tuple(rng.sample(state.hands[state.to_move], k)))
    if isinstance(prompt, engine.DiscardPrompt):
        return Discard(tuple(rng.sample(prompt.cards, prompt.count)))
    if isinstance(prompt, engine.TrumpPrompt):
        return Trump(rng.choice(prompt.options))
    if isinstance(prompt, engine.PartnerPrompt):
        return Partner(rng.choice(prompt.options))
    return Play(rng.choice(prompt.cards))


def card_ids(payload: Any) -> list[int]:
    """Every card id anywhere in a JSON payload (card objects, and id lists under "cards").

    A walk with a stack of its own over exact dicts and lists (what ``engine.to_json`` makes):
    the checks call it for every viewer of every state, so it is written for speed."""
    found: list[int] = []
    stack = [payload]
    push, pop = stack.append, stack.pop
    while stack:
        item = pop()
        if type(item) is dict:
            if "id" in item and "color" in item:
                found.append(item["id"])
            for key, value in item.items():
                kind = type(value)
                if kind is list:
                    if key == "cards" and value and type(value[0]) is int:
                        found.extend(value)
                    else:
                        push(value)
                elif kind is dict:
                    push(value)
        elif type(item) is list:
            for entry in item:
                kind = type(entry)
                if kind is dict or kind is list:
                    push(entry)
    return found


def hidden_from(state: HandState, viewer: int | None) -> set[int]:
    """The cards ``viewer`` must not see: other seats' hands, the kitty before the Crown
    takes it, and the Crown's discards unless the viewer is the Crown (R3)."""
    hidden = {c for s, hand in enumerate(state.hands) if s != viewer for c in hand}
    if state.phase_id == AUCTION:
        hidden |= set(state.kitty)
    if viewer is None or viewer != state.chief:
        hidden |= set(state.discarded)
    return hidden


def encoded_views(state: HandState) -> dict[int | None, dict[str, Any]]:
    """Every viewer's view (the spectator's, then each seat's) in its JSON form, encoded once
    for all the checks of one state."""
    return {
        viewer: engine.to_json_object(engine.view(state, viewer))
        for viewer in [None, *range(state.players)]
    }


def assert_no_leak(state: HandState) -> None:
    """Before the end, no view shows a card hidden from its viewer (other seats' hands, the
    kitty, the discards)."""
    if state.is_over:
        return
    views = encoded_views(state)
    for viewer, payload in views.items():
        hidden = hidden_from(state, viewer)
        seen = set(card_ids(payload))
        assert not seen & hidden, f"seat {viewer} sees hidden cards {seen & hidden}"
    assert_view_splits(state, views)


def assert_view_splits(
    state: HandState, views: dict[int | None, dict[str, Any]] | None = None
) -> None:
    """Every seat's view is the spectator's view with that seat's own part
    (``engine.seat_part``) in place of the fields in ``engine.SEAT_FIELDS``: a server may
    encode everything else once per state for every recipient."""
    views = views or encoded_views(state)
    public = dict(views[None])
    for name in engine.SEAT_FIELDS:
        del public[name]
    for viewer, view in views.items():
        own = engine.to_json_object(engine.seat_part(state, viewer))
        assert list(own) == list(engine.SEAT_FIELDS)
        assert view == {**public, **own}, f"seat {viewer}: its view is not public + own"


def assert_conserved(state: HandState) -> None:
    held = [c for h in state.hands for c in h] + [c for d in state.displays for c in d]
    played = [c for _, c in state.trick] + [c for t in state.tricks for _, c in t[1]]
    if state.phase_id == AUCTION or state.chief is None:
        held += state.kitty  # not taken (yet)
    dealt = [c for h in state.deal for c in h] + list(state.kitty)
    assert sorted(held + played + state.discarded) == sorted(dealt)
    assert (state.to_move is None) == state.is_over
    if state.to_move is not None:
        assert state.legal_actions(), "the seat to move always has a legal action"


def assert_prompt_is_exact(state: HandState) -> None:
    """Every option of the prompt is accepted; everything else refused with the right code."""
    seat, prompt = state.to_move, engine.legal_prompt(state)
    assert seat is not None and prompt is not None
    wrong_seat = (seat + 1) % state.players
    _refused(state, wrong_seat, Pass(), "not_your_turn")
    if isinstance(prompt, engine.BidPrompt):
        _check_bid_prompt(state, seat, prompt)
    elif isinstance(prompt, engine.TrumpPrompt):
        for word in TRUMP_WORDS:
            if word in prompt.options:
                engine.apply(state, seat, Trump(TrumpKind(word)))
            else:
                _refused(state, seat, Trump(TrumpKind(word)), "trump_not_allowed")
        _refused(state, seat, Play(0), "wrong_phase")
    elif isinstance(prompt, engine.DiscardPrompt):
        _check_discard_prompt(state, seat, prompt)
    elif isinstance(prompt, engine.PartnerPrompt):
        for other in range(-1, state.players + 1):
            action = Partner(other)
            if other in prompt.options:
                engine.apply(state, seat, action)
            else:
                _refused(state, seat, action, "partner_not_allowed")
    else:
        _check_play_prompt(state, seat, prompt)


def _check_bid_prompt(state: HandState, seat: int, prompt: engine.BidPrompt) -> None:
    k, hand = prompt.max_cards, state.hands[seat]
    engine.apply(state, seat, Pass())
    if k:
        engine.apply(state, seat, Bid(tuple(hand[:k])))
    if len(hand) > k:
        _refused(state, seat, Bid(tuple(hand[: k + 1])), "too_many_cards")
    _refused(state, seat, Play(0), "wrong_phase")


def _check_discard_prompt(state: HandState, seat: int, prompt: engine.DiscardPrompt) -> None:
    cards, count = list(prompt.cards), prompt.count
    assert cards == sorted(state.hands[seat]) and count == len(state.kitty) - len(state.discarded)
    engine.apply(state, seat, Discard(tuple(cards[-count:])))
    bad = [cards[: count - 1], [*cards, -1][: count + 1], [cards[0]] * count]
    bad += [[*cards[: count - 1], c] for c in state.displays[seat][:1]]
    bad += [[*cards[: count - 1], c] for c in range(60) if c not in cards][:2]
    for shown in bad:
        _refused(state, seat, Discard(tuple(shown)), "discard_not_allowed")
    _refused(state, seat, {"type": "discard", "cards": "all"}, "bad_action")
    _refused(state, seat, Pass(), "wrong_phase")
    _refused(state, seat, Play(cards[0]), "wrong_phase")


def _check_play_prompt(state: HandState, seat: int, prompt: engine.PlayPrompt) -> None:
    pool = set(state.playable(seat))
    for cid in range(60):
        action = Play(cid)
        if cid in prompt.cards:
            engine.apply(state, seat, action)
        else:
            _refused(state, seat, action, "must_follow_suit" if cid in pool else "card_not_yours")


def fingerprint(state: HandState) -> tuple[Any, ...]:
    """Everything an action could change, cheaply comparable."""
    return (
        state.phase_id, state.to_move, repr(state.hands), repr(state.displays), tuple(state.counts),
        tuple(state.trick), len(state.tricks), len(state.auction_log), state.vice_kind,
        state.chief_kind, state.partner, tuple(state.discarded), tuple(state.points_won),
    )  # fmt: skip


def _refused(state: HandState, seat: int, action: object, code: str) -> None:
    """``action`` (typed, or JSON that goes through ``action_from_json``) is refused with
    ``code``, and ``state`` is unchanged."""
    before = fingerprint(state)
    try:
        if isinstance(action, engine.ACTION_TYPES):
            engine.apply(state, seat, action)
        else:
            engine.apply(state, seat, engine.action_from_json(action))
    except engine.IllegalAction as refused:
        assert refused.code == code, (action, refused.code, code)
    else:
        raise AssertionError(f"{action} by {seat} should be refused with {code}")
    assert fingerprint(state) == before


def assert_fast_interface_agrees(state: HandState) -> None:
    """The integer interface offers exactly what the prompt offers."""
    prompt, actions = engine.legal_prompt(state), state.legal_actions()
    assert prompt is not None
    if isinstance(prompt, engine.PlayPrompt):
        assert actions == list(prompt.cards)
    elif isinstance(prompt, engine.TrumpPrompt):
        assert [TrumpKind.from_code(a - TRUMP_BASE) for a in actions] == list(prompt.options)
    elif isinstance(prompt, engine.PartnerPrompt):
        assert [a - PARTNER_BASE for a in actions] == list(prompt.options)
    elif isinstance(prompt, engine.DiscardPrompt):
        assert actions == list(prompt.cards)
    else:
        shown_choices = len(state.hands[state.to_move or 0]) if prompt.max_cards else 0
        assert actions[-1] == END_TURN and len(actions) - 1 == shown_choices


def assert_result_consistent(state: HandState) -> None:
    result = engine.result(state)
    assert result is not None
    deck_points = 12 * len(state.colours)
    if result.kind == "played":
        assert sum(result.card_points) == deck_points
        assert len(state.tricks) == state.rules.hand_size(state.players)
        table = state.trumps()
        for _, plays, winner, _ in state.tricks:
            order = [c for _, c in plays]
            assert plays[trick_winner(table, order)][0] == winner
    else:
        assert result.card_points == (0,) * state.players
    assert result.total == tuple(
        p + b for p, b in zip(result.card_points, result.bonus, strict=True)
    )
    assert result.variant == state.rules.name
    if state.rules.roles_move:
        assert_revised_result(state, result)
    else:
        assert_classic_teams(state, result)


def assert_classic_teams(state: HandState, result: engine.HandResult) -> None:
    """The teams the result names: the chief and its partner, everyone else; the team gets
    the bonus exactly when it met its goal (C28)."""
    if result.kind != "played":
        assert result.team == result.opponents == result.winners == ()
        return
    team = tuple(sorted({state.chief, state.partner} - {None}))
    assert result.team == team and set(result.opponents) == set(range(state.players)) - set(team)
    assert result.winners == (team if result.success else ())


def assert_revised_result(state: HandState, result: engine.HandResult) -> None:
    """R6, R12: no Eklat, no penalty; the bonuses go to exactly the winning team."""
    assert result.kind in ("played", "redeal") and result.provocateur is None
    assert result.bid_bonus is not None and result.trump_bonus is not None
    assert result.discarded is not None
    parts = zip(result.bid_bonus, result.trump_bonus, strict=True)
    assert result.bonus == tuple(b + t for b, t in parts) and min(result.bonus) >= 0
    assert sorted(result.discarded) == sorted(state.discarded)
    if result.kind == "redeal":
        assert max(state.counts) == 0 and result.winning_team is None
        assert result.team == result.winners == ()
        return
    crown_team = {state.chief, state.partner} - {None}
    winning = result.winning_team
    assert result.team_points is not None and result.team_goal is not None
    assert (winning == "crown") == (result.team_points >= result.team_goal)
    assert set(result.team) == crown_team
    if winning is None:
        assert state.vice is None and not any(result.bonus) and result.winners == ()
        return
    members = crown_team if winning == "crown" else set(range(state.players)) - crown_team
    assert {s for s, b in enumerate(result.bonus) if b} == members == set(result.winners)
    assert result.bid is not None
    shield_bid = result.shield_bid or 0
    bid = result.bid * 10 if winning == "crown" else shield_bid * 5
    assert all(result.bid_bonus[s] == bid for s in members)


def play_hand(
    players: int, rng: random.Random, *, exhaustive: bool, variant: str = "classic"
) -> HandState:
    state = engine.deal(players, rng.randrange(players), rng, variant)
    while not state.is_over:
        assert_conserved(state)
        if exhaustive:
            assert_no_leak(state)
            assert_prompt_is_exact(state)
            assert_fast_interface_agrees(state)
        before = fingerprint(state)
        action = random_action(state, rng)
        # What the server does: JSON in (keys the rules do not read are ignored, and the
        # parsed action is canonical: they are gone from its JSON form), then apply.
        wire = engine.to_json(action)
        assert isinstance(wire, dict)
        noisy = {"note": math.nan, **wire}
        parsed = engine.action_from_json(noisy)
        assert parsed == action and engine.to_json(parsed) == wire
        assert engine.is_legal(state, state.to_move, parsed)
        new = engine.apply(state, state.to_move, parsed)
        assert fingerprint(state) == before, "apply must not change its input"
        state = new
    assert_conserved(state)
    assert_result_consistent(state)
    if exhaustive:
        assert_view_splits(state)  # the result and the deal are everyone's once it is over
    return state
