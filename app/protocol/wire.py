"""What server processes tell each other over PostgreSQL's ``mu_table`` channel: typed notes,
one encoder and one decoder.

Every note is one NOTIFY payload (text, at most :data:`MAX_PAYLOAD_BYTES`):

==========================================  ====================================================
``<table id>:<version>``                    :class:`Commit`: this table was committed at
                                            ``version`` (the others read the log)
``a:<table id>:<version>:<action row>``     :class:`Played`: ``version`` was one action,
                                            carried as ``<seq>:<hand>:<seat>:<JSON>`` (the
                                            others replay it, ``carried.py``)
``p:<table id>:<process>:<seat bitmask>``   :class:`Presence`: the seats with a socket on
                                            ``process``
``t:<table id>:<process>:<JSON>``           :class:`Relay`: something said at the table on
                                            ``process``, for the other processes' sockets
``h:<process>``                             :class:`Heartbeat`: ``process`` is alive (it
                                            listens for its own, ``pulse.py``)
``h:<process>:hello``                       :class:`Heartbeat` with ``hello``: ``process``
                                            has just started listening and may have missed
                                            presence: the others announce theirs again
==========================================  ====================================================

A relay's JSON is one of (by its ``type``): a talk message as the browsers get it (``chat``,
``reaction``, ``next_table``: :class:`Talk`), the state of an undo request decided on
``process`` (``undo``: :class:`UndoStatus`), or a person's answer to it, for the process that
decides it (``undo_vote``: :class:`UndoVote`, never sent to a browser), or the bots' standing
from the process that drives the table's bots, for the others' views (``stand_ins``:
:class:`Standing`, never sent to a browser as such).

:func:`decode` never raises: text that is not a note of a known kind and shape (a newer
process's kind, a truncated or hand-written payload) is None, and the listener ignores it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

import orjson
from pydantic import Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from app.protocol import messages
from app.protocol.messages import ChatOut, NextTableOut, ReactionOut, TalkOut, UndoOut
from app.tables.rows import ActionRow

# PostgreSQL refuses a NOTIFY payload of 8000 bytes or more (and the whole batch with it).
MAX_PAYLOAD_BYTES = 7999
PRESENCE = "p"
PLAYED = "a"
RELAY = "t"
HEARTBEAT = "h"
HELLO = "hello"


@dataclass(frozen=True, slots=True)
class _TableNote:
    """What every note but the heartbeat starts with: the table it is about."""

    table_id: int


@dataclass(frozen=True, slots=True)
class Commit(_TableNote):
    """A process committed ``version`` of the table."""

    version: int


@dataclass(frozen=True, slots=True)
class Played(_TableNote):
    """A process committed ``version`` of the table, and that commit was the one action
    ``row`` (its log row: seq, hand, seat and the action's JSON form)."""

    version: int
    row: ActionRow


@dataclass(frozen=True, slots=True)
class Presence(_TableNote):
    """The seats of the table that have a socket on ``process`` (bit ``seat`` of ``mask``)."""

    process: str
    mask: int

    @classmethod
    def of(cls, table_id: int, process: str, connected: tuple[bool, ...]) -> Presence:
        mask = sum(1 << seat for seat, here in enumerate(connected) if here)
        return cls(table_id, process, mask)


@dataclass(frozen=True, slots=True)
class Talk:
    """A chat line (already stored), a reaction or the next game's code, as browsers get it."""

    message: TalkOut


@dataclass(frozen=True, slots=True)
class UndoStatus:
    """An undo request decided on the sending process: asked (again after each yes) or ended."""

    message: UndoOut


@dataclass(frozen=True, slots=True)
class UndoVote:
    """A person's answer to the undo request at ``version``, for the process deciding it."""

    seat: int
    version: int
    allow: bool


@dataclass(frozen=True, slots=True)
class Standing:
    """From the table's driver (``app/bots/drivers.py``): the seats a bot now plays for their
    away person, and when (Unix time) a bot takes over each other away person."""

    stand_ins: frozenset[int]
    takeovers: dict[int, float]


# What a room says for the other processes' rooms of its table.
Said = Talk | UndoStatus | UndoVote | Standing


@dataclass(frozen=True, slots=True)
class Relay(_TableNote):
    """``said`` at the table on ``process``."""

    process: str
    said: Said


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """``process`` sends this every resync round and expects to hear it back; ``hello`` the
    first time after its listener (re)connected."""

    process: str
    hello: bool = False


Note = Commit | Played | Presence | Relay | Heartbeat


class _UndoVoteJson(TypedDict):
    type: Literal["undo_vote"]
    seat: int
    version: int
    allow: bool


class _TakeoverJson(TypedDict):
    seat: int
    at: float


class _StandingJson(TypedDict):
    type: Literal["stand_ins"]
    stand_ins: list[int]
    takeovers: list[_TakeoverJson]


_Relayed = ChatOut | ReactionOut | NextTableOut | UndoOut | _UndoVoteJson | _StandingJson
_RELAYED: TypeAdapter[_Relayed] = TypeAdapter(Annotated[_Relayed, Field(discriminator="type")])


def encode(note: Note) -> str:
    """The NOTIFY payload of ``note``."""
    match note:
        case Commit(table_id, version):
            fields: tuple[object, ...] = (table_id, version)
        case Played(table_id, version, row):
            action = orjson.dumps(row.action).decode()
            fields = (PLAYED, table_id, version, row.seq, row.hand_number, row.seat, action)
        case Presence(table_id, process, mask):
            fields = (PRESENCE, table_id, process, mask)
        case Heartbeat(process, hello):
            fields = (HEARTBEAT, process, HELLO) if hello else (HEARTBEAT, process)
        case Relay(table_id, process, said):
            fields = (RELAY, table_id, process, _said_json(said))
    return ":".join(map(str, fields))


def _said_json(said: Said) -> str:
    if isinstance(said, UndoVote):
        vote: _UndoVoteJson = {
            "type": "undo_vote",
            "seat": said.seat,
            "version": said.version,
            "allow": said.allow,
        }
        return orjson.dumps(vote).decode()
    if isinstance(said, Standing):
        standing: _StandingJson = {
            "type": "stand_ins",
            "stand_ins": sorted(said.stand_ins),
            "takeovers": [{"seat": seat, "at": at} for seat, at in sorted(said.takeovers.items())],
        }
        return orjson.dumps(standing).decode()
    return messages.encode(said.message)


def fits(text: str) -> bool:
    """Whether PostgreSQL takes ``text`` as a NOTIFY payload."""
    return len(text) * 4 <= MAX_PAYLOAD_BYTES or len(text.encode()) <= MAX_PAYLOAD_BYTES


def decode(text: str) -> Note | None:
    """The note in a NOTIFY payload, or None when it is not one."""
    if text.startswith(PRESENCE + ":"):
        return _presence(text)
    if text.startswith(RELAY + ":"):
        return _relay(text)
    if text.startswith(PLAYED + ":"):
        return _played(text)
    if text.startswith(HEARTBEAT + ":"):
        process, _, hello = text[len(HEARTBEAT) + 1 :].partition(":")
        if not process or hello not in ("", HELLO):
            return None
        return Heartbeat(process, hello == HELLO)
    table_id, sep, version = text.partition(":")
    if not sep or not _number(table_id) or not _number(version):
        return None
    return Commit(int(table_id), int(version))


def _presence(text: str) -> Presence | None:
    parts = text.split(":")
    if len(parts) != 4 or not _number(parts[1]) or not _number(parts[3]):
        return None
    return Presence(int(parts[1]), parts[2], int(parts[3]))


def _played(text: str) -> Played | None:
    parts = text.split(":", 6)
    if len(parts) != 7 or not all(map(_number, parts[1:6])):
        return None
    try:
        action = orjson.loads(parts[6])
    except orjson.JSONDecodeError:
        return None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return None
    table_id, version, seq, hand, seat = map(int, parts[1:6])
    return Played(table_id, version, ActionRow(seq, hand, seat, action))


def _relay(text: str) -> Relay | None:
    parts = text.split(":", 3)
    if len(parts) != 4 or not _number(parts[1]):
        return None
    try:
        body = _RELAYED.validate_json(parts[3], strict=True)
    except (ValidationError, ValueError):
        return None
    said: Said
    if body["type"] == "undo_vote":
        said = UndoVote(body["seat"], body["version"], body["allow"])
    elif body["type"] == "stand_ins":
        takeovers = {item["seat"]: item["at"] for item in body["takeovers"]}
        said = Standing(frozenset(body["stand_ins"]), takeovers)
    elif body["type"] == "undo":
        said = UndoStatus(body)
    else:
        said = Talk(body)
    return Relay(int(parts[1]), parts[2], said)


def _number(text: str) -> bool:
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
    return text.isascii() and text.isdigit()
