"""Issue 38, point 2, on the server: a bot that leads after a completed trick (or opens the next
hand after one played to its last trick) waits ``TRICK_PAUSE_MS`` instead of ``BOT_DELAY_MS``.

No clock and no running table here: which moves wait the pause is a function of the table's
state (``TableBots._after_trick``), and the pause is a setting the runner takes; the browser
test (tests/browser/test_trick_and_hand_end.py) measures the hold on a real server.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

import engine
from app.bots.runner import BotRunner, TableBots
from app.config import Settings
from engine.bots import random_action
from tests.app.conftest import AppFactory, TestClient


def _room(hand: engine.HandState | None, last: engine.HandResult | None = None) -> Any:
    """The little of a room ``_after_trick`` reads: the live hand and the game's last result."""
    return SimpleNamespace(live=SimpleNamespace(hand=hand, game=SimpleNamespace(last_result=last)))


def _states(seed: int = 7) -> list[engine.HandState]:
    """One hand of three players, every state from the deal to the end (random legal moves)."""
    rng = random.Random(seed)
    state = engine.deal(3, 0, rng)
    states = [state]
    while not state.is_over:
        seat = state.to_move
        action = random_action(engine.view(state, seat), rng)
        state = engine.apply(state, seat, action)
        states.append(state)
    return states


def _played_hand() -> list[engine.HandState]:
    for seed in range(50):
        states = _states(seed)
        if states[-1].tricks:
            return states
    raise AssertionError("no seed gave a hand played to its end")


def test_a_bot_waits_the_pause_only_to_lead_after_a_completed_trick() -> None:
    states = _played_hand()
    after = [TableBots._after_trick(_room(s)) for s in states if not s.is_over]
    leads = [s for s in states if not s.is_over and s.phase == "play" and not s.trick and s.tricks]
    # Every lead but the first trick's, and nothing else: not the auction, not a follower.
    assert sum(after) == len(leads) == len(states[-1].tricks) - 1
    first_lead = next(s for s in states if s.phase == "play")
    assert not TableBots._after_trick(_room(first_lead))
    assert not TableBots._after_trick(_room(None))


def test_the_next_hand_opens_after_the_pause_when_the_last_one_ended_in_a_trick() -> None:
    fresh = engine.deal(3, 1, random.Random(3))
    played = engine.HandResult(kind=engine.Outcome.PLAYED, total=(0, 0, 0))
    passed = engine.HandResult(kind=engine.Outcome.ALL_PASSED, total=(0, 0, 0))
    assert TableBots._after_trick(_room(fresh, played))
    assert not TableBots._after_trick(_room(fresh, passed))  # no trick to look at
    assert not TableBots._after_trick(_room(fresh, None))  # the first hand
    # Once the auction has begun, bids follow at the usual pace.
    seat = fresh.to_move
    bid = engine.apply(fresh, seat, random_action(engine.view(fresh, seat), random.Random(1)))
    assert not TableBots._after_trick(_room(bid, played))


@pytest.mark.parametrize(
    ("delay_ms", "pause_ms", "pause_s"), [(700, 1200, 1.2), (30, 0, 0.03), (0, 60, 0.06)]
)
def test_the_pause_is_never_shorter_than_the_usual_delay(
    delay_ms: int, pause_ms: int, pause_s: float
) -> None:
    runner = BotRunner(store=None, delay_ms=delay_ms, pause_ms=pause_ms)  # type: ignore[arg-type]
    assert runner.pause == pytest.approx(pause_s)


def test_the_pause_is_one_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRICK_PAUSE_MS", raising=False)
    assert Settings().trick_pause_ms == 1200
    monkeypatch.setenv("TRICK_PAUSE_MS", "60")
    assert Settings().trick_pause_ms == 60


def test_the_pages_get_the_pause(make_app: AppFactory) -> None:
    with TestClient(make_app(trick_pause_ms=1500)) as client:
        code = client.post("/api/tables", json={"players": 3}).json()["invite_code"]
        for path in (f"/t/{code}", f"/t/{code}/display"):
            page = client.get(path)
            assert page.status_code == 200
            assert 'data-trick-pause-ms="1500"' in page.text, path
