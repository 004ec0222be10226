"""The one replay of stored rows (app/tables/replay.py), without a database: a table played in
memory is written down as rows, then rebuilt from them whole, in steps, and for the history."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest

import engine
from app.history import service
from app.tables import live as live_mod
from app.tables import replay
from app.tables.live import LiveTable, SeatInfo
from app.tables.models import Table
from app.tables.options import TableOptions
from app.tables.replay import Move, ReplayedHand, ReplayError
from app.tables.repository import TableRows
from app.tables.rows import ActionRow, HandRow, SeatRow
from engine import to_json_object
from tests.app.helpers import choose

OPTIONS = TableOptions(players=3, target_score=None, hands=2)


@dataclass
class Played:
    """A table played in memory, and the rows a room would have committed for it."""

    live: LiveTable
    seats: list[SeatRow]
    hands: list[HandRow]
    actions: list[ActionRow]


def play(actions: int) -> Played:
    live = live_mod.new_table(table_id=7, invite_code="replay", options=OPTIONS)
    seats = [SeatRow(seat, f"P{seat}", f"hash{seat}") for seat in range(OPTIONS.players)]
    for row in seats:
        live = live_mod.seat(live, row.seat, SeatInfo(row.name, row.token_hash))
    played = Played(live, seats, [], [])
    for _ in range(actions):
        if played.live.needs_deal:
            seed = 100 + played.live.game.hand_number
            played.live = live_mod.deal(played.live, seed)
            dealt = played.live.hand
            assert dealt is not None
            played.hands.append(HandRow(played.live.hand_number, dealt.dealer, seed))
        hand = played.live.hand
        assert hand is not None and hand.to_move is not None
        action = choose(to_json_object(engine.view(hand, hand.to_move)))
        row = ActionRow(played.live.seq + 1, played.live.hand_number, hand.to_move, action)
        played.actions.append(row)
        played.live = live_mod.play(played.live, row.seat, engine.action_from_json(row.action))
    return played


def same(one: LiveTable, other: LiveTable) -> bool:
    """Equal tables: everything but the engine's hand object, compared by its open view."""
    assert one.hand is not None and other.hand is not None
    open_views = engine.view(one.hand, None) == engine.view(other.hand, None)
    without = [replace(table, game=replace(table.game, hand=None)) for table in (one, other)]
    return open_views and without[0] == without[1]


def from_scratch(played: Played, **rows: Any) -> LiveTable:
    empty = live_mod.new_table(table_id=7, invite_code="replay", options=OPTIONS)
    given: dict[str, Any] = {
        "seats": played.seats,
        "hands": played.hands,
        "actions": played.actions,
        **rows,
    }
    return replay.advance(empty, version=len(played.actions), **given)


@pytest.fixture(scope="module")
def played() -> Played:
    table = play(60)  # into the second hand
    first_hand = sum(row.hand_number == 1 for row in table.actions)
    assert table.live.hand_number == 2 and 30 < first_hand < 57
    return table


def test_a_rebuild_is_the_table_that_was_played(played: Played) -> None:
    rebuilt = from_scratch(played)
    assert same(rebuilt, replace(played.live, version=len(played.actions)))


@pytest.mark.parametrize("after_first_hand", [-30, -1, 0, 3])
def test_catching_up_from_any_point_gives_the_same_table(
    played: Played, after_first_hand: int
) -> None:
    """From within hand 1, from its end (hand 2 not dealt yet), from within hand 2."""
    cut = sum(row.hand_number == 1 for row in played.actions) + after_first_hand
    last_hand = played.actions[cut - 1].hand_number
    older_hands = [hand for hand in played.hands if hand.number <= last_hand]
    known = from_scratch(played, actions=played.actions[:cut], hands=older_hands)
    newer_hands = [hand for hand in played.hands if hand.number > known.hand_number]
    caught_up = replay.advance(
        known,
        version=len(played.actions),
        seats=played.seats,
        hands=newer_hands,
        actions=played.actions[cut:],
    )
    assert same(caught_up, from_scratch(played))


def _observed(played: Played, actions: list[ActionRow]) -> list[ReplayedHand]:
    seen: list[ReplayedHand] = []
    replay.advance(
        live_mod.new_table(table_id=7, invite_code="replay", options=OPTIONS),
        version=1,
        seats=played.seats,
        hands=played.hands,
        actions=actions,
        on_hand=seen.append,
    )
    return seen


def test_the_observer_gets_each_hand_dealt_and_played(played: Played) -> None:
    seen = _observed(played, played.actions)
    assert [(hand.number, hand.over) for hand in seen] == [(1, True), (2, False)]
    first = seen[0]
    assert first.dealer == played.hands[0].dealer
    logged = [row for row in played.actions if row.hand_number == 1]
    assert first.moves == tuple(
        Move(row.seat, engine.action_from_json(row.action)) for row in logged
    )
    state = first.dealt
    for move in first.moves:
        state = engine.apply(state, move.seat, move.action)
    assert engine.view(state, None) == engine.view(first.final, None)


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda p: {"actions": p.actions[:3] + p.actions[4:]}, id="action-missing"),
        pytest.param(lambda p: {"hands": p.hands[1:]}, id="hand-missing"),
        pytest.param(lambda p: {"hands": p.hands[:1]}, id="actions-of-no-hand"),
        pytest.param(
            lambda p: {"hands": [p.hands[0]._replace(dealer=p.hands[0].dealer + 1)]},
            id="wrong-dealer",
        ),
        pytest.param(
            lambda p: {"actions": [p.actions[0]._replace(action={"type": "play", "card": 0})]},
            id="refused-by-the-rules",
        ),
    ],
)
def test_rows_that_do_not_replay_are_an_error(played: Played, spoil: Any) -> None:
    with pytest.raises(ReplayError):
        from_scratch(played, **spoil(played))


