"""rules_catalog() and rules_summary(): every default and limit the server and client read,
consistent with what the engine actually deals and accepts."""

from __future__ import annotations

import random

import pytest

import engine
from engine import Colour, TrumpKind


def test_catalog_contents() -> None:
    catalog = engine.rules_catalog()
    assert [v.name for v in catalog.variants] == ["classic", "revised"]
    assert catalog.default_variant == "classic" and catalog.player_counts == (3, 4, 5, 6)
    assert catalog.target_score == engine.Limits(min=1, max=100_000, default=200)
    assert catalog.hands == engine.Limits(min=1, max=1000, default=6)
    assert catalog.colours == ("red", "yellow", "green", "blue", "purple")
    classic, revised = catalog.variants
    assert engine.to_json(classic.roles) == {"chief": "chief", "vice": "vice"}
    assert engine.to_json(revised.roles) == {"chief": "crown", "vice": "shield"}
    assert classic.default_end == engine.EndCondition(target_score=200)  # C31
    assert revised.default_end == engine.EndCondition(hands=4)  # R14
    assert (classic.suggested_hands, revised.suggested_hands) == (6, 4)
    # C29: a failed classic chief pays; R12: in the revised edition the other team wins instead.
    assert (classic.penalties, revised.penalties) == (True, False)
    assert [v.name for v in catalog.variants] == list(engine.Variant)
    sizes = {v.name: [(d.players, d.hand_size, d.removed_colours, d.kitty_size) for d in v.deals]
             for v in catalog.variants}  # fmt: skip
    assert sizes["classic"] == [(3, 12, 2, 0), (4, 15, 0, 0), (5, 12, 0, 0), (6, 10, 0, 0)]
    assert sizes["revised"] == [(3, 15, 1, 3), (4, 15, 0, 0), (5, 12, 0, 0), (6, 10, 0, 0)]
    assert engine.rules_catalog() is catalog


def test_catalog_trump_kinds_say_what_each_kind_is() -> None:
    kinds = engine.rules_catalog().trump_kinds
    assert [k.kind for k in kinds] == list(TrumpKind) and len(kinds) == 16
    assert [k.kind for k in kinds if k.colour is not None] == list(Colour)
    assert [(k.kind, k.number) for k in kinds if k.number is not None] == [
        (str(n), n) for n in range(10)
    ]
    none = kinds[-1]
    assert (none.kind, none.colour, none.number) == ("none", None, None)
    assert engine.to_json(kinds[12]) == {"kind": "7", "colour": None, "number": 7}


@pytest.mark.parametrize("variant", ["classic", "revised"])
def test_the_catalog_matches_what_the_engine_deals(variant: str) -> None:
    info = next(v for v in engine.rules_catalog().variants if v.name == variant)
    for deal in info.deals:
        hand = engine.deal(deal.players, 0, random.Random(deal.players), variant)
        assert all(len(h) == deal.hand_size for h in hand.hands)
        assert len(hand.kitty) == deal.kitty_size
        assert len(hand.colours) == 5 - deal.removed_colours
        assert len(engine.deck(deal.players, variant)) == 12 * (5 - deal.removed_colours)
    options = engine.GameOptions(players=4, variant=variant)
    assert (options.target_score, options.hands) == (
        info.default_end.target_score,
        info.default_end.hands,
    )


@pytest.mark.parametrize(
    "bad",
    [{"target_score": 0}, {"target_score": 100_001}, {"hands": 0}, {"hands": 1001},
     {"hands": True}, {"target_score": 2.5}, {"removed_colours": ("red", "pink")}],
)  # fmt: skip
def test_game_options_keep_to_the_catalog_limits(bad: dict[str, object]) -> None:
    players = 3 if "removed_colours" in bad else 5
    with pytest.raises(ValueError):
        engine.GameOptions(players=players, **bad)  # type: ignore[arg-type]


def test_game_options_accept_the_limits_themselves() -> None:
    limits = engine.rules_catalog()
    assert engine.GameOptions(players=5, target_score=limits.target_score.max).target_score
    assert engine.GameOptions(players=5, hands=limits.hands.max).hands == 1000
    assert engine.GameOptions(players=5, target_score=1).target_score == 1
    fixed = engine.GameOptions(players=3, removed_colours=("red", "blue"))
    assert fixed.removed_colours == (Colour.RED, Colour.BLUE)


def test_rules_summary_json_keeps_its_keys() -> None:
    classic = engine.to_json(engine.rules_summary("classic", 5))
    assert isinstance(classic, dict)
    assert set(classic) == {"variant", "players", "points", "goals", "bonus", "unverified"}
    assert classic["goals"][:4] == [24, 27, 30, 33] and classic["unverified"] == []
    assert set(classic["bonus"]) == {"colour", "one_or_seven", "number", "none"}
    assert classic["bonus"]["none"][:2] == [40, 50]  # C28: 10 * (bid + 3)
    revised = engine.to_json(engine.rules_summary("revised", 3))
    assert isinstance(revised, dict) and revised["points"] == 48
    assert set(revised) == {
        "variant", "players", "points", "goals", "multipliers", "trump_bonus", "unverified"
    }  # fmt: skip
    assert revised["multipliers"] == {"crown": 10, "shield": 5}
    assert revised["trump_bonus"] == {"colour": 10, "one_or_seven": 20, "number": 30, "none": 40}
    assert revised["unverified"] == ["goals", "trump_bonus"]
    with pytest.raises(ValueError):
        engine.rules_summary("classic", 7)
    with pytest.raises(ValueError):
        engine.rules_summary("chess", 4)
