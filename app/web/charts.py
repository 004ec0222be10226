"""Line charts as inline SVG, drawn by the server: no script, no CDN, and they print.

One chart: a few series of points (x, y) scaled into a fixed viewBox that the page lets shrink
to the phone's width (``width: 100%``); every series gets a colour and a legend entry, and the
y axis its extremes and zero. Colours are SVG attributes, never inline styles (the
Content-Security-Policy refuses those). Text in the chart is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

# Colours that stay apart for the common colour-vision deficiencies (Okabe-Ito).
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")
WIDTH, HEIGHT = 640, 240
_LEFT, _RIGHT, _TOP, _BOTTOM = 52, 12, 14, 32


@dataclass(frozen=True, slots=True)
class Series:
    label: str
    points: Sequence[tuple[float, float]]


def line_chart(series: Sequence[Series], *, title: str, x_label: str) -> Markup:
    """An ``<svg>`` with one polyline per series (markers where a series has one point)."""
    drawn = [s for s in series if s.points]
    if not drawn:
        return Markup("")
    xs = [x for s in drawn for x, _ in s.points]
    ys = [y for s in drawn for _, y in s.points]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(*ys, 0.0), max(*ys, 0.0)
    if x1 == x0:
        x1 = x0 + 1
    if y1 == y0:
        y1 = y0 + 1

    def px(x: float) -> float:
        return _LEFT + (x - x0) / (x1 - x0) * (WIDTH - _LEFT - _RIGHT)

    def py(y: float) -> float:
        return _TOP + (y1 - y) / (y1 - y0) * (HEIGHT - _TOP - _BOTTOM)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{_LEFT}" x2="{WIDTH - _RIGHT}" y1="{py(0):.1f}" y2="{py(0):.1f}" '
        'stroke="#888" stroke-width="1" stroke-dasharray="4 3"/>',
        f'<line x1="{_LEFT}" x2="{_LEFT}" y1="{_TOP}" y2="{HEIGHT - _BOTTOM}" stroke="#888"/>',
    ]
    for value in sorted({y0, y1, 0.0}):
        parts.append(
            f'<text x="{_LEFT - 4}" y="{py(value) + 4:.1f}" text-anchor="end" '
            f'font-size="17" fill="currentColor">{_number(value)}</text>'
        )
    parts.append(
        f'<text x="{(WIDTH + _LEFT) / 2:.0f}" y="{HEIGHT - 8}" text-anchor="middle" '
        f'font-size="17" fill="currentColor">{escape(x_label)} {_number(x0)}–{_number(x1)}</text>'
    )
    for index, s in enumerate(drawn):
        colour = PALETTE[index % len(PALETTE)]
        coords = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in s.points)
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{coords}">'
            f"<title>{escape(s.label)}</title></polyline>"
        )
        last_x, last_y = s.points[-1]
        parts.append(f'<circle cx="{px(last_x):.1f}" cy="{py(last_y):.1f}" r="3" fill="{colour}"/>')
    parts.append("</svg>")
    legend = "".join(
        f'<li><svg class="swatch" viewBox="0 0 14 4" aria-hidden="true">'
        f'<rect width="14" height="4" fill="{PALETTE[i % len(PALETTE)]}"/></svg>'
        f"{escape(s.label)}</li>"
        for i, s in enumerate(drawn)
    )
    return Markup(
        f'<figure class="chart-box">{"".join(parts)}<ul class="legend">{legend}</ul></figure>'
    )


def _number(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 10 or value == int(value) else f"{value:.1f}"
