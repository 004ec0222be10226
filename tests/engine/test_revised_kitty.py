"""Revised edition with three players (rules R3, R10): one colour out, 15 cards each and a
3-card kitty that the Crown takes after the auction, then discards any 3 hand cards onto its
points pile.  Edge case 23; the discard phase (legal and illegal), its secrecy, its points."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.cards import POINTS_OF
from engine.state import HandState

from .helpers import apply_json, cards, passes, run_auction, stack
from .randomplay import card_ids

COLOURS = (0, 1, 2, 3)  # purple is out
KITTY = cards("R0", "Y6", "G7")  # 1 + 2 + 2 points
CROWN, SHIELD, OTHER = range(3)
SHOWN = {CROWN: cards("R5", "R6"), SHIELD: cards("Bl1")}


def kitty_deal(dealer: int = CROWN) -> HandState:
    hands = stack(3, dict(SHOWN), COLOURS, size=15, kitty=KITTY)
    return engine.deal_from(hands, dealer, "revised", kitty=KITTY)


def after_auction() -> HandState:
    script = [(CROWN, SHOWN[CROWN]), (SHIELD, SHOWN[SHIELD]), *passes(OTHER, CROWN, SHIELD)]
    return run_auction(kitty_deal(), script)


def discard(state: HandState, names: Any) -> HandState:
    """The Crown's discard, sent as JSON (malformed ``names`` are refused on parsing)."""
    return apply_json(state, CROWN, {"type": "discard", "cards": names})


def test_r3_deal_one_colour_out_fifteen_each_three_in_the_kitty() -> None:
    hand = engine.deal(3, 1, random.Random(5), "revised")
    assert [len(h) for h in hand.hands] == [15, 15, 15] and len(hand.kitty) == 3
    assert len(hand.colours) == 4 and len(engine.deck(3, "revised")) == 48
    fixed = engine.deal(3, 1, random.Random(5), "revised", removed_colours=["blue"])
    assert engine.view(fixed, 0).colours == ("red", "yellow", "green", "purple")
    with pytest.raises(ValueError):
        engine.deal(3, 1, random.Random(5), "revised", removed_colours=["blue", "red"])
    assert engine.deal(4, 0, random.Random(5), "revised").kitty == ()


def test_r3_stacked_deal_implies_the_kitty() -> None:
    hands = stack(3, dict(SHOWN), COLOURS, size=15, kitty=KITTY)
    assert engine.deal_from(hands, 0, "revised").kitty == tuple(sorted(KITTY))
    with pytest.raises(ValueError):
        engine.deal_from(hands, 0, "revised", kitty=KITTY[:2])


def test_r3_the_crown_takes_the_kitty_right_after_the_auction() -> None:
    state = after_auction()
    assert (state.chief, state.vice, state.partner) == (CROWN, SHIELD, None)
    assert state.phase == "discard" and state.to_move == CROWN
    hand = state.hands[CROWN]
    assert len(hand) == 16 and set(KITTY) <= set(hand)  # 15 - 2 shown + 3
    prompt = engine.to_json(engine.legal_prompt(state))
    assert prompt == {"type": "discard", "count": 3, "cards": hand}
    assert state.legal_actions() == hand
    assert engine.view(state, OTHER).hand_counts == (16, 14, 15)


def test_kitty_hidden_from_everyone_until_the_crown_holds_it() -> None:
    state = run_auction(kitty_deal(), [(CROWN, SHOWN[CROWN])])
    for viewer in (None, CROWN, SHIELD, OTHER):
        view = engine.to_json(engine.view(state, viewer))
        assert isinstance(view, dict)
        assert view["kitty"] == {"size": 3, "holder": None, "cards": []}
        assert not set(card_ids(view)) & set(KITTY)
    state = after_auction()
    assert ids(engine.view(state, CROWN).kitty) == sorted(KITTY)
    for viewer in (None, SHIELD, OTHER):
        view = engine.to_json(engine.view(state, viewer))
        assert isinstance(view, dict)
        assert view["kitty"] == {"size": 3, "holder": CROWN, "cards": []}
        assert not set(card_ids(view)) & set(KITTY)


def ids(pile: engine.KittyView | engine.DiscardsView | None) -> list[int]:
    assert pile is not None
    return [c.id for c in pile.cards]


def test_discards_go_to_the_points_pile_hidden_from_the_others() -> None:
    state = after_auction()
    own = next(c for c in state.hands[CROWN] if c not in KITTY)
    thrown = [own, KITTY[1], KITTY[2]]  # kitty cards may go straight back
    state = discard(state, thrown)
    assert state.phase == "vice_trump" and state.to_move == SHIELD
    assert len(state.hands[CROWN]) == 13 and len(state.displays[CROWN]) == 2
    assert state.points_won[CROWN] == sum(POINTS_OF[c] for c in thrown)
    crown_view = engine.view(state, CROWN)
    assert crown_view.discards is not None and crown_view.discards.count == 3
    assert sorted(ids(crown_view.discards)) == sorted(thrown)
    for viewer in (None, SHIELD, OTHER):
        view = engine.to_json(engine.view(state, viewer))
        assert isinstance(view, dict)
        assert view["discards"] == {"seat": CROWN, "count": 3, "cards": []}
        assert not set(card_ids(view)) & set(thrown)


