"""The table WebSocket's wire protocol, pinned byte for byte (issue 37).

Issue 37 splits ``app/realtime/`` into ``app/protocol/``, ``app/room/`` and ``app/cluster/``.
That refactor must not change one byte of what a client receives, so this test plays a few
seeded games through the public HTTP API and ``/ws/{invite_code}``, records every frame that
every socket (each seat's, and the spectators') receives, in order, and compares them, frame by
frame, with ``tests/app/data/frames_golden.json``, recorded before the refactor began. A
mismatch names the game, the socket and the frame's index, and prints both frames.

It imports nothing from ``app.realtime`` (nor from the packages that replace it), nor the
server test helpers (they import those): only the app factory (``app.main``, configured by
the environment as ``python -m app`` is) and ``tests.app.databases`` (a migrated SQLite file).
The policy and the socket reads are copied here, so that a change to ``tests/app/helpers.py``
cannot change the frames either.

The games (:data:`GAMES`): 4 and 5 players, classic and the revised edition, one hand each
(the 5-player classic game has one hand and ends); seats sitting down while others watch,
spectators (one arriving late: the recent chat, the next game's code), chat with markup and
non-ASCII text, reactions, undo requests allowed and refused, a pong, a resync, every kind
of refusal a client can cause, "Play again", the host closing the table (a spectator sent
away), sockets refused (bad token, unknown table, closed to spectators), and the sockets
closed one by one. Close frames are recorded too, as ``<close CODE: REASON>``.

What makes the frames the same on every run:

- each game's deal seeds are fixed (``create_app(seeds=...)`` counts up from the game's own
  seed), and each game gets a fresh SQLite database (a copy of one migrated once per module),
  so table ids, chat line ids and versions never depend on what ran before;
- every table is created with ``takeover_seconds: null`` and nobody seats a bot: no bot plays
  and no takeover countdown (a timer) ever enters a view; rate limits are raised so that a
  fast machine never meets them;
- a socket's outbox keeps only its newest pending view, so the driver waits for every frame an
  event causes, at every open socket, before it causes the next one; each socket is recorded
  on its own (the interleaving of different sockets is not pinned);
- the policy is fixed (:func:`policy`): the dealer opens with its first card, everyone else
  passes, then the first trump, partner, discards and card the prompt offers.

The normalizations, applied to each frame's text before it is compared or recorded (nothing
else is changed; each is in :func:`normalize`):

1. invite codes (random): each code of the game (from the create and "play again" answers)
   becomes ``<invite:N>``, N counting the game's tables from 1;
2. host and seat tokens (random): each becomes ``<token:N>``, N counting the game's tokens
   from 1 (no frame holds one today; should one ever leak, the diff shows it as such);
3. chat line times (the clock): ``"at":"2025-...+00:00"`` becomes ``"at":"<at>"``;
4. undo deadlines (the clock plus ten seconds): ``"deadline":1750000000.1`` becomes
   ``"deadline":"<deadline>"``.

Regenerate the file (only when the protocol is meant to change; never to make a refactor's
run pass), without ``-n``::

    MU_RECORD_FRAMES=1 .venv/bin/python -m pytest tests/app/test_frames_unchanged.py
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.exceptions import StarletteDeprecationWarning

from app.main import create_app
from tests.app import databases

# Starlette warns that it prefers the httpx2 package; the test client works with httpx (as in
# tests/app/conftest.py, which pytest imports first; this module also runs as a script).
with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient, WebSocketTestSession

GOLDEN = Path(__file__).parent / "data" / "frames_golden.json"
RECORDING = os.environ.get("MU_RECORD_FRAMES") == "1"
# How long a socket may take to deliver a frame the driver waits for.
TIMEOUT = 5.0

# The settings of every game's app (environment variables, read by ``create_app()``): no
# review jobs, no bot delay, rate limits no test run can reach.
SETTINGS = {
    "REVIEW_WORKERS": "0",
    "BOT_DELAY_MS": "0",
    "RATE_LIMITS": "false",
    "WS_MESSAGES_PER_SECOND": "10000",
    "WS_MESSAGE_BURST": "10000",
}

_CHAT_TIME = re.compile(r'"at":"\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:\d\d)?"')
_DEADLINE = re.compile(r'"deadline":-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?')


def normalize(text: str, invites: list[str], tokens: list[str]) -> str:
    """A frame as recorded: the game's invite codes and tokens, the chat times and the undo
    deadlines replaced by placeholders (see the module docstring)."""
    for number, code in enumerate(invites, 1):
        text = text.replace(code, f"<invite:{number}>")
    for number, token in enumerate(tokens, 1):
        text = text.replace(token, f"<token:{number}>")
    text = _CHAT_TIME.sub('"at":"<at>"', text)
    return _DEADLINE.sub('"deadline":"<deadline>"', text)


def policy(view: dict[str, Any]) -> dict[str, Any]:
    """The action of the seat whose wire ``view`` prompts it: the dealer opens the auction with
    its first card, everyone else passes (a seat that may not pass bids its first card), then
    the first trump, partner, discards and card the prompt offers. (``choose`` of
    ``tests/app/helpers.py`` when the frames were recorded.)"""
    prompt = view["prompt"]
    if prompt["type"] == "bid":
        nobody_bid = all(not cards for cards in view["bids"])
        if nobody_bid or not prompt["can_pass"]:
            return {"type": "bid", "cards": [view["hand"][0]["id"]]}
        return {"type": "pass"}
    if prompt["type"] == "trump":
        return {"type": "trump", "trump": prompt["options"][0]}
    if prompt["type"] == "partner":
        return {"type": "partner", "seat": prompt["options"][0]}
    if prompt["type"] == "discard":
        return {"type": "discard", "cards": prompt["cards"][: prompt["count"]]}
    return {"type": "play", "card": prompt["cards"][0]}


def receive(socket: WebSocketTestSession, timeout: float = TIMEOUT) -> dict[str, Any]:
    """The socket's next ASGI message from the server (``TimeoutError`` when none comes): the
    test session has no receive timeout of its own, so its stream (a private attribute) is
    read under ``anyio.fail_after``."""

    async def next_message() -> dict[str, Any]:
        with anyio.fail_after(timeout):
            message: dict[str, Any] = await socket._send_rx.receive()
            return message

    message: dict[str, Any] = socket.portal.call(next_message)
    return message


# -- the golden file ----------------------------------------------------------------------
#
# A JSON object: game -> socket -> frames, one frame a line. Stored whole, the frames would
# take 7.8 MB (a view is 3-4 KB, and every action sends one to every socket), nearly all of it
# repeating the socket's previous view; so each frame is stored as its segments (its text cut
# at the commas at nesting depth 1 and 2: a view's keys), each segment either written out (a
# JSON string) or taken from the socket's previous frame of the same type: ``n`` is that
# frame's segment n, ``[a, b]`` its segments a to b. The first segment (``{"type":"view"``)
# is always written out. A frame's text is its segments joined by commas, exactly: the
# comparison is on whole texts, never on segments. ``python -m tests.app.test_frames_unchanged
# GAME SOCKET`` prints a socket's frames whole.


def segments(text: str) -> list[str]:
    """``text`` cut at the commas outside strings at nesting depth 1 or 2."""
    cuts: list[str] = []
    start = depth = 0
    in_string = escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
        elif char == "," and depth <= 2:
            cuts.append(text[start:index])
            start = index + 1
    cuts.append(text[start:])
    return cuts


Item = str | int | list[int]


def encode(frames: list[str]) -> list[list[Item]]:
    """One socket's frames as stored (see above)."""
    stored: list[list[Item]] = []
    previous: dict[str, list[str]] = {}  # the last frame of each type, by its first segment
    for frame in frames:
        cut = segments(frame)
        where: dict[str, int] = {}
        for index, segment in enumerate(previous.get(cut[0], [])):
            where.setdefault(segment, index)
        items: list[Item] = [cut[0]]
        for segment in cut[1:]:
            index = where.get(segment, -1)
            last = items[-1]
            if index < 0:
                items.append(segment)
            elif isinstance(last, list) and last[1] == index - 1:
                last[1] = index
            elif isinstance(last, int) and last == index - 1:
                items[-1] = [last, index]
            else:
                items.append(index)
        previous[cut[0]] = cut
        stored.append(items)
    return stored


