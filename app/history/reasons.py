"""Why a told decision cost what it did, in words (English and German).

The numbers are the review's own (``engine.review.Alternative``): from the very rollouts that
gave each alternative its value, the share of the sampled deals in which the seat's side made
its goal, and the card points and tricks the side took on average. Here they are only said:
for the best alternative and the one taken, and over how many deals (the decision's
``worlds``, all consistent with what the seat knew then). A review stored before the reasons
were kept has none of these numbers, and its decisions are told without reasons.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

import engine
from app.history import words
from app.history.i18n import Text
from app.history.words import N_


class Alternative(Protocol):
    """What the reasons read of an evaluated move (``review_page.Alternative``)."""

    @property
    def goal(self) -> float | None: ...
    @property
    def points(self) -> float | None: ...
    @property
    def tricks(self) -> float | None: ...


class Decision(Protocol):
    """What the reasons read of a judged decision (``review_page.Decision``)."""

    @property
    def seat(self) -> int: ...
    @property
    def worlds(self) -> int: ...
    @property
    def weighted(self) -> bool: ...
    @property
    def taken_alternative(self) -> Alternative | None: ...
    @property
    def alternatives(self) -> Sequence[Alternative]: ...


class Side(StrEnum):
    """What the seat's goal was when it decided, as far as the table knew then."""

    TEAM = "team"  # the chief's (Crown's) team: its goal is the bid's team goal
    AGAINST = "against"  # the other side: the chief's team missing its goal
    OPEN = "open"  # not known yet (the auction, or before the partner is named)


def side_at(state: engine.HandState, seat: int) -> Side:
    """The seat's side in the hand ``state`` (the moment of its decision), as the table knew
    it: the chief, and the partner once named, are the team; everyone else is against it once
    the cards are played (the partner is named before, C19), or when it holds the vice (never
    the partner)."""
    if state.chief is None:
        return Side.OPEN
    if seat in (state.chief, state.partner):
        return Side.TEAM
    if state.phase == engine.Phase.PLAY or seat == state.vice:
        return Side.AGAINST
    return Side.OPEN


# An alternative as the "with ..." of a reason; lowercase, made the sentence's start as needed.
_WITH: dict[type[engine.Action], str] = {
    engine.Pass: N_("by passing"),
    engine.Bid: N_("by showing %(cards)s"),
    engine.Discard: N_("by discarding %(cards)s"),
    engine.Trump: N_("by naming %(trump)s"),
    engine.Partner: N_("with %(name)s as partner"),
    engine.Play: N_("with the %(card)s"),
}


def with_action(action: engine.Action, names: list[str], t: Text) -> str:
    """ "with the red 1", "by passing", "by naming Red" (German "mit Rot 1", ...)."""
    match action:
        case engine.Bid(cards=cards) | engine.Discard(cards=cards):
            named = {"cards": words.people(t, [words.card(t, engine.CARDS[c]) for c in cards])}
        case engine.Trump(trump=kind):
            named = {"trump": words.trump(t, kind)}
        case engine.Partner(seat=seat):
            named = {"name": names[seat]}
        case engine.Play(card=card):
            named = {"card": words.card(t, engine.CARDS[card])}
        case _:
            named = {}
    return t(_WITH[type(action)], **named)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def tenths(share: float) -> int:
    """A share as "k of 10" (half up: 0.25 is 3 of 10)."""
    return int(share * 10 + 0.5)


