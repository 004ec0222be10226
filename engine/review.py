"""Post-hand review: what each decision of a finished hand was worth, from the seat's seat.

For every decision of every seat (a pass or a bid, the revised discard, a trump, the partner,
each card) :func:`review_hand` builds the view that seat had *at that moment*
(:func:`engine.view` of the state before the decision) and hands only that view to
:func:`review_decision`.  There the search bot's method judges the decision: worlds are
sampled from the view (:class:`~engine.bots.sampling.WorldSampler`, so hidden cards are
never read, even though the hand is over; weighted by what the auction and the play revealed,
as the expert bot's, :mod:`engine.bots.inference`), every candidate
(:func:`engine.bots.search.candidates` plus the action taken) is applied in every world and
the hand is played out with the heuristic policy for all seats
(:func:`engine.bots.playout.rollout`); a candidate's value is its mean Mü score for the seat
(the result's ``total``).  The same worlds and rollout seeds serve every candidate (common
random numbers), so the differences between candidates are far less noisy than the values
themselves.

The same rollouts give the reasons behind a value (:func:`side_outcome`, no extra rollout):
how often the seat's side made its goal, and the card points and tricks it took on average.

The budget is a number of rollouts per decision (:data:`ROLLOUTS_PER_DECISION`), spread
over the worlds, never a time: a review is a function of the hand and the seed.  A decision
with one legal choice gets a few worlds, for the chart of the seat's expected score.

>>> import random, engine
>>> from engine.bots import make_bot
>>> hand = engine.deal(4, dealer=0, rng=random.Random(2))
>>> moves, state, bot = [], hand, make_bot("heuristic")
>>> while not state.is_over:
...     seat = state.to_move
...     action = bot.act(engine.view(state, seat), random.Random(len(moves)))
...     moves.append((seat, action))
...     state = engine.apply(state, seat, action)
>>> review = review_hand(hand, moves, seed=1, seats=(0,))
>>> {d.seat for d in review.decisions}, all(d.loss >= 0 for d in review.decisions)
({0}, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from typing import NamedTuple

from engine.actions import Action, Bid, Discard, Partner, Pass, Trump
from engine.bots import playout
from engine.bots.base import random_action, to_action
from engine.bots.sampling import SamplingError, WorldSampler
from engine.bots.search import candidates
from engine.enums import Phase
from engine.legality import apply
from engine.prompts import PlayPrompt, Prompt
from engine.records import record
from engine.scoring import hand_totals, score_hand
from engine.state import END_TURN, PARTNER_BASE, TRUMP_BASE, HandState
from engine.variants import RevisedRules
from engine.views import HandView, view

ROLLOUTS_PER_DECISION = 256  # ~5 s CPU a 5-player hand (bench/review_bench.py)
MIN_WORLDS = 8  # also the worlds of a forced move (only one legal choice)
MAX_WORLDS = 64

Move = tuple[int, Action]  # (seat, action) in log order
Progress = Callable[[int, int], None]  # (decisions done, decisions in all)


@record
class Alternative:
    """One evaluated choice and, over the same rollouts (one per world), the seat's
    expected score (``value``) and its reasons: ``goal``, the share of the worlds in which
    the seat's side made its goal (a world that ended without a goal for it, an Eklat or all
    passed, counts as not made; ``None``: the side had a goal in none of them), and the card
    points and tricks its side took on average (see :func:`side_outcome`)."""

    action: Action
    value: float
    goal: float | None
    points: float
    tricks: float


@record
class DecisionReview:
    """One decision judged from the seat's view at that moment.

    ``move`` is the decision's index in the hand's action log (0-based), ``trick`` the
    1-based trick number during play (``None`` before).  ``value_taken``/``value_best`` are
    expected scores of the seat for the hand (card points and bonus or penalty, as the result's
    ``total``); ``loss = value_best - value_taken`` is never negative (the action taken is one
    of the alternatives), and :func:`taken_alternative` finds it there with its reasons.
    ``worlds`` is the number of deals consistent with the seat's view that every alternative
    was played out in; 0 when no world could be sampled (then nothing was evaluated and every
    value is 0).  ``weighted``: the deals were drawn by the card-location model
    (:mod:`engine.bots.inference`), the likelier ones, by what the auction and the play
    revealed, more often; ``False`` for uniform deals (and for reviews made before it)."""

    move: int
    seat: int
    phase: Phase
    trick: int | None
    taken: Action
    best: Action
    value_taken: float
    value_best: float
    loss: float
    alternatives: tuple[Alternative, ...]  # best first
    worlds: int
    weighted: bool = False


@record
class HandReview:
    """Every reviewed decision of one hand, in log order."""

    variant: str
    players: int
    seed: int
    decisions: tuple[DecisionReview, ...]


def action_ints(action: Action) -> list[int]:
    """The integer actions (:mod:`engine.state`) that carry out a typed action, unchecked."""
    if isinstance(action, Pass):
        return [END_TURN]
    if isinstance(action, Bid):
        return [*action.cards, END_TURN]
    if isinstance(action, Discard):
        return list(action.cards)
    if isinstance(action, Trump):
        return [TRUMP_BASE + action.trump.code]
    if isinstance(action, Partner):
        return [PARTNER_BASE + action.seat]
    return [action.card]


def same_choice(a: Action, b: Action) -> bool:
    """Whether two actions are the same choice (a bid or discard of the same cards in any
    order: the cards shown, not the order they were laid down, is the decision)."""
    if isinstance(a, Bid | Discard) and type(a) is type(b):
        assert isinstance(b, Bid | Discard)
        return sorted(a.cards) == sorted(b.cards)
    return a == b


def _budget(choices: int) -> int:
    """Worlds for a decision among ``choices``: the rollout budget spread over them."""
    if choices <= 1:
        return MIN_WORLDS
    return max(MIN_WORLDS, min(MAX_WORLDS, ROLLOUTS_PER_DECISION // choices))


def review_decision(
    seen: HandView, taken: Action, rng: random.Random, *, move: int = 0
) -> DecisionReview:
    """Judge ``taken`` by the seat whose view ``seen`` is (it must be that seat's turn).

    Only ``seen`` is read: two hands that look the same to the seat get the same review
    for the same ``rng`` state."""
    seat = seen.seat
    prompt = seen.prompt
    if seat is None or prompt is None:
        raise ValueError("a decision is reviewed from the view of the seat to move")
    trick = seen.trick_number if seen.phase == Phase.PLAY else None
    try:
        sampler = WorldSampler(seen, weighted=True)
        first = sampler.sample(rng)
    except SamplingError:
        return _unevaluated(move, seat, seen.phase, trick, taken)
    choices = _choices(prompt, first, seat, taken, rng)
    worlds = [first] + [sampler.sample(rng) for _ in range(_budget(len(choices)) - 1)]
    means = _evaluate(worlds, seat, [action_ints(a) for a in choices], rng)
    order = sorted(range(len(choices)), key=lambda i: -means[i].value)  # stable: ties
    alternatives = tuple(_alternative(choices[i], means[i]) for i in order)
    value_taken = round(means[0].value, 2)  # choices[0] is the action taken
    best = alternatives[0]
    return DecisionReview(
        move=move,
        seat=seat,
        phase=seen.phase,
        trick=trick,
        taken=taken,
        best=best.action,
        value_taken=value_taken,
        value_best=best.value,
        loss=round(max(0.0, best.value - value_taken), 2),
        alternatives=alternatives,
        worlds=len(worlds),
        weighted=sampler.affinity is not None,
    )


def taken_alternative(decision: DecisionReview) -> Alternative | None:
    """The action taken among the decision's alternatives, with its value and reasons
    (``None`` for a decision nothing could be evaluated for)."""
    for alternative in decision.alternatives:
        if same_choice(alternative.action, decision.taken):
            return alternative
    return None


def _choices(
    prompt: Prompt, world: HandState, seat: int, taken: Action, rng: random.Random
) -> list[Action]:
    """The action taken first, then the search bot's candidates that differ from it."""
    out = [taken]
    if isinstance(prompt, PlayPrompt) and len(prompt.cards) == 1:
        return out  # forced: nothing to compare
    for seq in candidates(world, seat, rng):
        action = to_action(prompt, seq)
        if not any(same_choice(action, known) for known in out):
            out.append(action)
    return out


class SideOutcome(NamedTuple):
    """A finished hand for one seat: its Mü score, whether its side made its goal (``None``:
    its side had none), and the card points and tricks its side took."""

    score: int
    goal: bool | None
    points: int
    tricks: int


def side_outcome(state: HandState, seat: int) -> SideOutcome:
    """What a finished hand (a rollout's end) gave ``seat`` and its side.

    A hand played to the end (C26-C29; revised R6, R12) has two sides: the chief's (Crown's)
    team, whose goal is its bid's team goal (``team_points >= team_goal``), and everyone
    else, whose goal is that the team misses it (classic: then every opponent scores the
    penalty's ``+5 d``; revised: the Shield's team wins).  A revised hand without a Shield
    (one player showed cards, R6) gives the others no goal: nobody of them can win anything.
    The side's points are its card points (revised: the Crown's discards included), its
    tricks the tricks its members won.  An Eklat, an all-passed hand or a revised redeal is
    not played: nobody has a goal, no side takes a card point or a trick.

    Reads only ``state``, and the search's rollouts end in states built from a seat's view."""
    scores = score_hand(state)
    if scores is None:  # an Eklat's scores (C13), or nothing
        return SideOutcome(hand_totals(state)[seat], None, 0, 0)
    team = seat in scores.team
    side = scores.team if team else scores.opponents
    points = scores.team_points if team else sum(map(state.points_won.__getitem__, side))
    tricks = sum(map(state.tricks_won.__getitem__, side))
    goal: bool | None = scores.success if team else not scores.success
    if not team and state.vice is None and isinstance(state.rules, RevisedRules):
        goal = None  # R6: no Shield, no Shield team
    return SideOutcome(scores.total[seat], goal, points, tricks)


class _Mean(NamedTuple):
    """An option's means over the worlds (unrounded): see :class:`Alternative`."""

    value: float
    goal: float | None
    points: float
    tricks: float


def _evaluate(
    worlds: list[HandState], seat: int, options: list[list[int]], rng: random.Random
) -> list[_Mean]:
    """Each option's means over the worlds, one rollout seed per world for all options."""
    count = len(options)
    totals = [0] * count
    points = [0] * count
    tricks = [0] * count
    goals = [0] * count  # rollouts in which the seat's side had a goal
    made = [0] * count  # ... and made it
    for world in worlds:
        seed = rng.getrandbits(32)
        for i, ints in enumerate(options):
            sim = world.clone()
            for a in ints:
                sim.apply_action(a)
            playout.seeded_rollout(sim, seed)
            out = side_outcome(sim, seat)
            totals[i] += out.score
            points[i] += out.points
            tricks[i] += out.tricks
            if out.goal is not None:
                goals[i] += 1
                made[i] += out.goal
    n = len(worlds)
    return [
        _Mean(totals[i] / n, made[i] / n if goals[i] else None, points[i] / n, tricks[i] / n)
        for i in range(count)
    ]


def _alternative(action: Action, mean: _Mean) -> Alternative:
    goal = None if mean.goal is None else round(mean.goal, 3)
    return Alternative(
        action, round(mean.value, 2), goal, round(mean.points, 2), round(mean.tricks, 2)
    )


def _unevaluated(
    move: int, seat: int, phase: Phase, trick: int | None, taken: Action
) -> DecisionReview:
    return DecisionReview(move, seat, phase, trick, taken, taken, 0.0, 0.0, 0.0, (), 0)


def decision_rng(seed: int, move: int) -> random.Random:
    """The random source of one decision: the same for a given seed and move, whatever the
    order in which decisions are reviewed (and whatever the hidden cards)."""
    return random.Random(seed * 1_000_003 + move)


def decision_views(
    dealt: HandState,
    moves: Sequence[Move],
    seats: Iterable[int] | None = None,
    *,
    only: Container[int] | None = None,
) -> Iterator[tuple[int, HandView, Action]]:
    """``(move, view, action)`` for every decision in ``moves`` (only ``seats``' if given,
    only the moves at the indices ``only`` if given): the view is ``engine.view`` of the state
    just before the decision, for its seat. ``IllegalAction`` if the log does not replay."""
    wanted = set(range(dealt.players) if seats is None else seats)
    state = dealt
    for index, (seat, action) in enumerate(moves):
        if seat in wanted and (only is None or index in only):
            yield index, view(state, seat), action
        state = apply(state, seat, action)


def review_moves(
    dealt: HandState, moves: Sequence[Move], wanted: Sequence[int], *, seed: int
) -> list[DecisionReview]:
    """:func:`review_move` of the decisions at the indices ``wanted`` of the hand dealt as
    ``dealt`` and played as ``moves``, in move order: each judged from its seat's view alone
    (``engine.view`` of the state just before it). A top-level function of plain arguments,
    so a process pool can review a part of a hand from the hand's own record (a few kilobytes
    to send, not a view per decision). ``IllegalAction`` if the log does not replay."""
    chosen = set(wanted)
    played = moves[: max(chosen, default=-1) + 1]  # nothing after the last one is replayed
    return [
        review_move(seen, action, seed=seed, move=index)
        for index, seen, action in decision_views(dealt, played, only=chosen)
    ]


def review_move(seen: HandView, taken: Action, *, seed: int, move: int) -> DecisionReview:
    """:func:`review_decision` of the decision at index ``move`` of a hand reviewed with
    ``seed`` (a top-level function of plain arguments: a process pool can run it)."""
    return review_decision(seen, taken, decision_rng(seed, move), move=move)


def review_hand(
    dealt: HandState,
    moves: Sequence[Move],
    *,
    seed: int,
    seats: Iterable[int] | None = None,
    progress: Progress | None = None,
) -> HandReview:
    """Review every decision in ``moves`` (``seats``: only the decisions of these seats).

    ``dealt`` is the hand as dealt and ``moves`` its whole action log; each decision is judged
    by :func:`review_decision` from ``engine.view(state, seat)`` alone.  ``progress`` is told
    after each reviewed decision.  ``IllegalAction`` if the log does not replay."""
    todo = list(decision_views(dealt, moves, seats))
    reviews: list[DecisionReview] = []
    for move, seen, action in todo:
        reviews.append(review_move(seen, action, seed=seed, move=move))
        if progress is not None:
            progress(len(reviews), len(todo))
    return HandReview(dealt.rules.name, dealt.players, seed, tuple(reviews))


@record
class Suggestion:
    """What the search bot would do from a view, and why: its expected score, and the
    next best choice with its own (``None`` when there was no other choice)."""

    action: Action
    value: float
    runner_up: Alternative | None
    worlds: int


def suggest(seen: HandView, rng: random.Random) -> Suggestion:
    """The best of the search bot's candidates for the seat to move, judged like a review
    (same worlds and rollout seeds for every candidate, the review's budget).  Used for
    hints at the table: it reads ``seen`` only.  ``ValueError`` unless the view has a
    prompt; a view no world fits gets the heuristic's choice."""
    prompt = seen.prompt
    if seen.seat is None or prompt is None:
        raise ValueError("a hint is for the seat to move")
    seat = seen.seat
    try:
        sampler = WorldSampler(seen, weighted=True)
        first = sampler.sample(rng)
    except SamplingError:
        return Suggestion(random_action(seen, rng), 0.0, None, 0)
    options = candidates(first, seat, rng)
    choices = [to_action(prompt, seq) for seq in options]
    if len(choices) == 1 or (isinstance(prompt, PlayPrompt) and len(prompt.cards) == 1):
        return Suggestion(choices[0], 0.0, None, 0)
    worlds = [first] + [sampler.sample(rng) for _ in range(_budget(len(choices)) - 1)]
    means = _evaluate(worlds, seat, options, rng)
    order = sorted(range(len(choices)), key=lambda i: -means[i].value)
    best, second = order[0], order[1]
    return Suggestion(
        choices[best],
        round(means[best].value, 2),
        _alternative(choices[second], means[second]),
        len(worlds),
    )


def costliest(review: HandReview, seat: int, count: int = 3) -> list[DecisionReview]:
    """The seat's decisions that cost most (loss > 0), the costliest first; ties in log
    order."""
    mine = [d for d in review.decisions if d.seat == seat and d.loss > 0]
    return sorted(mine, key=lambda d: (-d.loss, d.move))[:count]
