"""The card-location model (engine.bots.inference): shipped tables, public evidence only, and
worlds that lean the way the auction points."""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots import inference, make_bot
from engine.bots.sampling import WorldSampler
from engine.cards import COLOUR_OF, DECK_SIZE, NUMBER_OF

from .play import mid_hand_states, twin
from .test_no_peeking import hidden_cards


def test_every_edition_and_player_count_has_a_table() -> None:
    for variant in ("classic", "revised"):
        for players in (3, 4, 5, 6):
            table = inference.TABLES[(variant, players)]
            assert len(table) == inference.BUCKETS
            assert all(0 < v < 20 for v in table)
            assert sum(v != 1.0 for v in table) > 50  # fitted, not uniform


def test_a_table_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError, match="entries"):
        inference._table("classic 4 1.0 2.0")


@pytest.mark.parametrize("variant", ("classic", "revised"))
@pytest.mark.parametrize("players", (3, 4, 5, 6))
def test_the_weights_read_only_the_view(players: int, variant: str) -> None:
    """Two true states that agree with a seat's view give it the same affinities, whatever
    the other seats really hold (the review's and the expert bot's guarantee)."""
    rng = random.Random(players)
    compared = reshuffled = 0
    for i, state in enumerate(
        mid_hand_states(players, seed=70 + players, count=3, variant=variant)
    ):
        if i % 3:
            continue
        seat, view, other = twin(state, rng)
        reshuffled += hidden_cards(other, seat) != hidden_cards(state, seat)
        first = WorldSampler(view, weighted=True)
        second = WorldSampler(engine.view(other, seat), weighted=True)
        assert first.affinity is not None and first.affinity == second.affinity
        for s in range(players + 1):
            for c in range(DECK_SIZE):
                if s == seat or s == players or c not in first.unseen:
                    assert first.affinity[s][c] == 1.0
        compared += 1
    assert compared >= 8 and reshuffled >= compared // 2


def test_weighted_worlds_put_the_cards_where_they_are_more_often() -> None:
    """Classic, 4 players, after a heuristic auction, from the seat after the chief: the chief
    showed its best kind from the top, so it rarely holds a higher card of a colour it showed
    three or more cards of; the weighted worlds give it fewer of those than uniform ones do, and
    they put the hidden cards in the right hands more often."""
    rng = random.Random(3)
    right = {False: 0, True: 0}
    above = {False: 0, True: 0}
    looked = 0
    for seed in range(60):
        state = engine.deal(4, seed % 4, random.Random(seed))
        bot = make_bot("heuristic")
        while state.phase == "auction":
            seat = state.to_move
            assert seat is not None
            state = engine.apply(state, seat, bot.act(engine.view(state, seat), rng))
        chief = state.chief
        if chief is None:
            continue
        shown = [c for s, cards in state.auction_log if s == chief for c in cards]
        # Colours it showed three or more cards of: the highest it showed of each.
        colours = [COLOUR_OF[c] for c in shown]
        tops = {
            k: max(NUMBER_OF[c] for c in shown if COLOUR_OF[c] == k)
            for k in set(colours)
            if colours.count(k) >= 3
        }
        view = engine.view(state, (chief + 1) % 4)
        for weighted in (False, True):
            sampler = WorldSampler(view, weighted=weighted)
            for _ in range(40):
                hidden = sampler.sample_hidden(rng)
                above[weighted] += sum(
                    1 for c in hidden[chief] if NUMBER_OF[c] > tops.get(COLOUR_OF[c], 99)
                )
                right[weighted] += sum(
                    1 for s in sampler.others for c in hidden[s] if c in state.hands[s]
                )
        looked += 1
    assert looked >= 40 and above[False] > 100
    assert above[True] < 0.3 * above[False]  # measured: 161 uniform, 9 weighted
    assert right[True] > 1.02 * right[False]


@pytest.mark.slow
def test_the_expert_decides_alike_on_worlds_the_seat_cannot_tell_apart() -> None:
    """The expert's decisions over many seeds (its decision distribution) are the same for
    the true state and for a state with the other seats' hidden cards permuted consistently
    with its view."""
    rng = random.Random(11)
    compared = reshuffled = 0
    for players, variant in ((4, "classic"), (5, "classic"), (4, "revised")):
        states = list(mid_hand_states(players, seed=17 + players, count=2, variant=variant))
        for state in states[:: max(1, len(states) // 6)]:
            seat, view, other = twin(state, rng)
            reshuffled += hidden_cards(other, seat) != hidden_cards(state, seat)
            other_view = engine.view(other, seat)
            assert other_view == view
            bot = make_bot("expert", time_limit=None, max_worlds=3)
            first = [bot.act(view, random.Random(k)) for k in range(6)]
            second = [bot.act(other_view, random.Random(k)) for k in range(6)]
            assert first == second
            compared += 1
    assert compared >= 15 and reshuffled >= compared // 2
