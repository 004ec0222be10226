"""Per-seat views: exactly what a seat (or a spectator) may know."""

from __future__ import annotations

import json
import random

import engine

from .helpers import run_auction
from .test_auction import T1_SCRIPT, t1_deal

REQUIRED = {
    "phase", "to_move", "dealer", "seat", "hand", "hand_counts", "displays", "trick", "last_trick",
    "trump_ranking", "tricks_won", "trumps", "chief", "vice", "partner", "bid", "team_goal",
    "prompt",
}  # fmt: skip


def test_view_keys_and_json() -> None:
    state = t1_deal()
    for seat in (None, 0, 3):
        view = engine.to_json(engine.view(state, seat))
        assert isinstance(view, dict) and REQUIRED <= view.keys()
        json.dumps(view)


def test_own_hand_only_and_prompt_only_for_the_mover() -> None:
    state = t1_deal()
    mover = engine.view(state, 0)
    other = engine.view(state, 1)
    spectator = engine.view(state, None)
    assert [c.id for c in mover.hand] == state.hands[0]
    assert engine.to_json(mover.prompt) == {"type": "bid", "max_cards": 1, "can_pass": True}
    assert other.prompt is None and spectator.prompt is None
    assert spectator.hand == () and spectator.deal is None and spectator.result is None
    assert {c.id for c in other.hand}.isdisjoint(state.hands[0])
    assert mover.hand_counts == (12,) * 5


def test_displays_auction_and_roles_are_public() -> None:
    state = run_auction(t1_deal(), T1_SCRIPT)
    view = engine.view(state, None)
    assert [len(d) for d in view.displays] == [3, 1, 3, 4, 1]
    assert view.bids == (3, 1, 3, 4, 1) and view.auction_leader == 3
    assert len(view.auction) == 19 and engine.to_json(view.auction[1]) == {
        "seat": 1,
        "type": "pass",
        "cards": [],
    }
    assert (view.chief, view.vice, view.bid, view.team_goal) == (3, 2, 4, 33)


def test_over_reveals_result_and_deal() -> None:
    state = engine.deal(4, 1, random.Random(9))
    for seat in (1, 2, 3, 0):
        state = engine.apply(state, seat, engine.Pass())
    view = engine.view(state, None)
    assert view.result is not None and view.result.kind == "all_passed"
    assert view.deal is not None
    assert sorted(c.id for hand in view.deal for c in hand) == list(range(60))


def test_trump_ranking_is_published_once_trumps_are_settled() -> None:
    state = run_auction(t1_deal(), T1_SCRIPT)
    assert engine.view(state, None).trump_ranking is None
    state = engine.apply(state, 2, engine.Trump(engine.TrumpKind.RED))
    state = engine.apply(state, 3, engine.Trump(engine.TrumpKind.SEVEN))
    ranking = engine.view(state, 1).trump_ranking
    assert ranking is not None
    names = [[(engine.CARDS[i].color, engine.CARDS[i].number) for i in g.ids] for g in ranking]
    assert ranking[0].tier == "double" and names[0] == [("red", 7), ("red", 7)]
    assert ranking[1].tier == "chief" and len(names[1]) == 8  # the other 7s, all equal
    assert [g.tier for g in ranking[2:]] == ["vice"] * 9  # red 9 down to red 0
    assert names[2] == [("red", 9)] and names[-1] == [("red", 0)]
    assert sum(len(g.ids) for g in ranking) == 2 + 8 + 10
