"""Bars and multi-row history charts on absolute scales, as plain strings (one pane, one Text).

Both take a value and its scale's top (100 for %, the total for memory, the limit for power),
so a steady 100% fills a bar and an idle GPU draws a flat floor, whatever the history holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from sessiontui.project_memory.humanize import duration

EIGHTHS = " ▁▂▃▄▅▆▇█"  # vertical fill of one chart cell, in eighths
PARTIAL = " ▏▎▍▌▋▊▉"  # horizontal fill of one bar cell, in eighths


def fraction(value: float | None, top: float | None) -> float | None:
    """value / top clamped to 0..1; None when either is unknown or top is not positive."""
    if value is None or top is None or top <= 0 or value != value:
        return None
    return min(1.0, max(0.0, value / top))


def hbar(share: float | None, width: int) -> tuple[str, str]:
    """A horizontal bar `width` cells wide: (filled part, empty part), eighth-cell resolution."""
    if width <= 0:
        return "", ""
    if share is None:
        return "", "·" * width
    eighths = round(share * width * 8)
    full, part = divmod(eighths, 8)
    filled = "█" * full + (PARTIAL[part] if part and full < width else "")
    return filled, " " * (width - len(filled))


def chart(values: Sequence[float | None], top: float | None, width: int, height: int) -> list[str]:
    """The last `width` values as `height` rows of block cells (top row first), newest on the
    right; a known value draws at least a floor (`▁`: zero is data), missing values and an
    unknown scale draw empty columns."""
    shown = list(values[-width:]) if width > 0 else []
    columns = [" " * height] * (width - len(shown))
    for value in shown:
        share = fraction(value, top)
        eighths = 0 if share is None else max(1, round(share * height * 8))
        columns.append(_column(eighths, height))
    return ["".join(cells) for cells in zip(*columns, strict=True)] if columns else [""] * height


@cache  # a chart column is one of a few dozen strings: drawn once, not per sample
def _column(eighths: int, height: int) -> str:
    """One chart column, top cell first, filled to `eighths` from the bottom."""
    cells = []
    for row in range(height - 1, -1, -1):  # top row first
        cells.append(EIGHTHS[min(8, max(0, eighths - row * 8))])
    return "".join(cells)


def time_axis(width: int, span_s: float | None) -> str:
    """A label row under a chart `width` cells wide covering `span_s` seconds: `-2 min … now`."""
    if width < 8:
        return " " * width
    left = "" if span_s is None else f"-{duration(span_s)}"
    middle = "" if span_s is None or width < 24 else f"-{duration(span_s / 2)}"
    line = [" "] * width
    line[: len(left)] = left
    if middle:
        start = (width - len(middle)) // 2
        line[start : start + len(middle)] = middle
    line[width - 3 :] = "now"
    return "".join(line)

