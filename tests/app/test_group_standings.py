"""Standings (app/groups/standings.py) add up the engine's results: checked on a game played
through the engine (its summary, app/groups/summaries.py), with the running scores that the
score chart draws."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import engine
from app.groups import standings, summaries
from app.groups.service import GroupTable
from app.history.service import HandRecord, TableHistory
from app.tables import live as live_mod
from app.tables.options import TableOptions
from engine.bots import make_bot


def played_table(seed: int, hands: int = 6) -> tuple[TableHistory, GroupTable]:
    options = TableOptions(players=4, hands=hands)
    live = live_mod.new_table(table_id=1, invite_code="t", options=options)
    for seat, name in enumerate(["Anna", "Ben", "Cleo", "Dan"]):
        live = live_mod.seat(live, seat, live_mod.SeatInfo(name, f"h{seat}"))
    rng, bot = random.Random(seed), make_bot("heuristic")
    records = []
    while not live.game.over:
        live = live_mod.deal(live, rng.randrange(2**32))
        dealt = live.hand
        assert dealt is not None
        while live.hand is not None and not live.hand.is_over:
            seat = live.hand.to_move
            assert seat is not None
            live = live_mod.play(live, seat, bot.act(engine.view(live.hand, seat), rng))
        assert live.hand is not None
        records.append(HandRecord(len(records) + 1, dealt.dealer, dealt, (), live.hand))
    start = datetime(2026, 11, 25, 20, tzinfo=UTC)
    times = {r.number: start + timedelta(minutes=r.number) for r in records}
    history = TableHistory(live, start, tuple(records), None)
    return history, GroupTable(summaries.summarize(history, times), ("anna", "ben", "cleo", "dan"))


def test_standings_add_up_the_engine_results() -> None:
    history, table = played_table(3)
    board = standings.build([table], [], standings.Filter())
    game = history.game
    by_key = {p.key: p for p in board.players}
    assert board.hands == len(game.rows) and len(board.games) == 1
    for seat, key in enumerate(table.keys):
        line = by_key[key]
        assert line.score == game.totals[seat]
        assert line.score_history[-1] == (len(game.rows), game.totals[seat])
        assert line.games_won == (seat in game.winners)
        rows = game.rows
        assert line.chief == sum(1 for r in rows if r.kind == "played" and r.chief == seat)
        assert line.bids == sum(1 for r in history.hands if r.result.bids[seat])
    assert board.rated_hands == sum(1 for r in game.rows if r.kind == "played")
    assert standings.build([table], [], standings.Filter(variant="revised")).players == []
    assert standings.build([table], [], standings.Filter(players=4)).hands == board.hands
