"""Talk at one table: chat lines, reactions, the next game's code ("Play again").

Chat lines are stored first (``app.tables.chat``), then pushed to every socket at the table in
this process and relayed to the other processes (as :class:`wire.Talk`); reactions are only
pushed. Each seat has a budget per kind (a short burst, then one every few seconds), kept in
this process: a seat's sockets are usually all on one process behind a sticky balancer.

A page that opens is greeted with the recent chat and the next game's code, both kept in memory
(from the database when the room opened, then from what is said here and heard from other
processes), so nothing is awaited between attaching a socket and greeting it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncEngine

from app.protocol import messages, wire
from app.protocol.inbound import ErrorCode, Reaction, Refusal
from app.protocol.messages import ChatLineOut, ServerMessage, TalkOut
from app.room.ratelimit import TokenBucket
from app.tables import chat

# Talk budgets per seat (lines, reactions): a short burst, then one every few seconds.
CHAT_BURST, CHAT_PER_SECOND = 5, 1 / 3
REACTION_BURST, REACTIONS_PER_SECOND = 3, 1 / 2
# Sends a message to every socket at the table in this process.
Push = Callable[[ServerMessage], None]
# Tells the other processes (the room's listeners: the fan-out).
Relay = Callable[[wire.Said], None]


class TableTalk:
    """The talk of one table in this process (a room's collaborator)."""

    def __init__(self, *, db: AsyncEngine, table_id: int, push: Push, relay: Relay) -> None:
        self._db = db
        self._table_id = table_id
        self._push = push
        self._relay = relay
        self._budgets: dict[tuple[str, int], TokenBucket] = {}
        self._recent: deque[ChatLineOut] = deque(maxlen=chat.RECENT_LINES)
        self._next_code: str | None = None

    async def say(self, seat: int, text: str) -> Refusal | None:
        """Store a chat line by ``seat``, then push it to everyone at the table.

        The text was checked by ``protocol.chat_text``; the budget is checked here.
        """
        if not self._budget("chat", seat, CHAT_BURST, CHAT_PER_SECOND).take():
            return Refusal(ErrorCode.CHAT_TOO_FAST, "you are talking too fast; wait a moment")
        row = await chat.add_line(db=self._db, table_id=self._table_id, seat=seat, text=text)
        self._publish(messages.chat_message([row]))
        return None

    def react(self, seat: int, reaction: Reaction) -> Refusal | None:
        """Show ``seat``'s reaction to everyone at the table (not stored)."""
        if not self._budget("react", seat, REACTION_BURST, REACTIONS_PER_SECOND).take():
            return Refusal(ErrorCode.CHAT_TOO_FAST, "too many reactions; wait a moment")
        self._publish(messages.reaction_message(seat, reaction))
        return None

    def announce_next(self, invite_code: str) -> None:
        """The next game is open ("Play again"): tell everyone here (and on other processes)."""
        self._publish(messages.next_table_message(invite_code))

    def remember(self, recent_chat: list[chat.ChatRow], next_code: str | None) -> None:
        """What was said before this process opened the table, and its next game if open."""
        self._recent.extend(messages.chat_line(row) for row in recent_chat)
        self._next_code = next_code

    def welcome(self) -> list[ServerMessage]:
        """For a socket just attached: the recent chat and where the next game is, if open."""
        greetings: list[ServerMessage] = []
        if self._recent:
            greetings.append(messages.recent_chat_message(list(self._recent)))
        if self._next_code is not None:
            greetings.append(messages.next_table_message(self._next_code))
        return greetings

    def hear(self, message: TalkOut) -> None:
        """Something said at the table (here, or through another process): remember what a
        page that opens is told, and push it to this process's sockets."""
        if message["type"] == "chat":
            self._recent.extend(message["lines"])
        elif message["type"] == "next_table":
            self._next_code = message["code"]
        self._push(message)

    def _publish(self, message: TalkOut) -> None:
        self.hear(message)
        self._relay(wire.Talk(message))

    def _budget(self, kind: str, seat: int, burst: int, rate: float) -> TokenBucket:
        budget = self._budgets.get((kind, seat))
        if budget is None:
            budget = self._budgets[kind, seat] = TokenBucket(rate=rate, burst=burst)
        return budget
