"""engine.review: every decision judged from the seat's information set only."""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots import make_bot
from engine.bots.sampling import WorldSampler
from engine.review import (
    Alternative,
    DecisionReview,
    HandReview,
    Move,
    action_ints,
    costliest,
    review_decision,
    review_hand,
    review_moves,
    same_choice,
    side_outcome,
    suggest,
    taken_alternative,
)
from engine.review_summary import losses, summarize
from engine.state import HandState
from engine.variants import RevisedRules


def play_out(
    dealt: HandState, seed: int, moves: list[Move] | None = None
) -> tuple[HandState, list[Move]]:
    """``dealt`` after ``moves``, then played to its end by heuristic bots."""
    bot = make_bot("heuristic")
    rng = random.Random(seed)
    state, log = dealt, list(moves or [])
    for seat, action in log:
        state = engine.apply(state, seat, action)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = bot.act(engine.view(state, seat), rng)
        log.append((seat, action))
        state = engine.apply(state, seat, action)
    return state, log


def played(players: int, variant: str, seed: int) -> tuple[HandState, list[Move]]:
    """A hand that is played out (not all passed), dealt and played from ``seed``."""
    for attempt in range(50):
        dealt = engine.deal(players, 0, random.Random(seed + 1000 * attempt), variant)
        final, moves = play_out(dealt, seed)
        if final.tricks:
            return dealt, moves
    raise AssertionError("no hand was played out")


def decisions_of(review: HandReview, seat: int, upto: int) -> list[object]:
    return [d for d in review.decisions if d.seat == seat and d.move <= upto]


# ---- (c) classic and revised, 3-6 players ------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "revised"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_decision_of_a_seat_is_reviewed(players: int, variant: str) -> None:
    dealt, moves = played(players, variant, seed=players)
    seat = moves[-1][0]
    review = review_hand(dealt, moves, seed=3, seats=(seat,))
    assert review.players == players and review.variant == variant
    assert [d.move for d in review.decisions] == [i for i, (s, _) in enumerate(moves) if s == seat]
    phases = {d.phase for d in review.decisions}
    assert engine.Phase.AUCTION in phases and engine.Phase.PLAY in phases
    for d in review.decisions:
        taken = moves[d.move][1]
        assert d.taken == taken and d.worlds > 0
        assert d.loss == pytest.approx(max(0.0, d.value_best - d.value_taken), abs=0.011)
        assert d.best == d.alternatives[0].action and d.value_best == d.alternatives[0].value
        values = [a.value for a in d.alternatives]
        assert values == sorted(values, reverse=True)
        assert any(same_choice(a.action, taken) for a in d.alternatives)
        assert (d.trick is not None) == (d.phase == engine.Phase.PLAY)


@pytest.mark.slow
def test_a_review_is_deterministic_for_its_seed() -> None:
    dealt, moves = played(4, "classic", seed=11)
    one = review_hand(dealt, moves[:12], seed=5)
    assert one == review_hand(dealt, moves[:12], seed=5)
    assert engine.to_json(one) == engine.to_json(review_hand(dealt, moves[:12], seed=5))


@pytest.mark.slow
def test_a_hand_reviewed_in_parts_is_the_whole_hand_reviewed() -> None:
    """A pool task reviews some of a hand's decisions from the hand's record: any split into
    parts gives exactly the decisions of the whole review (each one seeded by its move)."""
    dealt, moves = played(5, "classic", seed=4)
    moves = moves[:14]
    whole = review_hand(dealt, moves, seed=7).decisions
    parts = [list(range(first, len(moves), 3)) for first in range(3)]
    pieces = [d for part in parts for d in review_moves(dealt, moves, part, seed=7)]
    assert sorted(pieces, key=lambda d: d.move) == list(whole)
    assert [d.move for d in review_moves(dealt, moves, [9, 2], seed=7)] == [2, 9]  # move order
    assert review_moves(dealt, moves, [], seed=7) == []


def test_progress_is_reported_per_decision() -> None:
    dealt, moves = played(3, "classic", seed=2)
    seen: list[tuple[int, int]] = []
    review_hand(dealt, moves[:6], seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 6) for i in range(1, 7)]


