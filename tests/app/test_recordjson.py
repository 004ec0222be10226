"""The engine's records as JSON (``app/protocol/recordjson.py``): byte for byte what orjson
writes for the same value, on every state of seeded random hands of every variant and size and
for every recipient, whether the shared records' JSON is found, encoded anew or forgotten."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import orjson
import pytest

import engine
from app.protocol import recordjson
from app.protocol.present import Snapshot, table_around, table_now
from app.tables import live as live_mod
from app.tables.live import SeatInfo
from app.tables.options import TableOptions
from engine.state import HandState
from tests.engine.randomplay import random_action

CASES = [(variant, players) for variant in ("classic", "revised") for players in (3, 4, 5, 6)]


def states(variant: str, players: int, seed: int) -> Iterator[HandState]:
    rng = random.Random(seed)
    for _ in range(2):
        state = engine.deal(players, rng.randrange(players), rng, variant)
        while not state.is_over:
            yield state
            state = engine.apply(state, state.to_move, random_action(state, rng))
        yield state  # over: the deal and the result are shown


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_every_view_is_the_bytes_orjson_writes(variant: str, players: int) -> None:
    for state in states(variant, players, seed=players * 31 + len(variant)):
        for seat in [None, *range(players)]:
            view = engine.view(state, seat)
            assert recordjson.dumps(view) == orjson.dumps(view)


def test_forgetting_the_shared_records_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recordjson, "ENCODED_MAX", 3)  # cleared over and over
    for state in states("classic", 5, seed=9):
        view = engine.view(state, state.to_move)
        assert recordjson.dumps(view) == orjson.dumps(view)


def test_records_that_are_not_the_shared_ones_are_encoded_as_they_are() -> None:
    card = engine.CARDS[7]
    twin = engine.Card(card.id, card.color, card.number, card.points)  # equal, not the deck's
    odd = replace(card, points=99)  # no such card: its own fields, not the deck's JSON
    stray = replace(card, id=999)
    played = engine.PlayedCard(2, odd)
    for value in (twin, odd, stray, played, [played, played], {"cards": (card, twin)}):
        assert recordjson.dumps(value) == orjson.dumps(value)


def test_what_orjson_refuses_is_refused_the_same_way() -> None:
    for value in (object(), {1: engine.CARDS[0]}, engine.Card):
        with pytest.raises(orjson.JSONEncodeError):
            orjson.dumps(value)
        with pytest.raises(orjson.JSONEncodeError):
            recordjson.dumps(value)


def test_the_table_part_is_the_bytes_orjson_writes() -> None:
    options = TableOptions(players=4, target_score=None, hands=2)
    live = live_mod.new_table(table_id=3, invite_code="json", options=options)
    for seat in range(3):
        live = live_mod.seat(live, seat, SeatInfo(f"P{seat}", f"hash{seat}"))
    snapshot = Snapshot(live, (True, False, True, False), frozenset({1}), {3: 1_795_000_000.25})
    for fields in (table_now(snapshot), table_around(snapshot)):
        assert recordjson.dumps(fields) == orjson.dumps(fields)
