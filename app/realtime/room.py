"""A table's room: its single writer, its connections and their presence.

Every change (a join, an action) runs under the room's lock through the same pipeline:
check the client's version -> compute the change with the engine -> commit it (version bump
guarded in the database, see ``app/tables/writer.py``) -> only then swap in the new state
and broadcast. A failed guard means another process wrote the table: the room reloads from
the database and the change is refused as stale, so two writers can never both apply an
action.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from sqlalchemy.ext.asyncio import AsyncEngine

import engine
from app import logging as log
from app import metrics
from app.jobs import enqueue
from app.realtime import consent, protocol
from app.realtime.connection import Connection
from app.realtime.consent import UndoRequest
from app.realtime.present import Snapshot
from app.realtime.protocol import ErrorCode, Reaction, ServerMessage
from app.realtime.ratelimit import TokenBucket
from app.tables import chat, repository, tokens
from app.tables import live as live_mod
from app.tables.live import LiveTable, SeatInfo
from app.tables.rows import ActionRow, HandRow, SeatRow
from app.tables.store import Store
from app.tables.writer import Change, StaleWrite

SeedSource = Callable[[], int]
# Told (the state before, the snapshot after) of each change this process committed; must not
# block (the push notifier only schedules its work).
CommitHook = Callable[[LiveTable, Snapshot], None]
# Talk budgets per seat (lines, reactions): a short burst, then one every few seconds.
CHAT_BURST, CHAT_PER_SECOND = 5, 1 / 3
REACTION_BURST, REACTIONS_PER_SECOND = 3, 1 / 2
# Reads what other processes committed since the given state; None when nothing is newer.
CatchUp = Callable[[LiveTable], Awaitable[LiveTable | None]]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a change was not made (sent to the client as an ``error`` message)."""

    code: str
    message: str