def test_a_bid_is_named_as_a_typed_action() -> None:
    dealt, moves = played(5, "classic", seed=4)
    seat, taken = moves[0]
    d = review_decision(engine.view(dealt, seat), taken, random.Random(1))
    assert d.phase == engine.Phase.AUCTION
    kinds = {type(a.action) for a in d.alternatives}
    assert engine.Pass in kinds and engine.Bid in kinds
    assert action_ints(engine.Bid((3, 4))) == [3, 4, 60] and action_ints(engine.Pass()) == [60]


def test_only_the_seat_to_move_is_reviewed() -> None:
    dealt, _ = played(4, "classic", seed=1)
    with pytest.raises(ValueError):
        review_decision(engine.view(dealt, (dealt.dealer + 1) % 4), engine.Pass(), random.Random())


# ---- the reasons: goal, card points and tricks from the same rollouts ----------------------


def deal_points(dealt: HandState) -> int:
    """Every card point of the hand (the kitty's too)."""
    cards = [c for hand in dealt.hands for c in hand] + list(dealt.kitty or ())
    return sum(engine.CARDS[c].points for c in cards)


def check_reasons(d: DecisionReview, dealt: HandState) -> None:
    tricks = max(len(hand) for hand in dealt.hands)
    for a in d.alternatives:
        if a.goal is not None:
            assert 0.0 <= a.goal <= 1.0
            made = a.goal * d.worlds  # a share of the worlds: a whole number of them
            assert made == pytest.approx(round(made), abs=d.worlds * 0.0005 + 1e-9)  # 3 decimals
        assert 0.0 <= a.points <= deal_points(dealt)
        assert 0.0 <= a.tricks <= tricks


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variant"), [(4, "classic"), (5, "classic"), (4, "revised")])
def test_every_alternative_has_its_reasons(players: int, variant: str) -> None:
    dealt, moves = played(players, variant, seed=20 + players)
    seat = moves[-1][0]
    review = review_hand(dealt, moves, seed=4, seats=(seat,))
    state = dealt
    for index, (mover, action) in enumerate(moves):
        if mover == seat:
            d = next(d for d in review.decisions if d.move == index)
            check_reasons(d, dealt)
            taken = taken_alternative(d)
            assert taken is not None and taken.value == d.value_taken
            if state.phase == engine.Phase.PLAY and not isinstance(state.rules, RevisedRules):
                # The teams are set (C19): either side has a goal in every world.
                assert all(a.goal is not None for a in d.alternatives)
        state = engine.apply(state, mover, action)


def test_the_last_card_has_certain_reasons() -> None:
    """The last card of a hand is forced and every other card is on the table: every world is
    the real hand, and the reasons are its result for the seat's side."""
    dealt, moves = played(4, "classic", seed=3)
    state = dealt
    for seat, action in moves[:-1]:
        state = engine.apply(state, seat, action)
    seat, last = moves[-1]
    d = review_decision(engine.view(state, seat), last, random.Random(5))
    final = engine.apply(state, seat, last)
    result = engine.result(final)
    assert result is not None
    team = seat in result.team
    side = result.team if team else result.opponents
    assert d.alternatives == (
        Alternative(
            last,
            float(result.total[seat]),
            1.0 if result.success == team else 0.0,
            float(sum(final.points_won[s] for s in side)),
            float(sum(final.tricks_won[s] for s in side)),
        ),
    )
    assert d.loss == 0.0 and d.worlds > 0


def test_the_last_pass_of_an_all_passed_hand_has_no_goal() -> None:
    """Everyone passed: no goal, no card point, no trick, nothing scored."""
    dealt = engine.deal(4, 1, random.Random(8))
    state = dealt
    for i in range(3):
        state = engine.apply(state, (1 + i) % 4, engine.Pass())
    d = review_decision(engine.view(state, 0), engine.Pass(), random.Random(2))
    taken = taken_alternative(d)
    assert taken == Alternative(engine.Pass(), 0.0, None, 0.0, 0.0)
    check_reasons(d, dealt)
    bids = [a for a in d.alternatives if isinstance(a.action, engine.Bid)]
    assert bids and all(a.goal is not None for a in bids)  # a bid makes a chief


