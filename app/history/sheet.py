"""The score sheet in the paper sheet's layout (rules C30, rulebook Example 9), and as CSV.

Every number comes from ``engine.scoresheet``; this module only arranges the engine's rows:
a played hand is three lines (bid and card points; chief trump and bonus/penalty; Saldo), an
Eklat hand two (bid and Eklat scores; Saldo), an all-pass hand two (a note; Saldo).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from markupsafe import Markup

import engine
from app.history import words
from app.history.i18n import Text
from app.history.service import TableHistory
from app.web.charts import Series, line_chart


@dataclass(frozen=True, slots=True)
class Line:
    kind: str  # "points" | "bonus" | "eklat" | "allpass" | "redeal" | "saldo"
    label: str  # what the bid column shows on this line
    cells: list[int | None]  # None: left blank, as on paper


@dataclass(frozen=True, slots=True)
class Block:
    """One hand on the sheet."""

    hand: int
    kind: str  # "played" | "stalemate" | "all_passed" | "redeal"
    dealer: int
    chief: int | None
    partner: int | None
    provocateur: int | None
    success: bool | None
    lines: list[Line] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Sheet:
    names: list[str]
    blocks: list[Block]
    totals: list[int]
    leaders: list[int]
    over: bool
    winners: list[int]
    running: int | None  # the hand being played now (nothing of it is shown)
    next_dealer: int | None
    target_score: int | None
    hands: int | None
    roles: dict[str, str]  # what the chief and vice are called (classic or revised)


def build(history: TableHistory, t: Text) -> Sheet:
    data = engine.scoresheet(history.game)
    return Sheet(
        names=history.names,
        blocks=[_block(row, t) for row in data.rows],
        totals=list(data.totals),
        leaders=history.leaders,
        over=data.over,
        winners=list(data.winners),
        running=history.running,
        next_dealer=data.next_dealer,
        target_score=data.target_score,
        hands=data.hands,
        roles=words.roles(t, data.roles),
    )


def _blank_zero(values: tuple[int, ...]) -> list[int | None]:
    return [value or None for value in values]


def _block(row: engine.SheetRow, t: Text) -> Block:
    block = Block(
        hand=row.hand,
        kind=row.kind,
        dealer=row.dealer,
        chief=row.chief,
        partner=row.partner,
        provocateur=row.provocateur,
        success=row.success,
    )
    if row.kind == engine.Outcome.PLAYED:
        block.lines.append(Line("points", str(row.bid), list(row.card_points)))
        trump = words.trump(t, row.chief_trump)
        block.lines.append(Line("bonus", trump, _blank_zero(row.bonus)))
    elif row.kind == engine.Outcome.STALEMATE:
        block.lines.append(Line("eklat", str(row.bid), _blank_zero(row.score)))
    else:  # all passed (classic) or a redeal (revised: nobody showed): nothing scored
        kind = "redeal" if row.kind == engine.Outcome.REDEAL else "allpass"
        block.lines.append(Line(kind, "–", [None] * len(row.score)))
    block.lines.append(Line("saldo", t("Balance"), list(row.totals)))
    return block


# Spreadsheet programs run a cell that starts like a formula; names are free text.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _safe(text: str) -> str:
    return "'" + text if text.startswith(_FORMULA_START) else text


def to_csv(history: TableHistory) -> str:
    """One line per hand: its facts, then card points, bonus, score and total per player."""
    names = [_safe(name) for name in history.names]
    header = [
        "hand", "dealer", "kind", "bid", "chief_trump", "chief", "vice", "partner",
        "team_goal", "team_points", "success",
    ]  # fmt: skip
    for name in names:
        header += [f"{name} points", f"{name} bonus", f"{name} score", f"{name} total"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in history.game.rows:
        writer.writerow(_csv_row(row, names))
    return out.getvalue()


def _seat_name(names: list[str], seat: int | None) -> str:
    return "" if seat is None else names[seat]


def _csv_row(row: engine.SheetRow, names: list[str]) -> list[object]:
    def blank(value: object) -> object:
        return "" if value is None else str(value)

    line: list[object] = [
        row.hand,
        names[row.dealer],
        str(row.kind),
        blank(row.bid),
        blank(row.chief_trump),
        _seat_name(names, row.chief),
        _seat_name(names, row.vice),
        _seat_name(names, row.partner),
        blank(row.team_goal),
        blank(row.team_points),
        "" if row.success is None else str(row.success).lower(),
    ]
    for seat in range(len(names)):
        line += [row.card_points[seat], row.bonus[seat], row.score[seat], row.totals[seat]]
    return line


def totals_chart(history: TableHistory, t: Text) -> Markup:
    """Each player's running total after every hand (the sheet's Saldo line), as an inline SVG
    drawn by the server (``app.web.charts``): it needs no script and prints with the sheet."""
    rows = history.game.rows
    if not rows:
        return Markup("")
    series = [
        Series(name, [(0.0, 0.0), *((float(row.hand), float(row.totals[seat])) for row in rows)])
        for seat, name in enumerate(history.names)
    ]
    return line_chart(series, title=t("Running totals"), x_label=t("Hand"))
