"""No payload ever shows a card its recipient may not see, over many random games.

Random games (3-6 players, both variants, random legal actions from the engine's random
player) are played through the server with every seat and a spectator connected. The test
keeps its own copy of each game, dealt from the seeds the server drew, and checks every
message any socket received: no card still hidden in another seat's hand (for a spectator:
in any hand) appears anywhere in it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient, WebSocketTestSession

import engine
from app.tables import live as live_mod
from app.tables.live import LiveTable, SeatInfo
from app.tables.options import TableOptions
from tests.app.helpers import create_table, random_choice, receive, seat_everyone

GAMES = 16


class RecordedSeeds:
    """Random deal seeds, remembered in the order the server drew them."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self.drawn: list[int] = []

    def __call__(self) -> int:
        self.drawn.append(self._rng.randrange(2**63))
        return self.drawn[-1]


def card_ids(payload: Any) -> Iterator[int]:
    """Every card a message shows: card objects anywhere, and the ids in a prompt."""
    if isinstance(payload, dict):
        if {"id", "color", "number"} <= payload.keys():
            yield int(payload["id"])
        for key, value in payload.items():
            if key == "prompt" and isinstance(value, dict):
                yield from (c for c in value.get("cards", []) if isinstance(c, int))
            yield from card_ids(value)
    elif isinstance(payload, list):
        for item in payload:
            yield from card_ids(item)


def hidden_from(truth: LiveTable, viewer: int | None) -> set[int]:
    """Cards still in the hands of seats other than ``viewer`` (all seats: a spectator).
    Once a hand is over its whole deal is public (also when it ended before any trick)."""
    if truth.hand is None or truth.hand.phase == "over":
        return set()
    return {card for seat, cards in enumerate(truth.hand.hands) if seat != viewer for card in cards}


class Game:
    """One table: its sockets, the test's own copy of the game, and what each socket got."""

    def __init__(
        self, client: TestClient, stack: ExitStack, rng: random.Random, seeds: RecordedSeeds
    ):
        self.players = rng.randint(3, 6)
        variant = "revised" if self.players > 3 and rng.random() < 0.4 else "classic"
        options = TableOptions(players=self.players, variant=variant, target_score=None, hands=1)
        code = create_table(client, players=self.players, variant=variant, hands=1)
        tokens = seat_everyone(client, code, self.players)
        self.sockets: list[WebSocketTestSession] = [
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={token}"))
            for token in tokens
        ]
        self.sockets.append(stack.enter_context(client.websocket_connect(f"/ws/{code}")))
        truth = live_mod.new_table(table_id=0, invite_code=code, options=options)
        for seat in range(self.players):
            truth = live_mod.seat(truth, seat, SeatInfo(f"P{seat}", f"hash{seat}"))
        self.truth = {self.players: live_mod.deal(truth, seeds.drawn[-1])}
        self.version = self.players
        self.received: list[list[dict[str, Any]]] = [[] for _ in self.sockets]
        self.views = [self.until(index, self.version) for index in range(len(self.sockets))]

    def until(self, index: int, version: int) -> dict[str, Any]:
        """Read socket ``index`` until it shows ``version``; an error reply is returned."""
        while True:
            message = receive(self.sockets[index])
            self.received[index].append(message)
            if message["type"] == "error" or message.get("version", -1) >= version:
                return message

    def step(self, rng: random.Random) -> bool:
        """The mover plays a random legal action; False once the game is over."""
        view = self.views[0]["view"]
        if view["game_over"]:
            return False
        mover = view["to_move"]
        while True:
            action = random_choice(self.views[mover]["view"], rng)
            message = {"type": "action", "version": self.version, "action": action}
            self.sockets[mover].send_json(message)
            reply = self.until(mover, self.version + 1)
            if reply["type"] == "view":
                break  # a random "pass" may be refused (the opener must bid): draw again
        played = engine.action_from_json(action)
        self.truth[self.version + 1] = live_mod.play(self.truth[self.version], mover, played)
        self.version += 1
        self.views = [
            reply if index == mover else self.until(index, self.version)
            for index in range(len(self.sockets))
        ]
        return True

    def leaks(self) -> list[str]:
        found = []
        for index, messages in enumerate(self.received):
            viewer = index if index < self.players else None
            for message in messages:
                if message["type"] != "view":
                    continue
                hidden = hidden_from(self.truth[message["version"]], viewer)
                shown = hidden & set(card_ids(message))
                if shown:
                    found.append(f"viewer {viewer} saw {sorted(shown)} at {message['version']}")
        return found


@pytest.mark.slow  # seeded random play through the server: games of every size
def test_no_payload_shows_a_hidden_card(make_app: Callable[..., FastAPI]) -> None:
    rng = random.Random(7_2026)
    seeds = RecordedSeeds(rng)
    checked = 0
    # One client opens every table and takes every seat: beyond the per-address rates.
    with TestClient(make_app(seeds=seeds, rate_limits=False)) as client:
        for _ in range(GAMES):
            with ExitStack() as stack:
                game = Game(client, stack, rng, seeds)
                own = {card["id"] for card in game.views[0]["view"]["hand"]}
                assert own and own <= set(card_ids(game.views[0]))  # the walk finds cards
                while game.step(rng):
                    pass
                assert game.leaks() == []
                assert game.views[0]["view"]["phase"] == "over"  # the hand was played out
                checked += sum(len(messages) for messages in game.received)
    assert checked > 2000