def test_a_side_outcome_follows_the_result() -> None:
    for seed in range(3):
        dealt, moves = played(4, "classic", seed=seed)
        final, _ = play_out(dealt, seed, moves)  # the log replayed: the hand's end
        result = engine.result(final)
        assert result is not None and result.success is not None
        for seat in range(4):
            out = side_outcome(final, seat)
            team = seat in result.team
            assert out.score == result.total[seat]
            assert out.goal == (result.success if team else not result.success)
            if team:
                assert out.points == result.team_points
        chief = side_outcome(final, result.team[0])
        other = side_outcome(final, result.opponents[0])
        assert chief.points + other.points == deal_points(dealt)
        assert chief.tricks + other.tricks == len(final.tricks)


def test_without_a_shield_the_others_have_no_goal() -> None:
    """Revised, one player showed cards (R6): no Shield team, so its opponents have no goal."""
    state = engine.deal(4, 0, random.Random(3), "revised")
    crown = state.to_move
    assert crown is not None
    state = engine.apply(state, crown, engine.Bid((state.hands[crown][0],)))
    while state.phase == engine.Phase.AUCTION:
        state = engine.apply(state, state.to_move, engine.Pass())
    final, _ = play_out(state, 1)
    result = engine.result(final)
    assert result is not None and final.vice is None
    assert side_outcome(final, crown).goal == result.success
    assert all(side_outcome(final, s).goal is None for s in result.opponents)


# ---- (a) information set only --------------------------------------------------------------


