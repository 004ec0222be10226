"""A finished hand in full (deal, auction, tricks, result) and its replay, step by step.

Everything shown is read from ``engine.view`` and ``engine.result`` of the replayed states; the
only arithmetic here is adding up what the engine reports (cards shown, trick points won).
"""

from __future__ import annotations

from dataclasses import dataclass

import engine
from app.history import words
from app.history.i18n import Text
from app.history.service import HandRecord, TableHistory
from app.tables.replay import Move


def explain(result: engine.HandResult, names: list[str], t: Text) -> str:
    """The scoring in one sentence, e.g. "Conny's team took 24 of 33 needed: enough for bid 1
    only, 3 bid levels short → Conny −30, opponents +15"."""
    if result.kind == engine.Outcome.ALL_PASSED:
        return t("Everyone passed: nobody scores.")
    if result.kind == engine.Outcome.REDEAL:
        return t("Nobody showed a card: nobody scores, the next hand is dealt.")
    if result.kind == engine.Outcome.STALEMATE:
        return _explain_eklat(result, names, t)
    chief = result.chief
    assert chief is not None and result.team_points is not None and result.team_goal is not None
    took = t(
        "%(chief)s's team took %(points)d of %(goal)d needed",
        chief=names[chief],
        points=result.team_points,
        goal=result.team_goal,
    )
    if not engine.rules_catalog().variant(result.variant).penalties:
        # The revised edition: bonuses for the winning team, no penalty (R12).
        return f"{took}: {_explain_winners(result, names, t)}"
    assert result.shortfall is not None  # C29: set for every classic hand played out
    bonus = result.bonus
    if result.success:
        gain = t(
            "goal met → %(team)s %(bonus)s",
            team=words.people(t, [names[s] for s in result.team]),
            bonus=words.signed(bonus[chief]),
        )
        return f"{took}: {gain}"
    # The team's points would have met a lower bid (the engine's "level"), or none at all.
    penalty = {"chief": names[chief], "penalty": words.signed(bonus[chief])}
    if result.level:
        loss = t.plural(
            "enough for bid %(level)d only, %(num)d bid level short → %(chief)s %(penalty)s",
            "enough for bid %(level)d only, %(num)d bid levels short → %(chief)s %(penalty)s",
            result.shortfall,
            level=result.level,
            **penalty,
        )
    else:
        loss = t.plural(
            "%(num)d bid level short → %(chief)s %(penalty)s",
            "%(num)d bid levels short → %(chief)s %(penalty)s",
            result.shortfall,
            **penalty,
        )
    if result.opponents:
        loss += t(", opponents %(gain)s", gain=words.signed(bonus[result.opponents[0]]))
    return f"{took}: {loss}"


def _explain_winners(result: engine.HandResult, names: list[str], t: Text) -> str:
    if result.winning_team is None or not result.winners:
        return t("goal missed → no bonus for anyone")
    team = words.people(t, [names[s] for s in result.winners])
    gain = words.signed(result.bonus[result.winners[0]])
    if result.winning_team == engine.Role.CROWN:
        return t("goal met, the Crown's team wins → %(team)s %(bonus)s", team=team, bonus=gain)
    return t("goal missed, the Shield's team wins → %(team)s %(bonus)s", team=team, bonus=gain)


def _explain_eklat(result: engine.HandResult, names: list[str], t: Text) -> str:
    provocateur, bid = result.provocateur, result.bid
    assert provocateur is not None and bid is not None
    others = [s for s in result.tied if s != provocateur]
    scores = result.total
    tied = words.people(t, [names[s] for s in result.tied])
    text = t.plural(
        "Eklat at %(num)d card between %(tied)s: %(who)s provoked it → %(who)s %(loss)s",
        "Eklat at %(num)d cards between %(tied)s: %(who)s provoked it → %(who)s %(loss)s",
        bid,
        tied=tied,
        who=names[provocateur],
        loss=words.signed(scores[provocateur]),
    )
    if others:
        text += t(
            ", %(others)s %(gain)s",
            others=words.people(t, [names[s] for s in others]),
            gain=words.signed(scores[others[0]]),
        )
    return text


@dataclass(frozen=True, slots=True)
class AuctionStep:
    seat: int
    kind: str  # "bid" | "pass"
    cards: tuple[engine.Card, ...]
    shown: list[int]  # cards shown so far per seat, after this step


def auction_steps(detail: HandDetail, players: int) -> list[AuctionStep]:
    shown = [0] * players
    steps = []
    for entry in detail.final.auction:
        shown[entry.seat] += len(entry.cards)
        steps.append(AuctionStep(entry.seat, entry.type, entry.cards, list(shown)))
    return steps


def points_taken(view: engine.HandView, players: int) -> list[int]:
    """Card points won in tricks so far, per seat (the sum of the engine's trick points)."""
    taken = [0] * players
    for trick in view.tricks:
        taken[trick.winner] += trick.points
    return taken


@dataclass(frozen=True, slots=True)
class HandDetail:
    """A finished hand in full (the hand page, and its JSON); everything in it is public now."""

    number: int
    dealer: int
    names: list[str]
    final: engine.HandView  # the hand at its end, seen openly: deal, auction, roles, tricks
    result: engine.HandResult
    explanation: str
    actions: tuple[Move, ...]

    @property
    def steps(self) -> int:
        return len(self.actions)


def detail(history: TableHistory, record: HandRecord, t: Text) -> HandDetail:
    result, names = record.result, history.names
    final = engine.view(record.final, None)
    explanation = explain(result, names, t)
    return HandDetail(record.number, record.dealer, names, final, result, explanation, record.moves)