@pytest.mark.parametrize(
    ("shown", "code"),
    [
        (cards("R0", "Y6"), "discard_not_allowed"),  # too few
        (cards("R0", "Y6", "G7", "R2"), "discard_not_allowed"),  # too many
        (cards("R0", "R0", "Y6"), "discard_not_allowed"),  # the same card twice
        (cards("R0", "Y6", "R5"), "discard_not_allowed"),  # R5 is on display (R3: from hand)
        (cards("R0", "Y6", "Bl1"), "discard_not_allowed"),  # the Shield's card
        ("R0", "bad_action"),
        ([True, 1, 2], "bad_action"),
    ],
)
def test_illegal_discards(shown: Any, code: str) -> None:
    state = after_auction()
    with pytest.raises(engine.IllegalAction) as refused:
        discard(state, shown)
    assert refused.value.code == code
    assert state.phase == "discard" and len(state.hands[CROWN]) == 16 and not state.discarded


def test_only_the_crown_discards_and_only_in_the_discard_phase() -> None:
    state = after_auction()
    with pytest.raises(engine.NotYourTurn):
        engine.apply(state, SHIELD, engine.Discard(tuple(KITTY)))
    for action in (engine.Pass(), engine.Trump(engine.TrumpKind.RED)):
        with pytest.raises(engine.WrongPhase):
            engine.apply(state, CROWN, action)
    with pytest.raises(engine.WrongPhase):  # once is all
        engine.apply(discard(state, KITTY), SHIELD, engine.Discard(tuple(KITTY)))
    with pytest.raises(engine.WrongPhase):  # the classic game has no discard at all
        engine.apply(engine.deal(3, 0, random.Random(1)), 0, engine.Discard(()))


def play_out(state: HandState) -> HandState:
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state = engine.apply(state, seat, engine.Play(state.legal_plays(seat)[0]))
    return state


def test_edge_23_discarded_trumps_count_and_the_crown_plays_alone() -> None:
    state = discard(after_auction(), cards("R0", "R1", "R2"))  # red cards, then red trump
    state = engine.apply(state, SHIELD, engine.Trump(engine.TrumpKind.ONE))
    options = engine.legal_prompt(state)
    assert isinstance(options, engine.TrumpPrompt)
    assert options.options == ("red", "5", "6", "none")
    state = engine.apply(state, CROWN, engine.Trump(engine.TrumpKind.RED))
    assert state.phase == "play" and state.to_move == CROWN and state.partner is None
    view = engine.view(state, OTHER)
    assert (view.bid, view.team_goal) == (2, 18)  # 14 + 2 x bid, out of 48
    state = play_out(state)
    assert len(state.tricks) == 15
    result = engine.result(state)
    assert result is not None and sum(result.card_points) == 48
    won = sum(points for _, _, winner, points in state.tricks if winner == CROWN)
    assert result.card_points[CROWN] == won + 2  # R0 1 + R1 0 + R2 1
    assert result.discarded == tuple(cards("R0", "R1", "R2"))
    assert result.kitty == tuple(sorted(KITTY))
    assert result.team_points is not None
    assert result.winning_team == ("crown" if result.team_points >= 18 else "shield")


def test_over_reveals_the_kitty_and_the_discards_to_everyone() -> None:
    state = discard(after_auction(), KITTY)
    state = engine.apply(state, SHIELD, engine.Trump(engine.TrumpKind.NONE))
    state = play_out(engine.apply(state, CROWN, engine.Trump(engine.TrumpKind.NONE)))
    view = engine.view(state, None)
    assert ids(view.kitty) == sorted(KITTY) and ids(view.discards) == KITTY
    assert view.deal is not None
    dealt = [c.id for h in view.deal for c in h] + ids(view.kitty)
    assert sorted(dealt) == [c for c in range(60) if c // 12 in COLOURS]


def test_clone_copies_every_slot_and_shares_no_list() -> None:
    state = after_auction()
    state.apply_action(state.hands[CROWN][0])  # mid-discard: every revised slot in use
    copy = state.clone()
    # A compiled HandState (make compile) is a native class: mypyc lists its attributes in
    # __mypyc_attrs__ instead of __slots__.
    names = getattr(HandState, "__slots__", None) or getattr(HandState, "__mypyc_attrs__", ())
    for name in names:
        original, copied = getattr(state, name), getattr(copy, name)
        assert copied == original, name
        if isinstance(original, list):
            assert copied is not original, name
            assert all(
                a is not b for a, b in zip(original, copied, strict=True) if isinstance(a, list)
            )
    copy.apply_action(copy.hands[CROWN][0])
    assert len(state.discarded) == 1 and len(copy.discarded) == 2
