"""Line charts as standalone SVG files, for reports that are read on GitHub and in chat previews.

Same rules as the panes' charts: absolute, labelled scales, axes with round ticks, and a legend.
Series differ by dash pattern and marker as well as colour, so a chart reads in greyscale too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from sessiontui.tui.axes import Series, nice_ticks, tick_text

WIDTH, HEIGHT = 640, 360
_MARGIN = {"left": 64, "right": 36, "top": 36, "bottom": 64}  # right: room for a point's label
_TITLE_CHARS = 72  # what fits across the chart at the title's size
_STYLES = (  # (colour, dash pattern, marker): told apart without colour
    ("#1f77b4", "", "circle"), ("#d62728", "6 4", "square"), ("#2ca02c", "2 3", "diamond"),
    ("#9467bd", "8 3 2 3", "circle"),
)


@dataclass(frozen=True)
class Chart:
    """What a chart shows: a title, labelled axes (log x optional) and its series."""

    title: str
    x_label: str
    y_label: str
    series: tuple[Series, ...]
    log_x: bool = False
    y_from_zero: bool = False
    guides: tuple[float, ...] = field(default=())  # horizontal reference lines (y values)


def _fitted(title: str) -> str:
    """The title cut in the middle when it would not fit, keeping its start and its end."""
    if len(title) <= _TITLE_CHARS:
        return title
    keep = (_TITLE_CHARS - 1) // 2
    return f"{title[:keep]}…{title[-keep:]}"


class _Scale:
    """Maps data values to pixels along one axis (linear, or log base 2)."""

    def __init__(self, low: float, high: float, start: float, end: float, log: bool) -> None:
        self.log = log
        self.low, self.high = (math.log2(low), math.log2(high)) if log else (low, high)
        if self.high == self.low:
            self.high = self.low + 1
        self.start, self.end = start, end

    def __call__(self, value: float) -> float:
        value = math.log2(value) if self.log else value
        return self.start + (value - self.low) / (self.high - self.low) * (self.end - self.start)


def _x_ticks(xs: Sequence[float], log: bool) -> list[float]:
    """Log x: the measured values themselves (concurrencies 1, 2, 4 …); else round ticks."""
    return sorted(set(xs)) if log else nice_ticks(min(xs), max(xs))


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    if kind == "square":
        return f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" fill="{colour}"/>'
    if kind == "diamond":
        return (f'<polygon points="{x:.1f},{y - 4:.1f} {x + 4:.1f},{y:.1f} {x:.1f},{y + 4:.1f} '
                f'{x - 4:.1f},{y:.1f}" fill="{colour}"/>')
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>'


def render_svg(chart: Chart) -> str:
    """The chart as a complete SVG document (an empty chart says so in its plot area)."""
    left, right = _MARGIN["left"], WIDTH - _MARGIN["right"]
    top, bottom = _MARGIN["top"], HEIGHT - _MARGIN["bottom"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="14" '
           f'font-weight="bold">{escape(_fitted(chart.title))}</text>']
    points = [p for s in chart.series for p in s.points if all(map(math.isfinite, p))]
    if chart.log_x:
        points = [p for p in points if p[0] > 0]
    if not points:
        out.append(f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle">no data</text>')
        return "\n".join([*out, "</svg>"]) + "\n"
    xs = [x for x, _ in points]
    ys = [y for _, y in points] + list(chart.guides)
    x_ticks = _x_ticks(xs, chart.log_x)
    y_ticks = nice_ticks(0.0 if chart.y_from_zero else min(ys), max(ys))
    sx = _Scale(x_ticks[0], x_ticks[-1], left, right, chart.log_x)
    sy = _Scale(y_ticks[0], y_ticks[-1], bottom, top, False)
    out += _axes(chart, x_ticks, y_ticks, sx, sy, (left, right, top, bottom))
    for index, series in enumerate(chart.series):
        out += _series(series, _STYLES[index % len(_STYLES)], sx, sy, chart.log_x)
    out += _legend(chart.series, left, HEIGHT - 18)
    return "\n".join([*out, "</svg>"]) + "\n"


def _axes(chart: Chart, x_ticks: Sequence[float], y_ticks: Sequence[float], sx: _Scale,
          sy: _Scale, box: tuple[float, float, float, float]) -> list[str]:
    """Grid, ticks with round labels, axis titles and reference lines."""
    left, right, top, bottom = box
    out = [f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" '
           f'fill="none" stroke="#444"/>']
    for tick in y_ticks:
        y = sy(tick)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick_text(tick)}</text>')
    for tick in x_ticks:
        x = sx(tick)
        out.append(f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 4}" stroke="#444"/>')
        out.append(f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle">{tick_text(tick)}</text>')
    for guide in chart.guides:
        y = sy(guide)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" stroke="#888" '
                   f'stroke-dasharray="3 3"/>')
    out.append(f'<text x="{(left + right) / 2}" y="{bottom + 32}" text-anchor="middle">'
               f'{escape(chart.x_label)}{" (log scale)" if chart.log_x else ""}</text>')
    out.append(f'<text transform="translate(16 {(top + bottom) / 2}) rotate(-90)" '
               f'text-anchor="middle">{escape(chart.y_label)}</text>')
    return out


def _series(series: Series, style: tuple[str, str, str], sx: _Scale, sy: _Scale,
            log_x: bool) -> list[str]:
    """One line with its markers and point labels."""
    colour, dash, marker = style
    shown = [(x, y) for x, y in series.points
             if math.isfinite(x) and math.isfinite(y) and (x > 0 or not log_x)]
    coords = [(sx(x), sy(y)) for x, y in shown]
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    out = [f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dashes} points="'
           + " ".join(f"{x:.1f},{y:.1f}" for x, y in coords) + '"/>']
    out += [_marker(marker, x, y, colour) for x, y in coords]
    for (x, y), label in zip(coords, series.labels, strict=False):
        if label:
            out.append(f'<text x="{x:.1f}" y="{y - 8:.1f}" text-anchor="middle" '
                       f'fill="{colour}">{escape(label)}</text>')
    return out


def _legend(series: Sequence[Series], x: float, y: float) -> list[str]:
    """Each series' line style and name, in one row under the plot."""
    out = []
    for index, item in enumerate(series):
        colour, dash, marker = _STYLES[index % len(_STYLES)]
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{x}" y1="{y - 4}" x2="{x + 24}" y2="{y - 4}" stroke="{colour}" '
                   f'stroke-width="2"{dashes}/>')
        out.append(_marker(marker, x + 12, y - 4, colour))
        out.append(f'<text x="{x + 30}" y="{y}">{escape(item.name)}</text>')
        x += 40 + 7 * len(item.name)
    return out
