"""The group page's charts, drawn by the server (``app.web.charts``): each player's rating
(its ordinal, mu - 3 sigma) after every rated hand, and each player's running score."""

from __future__ import annotations

from markupsafe import Markup

from app.groups.kept import Kept
from app.groups.standings import Standings
from app.history.i18n import Text
from app.web.charts import PALETTE, Series, line_chart

# The charts of the boards drawn lately, by board and language: a board is kept between
# requests until something it counts changes (app/groups/boards.py), and so are its charts
# (the board is their signature and stays alive with them, so its id is not reused meanwhile).
_DRAWN: Kept[tuple[Markup, Markup]] = Kept(64)


def drawn(board: Standings, t: Text) -> tuple[Markup, Markup]:
    """``board``'s rating chart and score chart in ``t``'s language, drawn once per board."""
    key = (id(board), t.lang)
    return _DRAWN.get(key, board) or _DRAWN.put(
        key, board, (rating_chart(board, t), score_chart(board, t))
    )


def rating_chart(board: Standings, t: Text) -> Markup:
    """The best-rated players' ratings over the group's rated hands (as many as the palette
    tells apart; the table below lists everyone)."""
    rated = [p for p in board.players if p.rating is not None and p.rating.history]
    series = [
        Series(p.name, _thin(_from_zero(p.rating.history)))
        for p in rated[: len(PALETTE)]
        if p.rating is not None
    ]
    return line_chart(series, title=t("Rating after each hand"), x_label=t("Rated hands"))


def score_chart(board: Standings, t: Text) -> Markup:
    """The players' running scores over the group's hands (the most active players, as many as
    the palette tells apart)."""
    active = sorted(board.players, key=lambda p: -p.hands)[: len(PALETTE)]
    series = [
        Series(p.name, _thin([(0.0, 0.0), *((float(i), float(s)) for i, s in p.score_history)]))
        for p in active
        if p.score_history
    ]
    return line_chart(series, title=t("Points over time"), x_label=t("Hands of the group"))


# A line of more points than this is thinned (every k-th point and the last): a season of
# hundreds of games draws a chart of the same size as an evening's.
MAX_POINTS = 240


def _from_zero(history: list[tuple[int, float]]) -> list[tuple[float, float]]:
    """A rating line from its start: a season's starts at the carried rating (its point 0),
    a newcomer's at ordinal 0."""
    points = [(float(i), o) for i, o in history]
    return points if points and points[0][0] == 0 else [(0.0, 0.0), *points]


def _thin(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    if len(points) <= MAX_POINTS:
        return points
    step = -(-len(points) // MAX_POINTS)
    return [*points[:-1:step], points[-1]]