def decode(stored: list[list[Item]]) -> list[str]:
    """One socket's frames from the stored form."""
    frames: list[str] = []
    previous: dict[str, list[str]] = {}
    for items in stored:
        first = items[0]
        assert isinstance(first, str), items
        base = previous.get(first, [])
        cut: list[str] = []
        for item in items:
            if isinstance(item, str):
                cut.append(item)
            elif isinstance(item, int):
                cut.append(base[item])
            else:
                cut.extend(base[item[0] : item[1] + 1])
        previous[first] = cut
        frames.append(",".join(cut))
    return frames


def read_golden() -> dict[str, dict[str, list[str]]]:
    """Every game's frames, by socket, whole."""
    if not GOLDEN.exists():
        return {}
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return {
        game: {socket: decode(stored) for socket, stored in sockets.items()}
        for game, sockets in data.items()
    }


def write_golden(games: dict[str, dict[str, list[str]]]) -> None:
    lines = ["{"]
    for g, (game, sockets) in enumerate(games.items()):
        lines.append(f"{json.dumps(game)}: {{")
        for s, (socket, frames) in enumerate(sockets.items()):
            stored = encode(frames)
            assert decode(stored) == frames  # the stored form gives back every byte
            lines.append(f"{json.dumps(socket)}: [")
            lines.extend(
                json.dumps(items, ensure_ascii=False, separators=(",", ":"))
                + ("," if f < len(stored) - 1 else "")
                for f, items in enumerate(stored)
            )
            lines.append("]" + ("," if s < len(sockets) - 1 else ""))
        lines.append("}" + ("," if g < len(games) - 1 else ""))
    lines.append("}")
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")


