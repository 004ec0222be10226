"""A table played by a script over the WebSocket, so that browser pages can look at any moment.

The script holds every seat (tokens from ``POST …/seats``); a page takes one of them through the
seat's rejoin link and then watches its own seat as a second tab would: it shows the prompts,
the script makes the moves. Bidding is scripted for a full picture: the first two bidders place
one and two cards (a chief and, with four players or more, a vice), everyone else passes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.browser.conftest import Server

View = dict[str, Any]
NAMES = ["Anna", "Ben", "Cleo", "Dirk", "Emil", "Frieda"]
VIEW_TIMEOUT_S = 30


class ScriptedTable:
    """A table whose every seat is played by script over its own socket. In the auction the
    first two bidders show one card, then two, from the start of their hands as their views
    order them, or with ``bid_colour`` the cards of that colour first where they hold some."""

    def __init__(
        self, server: Server, players: int, *, bid_colour: str | None = None, **options: object
    ) -> None:
        self.server = server
        self.bid_colour = bid_colour
        self.code = server.new_table(players, **options)
        self.tokens = [
            server.api("POST", f"/api/tables/{self.code}/seats", json={"name": name}).json()[
                "token"
            ]
            for name in NAMES[:players]
        ]
        ws_base = server.base_url.replace("http", "ws", 1)
        self._stack = ExitStack()
        self.sockets: list[ClientConnection] = [
            self._stack.enter_context(connect(f"{ws_base}/ws/{self.code}?token={token}"))
            for token in self.tokens
        ]
        self.views = [self._view_at(ws, 0) for ws in self.sockets]

    def __enter__(self) -> ScriptedTable:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stack.close()

    @property
    def view(self) -> View:
        """Seat 0's view (the public parts are everyone's)."""
        return self.views[0]

    @property
    def version(self) -> int:
        return int(self.view["version"])

    def rejoin_url(self, seat: int) -> str:
        return f"{self.server.base_url}/t/{self.code}/rejoin/{self.tokens[seat]}"

    def step(self) -> None:
        """The seat to move makes its scripted move; waits until every seat saw it."""
        mover = self.view["to_move"]
        version = self.version
        action = self._choose(self.views[mover], self.bid_colour)
        message = {"type": "action", "version": version, "action": action}
        self.sockets[mover].send(json.dumps(message))
        # The mover's socket first: a refusal of the move is said there, at once.
        seen = {mover: self._view_at(self.sockets[mover], version + 1)}
        self.views = [
            seen.get(s) or self._view_at(ws, version + 1) for s, ws in enumerate(self.sockets)
        ]

    def play_until(self, done: Callable[[View], bool], limit: int = 400) -> None:
        for _ in range(limit):
            if done(self.view) or self.view["game_over"]:
                return
            self.step()
        raise AssertionError("the scripted table never got there")

    @staticmethod
    def _choose(view: View, bid_colour: str | None = None) -> dict[str, Any]:
        prompt = view["prompt"]
        kind = prompt["type"]
        if kind == "bid":
            placed = sum(1 for entry in view["auction"] if entry["type"] == "bid")
            if placed < 2 and prompt["max_cards"] > placed:
                hand = view["hand"]
                if bid_colour is not None:
                    hand = sorted(hand, key=lambda card: card["color"] != bid_colour)
                return {"type": "bid", "cards": [c["id"] for c in hand[: placed + 1]]}
            if prompt["can_pass"]:
                return {"type": "pass"}
            return {"type": "bid", "cards": [view["hand"][0]["id"]]}
        if kind == "trump":
            return {"type": "trump", "trump": prompt["options"][0]}
        if kind == "partner":
            return {"type": "partner", "seat": prompt["options"][0]}
        if kind == "discard":
            return {"type": "discard", "cards": prompt["cards"][: prompt["count"]]}
        return {"type": "play", "card": prompt["cards"][0]}

    @staticmethod
    def _view_at(ws: ClientConnection, version: int) -> View:
        while True:
            # A bound, not a wait: a step takes milliseconds on an idle machine, but a busy
            # CI machine (coverage, the other worker's Chromium) has held one for seconds.
            message = json.loads(ws.recv(timeout=VIEW_TIMEOUT_S))
            if message["type"] == "view" and message["version"] >= version:
                return dict(message["view"])
            # Only the script sends on these sockets: a refusal is the script's own move.
            assert message["type"] != "error", f"the server refused a scripted move: {message}"
