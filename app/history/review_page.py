"""A stored hand review (``engine.review``, computed by the worker) in words and a chart.

The review's values were computed from each seat's information at each moment only; the words
here name the actions taken and the alternatives, which are public once the hand is over. A
told decision also says why (``app/history/reasons.py``), from what the review kept; a review
stored before it kept its reasons is shown without them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from app.history import reasons, words
from app.history.i18n import Text
from app.history.reviews import PENDING, ReviewState
from app.history.service import HandRecord, TableHistory
from app.history.words import N_
from engine.review import same_choice

MOMENTS_PER_SEAT = 3  # the costliest decisions told as sentences
MIN_LOSS = 0.5  # smaller losses are noise of the sampling, not a lesson
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 120, 14
CHART_LEFT = 28  # room for the value labels


@dataclass(frozen=True, slots=True)
class Alternative:
    action: dict[str, Any]  # the action's JSON
    label: str
    value: float
    taken: bool
    best: bool
    # The reasons (engine.review.Alternative); None in a review stored before they were kept.
    goal: float | None = None  # share of the worlds in which the seat's side made its goal
    points: float | None = None  # card points its side took, on average
    tricks: float | None = None  # tricks its side won, on average


@dataclass(frozen=True, slots=True)
class Decision:
    move: int
    seat: int
    phase: str
    trick: int | None
    when: str  # "Trick 4", "Auction", ...
    taken: dict[str, Any]  # the action's JSON
    best: dict[str, Any]
    taken_label: str
    best_label: str
    value_taken: float
    value_best: float
    loss: float
    alternatives: list[Alternative]
    worlds: int  # the deals consistent with the seat's view that every alternative was played in
    weighted: bool = False  # drawn by what the auction and play revealed (engine.bots.inference)

    @property
    def taken_alternative(self) -> Alternative | None:
        return next((a for a in self.alternatives if a.taken), None)


@dataclass(frozen=True, slots=True)
class Moment:
    """A told decision: what it cost in a sentence, and why (empty for an old review)."""

    move: int
    text: str
    reasons: list[str]


@dataclass(frozen=True, slots=True)
class Chart:
    """An inline SVG line of a seat's expected score, decision by decision."""

    width: int
    height: int
    taken: str  # polyline points: expected score of the actions taken
    best: str  # the same with the best action each time
    zero: float | None  # y of the zero line, if in range
    low: float
    high: float
    dots: list[tuple[float, float, bool]]  # (x, y, costly) per decision


@dataclass(frozen=True, slots=True)
class SeatReview:
    seat: int
    name: str
    moments: list[Moment]
    chart: Chart | None
    decisions: list[Decision]
    total_loss: float


@dataclass(frozen=True, slots=True)
class ReviewPage:
    status: str  # pending | running | done | failed
    progress: int
    total: int
    seats: list[SeatReview]
    decisions: list[Decision]  # all seats', in log order
    reason: str | None = None  # why it failed, when it did

    @property
    def percent(self) -> int:
        return int(100 * self.progress / self.total) if self.total else 0


def _cards(t: Text, ids: list[int]) -> str:
    return words.people(t, [words.card(t, engine.CARDS[c]) for c in ids])


# How each kind of action is phrased: as an alternative in a list, and as the subject of a
# sentence (N_: marked for extraction, translated through ``Text``). A trump, a partner or a card
# as an alternative is just its name.
_LABELS: dict[type[engine.Action], str] = {
    engine.Pass: N_("Pass"),
    engine.Bid: N_("Show %(cards)s"),
    engine.Discard: N_("Discard %(cards)s"),
}
_DOING: dict[type[engine.Action], str] = {
    engine.Pass: N_("passing"),
    engine.Bid: N_("showing %(cards)s"),
    engine.Discard: N_("discarding %(cards)s"),
    engine.Trump: N_("naming %(trump)s"),
    engine.Partner: N_("picking %(name)s as partner"),
    engine.Play: N_("playing the %(card)s"),
}
_LEADING = N_("leading the %(card)s")


def _named(action: engine.Action, names: list[str], t: Text) -> dict[str, str]:
    """What the action names, in words: its cards, its trump, the partner or the card."""
    match action:
        case engine.Pass():
            return {}
        case engine.Bid(cards=cards) | engine.Discard(cards=cards):
            return {"cards": _cards(t, list(cards))}
        case engine.Trump(trump=kind):
            return {"trump": words.trump(t, kind)}
        case engine.Partner(seat=seat):
            return {"name": names[seat]}
        case engine.Play(card=card):
            return {"card": words.card(t, engine.CARDS[card])}
    raise AssertionError(f"not an action: {action!r}")