# -- the driver ---------------------------------------------------------------------------


@dataclass
class Table:
    """One game's table: opens sockets, causes events, and takes (and checks) the frames each
    event causes at each open socket."""

    game: str
    client: TestClient
    stack: ExitStack
    expected: dict[str, list[str]] | None  # the golden frames (None: recording)
    players: int = 0
    invites: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)  # the host's, then the seats' in order
    sockets: dict[str, WebSocketTestSession] = field(default_factory=dict)  # the open ones
    spectators: set[str] = field(default_factory=set)
    frames: dict[str, list[str]] = field(default_factory=dict)
    views: dict[str, dict[str, Any]] = field(default_factory=dict)  # each socket's newest

    # -- HTTP -------------------------------------------------------------------------------

    def create(self, players: int, **options: Any) -> None:
        self.players = players
        body = {"players": players, "takeover_seconds": None, **options}
        created = self._post("/api/tables", body, status=201)
        self.invites.append(created["invite_code"])
        self.tokens.append(created["host_token"])

    @property
    def code(self) -> str:
        return self.invites[0]

    def join(self, seat: int) -> None:
        """``P<seat>`` takes ``seat``: every open socket gets a view."""
        body = {"name": f"P{seat}", "seat": seat}
        self.tokens.append(self._post(f"/api/tables/{self.code}/seats", body, status=201)["token"])
        self.expect(self.everyone())

    def seat_token(self, seat: int) -> str:
        return self.tokens[1 + seat]  # ``join`` seats them in order

    def play_again(self, seat: int) -> None:
        """``seat`` opens the next game: every open socket hears its code."""
        path = f"/api/tables/{self.code}/again?token={self.seat_token(seat)}"
        answer = self._post(path, {})
        self.invites.append(answer["invite_code"])
        self.tokens.append(answer["token"])
        self.expect(self.everyone())

    def host(self, decision: str, body: dict[str, Any] | None = None) -> None:
        """A host's decision (``POST .../host/<decision>``): every open socket gets a view, or
        its close frame if the decision sends it away."""
        self._post(f"/api/tables/{self.code}/host/{decision}", body or {}, host=True)
        self.expect(self.everyone())

    def _post(
        self, path: str, body: dict[str, Any], *, status: int = 200, host: bool = False
    ) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.tokens[0]}"} if host else {}
        response = self.client.post(path, json=body, headers=headers)
        assert response.status_code == status, response.text
        # No cookie stays: a socket opened without a token is a spectator's.
        self.client.cookies.clear()
        answer: dict[str, Any] = response.json()
        return answer

    # -- sockets ----------------------------------------------------------------------------

    def open(
        self,
        name: str,
        seat: int | None = None,
        *,
        token: str | None = None,
        greetings: int = 0,
        refused: bool = False,
        code: str | None = None,
    ) -> None:
        """Open a socket at the table (or at ``code``), with ``seat``'s token or ``token``, else
        a spectator's. It gets its ``greetings`` (the recent chat, the next game's code) and a
        view, or only its close frame when it is ``refused``; a seat's first socket also
        changes the presence every other socket sees."""
        token = self.seat_token(seat) if seat is not None else token
        query = f"?token={token}" if token is not None else ""
        socket = ExitStack()
        self.stack.callback(socket.close)
        self.sockets[name] = socket.enter_context(
            self.client.websocket_connect(f"/ws/{code or self.code}{query}")
        )
        self.frames[name] = []
        if token is None:
            self.spectators.add(name)
        others = 1 if seat is not None and not refused else 0
        self.expect({**self.everyone(others), name: 1 if refused else greetings + 1})

    def close(self, name: str) -> None:
        """Close a socket; a seat's last one changes the presence every other socket sees."""
        self.sockets.pop(name).close()
        self.expect(self.everyone(0 if name in self.spectators else 1))

    def send(self, name: str, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        self.sockets[name].send_text(text)

    def everyone(self, count: int = 1) -> dict[str, int]:
        return dict.fromkeys(self.sockets, count)

    def expect(self, counts: dict[str, int]) -> None:
        """Take ``counts[name]`` frames at each socket, checking each against the golden."""
        for name, count in counts.items():
            for _ in range(count):
                self._take(name)

    def _take(self, name: str) -> None:
        index = len(self.frames[name])
        golden = self._golden(name, index)
        try:
            message = receive(self.sockets[name])
        except TimeoutError:
            pytest.fail(
                f"{self.game}: socket {name!r} got no frame #{index} within {TIMEOUT} s\n"
                f"expected: {golden}",
                pytrace=False,
            )
        if message["type"] == "websocket.close":
            raw = f"<close {message.get('code')}: {message.get('reason')}>"
            del self.sockets[name]  # closed by the server
        else:
            assert message["type"] == "websocket.send" and "text" in message, (
                f"{self.game}: socket {name!r}, frame #{index}: not a text frame: {message!r}"
            )
            raw = message["text"]
        text = normalize(raw, self.invites, self.tokens)
        if self.expected is not None and text != golden:
            pytest.fail(
                f"{self.game}: socket {name!r}, frame #{index} differs from {GOLDEN.name}\n"
                f"expected: {golden}\nreceived: {text}",
                pytrace=False,
            )
        self.frames[name].append(text)
        if raw.startswith('{"type":"view"'):
            self.views[name] = json.loads(raw)

    def _golden(self, name: str, index: int) -> str | None:
        if self.expected is None:
            return None
        frames = self.expected.get(name, [])
        return frames[index] if index < len(frames) else None

    def nothing_more(self) -> None:
        """No open socket got a frame beyond those expected (after a short wait)."""
        time.sleep(0.1)  # an absence: time for a frame that must not come
        for name, socket in self.sockets.items():
            try:
                message = receive(socket, timeout=0.01)
            except TimeoutError:
                continue
            pytest.fail(f"{self.game}: socket {name!r}: unexpected {message!r}", pytrace=False)

    # -- play -------------------------------------------------------------------------------

    @property
    def table(self) -> dict[str, Any]:
        """The newest view of seat 0's socket (the table's keys are everyone's)."""
        return self.views["seat 0"]

    def mover(self) -> int:
        seat: int = self.table["view"]["to_move"]
        return seat

    def act(self) -> None:
        """The seat to move plays :func:`policy` on its own view: every socket gets a view."""
        name = f"seat {self.mover()}"
        message = self.views[name]
        action = policy(message["view"])
        self.send(name, {"type": "action", "version": message["version"], "action": action})
        self.expect(self.everyone())

    def play_hand(self, extras: dict[int, Callable[[], None]] | None = None) -> None:
        """Play until the hand in play now is over (the next one dealt, or the game over);
        ``extras[n]`` runs after the n-th action."""
        extras = extras or {}
        hand = self.table["view"]["hand_number"]
        for number in itertools.count(1):
            self.act()
            if number in extras:
                extras[number]()
            view = self.table["view"]
            if view["hand_number"] != hand or view["game_over"]:
                return

    def undo(self, answers: list[bool]) -> None:
        """The seat that made the last action asks to take it back; the others answer in seat
        order (``answers``): asked again after each yes but the last, done (and a view) after
        the last yes, or refused at the first no."""
        version = self.table["version"]
        asker = self.table["view"]["undoable_by"]
        assert asker is not None
        self.send(f"seat {asker}", {"type": "undo_ask", "version": version})
        self.expect(self.everyone())
        others = [seat for seat in range(self.players) if seat != asker]
        for number, (seat, allow) in enumerate(zip(others, answers, strict=False), 1):
            answer = {"type": "undo_answer", "version": version, "allow": allow}
            self.send(f"seat {seat}", answer)
            done = allow and number == len(others)
            self.expect(self.everyone(2 if done else 1))
            if not allow:
                return

    def chat(self, seat: int, text: str) -> None:
        self.send(f"seat {seat}", {"type": "chat", "text": text})
        self.expect(self.everyone())

    def react(self, seat: int, reaction: str) -> None:
        self.send(f"seat {seat}", {"type": "react", "reaction": reaction})
        self.expect(self.everyone())

    def reply(self, name: str, message: dict[str, Any] | str) -> None:
        """A message only its sender is answered (a pong, an error, a resync's view)."""
        self.send(name, message)
        self.expect({name: 1})


# -- the games ----------------------------------------------------------------------------


def classic_four(table: Table) -> None:
    """Four players, classic: seat 0 and a spectator watch the others sit down; a pong, a
    chat line with markup and non-ASCII text, every kind of refusal a client can cause, a
    resync; two undo requests allowed by all, a reaction; the hand played to its end (the
    next one dealt); the host closes the table and sends the spectator away; three sockets
    refused; the sockets closed one by one."""
    table.create(4)
    table.join(0)  # no socket open yet: nobody gets a frame
    table.open("seat 0", seat=0)
    table.open("watcher")
    for seat in (1, 2, 3):
        table.join(seat)  # the last one deals hand 1
    for seat in (1, 2, 3):
        table.open(f"seat {seat}", seat=seat)
    table.reply("seat 0", {"type": "ping"})
    table.chat(0, '  Grüß euch, <b>"alle"</b> & 🎴\n')
    version = table.table["version"]
    mover = table.mover()
    other = (mover + 1) % 4
    table.reply(f"seat {other}", {"type": "action", "version": version, "action": {"type": "pass"}})
    table.reply(
        f"seat {mover}", {"type": "action", "version": version - 1, "action": {"type": "pass"}}
    )
    table.reply("watcher", {"type": "action", "version": version, "action": {"type": "pass"}})
    table.reply("watcher", {"type": "chat", "text": "hello"})
    table.reply("seat 1", {"type": "hint", "version": version})
    table.reply("seat 1", {"type": "resync"})
    table.reply("seat 1", "not json")
    table.reply("seat 1", "x" * 5000)
    table.reply("seat 1", {"type": "shout"})
    table.reply("seat 1", {"type": "chat", "text": " \t "})
    table.reply("seat 1", {"type": "undo_answer", "version": version, "allow": True})
    table.reply("seat 2", {"type": "undo_ask", "version": version})
    table.reply("seat 2", {"type": "action", "version": version, "action": {"type": "fly"}})
    table.play_hand(
        {
            1: lambda: table.undo([True, True, True]),
            6: lambda: table.react(2, "wow"),
            9: lambda: table.undo([True, True, True]),
        }
    )
    assert table.table["view"]["hand_number"] == 2
    table.host("close", {"newcomers": True, "spectators": True})
    table.host("spectators")  # the watcher is sent away
    table.open("watcher 2", refused=True)  # closed to spectators
    table.open("stranger", refused=True, code="no-such-table")
    table.open("liar", token="not-a-seat-token", refused=True)
    table.nothing_more()
    for name in ("seat 3", "seat 2", "seat 1", "seat 0"):
        table.close(name)


def classic_five_over(table: Table) -> None:
    """Five players, classic, one hand: everyone seated before the sockets open; chat and a
    reaction; an undo refused after one yes; a spectator who comes late gets the recent chat;
    the game ends, a player opens the next one ("Play again"), and one more spectator gets
    the recent chat and the next game's code on arrival."""
    table.create(5, hands=1)
    for seat in range(5):
        table.join(seat)
    for seat in range(5):
        table.open(f"seat {seat}", seat=seat)

    def talk() -> None:
        table.chat(3, "Wer hat den Mü?")
        table.react(1, "laugh")

    def late() -> None:
        table.open("watcher", greetings=1)  # the recent chat
        table.chat(0, "x" * 200)

    table.play_hand({2: talk, 4: lambda: table.undo([True, False]), 12: late})
    assert table.table["view"]["game_over"]
    table.play_again(2)
    table.open("watcher 2", greetings=2)  # the recent chat, the next game's code
    table.nothing_more()
    for name in ("watcher", "seat 4", "seat 0", "watcher 2", "seat 3", "seat 1", "seat 2"):
        table.close(name)


def revised_four(table: Table) -> None:
    """Four players, the revised edition: an undo during the auction, a reaction, the hand
    played to its end (the next one dealt)."""
    table.create(4, variant="revised")
    for seat in range(4):
        table.join(seat)
    table.open("watcher")
    for seat in (2, 0, 3, 1):
        table.open(f"seat {seat}", seat=seat)
    table.play_hand({2: lambda: table.undo([True, True, True]), 5: lambda: table.react(0, "oops")})
    assert table.table["view"]["hand_number"] == 2
    table.nothing_more()
    for name in ("seat 0", "seat 1", "seat 2", "seat 3", "watcher"):
        table.close(name)


def revised_five(table: Table) -> None:
    """Five players, the revised edition: the hand played to its end, nothing else."""
    table.create(5, variant="revised")
    for seat in range(5):
        table.join(seat)
    for seat in range(5):
        table.open(f"seat {seat}", seat=seat)
    table.play_hand()
    assert table.table["view"]["hand_number"] == 2
    table.nothing_more()
    for seat in range(5):
        table.close(f"seat {seat}")


@dataclass(frozen=True)
class Game:
    play: Callable[[Table], None]
    seed: int  # the first hand's deal seed; the next hands' count up from it


GAMES = {
    "classic-4p": Game(classic_four, seed=4101),
    "classic-5p-one-hand": Game(classic_five_over, seed=5202),
    "revised-4p": Game(revised_four, seed=4303),
    "revised-5p": Game(revised_five, seed=5404),
}

# -- the test -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One migrated SQLite database file, copied for each game."""
    folder = tmp_path_factory.mktemp("frames")
    with databases.sqlite_database(folder):
        yield folder / "mu.db"


@pytest.fixture(scope="module")
def recorded() -> Iterator[dict[str, dict[str, list[str]]]]:
    """What this run recorded (recording mode): written to the golden file at the end."""
    games: dict[str, dict[str, list[str]]] = {}
    yield games
    if RECORDING and games:
        # The games not run (``-k``) keep what the file holds; the file follows GAMES' order.
        games = {**read_golden(), **games}
        write_golden({name: games[name] for name in GAMES if name in games})


@pytest.mark.parametrize("name", list(GAMES))
def test_frames_unchanged(
    name: str,
    migrated: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    recorded: dict[str, dict[str, list[str]]],
) -> None:
    game = GAMES[name]
    expected: dict[str, list[str]] | None = None
    if RECORDING:
        assert "PYTEST_XDIST_WORKER" not in os.environ, "record without -n (one file, one writer)"
    else:
        golden = read_golden()
        assert name in golden, f"{GOLDEN.name} has no game {name!r}: record it (MU_RECORD_FRAMES=1)"
        expected = golden[name]
    database = tmp_path / "mu.db"
    shutil.copyfile(migrated, database)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    for key, value in SETTINGS.items():
        monkeypatch.setenv(key, value)
    seeds = itertools.count(game.seed)
    with TestClient(create_app(seeds=lambda: next(seeds))) as client, ExitStack() as stack:
        table = Table(name, client, stack, expected)
        game.play(table)
    if expected is None:
        recorded[name] = table.frames
        return
    counts = {socket: len(frames) for socket, frames in table.frames.items()}
    assert counts == {socket: len(frames) for socket, frames in expected.items()}, name


if __name__ == "__main__":  # python -m tests.app.test_frames_unchanged GAME SOCKET
    import sys

    for text in read_golden()[sys.argv[1]][sys.argv[2]]:
        print(text)