# What the hand's JSON takes over from the open view of its end (docs/history.md).
_OPEN_KEYS = ("deal", "auction", "chief", "vice", "partner", "trumps", "tricks", "roles")


def detail_json(hand: HandDetail) -> dict[str, engine.JSON]:
    """``GET /api/tables/{code}/hands/{n}``: the hand's facts, ``actions`` to replay it."""
    final = engine.to_json_object(hand.final)
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "players": len(hand.names),
        "names": list(hand.names),
        "kind": str(hand.result.kind),
        "bid": hand.result.bid,
        "team_goal": hand.result.team_goal,
        **{key: final[key] for key in _OPEN_KEYS},
        "result": engine.to_json(hand.result),
        "explanation": hand.explanation,
        "actions": engine.to_json(hand.actions),
        "steps": hand.steps,
    }


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One line of the hands list."""

    number: int
    dealer: int
    kind: engine.Outcome
    bid: int | None
    chief: int | None
    partner: int | None
    chief_trump: engine.TrumpKind | None
    success: bool | None
    score: tuple[int, ...]
    explanation: str


def summary(history: TableHistory, record: HandRecord, t: Text) -> HandSummary:
    res = record.result
    return HandSummary(
        number=record.number,
        dealer=record.dealer,
        kind=res.kind,
        bid=res.bid,
        chief=res.chief,
        partner=res.partner,
        chief_trump=res.chief_trump,
        success=res.success,
        score=res.total,
        explanation=explain(res, history.names, t),
    )


# ----- the replay ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatFrame:
    seat: int
    name: str
    hand: tuple[engine.Card, ...] | None  # None: hidden from this perspective
    hand_count: int
    display: tuple[engine.Card, ...]
    shown: int  # cards shown in the auction (the seat's bid)
    tricks_won: int
    points: int
    to_move: bool


@dataclass(frozen=True, slots=True)
class Frame:
    """The table after ``step`` actions, seen from ``perspective`` (None: all hands open)."""

    step: int
    steps: int
    perspective: int | None
    phase: engine.Phase
    seats: list[SeatFrame]
    trick: tuple[engine.PlayedCard, ...]  # the cards on the table now
    finished_trick: engine.TrickRecord | None  # the trick this very step completed
    view: engine.HandView
    said: str  # what happened at this step, in words
    roles: dict[str, str]  # what the chief and vice are called


def frame(
    history: TableHistory, record: HandRecord, step: int, perspective: int | None, t: Text
) -> Frame:
    step = max(0, min(step, record.steps))
    state = record.states[step]
    view = engine.view(state, perspective)
    hands = [engine.view(state, s).hand for s in range(history.players)]
    taken = points_taken(view, history.players)
    seats = [
        SeatFrame(
            seat=s,
            name=history.names[s],
            hand=hands[s] if perspective is None or perspective == s else None,
            hand_count=view.hand_counts[s],
            display=view.displays[s],
            shown=view.bids[s],
            tricks_won=view.tricks_won[s],
            points=taken[s],
            to_move=view.to_move == s,
        )
        for s in range(history.players)
    ]
    before = engine.view(record.states[step - 1], None) if step else None
    completed = before is not None and len(view.tricks) > len(before.tricks)
    finished = view.last_trick if completed else None
    return Frame(
        step=step,
        steps=record.steps,
        perspective=perspective,
        phase=view.phase,
        seats=seats,
        trick=view.trick,
        finished_trick=finished,
        view=view,
        said=_said(history, record, step, before, finished, t),
        roles=words.roles(t, view.roles),
    )


def _said(
    history: TableHistory,
    record: HandRecord,
    step: int,
    before: engine.HandView | None,
    finished: engine.TrickRecord | None,
    t: Text,
) -> str:
    names = history.names
    if not step or before is None:
        return t("%(dealer)s dealt; %(dealer)s opens the auction.", dealer=names[record.dealer])
    text = describe(record.moves[step - 1], before, names, t)
    if finished is not None:
        text += " " + t(
            "%(winner)s wins the trick (%(points)d points).",
            winner=names[finished.winner],
            points=finished.points,
        )
    if step == record.steps:
        text += " " + explain(record.result, names, t)
    return text


def describe(move: Move, before: engine.HandView, names: list[str], t: Text) -> str:
    """One logged action in words; ``before`` is the public view just before it."""
    name = names[move.seat]
    match move.action:
        case engine.Pass():
            return t("%(name)s passes.", name=name)
        case engine.Bid(cards=cards):
            return t.plural(
                "%(name)s shows %(num)d card.", "%(name)s shows %(num)d cards.", len(cards),
                name=name,
            )  # fmt: skip
        case engine.Trump(trump=kind):
            roles = words.roles(t, before.roles)
            vice = before.phase == engine.Phase.VICE_TRUMP
            role = roles["vice_trump"] if vice else roles["chief_trump"]
            return t(
                "%(name)s names the %(role)s: %(trump)s.",
                name=name,
                role=role,
                trump=words.trump(t, kind),
            )
        case engine.Discard(cards=cards):
            return t.plural(
                "%(name)s discards %(num)d card.", "%(name)s discards %(num)d cards.",
                len(cards), name=name,
            )  # fmt: skip
        case engine.Partner(seat=partner):
            return t("%(name)s picks %(partner)s as partner.", name=name, partner=names[partner])
        case engine.Play(card=card):
            return t("%(name)s plays %(card)s.", name=name, card=words.card(t, engine.CARDS[card]))
    raise AssertionError(f"not an action: {move.action!r}")
