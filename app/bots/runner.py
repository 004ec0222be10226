"""The per-process bot runner: bots move for their seats through the same path as people.

Each watched table has one asyncio task. The runner listens to every room (a
``RoomListener`` registered with the hub): a socket that opens on a table makes it watched, and
the room's changes (a commit, a reload, a presence change, an undo request) wake its task,
which then

1. notes who is away and which away people a bot stands in for (takeover, shown in views),
2. if the seat to move is a bot (or a stand-in), waits a short natural delay (longer when it
   is to lead after a completed trick, so everyone sees that trick: ``TRICK_PAUSE_MS``),
   checks that the table has not moved on meanwhile, and asks the bot with **that seat's**
   ``engine.view`` only (in a worker thread, so a search never blocks the event loop),
3. submits the answer with ``Room.act`` on the version it decided on; a stale answer only
   means a person acted (or took the seat) first, and the loop looks again.

Across processes, every process with a socket at the table follows its bots, but only the
one that holds the table's lease (``drivers.py``) drives them: it moves, runs the away clock
(kept in the database, ``app/tables/away.py``, so a new driver continues it) and tells the
other processes its stand-ins and takeover deadlines (``wire.Standing``). The others only show
them, and start driving when they gain the lease.

Decisions are seeded from the hand's secret deal seed with the table, hand and version, so a
table replays the same bot moves from its database, and the seed never leaves the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import engine
from app import logging as events
from app.bots.drivers import Always, Drivers, Hooks
from app.bots.takeover import TakeoverClock
from app.protocol.inbound import ErrorCode
from app.room import changes
from app.room.room import Room, RoomListener
from app.tables import repository
from app.tables.live import LiveTable
from app.tables.store import Store
from engine.bots import DEFAULT_LEVEL, LEVELS, Bot, make_bot, random_action
from engine.state import AUCTION, PLAY

log = logging.getLogger(__name__)

# Who plays for a person who is away: the engine's default level (quick, and sensible enough
# not to spoil their game).
STAND_IN_LEVEL = DEFAULT_LEVEL
# On shutdown a table's task may finish its step this long before it is cancelled.
STOP_SECONDS = 2.0
Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Turn:
    """A bot's move that is due: ``seat`` plays ``level`` on ``version`` of hand ``hand``,
    for the token (hash) holding the seat then (the bot's, or the away person's it stands in
    for): a person who took the seat meanwhile is never moved for."""

    seat: int
    level: str
    version: int
    hand: int
    token_hash: str


def decision_seed(*, deal_seed: int, table_id: int, hand: int, version: int) -> int:
    """The bot's RNG seed for one decision: fixed per (table, hand, version), unguessable
    without the hand's deal seed, which only the database holds."""
    text = f"{deal_seed}:{table_id}:{hand}:{version}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


