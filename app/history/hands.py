"""A finished hand in full (deal, auction, tricks, result) and its replay, step by step.

Everything shown is read from ``engine.view`` and ``engine.result`` of the replayed states; the
only arithmetic here is adding up what the engine reports (cards shown, trick points won).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from app.history import words
from app.history.i18n import Text
from app.history.service import HandRecord, TableHistory
from app.tables.rows import ActionRow


def explain(result: dict[str, Any], names: list[str], t: Text) -> str:
    """The scoring in one sentence, e.g. "Conny's team took 24 of 33 needed: enough for bid 1
    only, 3 bid levels short → Conny −30, opponents +15"."""
    if result["kind"] == "all_passed":
        return t("Everyone passed: nobody scores.")
    if result["kind"] == "redeal":
        return t("Nobody showed a card: nobody scores, the next hand is dealt.")
    if result["kind"] == "stalemate":
        return _explain_eklat(result, names, t)
    chief = result["chief"]
    took = t(
        "%(chief)s's team took %(points)d of %(goal)d needed",
        chief=names[chief],
        points=result["team_points"],
        goal=result["team_goal"],
    )
    if "winning_team" in result:  # the revised edition: bonuses for the winners, no penalty
        return f"{took}: {_explain_winners(result, names, t)}"
    bonus = result["bonus"]
    if result["success"]:
        team = [chief] if result["partner"] is None else [chief, result["partner"]]
        gain = t(
            "goal met → %(team)s %(bonus)s",
            team=words.people(t, [names[s] for s in team]),
            bonus=words.signed(bonus[chief]),
        )
        return f"{took}: {gain}"
    shortfall = result["shortfall"]
    opponents = [s for s in range(len(names)) if s not in (chief, result["partner"])]
    # The team's points would have met a lower bid (the engine's "level"), or none at all.
    penalty = {"chief": names[chief], "penalty": words.signed(bonus[chief])}
    if result["level"]:
        loss = t.plural(
            "enough for bid %(level)d only, %(num)d bid level short → %(chief)s %(penalty)s",
            "enough for bid %(level)d only, %(num)d bid levels short → %(chief)s %(penalty)s",
            shortfall,
            level=result["level"],
            **penalty,
        )
    else:
        loss = t.plural(
            "%(num)d bid level short → %(chief)s %(penalty)s",
            "%(num)d bid levels short → %(chief)s %(penalty)s",
            shortfall,
            **penalty,
        )
    if opponents:
        loss += t(", opponents %(gain)s", gain=words.signed(bonus[opponents[0]]))
    return f"{took}: {loss}"


def _explain_winners(result: dict[str, Any], names: list[str], t: Text) -> str:
    winners = [s for s, bonus in enumerate(result["bonus"]) if bonus > 0]
    if result["winning_team"] is None or not winners:
        return t("goal missed → no bonus for anyone")
    team = words.people(t, [names[s] for s in winners])
    gain = words.signed(result["bonus"][winners[0]])
    if result["winning_team"] == "crown":
        return t("goal met, the Crown's team wins → %(team)s %(bonus)s", team=team, bonus=gain)
    return t("goal missed, the Shield's team wins → %(team)s %(bonus)s", team=team, bonus=gain)


def _explain_eklat(result: dict[str, Any], names: list[str], t: Text) -> str:
    provocateur = result["provocateur"]
    others = [s for s in result["tied"] if s != provocateur]
    scores, bid = result["total"], result["bid"]
    tied = words.people(t, [names[s] for s in result["tied"]])
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
    cards: list[dict[str, Any]]
    shown: list[int]  # cards shown so far per seat, after this step


def auction_steps(final_view: dict[str, Any], players: int) -> list[AuctionStep]:
    shown = [0] * players
    steps = []
    for entry in final_view["auction"]:
        shown[entry["seat"]] += len(entry["cards"])
        steps.append(AuctionStep(entry["seat"], entry["type"], entry["cards"], list(shown)))
    return steps


def points_taken(view: dict[str, Any], players: int) -> list[int]:
    """Card points won in tricks so far, per seat (the sum of the engine's trick points)."""
    taken = [0] * players
    for trick in view["tricks"]:
        taken[trick["winner"]] += trick["points"]
    return taken


