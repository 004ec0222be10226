"""JSON bodies of the history API (pydantic), so /docs describes them.

The nested card, trick and result objects are the engine's own JSON (see
docs/engine-contract.md); they are passed through unchanged.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class HandSummary(BaseModel):
    number: int
    dealer: int
    kind: str = Field(description='"played", "stalemate" (Eklat), "all_passed" or "redeal"')
    bid: int | None
    chief: int | None
    partner: int | None
    chief_trump: str | None
    success: bool | None
    score: list[int] = Field(description="each seat's score in this hand")
    explanation: str = Field(description="the scoring in one sentence (?lang=de: German)")
    url: str = Field(description="the hand's page")


class HandList(BaseModel):
    names: list[str]
    hands: list[HandSummary] = Field(description="the finished hands, in order")
    running: int | None = Field(description="the number of the hand in progress, if any")
    scoresheet: str = Field(description="the score sheet's JSON")


class HandDetail(BaseModel):
    """A finished hand in full; ``engine.deal_from(deal, dealer)`` plus ``actions`` replays it."""

    number: int
    dealer: int
    players: int
    names: list[str]
    kind: str
    deal: list[list[dict[str, Any]]] = Field(description="each seat's cards as dealt")
    auction: list[dict[str, Any]] = Field(description='[{"seat", "type", "cards"}] in order')
    chief: int | None
    vice: int | None
    partner: int | None
    bid: int | None
    team_goal: int | None
    trumps: dict[str, str | None]
    tricks: list[dict[str, Any]] = Field(description='[{"leader", "cards", "winner", "points"}]')
    result: dict[str, Any] = Field(description="engine.result of the hand")
    explanation: str
    roles: dict[str, str] | None = Field(description="what chief and vice are called")
    actions: list[dict[str, Any]] = Field(description='[{"seat", "action"}] in log order')
    steps: int = Field(description="the number of logged actions (replay steps)")


class ReviewProgress(BaseModel):
    done: int = Field(description="decisions reviewed so far")
    total: int = Field(description="decisions to review (0 until the review starts)")


class ReviewAlternative(BaseModel):
    action: dict[str, Any] = Field(description="the action's JSON (engine.action_to_json)")
    label: str
    value: float = Field(description="the seat's expected score for the hand after it")
    taken: bool
    best: bool
    goal: float | None = Field(
        default=None,
        description="share of the deals in which the seat's side made its goal (null: it had "
        "none in any, or the review was stored before it kept its reasons)",
    )
    points: float | None = Field(
        default=None, description="card points the seat's side took on average (null: old review)"
    )
    tricks: float | None = Field(
        default=None, description="tricks the seat's side won on average (null: old review)"
    )


class ReviewDecision(BaseModel):
    move: int = Field(description="index of the decision in the hand's action log")
    seat: int
    phase: str
    trick: int | None = Field(description="1-based trick number during play")
    taken: dict[str, Any]
    taken_label: str
    best: dict[str, Any]
    best_label: str
    value_taken: float
    value_best: float
    loss: float = Field(description="value_best - value_taken (points)")
    worlds: int = Field(
        default=0, description="the deals, consistent with the seat's view, every value is over"
    )
    weighted: bool = Field(
        default=False,
        description="the deals were drawn by what the auction and the play revealed (the "
        "likelier ones more often); false: uniformly, or a review made before that",
    )
    alternatives: list[ReviewAlternative] = Field(description="best first")


class ReviewMoment(BaseModel):
    move: int = Field(description="index of the decision in the hand's action log")
    text: str = Field(description="what it cost, in a sentence (?lang=de)")
    reasons: list[str] = Field(
        description="why, in sentences: the goal, card points and tricks of the best move and "
        "the one made, over how many deals (empty for a review stored before the reasons)"
    )


class ReviewSeat(BaseModel):
    seat: int
    name: str
    moments: list[str] = Field(description="the costliest decisions in sentences (?lang=de)")
    told: list[ReviewMoment] = Field(description="the same decisions with their reasons")
    total_loss: float


class HandReview(BaseModel):
    """The search bot's review of a finished hand (see docs/history.md)."""

    status: str = Field(description='"pending", "running", "done" or "failed"')
    reason: str | None = Field(
        default=None, description="why the review failed (after its retries), when it did"
    )
    progress: ReviewProgress
    seats: list[ReviewSeat] = Field(description="per seat, once done")
    decisions: list[ReviewDecision] = Field(description="every decision in log order, once done")