class TableBots:
    """The bots of one table: follows its room and moves for bot seats and stand-ins."""

    def __init__(self, room: Room, runner: BotRunner, *, clock: Clock = time.time) -> None:
        self._room = room
        self._runner = runner
        self._delay = runner.delay
        self._pause = runner.pause
        self._wake = asyncio.Event()
        self._stopping = False  # the process is shutting down
        self._driving = False  # this process holds the table's lease (and read the clock)
        self._clock = TakeoverClock(runner.store, clock=clock)
        self._deal_seeds: dict[int, int] = {}
        self.follow(room)
        self.task = asyncio.create_task(self._run(), name=f"bots {room.live.invite_code}")

    @property
    def room(self) -> Room:
        return self._room

    def follow(self, room: Room) -> None:
        """Follow ``room`` (the hub may have replaced an evicted room by a fresh one)."""
        self._room = room
        self._wake.set()

    def wake(self) -> None:
        """The table changed (or this process gained its lease): look at it again."""
        self._wake.set()

    @property
    def driving(self) -> bool:
        return self._driving

    def announce(self) -> None:
        """Tell the other processes the stand-ins and takeover deadlines again (the drivers'
        rounds: a process that opened the table since, a note lost)."""
        if self._driving:
            self._clock.announce(self._room)

    def stop(self) -> None:
        """Finish the step under way (a database read is not cut off mid-way), then end."""
        self._stopping = True
        self._wake.set()

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            try:
                wait = await self._step()
            except Exception:  # a database hiccup must not end the table's bots for good
                log.exception("bot runner for table %s", self._room.live.invite_code)
                wait = max(self._delay, 1.0)
            if self._stopping or self._finished(wait):
                return
            if self._wake.is_set():
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    def _finished(self, wait: float | None) -> bool:
        """Nothing left to do until someone opens the table again (which watches it anew):
        the game is over, or nobody is connected and no bot is due. Ending here lets the hub
        drop the room and keeps one idle task per table from piling up."""
        room = self._room
        if room.live.status == "over":
            return True
        if not self._driving:  # another process drives: follow only while a socket is here
            return room.idle and not self._wake.is_set()
        return wait is None and room.idle and not self._wake.is_set() and self._due(room) is None

    async def _step(self) -> float | None:
        """One look at the table; returns how long to sleep at most (None: until woken)."""
        room = self._room
        if not self._runner.drivers.drives(room.live.table_id):
            self._driving = False
            return None  # the driver's notes set the stand-ins; woken when the lease comes
        if not self._driving:
            await self._clock.resume(room)  # where the previous driver (or run) left it
            self._driving = True
        deadline = await self._clock.update(room)
        turn = self._due(room)
        if turn is None:
            return deadline
        wait = self._pause if self._after_trick(room) else self._delay
        if wait:
            # Outside the room's lock and any transaction: the others may act meanwhile.
            await asyncio.sleep(wait)
            # Someone may have acted, taken the seat or come back meanwhile: look again.
            await self._clock.update(room)
            if self._due(room) != turn or not self._runner.drivers.drives(room.live.table_id):
                return 0
        await self._move(room, turn)
        return 0

    @staticmethod
    def _after_trick(room: Room) -> bool:
        """Whether the seat to move opens something right after a completed trick: the next
        trick, or the next hand's auction after a hand played to its last trick. The runner
        looks at the table as soon as it changes, so waiting the pause from now waits at least
        that long from the trick's completion."""
        live = room.live
        hand = live.hand
        if hand is None:
            return False
        if hand.phase_id == PLAY:
            return not hand.trick and bool(hand.tricks)
        last = live.game.last_result
        return (
            hand.phase_id == AUCTION
            and not hand.auction_log
            and last is not None
            and last.kind == engine.Outcome.PLAYED
        )

    # -- moving ---------------------------------------------------------------------------

    def _due(self, room: Room) -> Turn | None:
        snapshot = room.snapshot()
        live = snapshot.live
        if live.hand is None or live.status != "playing" or live.hand.to_move is None:
            return None
        if room.undo.pending:  # the table decides on taking a move back: nobody moves
            return None
        if live.pause.paused:  # paused by consent (app/room/pause.py): no bot moves either
            return None
        seat = live.hand.to_move
        info = live.seats[seat]
        if info is not None and info.bot:
            level = info.bot_level or STAND_IN_LEVEL
        elif seat in snapshot.stand_ins:
            level = STAND_IN_LEVEL
        else:
            return None
        assert info is not None  # a bot's seat, or an away person's
        return Turn(seat, level, live.version, live.hand_number, info.token_hash)

    async def _move(self, room: Room, turn: Turn) -> None:
        live = room.live
        assert live.hand is not None  # _due checked it, and nothing awaited since
        # The bot gets exactly what a person in that seat would: the engine's redacted view.
        view = engine.view(live.hand, turn.seat)
        rng = random.Random(await self._seed(live, turn))
        bot = self._runner.bot(turn.level)
        action = await asyncio.to_thread(bot.act, view, rng)
        if self._stopping:
            return  # shutting down: the move is not made
        # The person may have come back (or taken the seat) while the bot thought: a move
        # on the same version would still be accepted, so check before sending it.
        await self._clock.update(room)
        if self._due(room) != turn or not self._runner.drivers.drives(live.table_id):
            return
        events.event("bot_move", table=live.table_id, seat=turn.seat, version=turn.version)
        refusal = await changes.act(room, turn.seat, turn.version, action, turn.token_hash)
        if refusal is None or refusal.code == ErrorCode.STALE_VERSION:
            return
        # Bots only answer what the prompt offers; if one ever did not, the table must not
        # stall: log it and play a random action built from the prompt instead.
        log.error("%s bot refused (%s): %s", turn.level, refusal.code, action)
        await changes.act(room, turn.seat, turn.version, random_action(view, rng), turn.token_hash)

    async def _seed(self, live: LiveTable, turn: Turn) -> int:
        deal_seed = self._deal_seeds.get(turn.hand)
        if deal_seed is None:
            stored = await repository.hand_seed(
                db=self._runner.store.db, table_id=live.table_id, number=turn.hand
            )
            deal_seed = self._deal_seeds[turn.hand] = stored or 0
        return decision_seed(
            deal_seed=deal_seed, table_id=live.table_id, hand=turn.hand, version=turn.version
        )


