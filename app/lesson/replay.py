"""Rebuilding a lesson's hand at a step with the engine, and what the text may quote.

``state_at(lesson, i)`` is the stacked deal plus every earlier step's intended move and
scripted moves, so the story is the same every time and the server keeps nothing.  The
numbers a text states are placeholders filled by :func:`facts` from the same state.
"""

from __future__ import annotations

import engine
from app.lesson.script import LEARNER, Lesson, Step
from engine.notation import Move
from engine.scoring import played_scores
from engine.variants import ClassicRules


def start(lesson: Lesson) -> engine.HandState:
    """The stacked deal the lesson begins with."""
    return engine.deal_from(lesson.hands, lesson.dealer, lesson.variant, lesson.kitty)


def run(state: engine.HandState, moves: tuple[Move, ...]) -> engine.HandState:
    """Apply scripted moves (each checked by the engine)."""
    for move in moves:
        state = engine.apply(state, move.seat, move.action)
    return state


def after(state: engine.HandState, step: Step) -> engine.HandState:
    """The state once ``step`` is done: its intended move, then its scripted moves."""
    if step.move is not None:
        state = run(state, (step.move,))
    return run(state, step.then)


def state_at(lesson: Lesson, index: int) -> engine.HandState:
    """The state in which step ``index`` is shown."""
    state = start(lesson)
    for step in lesson.steps[:index]:
        state = after(state, step)
    return state


def team_points(state: engine.HandState) -> int:
    """Card points in the tricks the chief's team has won so far."""
    hand = engine.view(state, None)
    team = {hand.chief, hand.partner} - {None}
    return sum(trick.points for trick in hand.tricks if trick.winner in team)


def facts(state: engine.HandState) -> dict[str, int]:
    """Every number a lesson text may state, from the engine: ``max_cards`` (may be placed
    now), ``bid``, ``goal``, ``team_points``, ``tricks``, and at the end ``points`` (the
    learner's card points), ``bonus`` and ``score`` (the learner's), ``team_total``."""
    hand = engine.view(state, LEARNER)
    out: dict[str, int] = {"cards": len(hand.hand), "tricks": len(hand.tricks)}
    prompt = hand.prompt
    if isinstance(prompt, engine.BidPrompt):
        out["max_cards"] = prompt.max_cards
    if isinstance(prompt, engine.DiscardPrompt):
        out["discard"] = prompt.count
    if hand.bid is not None:
        out["bid"] = hand.bid
    if hand.team_goal is not None:
        out["goal"] = hand.team_goal
    if hand.chief is not None and hand.phase in (engine.Phase.PLAY, engine.Phase.OVER):
        out["team_points"] = team_points(state)
    if hand.kitty is not None:
        out["kitty"] = hand.kitty.size
    result = hand.result
    if result is not None:
        out["points"] = result.card_points[LEARNER]
        out["bonus"] = result.bonus[LEARNER]
        out["score"] = result.total[LEARNER]
        if result.team_points is not None:
            out["team_points"] = result.team_points
        out.update(one_step_short(state, result))
    return out


def one_step_short(state: engine.HandState, result: engine.HandResult) -> dict[str, int]:
    """Classic, goal reached: what one point below the goal would have cost (C29), scored by
    the engine's own scoring: ``miss_points``, the chief's ``penalty`` and each opponent's
    ``opponent_gain``."""
    rules, goal, bid = state.rules, result.team_goal, result.bid
    if not isinstance(rules, ClassicRules) or not result.success or goal is None or not bid:
        return {}
    assert result.chief is not None and result.chief_trump is not None
    points = list(result.card_points)
    surplus, opponent = (result.team_points or 0) - (goal - 1), result.opponents[0]
    for seat in result.team:  # the team's surplus goes to an opponent
        moved = min(points[seat], surplus)
        points[seat], points[opponent], surplus = (
            points[seat] - moved,
            points[opponent] + moved,
            surplus - moved,
        )
    missed = played_scores(
        rules,
        bid=bid,
        chief=result.chief,
        partner=result.partner,
        chief_trump=result.chief_trump,
        card_points=points,
    )
    return {
        "miss_points": missed.team_points,
        "penalty": -missed.bonus[result.chief],
        "opponent_gain": missed.bonus[opponent],
    }
