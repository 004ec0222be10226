"""A room's talk on its own (``app/room/talk.py``): what is pushed to this process's
sockets, what is relayed to the other processes, the per-seat budgets, and what a page that
opens is greeted with. No socket, no database: the stored line is faked."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.protocol import messages, wire
from app.protocol.inbound import ErrorCode
from app.protocol.messages import ServerMessage
from app.room.talk import CHAT_BURST, REACTION_BURST, TableTalk
from app.tables import chat
from app.tables.chat import ChatRow

AT = datetime(2026, 11, 25, 5, 44, 10, tzinfo=UTC)


class Table:
    """What the talk tells: this process's sockets (``pushed``) and other processes."""

    def __init__(self) -> None:
        self.pushed: list[ServerMessage] = []
        self.relayed: list[wire.Said] = []
        self.talk = TableTalk(
            db=cast(AsyncEngine, None),
            table_id=7,
            push=self.pushed.append,
            relay=self.relayed.append,
        )


@pytest.fixture
def stored(monkeypatch: pytest.MonkeyPatch) -> list[ChatRow]:
    """The chat lines "stored" (``chat.add_line`` faked)."""
    rows: list[ChatRow] = []

    async def add_line(*, db: Any, table_id: int, seat: int, text: str) -> ChatRow:
        assert table_id == 7
        rows.append(ChatRow(len(rows) + 1, seat, AT, text))
        return rows[-1]

    monkeypatch.setattr(chat, "add_line", add_line)
    return rows


async def test_a_line_is_stored_then_pushed_and_relayed(stored: list[ChatRow]) -> None:
    table = Table()
    assert await table.talk.say(1, "nice trump!") is None
    said = messages.chat_message(stored)
    assert stored == [ChatRow(1, 1, AT, "nice trump!")]
    assert table.pushed == [said]
    assert table.relayed == [wire.Talk(said)]
    # A page that opens now is told the line first.
    assert table.talk.welcome() == [messages.recent_chat_message(said["lines"])]


async def test_each_seat_has_its_own_chat_budget(stored: list[ChatRow]) -> None:
    table = Table()
    for n in range(CHAT_BURST):
        assert await table.talk.say(0, f"line {n}") is None
    refusal = await table.talk.say(0, "one too many")
    assert refusal is not None and refusal.code == ErrorCode.CHAT_TOO_FAST
    assert len(stored) == CHAT_BURST and len(table.pushed) == CHAT_BURST  # nothing said
    assert await table.talk.say(1, "my turn to talk") is None


def test_reactions_are_pushed_and_relayed_not_stored(stored: list[ChatRow]) -> None:
    table = Table()
    for _n in range(REACTION_BURST):
        assert table.talk.react(2, "wow") is None
    refusal = table.talk.react(2, "wow")
    assert refusal is not None and refusal.code == ErrorCode.CHAT_TOO_FAST
    reaction = messages.reaction_message(2, "wow")
    assert table.pushed == [reaction] * REACTION_BURST
    assert table.relayed == [wire.Talk(reaction)] * REACTION_BURST
    assert stored == [] and table.talk.welcome() == []
    # The chat has a budget of its own.
    assert table.talk.react(1, "laugh") is None


def test_what_another_process_says_is_pushed_and_remembered_not_relayed_back() -> None:
    table = Table()
    line = messages.chat_line(ChatRow(9, 2, AT, "hello from there"))
    heard: messages.ChatOut = {"type": "chat", "lines": [line], "recent": False}
    table.talk.hear(heard)
    table.talk.hear(messages.reaction_message(0, "oops"))
    table.talk.hear(messages.next_table_message("next"))
    assert table.pushed == [
        heard,
        messages.reaction_message(0, "oops"),
        messages.next_table_message("next"),
    ]
    assert table.relayed == []
    assert table.talk.welcome() == [
        messages.recent_chat_message([line]),
        messages.next_table_message("next"),
    ]


def test_a_page_is_greeted_with_what_was_said_before_the_room_opened() -> None:
    table = Table()
    assert table.talk.welcome() == []
    rows = [ChatRow(n, n % 3, AT, f"line {n}") for n in range(1, chat.RECENT_LINES + 5)]
    table.talk.remember(rows, "following")
    recent, following = table.talk.welcome()
    # Only the last RECENT_LINES lines, oldest first.
    assert recent == messages.recent_chat_message(
        [messages.chat_line(row) for row in rows[-chat.RECENT_LINES :]]
    )
    assert following == messages.next_table_message("following")
    assert table.pushed == [] and table.relayed == []


def test_the_next_game_is_announced_here_and_elsewhere() -> None:
    table = Table()
    table.talk.announce_next("again")
    assert table.pushed == [messages.next_table_message("again")]
    assert table.relayed == [wire.Talk(messages.next_table_message("again"))]
    assert table.talk.welcome() == [messages.next_table_message("again")]