def permuted_deal(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A deal that differs from ``state``'s in the other seats' hidden cards but looks the
    same to ``seat`` so far (hand sizes, shown cards, shown voids, the kitty it knows)."""
    for _ in range(20):
        world = WorldSampler(engine.view(state, seat)).sample(rng)
        if world.deal != state.deal:
            return engine.deal_from(world.deal, state.dealer, state.rules.name, world.kitty or None)
    raise AssertionError("every consistent world is the true one")


def test_an_all_passed_hand_reviews_the_same_whatever_the_others_held() -> None:
    """Nobody showed a card: every deal that keeps a seat's own hand is consistent with what
    it saw, and the whole log replays on it."""
    dealt = engine.deal(4, 1, random.Random(8))
    moves: list[Move] = [((1 + i) % 4, engine.Pass()) for i in range(4)]
    seat = 2
    others = [c for s in range(4) if s != seat for c in dealt.hands[s]]
    random.Random(4).shuffle(others)
    hands = [list(dealt.hands[seat]) if s == seat else [] for s in range(4)]
    for s in range(4):
        if s != seat:
            hands[s], others = others[: len(dealt.hands[s])], others[len(dealt.hands[s]) :]
    other = engine.deal_from(hands, 1)
    assert other.deal != dealt.deal
    truth = review_hand(dealt, moves, seed=2, seats=(seat,))
    assert review_hand(other, moves, seed=2, seats=(seat,)) == truth
    assert summarize(4, {1: losses(1, truth)}) == summarize(
        4, {1: losses(1, review_hand(other, moves, seed=2, seats=(seat,)))}
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "variant", "fraction"),
    [(4, "classic", 0.5), (5, "classic", 0.3), (3, "revised", 0.5), (6, "revised", 0.4)],
)
def test_the_review_does_not_change_when_hidden_cards_are_permuted(
    players: int, variant: str, fraction: float
) -> None:
    """Cut the log after one of the seat's decisions (a hand played out reveals every card by
    its end, so only the log up to a moment can replay on other hidden cards): a deal drawn
    from the seat's view there replays that log, and the seat's review up to it is identical."""
    dealt, moves = played(players, variant, seed=7 + players)
    seat = moves[int(len(moves) * fraction)][0]
    # The seat's last decision before the cut: everything it saw up to there stays the same.
    cut = max(i for i, (s, _) in enumerate(moves[: int(len(moves) * fraction) + 1]) if s == seat)
    state = dealt
    for s, a in moves[:cut]:
        state = engine.apply(state, s, a)
    other = permuted_deal(state, seat, random.Random(3))
    assert other.deal != dealt.deal
    # The same log replays on the permuted deal, and the seat saw the same at every step.
    twin = other
    for s, a in moves[:cut]:
        twin = engine.apply(twin, s, a)
    assert engine.view(twin, seat) == engine.view(state, seat)
    truth = review_hand(dealt, moves[: cut + 1], seed=9, seats=(seat,))
    permuted = review_hand(other, moves[: cut + 1], seed=9, seats=(seat,))
    assert len(truth.decisions) >= 2
    assert permuted == truth
    # The reasons too (the records compare every field; said once more for the reader) ...
    reasons = [(a.goal, a.points, a.tricks) for d in truth.decisions for a in d.alternatives]
    assert reasons == [
        (a.goal, a.points, a.tricks) for d in permuted.decisions for a in d.alternatives
    ]
    # ... and the game's summary made of them.
    game = summarize(players, {1: losses(1, truth)})
    assert game == summarize(players, {1: losses(1, permuted)})
    assert game.seats[seat].decisions == len(truth.decisions)


# ---- (b) a blunder is the costliest moment -------------------------------------------------


def winner_after(state: HandState, seat: int, card: int) -> tuple[int, int]:
    """Who takes the trick if ``seat`` (the last to play) plays ``card``, and its points."""
    sim = state.clone()
    sim.apply_action(card)
    _leader, _plays, winner, points = sim.tricks[-1]
    return winner, points


def find_blunder(players: int, seed: int) -> tuple[HandState, list[Move], int] | None:
    """A heuristic hand in which the last player of a trick could take it with many points
    on it, and a log where it gives the trick away instead (then all play on heuristically).

    Returns the deal, the scripted log and the index of the blunder."""
    dealt, moves = played(players, "classic", seed)
    state = dealt
    for index, (seat, action) in enumerate(moves):
        if (
            state.phase == engine.Phase.PLAY
            and len(state.trick) == players - 1
            and state.partner not in (None, seat)  # the teams are known
            and seat != state.chief
        ):
            options = {c: winner_after(state, seat, c) for c in state.legal_plays(seat)}
            wins = [c for c, (w, _) in options.items() if w == seat]
            losing = [c for c, (w, _) in options.items() if w != seat and w != state.partner]
            if wins and losing and max(p for w, p in options.values()) >= 8:
                bad = max(losing, key=lambda c: engine.CARDS[c].points)
                _, log = play_out(dealt, seed, [*moves[:index], (seat, engine.Play(bad))])
                return dealt, log, index
        state = engine.apply(state, seat, action)
    return None


def test_a_trick_full_of_points_given_away_is_the_costliest_moment() -> None:
    found = None
    for seed in range(40):
        found = find_blunder(5, seed)
        if found:
            break
    assert found is not None, "no hand offers the blunder"
    dealt, log, index = found
    seat = log[index][0]
    review = review_hand(dealt, log, seed=1, seats=(seat,))
    worst = costliest(review, seat, 1)
    assert worst and worst[0].move == index
    assert worst[0].loss >= 4
    assert isinstance(worst[0].best, engine.Play) and worst[0].best != log[index][1]


# ---- hints ---------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variant"), [(4, "classic"), (3, "revised")])
def test_a_hint_is_a_legal_action_with_its_reason(players: int, variant: str) -> None:
    dealt, moves = played(players, variant, seed=5)
    state = dealt
    for index, (seat, action) in enumerate(moves):
        if index % 7 == 0:
            seen = engine.view(state, seat)
            hint = suggest(seen, random.Random(index))
            assert engine.is_legal(state, seat, hint.action)
            if hint.runner_up is not None:
                assert hint.worlds > 0 and hint.value >= hint.runner_up.value
                assert not same_choice(hint.runner_up.action, hint.action)
                assert hint.runner_up.points >= 0 and hint.runner_up.tricks >= 0
            # From the view alone: the same hint for the same random source.
            assert suggest(seen, random.Random(index)) == hint
        state = engine.apply(state, seat, action)
