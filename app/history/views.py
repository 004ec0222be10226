"""What a table's history pages and an imported file's pages share: the address and query
types, finding the history, and the score sheet, hand page and file responses, built from a
:class:`TableHistory` whichever way it came (a table's log or an imported file)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, NamedTuple

from fastapi import Depends, Path, Query, Request, Response
from fastapi.responses import HTMLResponse

import engine
from app.db import SessionFactory
from app.history import files, game_review, hands, review_page, reviews, same_deal, service, sheet
from app.history.i18n import Text
from app.history.rendering import render
from app.history.service import HandRecord, TableHistory
from app.tables import tokens

# "all", or a seat of the largest table the rules allow.
SEAT_PATTERN = f"^(all|[0-{max(engine.rules_catalog().player_counts) - 1}])$"
CodePath = Annotated[str, Path(max_length=128)]
HandPath = Annotated[int, Path(ge=1, le=100_000)]
# A replay's place: the step, whose eyes (a seat or "all"), and the frame alone (for the script).
StepQuery = Annotated[int, Query(ge=0, le=10_000)]
SeatQuery = Annotated[str | None, Query(max_length=8, pattern=SEAT_PATTERN)]
PartialQuery = Annotated[bool, Query()]


@dataclass(frozen=True, slots=True)
class ReplayPlace:
    """Where a hand page's replay stands: the step, whose eyes (a seat or "all"), and whether
    only the replay's frame is wanted (the page's script asks for it)."""

    step: StepQuery = 0
    seat: SeatQuery = None
    partial: PartialQuery = False


# The replay's query parameters, read into one value (a FastAPI dependency).
Replay = Annotated[ReplayPlace, Depends()]


@dataclass(frozen=True, slots=True)
class Source:
    """Where a history's pages live: a table (``/t/{code}``) or an imported file."""

    code: str
    base: str
    imported: bool

    @classmethod
    def table(cls, invite_code: str) -> Source:
        return cls(invite_code, f"/t/{invite_code}", imported=False)

    @classmethod
    def file(cls, code: str) -> Source:
        return cls(code, f"/import/{code}", imported=True)


def sessions(request: Request) -> SessionFactory:
    factory: SessionFactory = request.app.state.session_factory
    return factory


async def table_history(request: Request, invite_code: str) -> TableHistory | None:
    return await service.load(session_factory=sessions(request), invite_code=invite_code)


def viewer_seat(request: Request, history: TableHistory) -> int | None:
    token = request.cookies.get(tokens.seat_cookie_name(history.invite_code))
    return history.seat_of_token(token)


class Missing(NamedTuple):
    """Why something cannot be shown: the status, the error code and its message."""

    status: int
    code: str
    message: str


UNKNOWN_TABLE = Missing(404, "unknown_table", "no table has this invite code")
UNKNOWN_IMPORT = Missing(404, "unknown_import", "no such imported file")


def missing_hand(history: TableHistory, number: int) -> Missing:
    """Why hand ``number`` cannot be shown."""
    if history.running == number:
        return Missing(
            409, "hand_in_progress", "this hand is still being played; it is shown once over"
        )
    return Missing(404, "unknown_hand", "this table has no such hand")


def finished_hand(
    history: TableHistory | None, number: int, unknown: Missing
) -> tuple[TableHistory, HandRecord] | Missing:
    """The history (a table's or a file's) and its finished hand ``number``, or why not
    (``unknown`` when there is no history)."""
    if history is None:
        return unknown
    record = history.hand(number)
    return missing_hand(history, number) if record is None else (history, record)


def perspective(seat: str | None, viewer: int | None, players: int) -> int | None:
    """Whose hand the replay shows: the asked seat, else the viewer's own; None = all open."""
    if seat is None:
        return viewer
    if seat == "all" or int(seat) >= players:
        return None
    return int(seat)


async def read_review(
    request: Request,
    history: TableHistory,
    record: HandRecord,
    t: Text,
    viewer: int | None = None,
) -> review_page.ReviewPage:
    """The search bot's review of a finished hand as the page and the API show it."""
    db, table_id = request.app.state.db_engine, history.live.table_id
    stored = await reviews.read(db=db, table_id=table_id, hand_number=record.number)
    if stored is None or stored.status == reviews.PENDING:
        # Somebody waits for it: before the backlog (and enqueued if it never was).
        now = datetime.now(UTC)
        await reviews.wanted(db=db, table_id=table_id, hand_number=record.number, now=now)
    return review_page.build(stored, history, record, t, viewer)


def sheet_page(
    request: Request,
    lang: str,
    history: TableHistory,
    source: Source,
    *,
    viewer: int | None = None,
    hints: Mapping[int, Any] | None = None,
    talk: Sequence[Any] = (),
    reviewed: Mapping[int, dict[str, Any]] | None = None,
) -> HTMLResponse:
    """The score sheet, laid out like the paper one; ``reviewed``: the stored reviews of the
    table's hands (a table's sheet, not an imported file's), summed up per player."""
    t = Text(lang)
    review = (
        None if reviewed is None else game_review.build(history, reviewed, source.base, t, viewer)
    )
    return render(
        request, "history/sheet.html", lang, code=source.code, base=source.base,
        imported=source.imported, history=history, sheet=sheet.build(history, t),
        totals_chart=sheet.totals_chart(history, t), viewer=viewer, hints=hints or {}, talk=talk,
        review=review,
    )  # fmt: skip


def hand_page(
    request: Request,
    lang: str,
    history: TableHistory,
    record: HandRecord,
    source: Source,
    place: ReplayPlace,
    *,
    viewer: int | None = None,
    review: review_page.ReviewPage | None = None,
    again: Sequence[same_deal.Play] = (),
) -> HTMLResponse:
    """A finished hand in full, with its replay at ``place`` (or, if asked, its frame alone),
    and beside it the plays of its deal again (``again``, the original first)."""
    t = Text(lang)
    shown = perspective(place.seat, viewer, history.players)
    context: dict[str, Any] = {
        "code": source.code,
        "base": source.base,
        "imported": source.imported,
        "history": history,
        "frame": hands.frame(history, record, place.step, shown, t),
        "viewer": viewer,
        "seat_param": "all" if shown is None else str(shown),
        # Play on from a moment of this hand at a practice table (app/practice): tables only.
        "practice_url": None if source.imported else practice_url(source.code, record.number),
    }
    if place.partial:
        return render(request, "history/_replay.html", lang, **context)
    detail = hands.detail(history, record, t)
    steps = hands.auction_steps(detail, history.players)
    return render(
        request,
        "history/hand.html",
        lang,
        hand=detail,
        auction=steps,
        review=review,
        same_deal=again,
        **context,
    )


def practice_url(code: str, number: int) -> str:
    """Where a hand page's "Play on from here" and "Play this deal again" post (app/practice)."""
    return f"/api/tables/{code}/hands/{number}/practice"


def hand_file(history: TableHistory, record: HandRecord) -> Response:
    """A finished hand as a hand file (docs/notation.md)."""
    name = files.filename(history, f"hand-{record.number}")
    return _text_file(files.hand_file(history, record), name)


def game_file(history: TableHistory) -> Response:
    """The finished hands as a game file (docs/notation.md)."""
    return _text_file(files.game_file(history), files.filename(history, "game"))


def _text_file(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