def detail(history: TableHistory, record: HandRecord, t: Text) -> dict[str, Any]:
    """The hand page's (and the hand JSON's) content; everything in it is public now."""
    final = engine.view(record.final, None)
    names = history.names
    return {
        "number": record.number,
        "dealer": record.dealer,
        "players": history.players,
        "names": names,
        "kind": record.result["kind"],
        "deal": final["deal"],
        "auction": final["auction"],
        "chief": final["chief"],
        "vice": final["vice"],
        "partner": final["partner"],
        "bid": record.result["bid"],
        "team_goal": record.result["team_goal"],
        "trumps": final["trumps"],
        "tricks": final["tricks"],
        "result": record.result,
        "explanation": explain(record.result, names, t),
        "roles": final.get("roles"),
        "actions": [{"seat": a.seat, "action": a.action} for a in record.actions],
        "steps": record.steps,
    }


def summary(history: TableHistory, record: HandRecord, t: Text) -> dict[str, Any]:
    """One line of the hands list."""
    res = record.result
    return {
        "number": record.number,
        "dealer": record.dealer,
        "kind": res["kind"],
        "bid": res["bid"],
        "chief": res["chief"],
        "partner": res["partner"],
        "chief_trump": res["chief_trump"],
        "success": res["success"],
        "score": res["total"],
        "explanation": explain(res, history.names, t),
    }


# ----- the replay ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatFrame:
    seat: int
    name: str
    hand: list[dict[str, Any]] | None  # None: hidden from this perspective
    hand_count: int
    display: list[dict[str, Any]]
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
    phase: str
    seats: list[SeatFrame]
    trick: list[dict[str, Any]]  # the cards on the table now
    finished_trick: dict[str, Any] | None  # the trick this very step completed
    view: dict[str, Any]
    said: str  # what happened at this step, in words
    roles: dict[str, str]  # what the chief and vice are called


def frame(
    history: TableHistory, record: HandRecord, step: int, perspective: int | None, t: Text
) -> Frame:
    step = max(0, min(step, record.steps))
    state = record.states[step]
    view = engine.view(state, perspective)
    hands = [engine.view(state, s)["hand"] for s in range(history.players)]
    taken = points_taken(view, history.players)
    seats = [
        SeatFrame(
            seat=s,
            name=history.names[s],
            hand=hands[s] if perspective is None or perspective == s else None,
            hand_count=view["hand_counts"][s],
            display=view["displays"][s],
            shown=view["bids"][s],
            tricks_won=view["tricks_won"][s],
            points=taken[s],
            to_move=view["to_move"] == s,
        )
        for s in range(history.players)
    ]
    before = engine.view(record.states[step - 1], None) if step else None
    completed = before is not None and len(view["tricks"]) > len(before["tricks"])
    finished = view["last_trick"] if completed else None
    return Frame(
        step=step,
        steps=record.steps,
        perspective=perspective,
        phase=view["phase"],
        seats=seats,
        trick=view["trick"],
        finished_trick=finished,
        view=view,
        said=_said(history, record, step, before, finished, t),
        roles=words.roles(t, view.get("roles")),
    )


def _said(
    history: TableHistory,
    record: HandRecord,
    step: int,
    before: dict[str, Any] | None,
    finished: dict[str, Any] | None,
    t: Text,
) -> str:
    names = history.names
    if not step or before is None:
        return t("%(dealer)s dealt; %(dealer)s opens the auction.", dealer=names[record.dealer])
    text = describe(record.actions[step - 1], before, names, t)
    if finished is not None:
        text += " " + t(
            "%(winner)s wins the trick (%(points)d points).",
            winner=names[finished["winner"]],
            points=finished["points"],
        )
    if step == record.steps:
        text += " " + explain(record.result, names, t)
    return text


def describe(logged: ActionRow, before: dict[str, Any], names: list[str], t: Text) -> str:
    """One logged action in words; ``before`` is the public view just before it."""
    name, action = names[logged.seat], logged.action
    if action["type"] == "pass":
        return t("%(name)s passes.", name=name)
    if action["type"] == "bid":
        return t.plural(
            "%(name)s shows %(num)d card.", "%(name)s shows %(num)d cards.", len(action["cards"]),
            name=name,
        )  # fmt: skip
    if action["type"] == "trump":
        roles = words.roles(t, before.get("roles"))
        role = roles["vice_trump"] if before["phase"] == "vice_trump" else roles["chief_trump"]
        return t(
            "%(name)s names the %(role)s: %(trump)s.",
            name=name,
            role=role,
            trump=words.trump(t, action["trump"]),
        )
    if action["type"] == "discard":
        return t.plural(
            "%(name)s discards %(num)d card.", "%(name)s discards %(num)d cards.",
            len(action["cards"]), name=name,
        )  # fmt: skip
    if action["type"] == "partner":
        return t("%(name)s picks %(partner)s as partner.", name=name, partner=names[action["seat"]])
    card = engine.CARDS[action["card"]].to_dict()
    return t("%(name)s plays %(card)s.", name=name, card=words.card(t, card))