class BotRunner(RoomListener):
    """All bot-driven tables of this process (``app.state.bots``); it listens to every room
    (registered with the hub by the app)."""

    def __init__(
        self, *, store: Store, delay_ms: int, pause_ms: int = 0, drivers: Drivers | None = None
    ) -> None:
        self.store = store  # the tables' database: deal seeds for decision seeds
        self.delay = max(0, delay_ms) / 1000  # seconds before each move
        # Seconds before leading after a completed trick (``TRICK_PAUSE_MS``); never shorter
        # than the usual delay.
        self.pause = max(self.delay, max(0, pause_ms) / 1000)
        # Which tables this process drives (several processes: leases; else every one).
        self.drivers = drivers or Always()
        self._tables: dict[str, TableBots] = {}
        self._bots: dict[str, Bot] = {}

    def watch(self, room: Room) -> None:
        """Make sure the table's bots follow ``room`` (call it whenever a room is used for
        play: a socket opens, a bot is seated). Cheap when already watched."""
        code = room.live.invite_code
        table = self._tables.get(code)
        if table is not None and not table.task.done():
            table.follow(room)
            return
        table = TableBots(room, self)
        self._tables[code] = table
        table.task.add_done_callback(lambda _task: self._forget(code, table))
        self.drivers.follow(room.live.table_id)

    async def start(self) -> None:
        """Begin taking the leases of the tables followed here (the app's lifespan)."""
        await self.drivers.start(Hooks(self._followed, self._gained, self.announce))

    def _followed(self) -> list[int]:
        return [table.room.live.table_id for table in self._tables.values()]

    def _gained(self, table_id: int) -> None:
        for table in self._tables.values():
            if table.room.live.table_id == table_id:
                table.wake()

    def announce(self) -> None:
        """Tell the other processes the standing of every table driven here again."""
        for table in self._tables.values():
            table.announce()

    def attached(self, room: Room) -> None:
        """A socket opened: bots (and stand-ins for away people) move on this room now."""
        self.watch(room)

    def changed(self, room: Room) -> None:
        table = self._tables.get(room.live.invite_code)
        if table is not None and table.room is room:
            table.wake()

    def _forget(self, code: str, table: TableBots) -> None:
        if self._tables.get(code) is table:
            del self._tables[code]

    @property
    def watching(self) -> frozenset[str]:
        """Invite codes of the tables whose bots this process is following now."""
        return frozenset(self._tables)

    def bot(self, level: str) -> Bot:
        """One bot per level: bots keep no state between decisions, so tables share them.
        A level this engine does not know (a seat stored by another version) plays as the
        stand-in level rather than stall the table."""
        if level not in LEVELS:
            level = STAND_IN_LEVEL
        if level not in self._bots:
            self._bots[level] = make_bot(level)
        return self._bots[level]

    async def close(self) -> None:
        """Stop every table's task (on shutdown): each finishes the step under way (a move
        decided meanwhile is not made), whatever is still running after a moment is cancelled."""
        tables = list(self._tables.values())
        self._tables.clear()
        for table in tables:
            table.stop()
        tasks = [table.task for table in tables]
        if tasks:
            _done, running = await asyncio.wait(tasks, timeout=STOP_SECONDS)
            for task in running:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        await self.drivers.close()


def bot_name(seat: int) -> str:
    """A bot's seat name: a pioneer of computing per seat, the same in every language."""
    return _BOT_NAMES[seat % len(_BOT_NAMES)]


_BOT_NAMES = ("Ada", "Alan", "Grace", "Konrad", "Claude", "Edsger")