def label(action: engine.Action, names: list[str], t: Text) -> str:
    """An alternative in a few words: "Pass", "Show red 7", "green 1", "Red", "Ben"."""
    named = _named(action, names, t)
    phrase = _LABELS.get(type(action))
    if phrase is None:
        (name,) = named.values()
        return name
    return t(phrase, **named)


def _doing(action: engine.Action, names: list[str], leads: bool, t: Text) -> str:
    """The action as the subject of a sentence: "leading the green 7", "passing"."""
    phrase = _LEADING if leads and isinstance(action, engine.Play) else _DOING[type(action)]
    return t(phrase, **_named(action, names, t))


def _better(action: engine.Action, names: list[str], leads: bool, t: Text) -> str:
    if isinstance(action, engine.Play):
        return t("the %(card)s", **_named(action, names, t))
    return _doing(action, names, leads, t)


def _when(phase: str, trick: int | None, t: Text) -> str:
    if trick is not None:
        return t("Trick %(n)d", n=trick)
    return {
        "auction": t("Auction"),
        "discard": t("Discard"),
        "partner": t("Partner"),
    }.get(phase, t("Trump"))


def sentence(decision: Decision, action: engine.Action, best: engine.Action, names: list[str],
             leads: bool, t: Text, *, yours: bool = False) -> str:  # fmt: skip
    """ "Trick 4: leading the green 7 cost Anna ~6 points; the red 1 was better." (``yours``: the
    reader's own seat, "cost you")."""
    num = max(1, round(decision.loss))
    parts = {
        "when": decision.when,
        "doing": _doing(action, names, leads, t),
        "better": _better(best, names, leads, t),
    }
    if yours:
        return t.plural(
            "%(when)s: %(doing)s cost you ~%(num)d point; %(better)s was better.",
            "%(when)s: %(doing)s cost you ~%(num)d points; %(better)s was better.",
            num,
            **parts,
        )
    return t.plural(
        "%(when)s: %(doing)s cost %(name)s ~%(num)d point; %(better)s was better.",
        "%(when)s: %(doing)s cost %(name)s ~%(num)d points; %(better)s was better.",
        num,
        name=names[decision.seat],
        **parts,
    )


def read_decision(raw: dict[str, Any], names: list[str], t: Text) -> Decision:
    """A stored decision (the JSON of ``engine.review.DecisionReview``) as the pages show it."""
    taken = engine.action_from_json(raw["taken"])
    best = engine.action_from_json(raw["best"])
    taken_at = _index_of(raw, raw["taken"])
    alternatives = [
        Alternative(
            alt["action"],
            label(engine.action_from_json(alt["action"]), names, t),
            float(alt["value"]),
            taken=i == taken_at,
            best=i == 0,
            goal=_number(alt.get("goal")),
            points=_number(alt.get("points")),
            tricks=_number(alt.get("tricks")),
        )
        for i, alt in enumerate(raw["alternatives"])
    ]
    return Decision(
        move=int(raw["move"]),
        seat=int(raw["seat"]),
        phase=str(raw["phase"]),
        trick=raw["trick"],
        when=_when(str(raw["phase"]), raw["trick"], t),
        taken=raw["taken"],
        best=raw["best"],
        taken_label=label(taken, names, t),
        best_label=label(best, names, t),
        value_taken=float(raw["value_taken"]),
        value_best=float(raw["value_best"]),
        loss=float(raw["loss"]),
        alternatives=alternatives,
        worlds=int(raw.get("worlds", 0)),
        weighted=bool(raw.get("weighted", False)),
    )


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def _index_of(raw: dict[str, Any], action: dict[str, Any]) -> int:
    """Where the action taken is among the alternatives (a bid's cards in any order)."""
    wanted = engine.action_from_json(action)
    for i, alt in enumerate(raw["alternatives"]):
        if same_choice(engine.action_from_json(alt["action"]), wanted):
            return i
    return -1


