"""The rulebook's Example 9 (RULES.md C30, T6) rendered by the score sheet page.

The game is stacked with ``engine.record_result`` from the T6 results of tests/engine/test_game.py
and rendered through the history service and template, in English and in German (the paper
sheet's own language: "Saldo", "7er", "Rot").
"""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest

import engine
from app.history import sheet
from app.history.i18n import Text
from app.history.rendering import render as history_render
from app.history.service import TableHistory
from app.tables import live as live_mod
from app.tables.options import TableOptions
from tests.app.test_history import Cells
from tests.engine.test_game import A, C, D, played_result, stalemate_result

NAMES = ["Anna", "Berta", "Conny", "Dora", "Emil"]
_ = ""  # a blank cell, as on paper
# Per hand: the first line's cells, the bonus line's cells (None: no bonus line), the Saldo.
EXAMPLE_9 = {
    1: (["20", "20", _, "−40", _], None, ["20", "20", "0", "−40", "0"]),
    2: (["11", "3", "22", "15", "9"], [_, _, "60", "60", _], ["31", "23", "82", "35", "9"]),
    3: (["19", "13", "5", "3", "20"], [_, "15", "−30", "15", "15"], ["50", "51", "57", "53", "44"]),
}  # fmt: skip
BID_COLUMN = {
    "en": {1: "4 Eklat", 2: "5", 3: "4", "trump-2": "7s", "trump-3": "Red", "saldo": "Balance"},
    "de": {1: "4 Eklat", 2: "5", 3: "4", "trump-2": "7er", "trump-3": "Rot", "saldo": "Saldo"},
}


def example_9() -> TableHistory:
    live = live_mod.new_table(table_id=1, invite_code="example9", options=TableOptions(players=5))
    for seat, name in enumerate(NAMES):
        live = live_mod.seat(live, seat, live_mod.SeatInfo(name, f"hash{seat}"))
    game = engine.new_game(engine.GameOptions(players=5))
    game = engine.record_result(game, stalemate_result([4, 4, 1, 4, 0], provocateur=D))
    game = engine.record_result(game, played_result(5, C, D, "7", [11, 3, 22, 15, 9]))
    game = engine.record_result(game, played_result(4, C, A, "red", [19, 13, 5, 3, 20]))
    return TableHistory(replace(live, game=game), created_at=None, hands=(), running=None)


def render(history: TableHistory, lang: str) -> str:
    return history_render.page(
        "history/sheet.html",
        lang,
        path="/t/example9/sheet",
        code=history.invite_code,
        history=history,
        sheet=sheet.build(history, Text(lang)),
        viewer=None,
    )


@pytest.mark.parametrize("lang", ["en", "de"])
def test_example_9_shows_its_exact_numbers_in_the_right_cells(lang: str) -> None:
    cells = Cells(render(example_9(), lang))
    for hand, (first, bonus, saldo) in EXAMPLE_9.items():
        first_kind = "eklat" if hand == 1 else "points"
        assert [cells.value(f"{first_kind}-{hand}-{s}") for s in range(5)] == first
        if bonus is not None:
            assert [cells.value(f"bonus-{hand}-{s}") for s in range(5)] == bonus
            assert cells[f"bonus-{hand}-bid"] == BID_COLUMN[lang][f"trump-{hand}"]
        assert [cells.value(f"saldo-{hand}-{s}") for s in range(5)] == saldo
        assert cells[f"{first_kind}-{hand}-bid"] == BID_COLUMN[lang][hand]
        assert cells[f"saldo-{hand}-bid"] == BID_COLUMN[lang]["saldo"]
    assert cells.attrs["hand-1"]["data-kind"] == "stalemate"
    # Conny leads with 57; the game goes on (nobody is above 200).
    assert [("leader" in (cells.attrs[f"player-{s}"]["class"] or "")) for s in range(5)] == [
        False, False, True, False, False,
    ]  # fmt: skip
    assert "winners" not in cells.text


def test_example_9_marks_dealer_chief_partner_and_provocateur() -> None:
    html = render(example_9(), "en")
    cells = Cells(html)
    # Hand 1 dealt by Anna, Dora provoked the Eklat; hand 3: chief Conny with partner Anna.
    assert cells["eklat-1-0"].startswith("D") and "!" in cells["eklat-1-3"]
    assert cells["points-3-2"] == "D★ 5"  # Conny also dealt hand 3
    assert cells["points-3-0"].split()[0] == "☆"


def test_example_9_as_csv() -> None:
    rows = list(csv.DictReader(io.StringIO(sheet.to_csv(example_9()))))
    assert [row["kind"] for row in rows] == ["stalemate", "played", "played"]
    assert [int(rows[-1][f"{name} total"]) for name in NAMES] == [50, 51, 57, 53, 44]
    assert [int(rows[0][f"{name} score"]) for name in NAMES] == [20, 20, 0, -40, 0]
    assert rows[1]["chief_trump"] == "7" and rows[2]["chief_trump"] == "red"