def test_a_vacated_seat_is_an_error(played: Played) -> None:
    with pytest.raises(ReplayError, match="vacated"):
        replay.advance(played.live, version=played.live.version + 1, seats=played.seats[1:])


def _table_model(played: Played, version: int) -> Table:
    return Table(id=7, invite_code="replay", options=OPTIONS.to_json(), version=version)


def _rows(played: Played, upto: int) -> TableRows:
    """The rows a table held after its first ``upto`` actions (its hands dealt by then)."""
    actions = played.actions[:upto]
    last_hand = actions[-1].hand_number if actions else 1
    hands = [row for row in played.hands if row.number <= last_hand]
    return TableRows(_table_model(played, upto), played.seats, hands, actions)


def _table(live: LiveTable) -> tuple[Any, ...]:
    """A table, its engine hand object compared by its open view."""
    open_hand = None if live.hand is None else engine.view(live.hand, None)
    return replace(live, game=replace(live.game, hand=None)), open_hand


def _comparable(history: service.TableHistory) -> tuple[Any, ...]:
    return (
        _table(history.live),
        [(h.number, h.dealer, h.moves, engine.view(h.final, None)) for h in history.hands],
        history.running,
    )


@pytest.mark.parametrize("cut", [0, 1, 20, "end of hand 1", "first of hand 2", 59])
def test_a_kept_history_continued_by_newer_rows_is_the_whole_replay(
    played: Played, cut: int | str
) -> None:
    """The group pages continue a kept replay by the rows committed since (from its base,
    the table before the hand in progress): always the same history as a whole replay."""
    first_hand = sum(row.hand_number == 1 for row in played.actions)
    upto = {"end of hand 1": first_hand, "first of hand 2": first_hand + 1}.get(cut, cut)
    assert isinstance(upto, int)
    kept = service.resumable_history(_rows(played, upto))
    base = kept.base
    assert base.hand is None or base.hand.is_over  # nothing of a hand in progress is kept
    seats, hands, actions = (
        played.seats,
        [row for row in played.hands if row.number > base.hand_number],
        [row for row in played.actions if row.seq > base.seq],
    )
    continued = service.continue_history(
        kept, version=len(played.actions), seats=seats, hands=hands, actions=actions
    )
    whole = service.resumable_history(_rows(played, len(played.actions)))
    assert _comparable(continued.history) == _comparable(whole.history)
    assert continued.history.running == 2 and len(continued.history.hands) == 1
    assert _table(continued.base) == _table(whole.base)


def _hand(hand: ReplayedHand) -> tuple[Any, ...]:
    views = (engine.view(hand.dealt, None), engine.view(hand.final, None))
    return hand.number, hand.dealer, hand.moves, views, hand.over


def _with_taken_back(played: Played, after: int) -> list[ActionRow]:
    """The log with an action taken back by consent after its ``after``-th row: the next
    action, an undo marker, then the same action again and the rest, renumbered."""
    rows = played.actions
    extra = [rows[after], rows[after]._replace(action={"type": "undo"})]
    log = rows[:after] + extra + rows[after:]
    return [row._replace(seq=index + 1) for index, row in enumerate(log)]


@pytest.mark.parametrize("taken_back", [None, 1, 7])
def test_one_hand_alone_is_the_hand_the_whole_replay_sees(
    played: Played, taken_back: int | None
) -> None:
    """A review reads one finished hand from its own rows (``replay.replay_hand``): the same
    deal, moves and end as the whole table's replay, undo markers included."""
    actions = played.actions
    if taken_back is not None:
        actions = _with_taken_back(played, taken_back)
        assert live_mod.is_undo(actions[taken_back + 1].action)
        assert actions[taken_back + 2].action == actions[taken_back].action
    whole = _observed(played, actions)
    for hand_row, seen in zip(played.hands, whole, strict=True):
        rows = [row for row in actions if row.hand_number == hand_row.number]
        alone = replay.replay_hand(OPTIONS, hand_row, rows)
        assert _hand(alone) == _hand(seen)
    assert whole[0].over and not whole[1].over


def test_one_hand_alone_refuses_rows_that_do_not_replay(played: Played) -> None:
    hand, rows = played.hands[0], [row for row in played.actions if row.hand_number == 1]
    with pytest.raises(ReplayError):
        replay.replay_hand(OPTIONS, hand, rows[1:])  # its first action missing
    with pytest.raises(ReplayError):
        replay.replay_hand(OPTIONS, hand._replace(seed=hand.seed + 1), rows)  # another deal
    with pytest.raises(ReplayError, match="nothing to take back"):
        replay.replay_hand(OPTIONS, hand, [rows[0]._replace(action={"type": "undo"}), *rows])
