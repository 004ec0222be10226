"""A card's face as SVG: the one drawing of a Mü card.

The history's pages draw their cards with :func:`face` (the ``card_face`` of their templates);
the table's scripts get the same pieces through ``static/js/protocol.js`` (``CARD_FACE``, written
by ``tools/gen_protocol_js.py``) and fill them in the same way (``static/js/cards.js``). The
colours come from the card's class in ``static/css/mu.css`` (``.c-red`` …): ground, edge, ink.

The face (viewBox 50×70): the number large in two corners, the lower one upside down as on a
printed card; the colour's own symbol in the middle (red circle, yellow star, green diamond,
blue square, purple cross: the symbols alone tell the colours apart); one triangle per card
point in the lower left corner; a gold corner, edged in ink, on a trump.
"""

from __future__ import annotations

from markupsafe import Markup

import engine

# Each colour's symbol in a 10×10 box (drawn at twice that size in the face's middle), by the
# engine's colours (the app names no colour itself).
SYMBOLS: dict[str, str] = {
    str(engine.Colour.RED): "M5 0a5 5 0 1 1 0 10a5 5 0 1 1 0-10Z",  # a circle
    str(engine.Colour.YELLOW): "M5 0L6.2 3.5L9.9 3.6L6.9 5.8L8 9.5L5 7.3L2 9.5L3.1 5.8L0.1 3.6"
    "L3.8 3.5Z",  # a star
    str(engine.Colour.GREEN): "M5 0L10 5L5 10L0 5Z",  # a diamond
    str(engine.Colour.BLUE): "M2 .8h6a1.2 1.2 0 0 1 1.2 1.2v6A1.2 1.2 0 0 1 8 9.2H2A1.2 1.2 0 0 1"
    " .8 8V2A1.2 1.2 0 0 1 2 .8Z",  # a square
    str(engine.Colour.PURPLE): "M3.4 0h3.2v3.4H10v3.2H6.6V10H3.4V6.6H0V3.4h3.4Z",  # a cross
}
# {n}: the number, {sym}: the symbol's path, {pts}: the points' triangles, {corner}: the trump's
# corner or nothing.
FACE = (
    '<svg class="face" viewBox="0 0 50 70" aria-hidden="true" focusable="false">'
    '<rect class="ground" x="1" y="1" width="48" height="68" rx="5"/>'
    '<text class="num" x="4" y="21">{n}</text>'
    '<text class="num" x="4" y="21" transform="rotate(180 25 35)">{n}</text>'
    '<path class="sym" transform="translate(15 24) scale(2)" d="{sym}"/>'
    '<g class="pts">{pts}</g>{corner}</svg>'
)
# One point's triangle, 8 wide, its left edge at {x}: the first at POINT_START, POINT_STEP apart.
POINT = '<path d="M{x} 66h8l-4-8Z"/>'
POINT_START = 5
POINT_STEP = 10
CORNER = (
    '<path class="corner" d="M30 1h14a5 5 0 0 1 5 5v14Z"/>'
    '<path class="corner-gold" d="M34 2.5h10a3.5 3.5 0 0 1 3.5 3.5v10Z"/>'
)


def point_lefts(points: int) -> list[int]:
    """Where each point's triangle starts."""
    return [POINT_START + i * POINT_STEP for i in range(points)]


def face(color: str, number: int, points: int, *, trump: bool = False) -> Markup:
    """The face of one card (numbers only and a known colour: nothing to escape)."""
    pts = "".join(POINT.replace("{x}", str(x)) for x in point_lefts(int(points)))
    return Markup(
        FACE.replace("{n}", str(int(number)))
        .replace("{sym}", SYMBOLS[color])
        .replace("{pts}", pts)
        .replace("{corner}", CORNER if trump else "")
    )


def for_script() -> dict[str, object]:
    """The pieces as ``static/js/protocol.js`` exports them (``CARD_FACE``)."""
    return {
        "symbols": SYMBOLS,
        "face": FACE,
        "point": POINT,
        "point_start": POINT_START,
        "point_step": POINT_STEP,
        "corner": CORNER,
    }
