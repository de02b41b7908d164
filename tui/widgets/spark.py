"""Sparklines and progress bars as plain text, so a whole pane repaints as one widget."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

BARS = "▁▂▃▄▅▆▇█"


def scale(values: Sequence[float], min_span: float = 0.0) -> tuple[float, float]:
    """The range a chart draws: the values' min to max, widened about its middle to `min_span`.

    Noise (a loss between 2.30 and 2.31) then draws as a flat line, not as full-height bars.
    """
    low, high = min(values), max(values)
    if high - low < min_span:
        middle = (low + high) / 2
        low, high = middle - min_span / 2, middle + min_span / 2
    return low, high


def spark(
    values: Sequence[float], width: int, *, low: float | None = None, high: float | None = None,
    min_span: float = 0.0,
) -> str:
    """Values as block characters, at most `width` of them, scaled from `low` to `high`.

    Without `low`/`high` the scale is the values' own range (at least `min_span` wide).
    """
    finite = [v for v in values if math.isfinite(v)]
    if width <= 0 or not finite:
        return ""
    if len(finite) > width:
        from sessiontui.collectors.trainlog.history import history_for_chart  # keeps start-up light

        finite = history_for_chart(list(enumerate(finite)), width)
    own_low, own_high = scale(finite, min_span)
    low = own_low if low is None else low
    span = (own_high if high is None else high) - low
    if span <= 0:
        return BARS[0] * len(finite)
    top = len(BARS) - 1
    return "".join(BARS[max(0, min(top, int((v - low) / span * len(BARS))))] for v in finite)


def bar(fraction: float, width: int, done: Style, rest: Style) -> Text:
    """A progress bar `width` cells wide followed by the percentage."""
    fraction = min(1.0, max(0.0, fraction))
    cells = max(0, width - 5)
    filled = round(fraction * cells)
    text = Text("━" * filled, style=done)
    text.append("━" * (cells - filled), style=rest)
    text.append(f" {100 * fraction:3.0f}%")
    return text
