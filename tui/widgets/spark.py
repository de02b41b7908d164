"""Sparklines and progress bars as plain text, so a whole pane repaints as one widget."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

BARS = "▁▂▃▄▅▆▇█"


def spark(values: Sequence[float], width: int) -> str:
    """Values as block characters scaled from their min to their max, at most `width` of them."""
    finite = [v for v in values if math.isfinite(v)]
    if width <= 0 or not finite:
        return ""
    if len(finite) > width:
        from sessiontui.collectors.trainlog.history import history_for_chart  # keeps start-up light

        finite = history_for_chart(list(enumerate(finite)), width)
    low, span = min(finite), max(finite) - min(finite)
    if not span:
        return BARS[0] * len(finite)
    return "".join(BARS[min(len(BARS) - 1, int((v - low) / span * len(BARS)))] for v in finite)


def bar(fraction: float, width: int, done: Style, rest: Style) -> Text:
    """A progress bar `width` cells wide followed by the percentage."""
    fraction = min(1.0, max(0.0, fraction))
    cells = max(0, width - 5)
    filled = round(fraction * cells)
    text = Text("━" * filled, style=done)
    text.append("━" * (cells - filled), style=rest)
    text.append(f" {100 * fraction:3.0f}%")
    return text