class SeatUnavailable(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Room:
    def __init__(
        self,
        live: LiveTable,
        *,
        store: Store,
        seeds: SeedSource,
    ) -> None:
        self.live = live
        self._store = store
        self._seeds = seeds
        self._lock = asyncio.Lock()
        self._connections: set[Connection] = set()
        self._presence = [0] * live.options.players
        # Seats connected to other server processes (told by the fan-out), and the hook that
        # tells them about this process's own sockets.
        self._remote: tuple[bool, ...] = (False,) * live.options.players
        self.presence_changed: Callable[[Room], None] | None = None
        # Seats whose away person a bot stands in for (the bot runner decides; views show it).
        self._stand_ins: frozenset[int] = frozenset()
        # Away people not yet stood in for: when (Unix time) a bot will play for them.
        self._takeovers: dict[int, float] = {}
        # Called after every broadcast (a commit, a reload, a presence change): wakes the
        # table's bot runner. It must not block: it only sets an event.
        self.on_change: Callable[[], None] | None = None
        self.on_commit: CommitHook | None = None
        # Per seat: how fast it may talk and react (in this process; a seat's sockets are
        # usually all on one process behind a sticky balancer).
        self._talk_budgets: dict[tuple[str, int], TokenBucket] = {}
        # Tells the other processes what was said here (the fan-out sets it).
        self.talk_published: Callable[[Room, ServerMessage], None] | None = None
        # Undo by consent: the request being decided (see consent.py) and its timer.
        self._undo: UndoRequest | None = None
        self._undo_timer: asyncio.TimerHandle | None = None
        # A request being decided on another process: (asking seat, version, deadline); this
        # process relays its people's answers there.
        self._remote_undo: tuple[int, int, float] | None = None
        self._votes: set[asyncio.Task[Refusal | None]] = set()
        # What a page that opens is told at once, kept current by what is said here and
        # heard from other processes: the recent chat, and the next game's code ("Play again").
        self._recent_chat: deque[protocol.ChatLineOut] = deque(maxlen=chat.RECENT_LINES)
        self._next_code: str | None = None

    @property
    def store(self) -> Store:
        return self._store

    # -- presence ---------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        connected = tuple(
            count > 0 or remote for count, remote in zip(self._presence, self._remote, strict=True)
        )
        stand_ins = self._stand_ins
        if stand_ins:
            # A person who is back plays for themselves at once. The bot runner clears their
            # mark when it next looks, which may be after this broadcast; no view may show a
            # connected seat as played by a bot meanwhile (nor may the runner move for it).
            stand_ins = frozenset(seat for seat in stand_ins if not connected[seat])
        takeovers = {seat: at for seat, at in self._takeovers.items() if not connected[seat]}
        return Snapshot(self.live, connected, stand_ins, takeovers)

    def local_presence(self) -> tuple[bool, ...]:
        """The seats connected to this process."""
        return tuple(count > 0 for count in self._presence)

    def set_remote_presence(self, connected: tuple[bool, ...]) -> None:
        """The seats connected to other processes (the fan-out keeps this current)."""
        if connected != self._remote:
            self._remote = connected
            self._broadcast()

    @property
    def idle(self) -> bool:
        return not self._connections

    @property
    def spectators(self) -> int:
        """Sockets without a seat connected to this process."""
        return sum(1 for connection in self._connections if connection.seat is None)

    def attach(self, connection: Connection) -> None:
        self._connections.add(connection)
        if connection.seat is not None:
            self._presence[connection.seat] += 1
            if self._presence[connection.seat] == 1:
                self._announce_presence()
                self._broadcast()
                return
        connection.push_view(self.snapshot())

    def detach(self, connection: Connection) -> None:
        self._connections.discard(connection)
        if connection.seat is not None:
            self._presence[connection.seat] -= 1
            if self._presence[connection.seat] == 0:
                self._announce_presence()
                self._broadcast()

    def _announce_presence(self) -> None:
        if self.presence_changed is not None:
            self.presence_changed(self)

    def _broadcast(self) -> None:
        snapshot = self.snapshot()
        for connection in self._connections:
            connection.push_view(snapshot)
        if self.on_change is not None:
            self.on_change()

    def set_stand_ins(self, seats: frozenset[int]) -> None:
        """Mark the seats a bot now plays for their away person; every view shows it."""
        if seats != self._stand_ins:
            self._stand_ins = seats
            self._broadcast()

    def set_takeovers(self, deadlines: dict[int, float]) -> None:
        """When (Unix time) a bot takes over each away person; every view shows it. A seat
        keeps the deadline it was first given (no new view for the same countdown)."""
        kept = {seat: self._takeovers.get(seat, at) for seat, at in deadlines.items()}
        if kept == self._takeovers:
            return
        shown = self.snapshot().takeovers
        self._takeovers = kept
        if self.snapshot().takeovers != shown:
            self._broadcast()

    async def seat_of(self, token: str) -> int | None:
        """The seat this token holds here, or None.

        A token this process has not seen may belong to a seat taken through another
        process: then (and only then, so bad tokens cost one indexed lookup, not a replay)
        the table is reloaded.
        """
        token_hash = tokens.hash_token(token)
        seat = self.live.seat_of(token_hash)
        if seat is not None or not await repository.has_seat_token(
            db=self._store.db, table_id=self.live.table_id, token_hash=token_hash
        ):
            return seat
        async with self._lock:
            await self._reload()
        return self.live.seat_of(token_hash)

    async def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is the table's host token (it may seat bots)."""
        if not token:
            return False
        stored = await repository.host_token_hash(
            db=self._store.db, invite_code=self.live.invite_code
        )
        return stored is not None and tokens.matches(token, stored)

    @property
    def store_db(self) -> AsyncEngine:
        """The database engine of this table's store (short reads such as the chat)."""
        return self._store.db

    # -- talk -----------------------------------------------------------------------------

    async def say(self, seat: int, text: str) -> Refusal | None:
        """Store a chat line by ``seat``, then push it to everyone at the table.

        The text was checked by ``protocol.chat_text``; the budget is checked here.
        """
        if not self._talk_budget("chat", seat, CHAT_BURST, CHAT_PER_SECOND).take():
            return Refusal(ErrorCode.CHAT_TOO_FAST, "you are talking too fast; wait a moment")
        row = await chat.add_line(
            db=self._store.db, table_id=self.live.table_id, seat=seat, text=text
        )
        self._talk(protocol.chat_message([row]))
        return None

    def react(self, seat: int, reaction: Reaction) -> Refusal | None:
        """Show ``seat``'s reaction to everyone at the table (not stored)."""
        if not self._talk_budget("react", seat, REACTION_BURST, REACTIONS_PER_SECOND).take():
            return Refusal(ErrorCode.CHAT_TOO_FAST, "too many reactions; wait a moment")
        self._talk(protocol.reaction_message(seat, reaction))
        return None

    def announce_next(self, invite_code: str) -> None:
        """The next game is open ("Play again"): tell everyone here (and on other processes)."""
        self._talk(protocol.next_table_message(invite_code))

    def remember(self, recent_chat: list[chat.ChatRow], next_code: str | None) -> None:
        """What was said before this process opened the table, and its next game if open."""
        self._recent_chat.extend(protocol.chat_line(row) for row in recent_chat)
        self._next_code = next_code

    def welcome(self) -> list[ServerMessage]:
        """For a socket just attached: the recent chat and where the next game is, if open.

        Kept in memory, so nothing is awaited between attaching and greeting: a line said
        meanwhile cannot fall between the two.
        """
        greetings: list[ServerMessage] = []
        if self._recent_chat:
            greetings.append(protocol.recent_chat_message(list(self._recent_chat)))
        if self._next_code is not None:
            greetings.append(protocol.next_table_message(self._next_code))
        return greetings

    def hear(self, message: ServerMessage) -> None:
        """Something said at the table through another process: tell this one's sockets.
        An answer to an undo request decided here is counted instead."""
        if message["type"] == "chat":
            self._recent_chat.extend(message["lines"])
        elif message["type"] == "next_table":
            self._next_code = message["code"]
        if message["type"] == "undo_vote":
            if self._undo is not None and self._undo.version == message["version"]:
                vote = self.answer_undo(message["seat"], message["version"], message["allow"])
                task = asyncio.create_task(vote)
                self._votes.add(task)
                task.add_done_callback(self._votes.discard)
            return
        if message["type"] == "undo" and self._undo is None:
            asked = message["state"] == "asked"
            where = (message["seat"], message["version"], message["deadline"])
            self._remote_undo = where if asked else None
        for connection in self._connections:
            connection.push(message)

    def _talk(self, message: ServerMessage) -> None:
        self.hear(message)
        if self.talk_published is not None:
            self.talk_published(self, message)

    def _talk_budget(self, kind: str, seat: int, burst: int, rate: float) -> TokenBucket:
        budget = self._talk_budgets.get((kind, seat))
        if budget is None:
            budget = self._talk_budgets[kind, seat] = TokenBucket(rate=rate, burst=burst)
        return budget

    # -- undo by consent --------------------------------------------------------------------

    @property
    def undo_pending(self) -> bool:
        """An undo request is being decided (bots wait meanwhile)."""
        return self._undo is not None

    async def ask_undo(self, seat: int, version: int) -> Refusal | None:
        """``seat`` asks to take back its last action, made at ``version`` - 1."""
        async with self._lock:
            live = self.live
            if version != live.version:
                return _stale(version, live.version)
            if live.undoable is None or live.undoable.seat != seat:
                return Refusal(
                    "nothing_to_undo", "only the last move can be taken back, by its player"
                )
            if self._undo is not None or self._remote_request() is not None:
                return Refusal(ErrorCode.UNDO_PENDING, "another undo request is being decided")
            snapshot = self.snapshot()
            people = [i for i, info in enumerate(live.seats) if info is not None and not info.bot]
            waiting = consent.who_must_agree(
                asking=seat,
                people=people,
                connected=snapshot.connected,
                stand_ins=snapshot.stand_ins,
            )
            request = UndoRequest(seat, version, time.time() + consent.UNDO_SECONDS, waiting)
            if not waiting:  # only bots to ask: they agree at once
                return await self._apply_undo(request)
            self._undo = request
            loop = asyncio.get_running_loop()
            self._undo_timer = loop.call_later(consent.UNDO_SECONDS, self._expire_undo, request)
            self._talk(_undo_out("asked", request))
            if self.on_change is not None:
                self.on_change()
            return None

    async def answer_undo(self, seat: int, version: int, allow: bool) -> Refusal | None:
        """``seat``'s answer to the undo request at ``version``."""
        async with self._lock:
            request = self._undo
            if request is None and self._remote_request() is not None:
                return self._relay_vote(seat, version, allow)
            if request is None or request.version != version or seat == request.seat:
                return Refusal(ErrorCode.NO_UNDO_REQUEST, "there is no undo request to answer")
            if not allow:
                self._end_undo("refused", by=seat)
                return None
            if request.allow(seat):
                return await self._apply_undo(request)
            self._talk(_undo_out("asked", request))
            return None

    def _remote_request(self) -> tuple[int, int, float] | None:
        """Another process's undo request, until its deadline (that process may be gone)."""
        if self._remote_undo is not None and time.time() > self._remote_undo[2] + 1:
            self._remote_undo = None
        return self._remote_undo

    def _relay_vote(self, seat: int, version: int, allow: bool) -> Refusal | None:
        # The request is another process's: send the answer there (through the fan-out).
        assert self._remote_undo is not None
        asking, asked_version, _deadline = self._remote_undo
        if version != asked_version or seat == asking or self.talk_published is None:
            return Refusal(ErrorCode.NO_UNDO_REQUEST, "there is no undo request to answer")
        self.talk_published(self, protocol.undo_vote_message(seat, version, allow))
        return None

    async def _apply_undo(self, request: UndoRequest) -> Refusal | None:
        # Under the lock. The marker goes through the one writer like any action.
        self._clear_undo()
        live = self.live
        if live.version != request.version or live.undoable is None:
            self._talk(_undo_out("cancelled", request))
            return _stale(request.version, live.version)
        after = live_mod.undo(live)
        marker = ActionRow(after.seq, live.hand_number, request.seat, {"type": live_mod.UNDO_MARK})
        if not await self._commit(after, Change(actions=[marker])):
            self._talk(_undo_out("cancelled", request))
            return _stale(request.version, self.live.version)
        self._talk(_undo_out("done", request))
        return None

    def _expire_undo(self, request: UndoRequest) -> None:
        if self._undo is request:
            self._end_undo("expired")

    def _end_undo(self, state: protocol.UndoState, by: int | None = None) -> None:
        request = self._undo
        if request is None:
            return
        self._clear_undo()
        self._talk(_undo_out(state, request, by))
        if self.on_change is not None:
            self.on_change()  # bots waited for the answer

    def _clear_undo(self) -> None:
        if self._undo_timer is not None:
            self._undo_timer.cancel()
        self._undo = None
        self._undo_timer = None

    # -- the single writer ----------------------------------------------------------------

    async def act(self, seat: int, version: int, action: engine.Action) -> Refusal | None:
        """Apply ``action`` by ``seat`` if the client saw the current ``version``."""
        async with self._lock:
            current = self.live
            if version != current.version:
                return _stale(version, current.version)
            try:
                after = live_mod.play(current, seat, action)
            except engine.IllegalAction as exc:
                return Refusal(exc.code, exc.message)
            # The log holds the action's JSON form: its type and fields, nothing a client added.
            logged = ActionRow(after.seq, current.hand_number, seat, engine.action_to_json(action))
            after, hands = self._deal_if_due(after)
            if not await self._commit(after, Change(hands=hands, actions=[logged])):
                return _stale(version, self.live.version)
            return None

    async def join(
        self,
        *,
        name: str,
        wanted: int | None,
        bot_level: str | None = None,
        kept_for_you: bool = False,
    ) -> tuple[int, str]:
        """Seat a person (or, with ``bot_level``, a bot); returns (seat, token). The last
        free seat starts the game. A bot's token is for whatever drives it in-process.
        A person may take a bot's seat (asked for, or when no seat is free): the bot leaves
        and the person plays from the next action on. Seats kept for the previous game's
        players ("Play again") are only taken with ``kept_for_you`` (the caller checked).

        Raises:
            SeatUnavailable: ``seat_taken``, ``table_full`` or ``no_such_seat``.
        """
        async with self._lock:
            # A stale cache only means another process seated someone: reload and retry once.
            for _attempt in range(2):
                now = None if kept_for_you else time.time()
                # A person may take over a bot's seat unless the host said no.
                take_bots = bot_level is None and self.live.options.newcomers_take_bots
                index = _pick_seat(self.live, wanted, take_bots=take_bots, now=now)
                replaced = [index] if self.live.seats[index] is not None else []
                token = tokens.new_seat_token()
                info = SeatInfo(
                    name=name,
                    token_hash=tokens.hash_token(token),
                    bot=bot_level is not None,
                    bot_level=bot_level,
                )
                after, hands = self._deal_if_due(live_mod.seat(self.live, index, info))
                row = SeatRow(index, info.name, info.token_hash, info.bot, info.bot_level)
                change = Change(seats=[row], hands=hands, replaced=replaced)
                if await self._commit(after, change):
                    return index, token
            raise SeatUnavailable("seat_taken", "the table changed while joining; try again")

    def _deal_if_due(self, live: LiveTable) -> tuple[LiveTable, list[HandRow]]:
        # The next hand is dealt in the same transaction as the change that made it due, so
        # the database never holds a finished hand without its successor.
        if not live.needs_deal:
            return live, []
        seed = self._seeds()
        dealt = live_mod.deal(live, seed)
        assert dealt.hand is not None  # just dealt
        return dealt, [HandRow(dealt.hand_number, dealt.hand.dealer, seed)]

    async def _commit(self, after: LiveTable, change: Change) -> bool:
        started = time.perf_counter()
        # The review of a hand this change ended, a correspondence turn's reminder: same commit.
        jobs = enqueue.due(self.live, after, version=self.live.version + 1)
        if jobs:
            change = replace(change, jobs=[*change.jobs, *jobs])
        try:
            version = await self._store.writer.commit(
                table_id=after.table_id, expected_version=self.live.version, change=change
            )
        except StaleWrite:
            await self._reload()
            return False
        finally:
            metrics.COMMIT.observe(metrics.since(started))
        before, self.live = self.live, replace(after, version=version)
        log.event("commit", table=after.table_id, version=version, seq=after.seq)
        # The table moved on: a pending undo request no longer applies.
        self._end_undo("cancelled")
        self._broadcast()
        if self.on_commit is not None:
            self.on_commit(before, self.snapshot())
        return True

    # -- changes made by other processes ---------------------------------------------------

    async def catch_up(self, read: CatchUp, wanted: int | None = None) -> LiveTable | None:
        """Take in what other processes committed (read under the lock, so it never races a
        local change) and send every socket its view; returns the new state, or None.

        With ``wanted``, nothing is read if the room already reached that version: a
        process often hears its own commit's notification while that commit is finishing.
        """
        async with self._lock:
            if wanted is not None and self.live.version >= wanted:
                return None
            fresh = await read(self.live)
            if fresh is None or fresh.version <= self.live.version:
                return None
            self.live = fresh
            self._end_undo("cancelled")
            self._remote_undo = None
            self._broadcast()
            return fresh

    async def going_away(self, code: int, reason: str) -> None:
        """Let the change in progress finish, then close every socket (graceful shutdown)."""
        async with self._lock:
            for connection in list(self._connections):
                await connection.close(code, reason)

    async def _reload(self) -> None:
        fresh = await self._store.load(self.live.invite_code)
        if fresh is not None:
            self.live = fresh
            self._broadcast()


def _undo_out(
    state: protocol.UndoState, request: UndoRequest, by: int | None = None
) -> protocol.UndoOut:
    return protocol.undo_message(
        state,
        seat=request.seat,
        version=request.version,
        deadline=request.deadline,
        waiting=sorted(request.waiting),
        by=by,
    )


def _stale(sent: int, current: int) -> Refusal:
    return Refusal(ErrorCode.STALE_VERSION, f"version {sent} is stale; the table is at {current}")


def _pick_seat(live: LiveTable, wanted: int | None, *, take_bots: bool, now: float | None) -> int:
    # A free seat first; a person may also take a bot's seat, a bot never takes another's.
    # With ``now``, seats still kept for the previous game's players are not free.
    free = live.free_seats(now=now) + (live.bot_seats() if take_bots else [])
    if wanted is None:
        if not free:
            raise SeatUnavailable("table_full", "every seat is taken")
        return free[0]
    if not 0 <= wanted < live.options.players:
        raise SeatUnavailable("no_such_seat", f"seats are 0..{live.options.players - 1}")
    if wanted not in free:
        raise SeatUnavailable("seat_taken", f"seat {wanted} is taken")
    return wanted