def explain(
    decision: Decision,
    taken: engine.Action,
    best: engine.Action,
    names: list[str],
    side: Side,
    t: Text,
    *,
    yours: bool = False,
) -> list[str]:
    """The reasons of a told decision in sentences: the goal (when both moves had one), the
    card points and tricks, and what the numbers are. Empty for a review without reasons."""
    mine = decision.taken_alternative
    top = decision.alternatives[0] if decision.alternatives else None
    if mine is None or top is None or mine is top:
        return []
    if mine.points is None or top.points is None or mine.tricks is None or top.tricks is None:
        return []  # stored before the reasons were kept
    with_best, with_taken = with_action(best, names, t), with_action(taken, names, t)
    name = names[decision.seat]
    out = []
    if mine.goal is not None and top.goal is not None:
        out.append(_goal(top, mine, with_best, with_taken, name, side, t, yours))
    numbers = {
        "best": with_best,
        "taken": with_taken,
        "points_best": words.decimal(t, top.points),
        "tricks_best": words.decimal(t, top.tricks),
        "points_taken": words.decimal(t, mine.points),
        "tricks_taken": words.decimal(t, mine.tricks),
    }
    if yours:
        out.append(
            t(
                "On average your team takes %(points_best)s card points and %(tricks_best)s "
                "tricks %(best)s, %(points_taken)s and %(tricks_taken)s %(taken)s.",
                **numbers,
            )
        )
        out.append(_over_deals(t, decision, None))
        return out
    out.append(
        t(
            "On average %(name)s's team takes %(points_best)s card points and %(tricks_best)s "
            "tricks %(best)s, %(points_taken)s and %(tricks_taken)s %(taken)s.",
            name=name,
            **numbers,
        )
    )
    out.append(_over_deals(t, decision, name))
    return out


def _over_deals(t: Text, decision: Decision, name: str | None) -> str:
    """What the numbers are over: the deals that agree with what the seat knew, and (a review
    with weighted worlds) that the likelier of them were drawn more often."""
    if decision.weighted:
        if name is None:
            return t.plural(
                "These are shares and averages over %(num)d deal that agrees with what you "
                "knew then, the likelier deals drawn more often by what the auction and the "
                "play revealed.",
                "These are shares and averages over %(num)d deals that agree with what you "
                "knew then, the likelier deals drawn more often by what the auction and the "
                "play revealed.",
                decision.worlds,
            )
        return t.plural(
            "These are shares and averages over %(num)d deal that agrees with what %(name)s "
            "knew then, the likelier deals drawn more often by what the auction and the play "
            "revealed.",
            "These are shares and averages over %(num)d deals that agree with what %(name)s "
            "knew then, the likelier deals drawn more often by what the auction and the play "
            "revealed.",
            decision.worlds,
            name=name,
        )
    if name is None:
        return t.plural(
            "These are shares and averages over %(num)d deal that agrees with what you knew then.",
            "These are shares and averages over %(num)d deals that agree with what you knew then.",
            decision.worlds,
        )
    return t.plural(
        "These are shares and averages over %(num)d deal that agrees with what %(name)s knew then.",
        "These are shares and averages over %(num)d deals that agree with what %(name)s knew then.",
        decision.worlds,
        name=name,
    )


def _goal(
    top: Alternative,
    mine: Alternative,
    with_best: str,
    with_taken: str,
    name: str,
    side: Side,
    t: Text,
    yours: bool,
) -> str:
    """ "With the red 1 your team makes its goal in 7 of 10 deals you could be facing, with the
    green 7 in 3." """
    assert top.goal is not None and mine.goal is not None
    shares = {
        "best": _capital(with_best),
        "taken": with_taken,
        "num": tenths(top.goal),
        "other": tenths(mine.goal),
    }
    if side == Side.AGAINST:
        if yours:
            return t(
                "%(best)s, the other team misses its goal in %(num)d of 10 deals you could be "
                "facing, %(taken)s in %(other)d.",
                **shares,
            )
        return t(
            "%(best)s, the other team misses its goal in %(num)d of 10 deals %(name)s could be "
            "facing, %(taken)s in %(other)d.",
            name=name,
            **shares,
        )
    if yours:
        return t(
            "%(best)s, your team makes its goal in %(num)d of 10 deals you could be facing, "
            "%(taken)s in %(other)d.",
            **shares,
        )
    return t(
        "%(best)s, %(name)s's team makes its goal in %(num)d of 10 deals %(name)s could be "
        "facing, %(taken)s in %(other)d.",
        name=name,
        **shares,
    )