def chart(decisions: list[Decision]) -> Chart | None:
    """Coordinates of the seat's expected score across the hand (server-drawn SVG)."""
    if len(decisions) < 2:
        return None
    values = [d.value_taken for d in decisions] + [d.value_best for d in decisions] + [0.0]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    inner_w, inner_h = CHART_WIDTH - CHART_LEFT - CHART_PAD, CHART_HEIGHT - 2 * CHART_PAD

    def x(i: int) -> float:
        return round(CHART_LEFT + inner_w * i / (len(decisions) - 1), 1)

    def y(v: float) -> float:
        return round(CHART_PAD + inner_h * (high - v) / span, 1)

    taken = " ".join(f"{x(i)},{y(d.value_taken)}" for i, d in enumerate(decisions))
    best = " ".join(f"{x(i)},{y(d.value_best)}" for i, d in enumerate(decisions))
    dots = [(x(i), y(d.value_taken), d.loss >= MIN_LOSS) for i, d in enumerate(decisions)]
    zero = y(0.0) if low <= 0 <= high else None
    return Chart(CHART_WIDTH, CHART_HEIGHT, taken, best, zero, low, high, dots)


def build(
    stored: ReviewState | None,
    history: TableHistory,
    record: HandRecord,
    t: Text,
    viewer: int | None = None,
) -> ReviewPage:
    """The review of a finished hand as the page and the API show it (``viewer``: the
    reader's seat, whose moments say "you")."""
    if stored is None:
        return ReviewPage(PENDING, 0, 0, [], [])
    if stored.result is None:
        return ReviewPage(stored.status, stored.progress, stored.total, [], [], stored.reason)
    names = history.names
    decisions = [read_decision(raw, names, t) for raw in stored.result["decisions"]]
    seats = []
    for seat in range(history.players):
        mine = [d for d in decisions if d.seat == seat]
        costly = sorted((d for d in mine if d.loss >= MIN_LOSS), key=lambda d: (-d.loss, d.move))[
            :MOMENTS_PER_SEAT
        ]
        moments = [moment(d, record, names, t, yours=seat == viewer) for d in costly]
        total = round(sum(d.loss for d in mine), 1)
        seats.append(SeatReview(seat, names[seat], moments, chart(mine), mine, total))
    return ReviewPage(stored.status, stored.total, stored.total, seats, decisions)


def moment(
    decision: Decision, record: HandRecord, names: list[str], t: Text, *, yours: bool = False
) -> Moment:
    """A told decision: its sentence and, from what the review kept, its reasons."""
    taken = engine.action_from_json(decision.taken)
    best = engine.action_from_json(decision.best)
    side = reasons.side_at(record.states[decision.move], decision.seat)
    why = reasons.explain(decision, taken, best, names, side, t, yours=yours)
    return Moment(decision.move, told(decision, record, names, t, yours=yours), why)


def told(
    decision: Decision, record: HandRecord, names: list[str], t: Text, *, yours: bool = False
) -> str:
    """A decision's sentence alone, as the hand page tells it (the score sheet's list)."""
    taken = engine.action_from_json(decision.taken)
    best = engine.action_from_json(decision.best)
    return sentence(decision, taken, best, names, _leads(record, decision), t, yours=yours)


def _leads(record: HandRecord, decision: Decision) -> bool:
    """Whether the card was led (the trick was empty before it): public once played."""
    if decision.phase != str(engine.Phase.PLAY):
        return False
    return not record.states[decision.move].trick


def to_json(page: ReviewPage) -> dict[str, Any]:
    """``GET /api/tables/{code}/hands/{n}/review``."""
    return {
        "status": page.status,
        "reason": page.reason,
        "progress": {"done": page.progress, "total": page.total},
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "moments": [m.text for m in s.moments],
                "told": [{"move": m.move, "text": m.text, "reasons": m.reasons} for m in s.moments],
                "total_loss": s.total_loss,
            }
            for s in page.seats
        ],
        "decisions": [
            {
                "move": d.move,
                "seat": d.seat,
                "phase": d.phase,
                "trick": d.trick,
                "taken": d.taken,
                "taken_label": d.taken_label,
                "best": d.best,
                "best_label": d.best_label,
                "value_taken": d.value_taken,
                "value_best": d.value_best,
                "loss": d.loss,
                "worlds": d.worlds,
                "weighted": d.weighted,
                "alternatives": [
                    {
                        "action": a.action,
                        "label": a.label,
                        "value": a.value,
                        "taken": a.taken,
                        "best": a.best,
                        "goal": a.goal,
                        "points": a.points,
                        "tricks": a.tricks,
                    }
                    for a in d.alternatives
                ],
            }
            for d in page.decisions
        ],
    }
