"""Pausing a table, holidays and the table's say on a friend who dropped out (issue 40): what
the log's pause markers add up to, as an immutable value of the live table.

Everything here is kept in the table's log as marker rows ``{"type": "pause", "event": ...}``
(like the host's markers: they count in the log, move no card, and the replay rebuilds them),
so a pause survives a restart and reaches the other processes with the log:

- ``ask`` (a seat asks to pause; it agrees itself), ``agree``, ``refuse`` (the request ends),
  ``paused`` (everyone present agreed: ``by`` lists them), ``resume``;
- ``holiday`` (a correspondence player is away ``until`` a Unix time; ``null`` ends it);
- ``vote`` (``about`` the seat of a person who dropped out, ``choice`` "bot" or "wait") and
  ``back`` (that person returned: the votes about them are over).

The decisions (who must agree, when a vote is decided) are the room's (``app/room/pause.py``)
and the bots' takeover clock's; this module only keeps the tally and the pauses' times, from
which :func:`running_time` makes a clock that stands still while the table is paused.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

PAUSE_MARK = "pause"
# An open request to pause lasts this long (seconds) unless decided or refused first.
ASK_SECONDS = 60.0
# A holiday lasts at most this long (days).
HOLIDAY_DAYS = 60
Choice = Literal["bot", "wait"]
CHOICES: tuple[Choice, ...] = ("bot", "wait")


def is_pause_mark(action: Mapping[str, Any]) -> bool:
    return action.get("type") == PAUSE_MARK


@dataclass(frozen=True, slots=True)
class PauseRequest:
    """A seat asked to pause at ``at`` (Unix time); ``agreed``: who said yes so far."""

    seat: int
    at: float
    agreed: frozenset[int]

    @property
    def deadline(self) -> float:
        return self.at + ASK_SECONDS

    def open(self, now: float) -> bool:
        return now < self.deadline


@dataclass(frozen=True, slots=True)
class PauseState:
    """The table's pause, holidays and drop-out votes, as the log's markers left them."""

    request: PauseRequest | None = None
    paused_at: float | None = None  # paused since (Unix time); None: the table runs
    paused_by: tuple[int, ...] = ()  # who agreed to the current pause, the asker first
    # The pauses that ended, (start, end) in Unix time: the takeover clock leaves them out.
    pauses: tuple[tuple[float, float], ...] = ()
    holidays: tuple[tuple[int, float], ...] = ()  # (seat, until) of correspondence players
    votes: tuple[tuple[int, int, Choice], ...] = ()  # (about, voter, choice)
    # The last marker, as every view tells it ({"event": "refuse", "seat": 2, ...}).
    last: Mapping[str, Any] | None = None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def holiday_until(self, seat: int, now: float) -> float | None:
        """Until when ``seat`` is on holiday, if it is at ``now``."""
        until = dict(self.holidays).get(seat)
        return until if until is not None and until > now else None

    def votes_about(self, seat: int) -> dict[int, Choice]:
        return {voter: choice for about, voter, choice in self.votes if about == seat}


def apply_mark(state: PauseState, seat: int, mark: Mapping[str, Any]) -> PauseState:
    """``state`` after ``seat``'s pause marker ``mark`` (an unknown event changes nothing but
    ``last``)."""
    event, at = mark.get("event"), float(mark.get("at") or 0.0)
    if event == "ask":
        state = replace(state, request=PauseRequest(seat, at, frozenset({seat})))
    elif event == "agree" and state.request is not None:
        request = state.request
        state = replace(state, request=replace(request, agreed=request.agreed | {seat}))
    elif event == "refuse":
        state = replace(state, request=None)
    elif event == "paused":
        by = tuple(int(s) for s in mark.get("by") or (seat,))
        state = replace(state, request=None, paused_at=at, paused_by=by)
    elif event == "resume" and state.paused_at is not None:
        pauses = (*state.pauses, (state.paused_at, at))
        state = replace(state, paused_at=None, paused_by=(), pauses=pauses)
    elif event == "holiday":
        until = mark.get("until")
        kept = tuple((s, u) for s, u in state.holidays if s != seat)
        state = replace(state, holidays=kept + (((seat, float(until)),) if until else ()))
    elif event == "vote" and mark.get("choice") in CHOICES:
        about = int(mark["about"])
        kept_votes = tuple(v for v in state.votes if (v[0], v[1]) != (about, seat))
        state = replace(state, votes=(*kept_votes, (about, seat, mark["choice"])))
    elif event == "back":
        about = int(mark["about"])
        state = replace(state, votes=tuple(v for v in state.votes if v[0] != about))
    return replace(state, last={**mark, "seat": seat})


def paused_within(state: PauseState, start: float, end: float) -> float:
    """How many seconds of ``start`` … ``end`` the table stood paused."""
    spans: Iterable[tuple[float, float]] = state.pauses
    if state.paused_at is not None:
        spans = (*state.pauses, (state.paused_at, max(end, state.paused_at)))
    return sum(max(0.0, min(b, end) - max(a, start)) for a, b in spans)


def running_time(state: PauseState, since: float, now: float) -> float:
    """Seconds from ``since`` to ``now`` the table was not paused: a clock (the bots' takeover
    countdown) that stops while the table is paused and goes on where it stood after."""
    return max(0.0, now - since - paused_within(state, since, now))


def decision(votes: Mapping[int, Choice], present: Iterable[int]) -> Choice | None:
    """What the people ``present`` decided about a friend who dropped out, by majority of
    them: "bot" once more than half voted for a bot now, "wait" once at least half voted to
    wait (a tie waits: the friend continues where they left); None while undecided."""
    voters = set(present)
    if not voters:
        return None
    counted = [choice for voter, choice in votes.items() if voter in voters]
    if 2 * counted.count("bot") > len(voters):
        return "bot"
    if 2 * counted.count("wait") >= len(voters):
        return "wait"
    return None
