"""Round axis ticks and the series they scale, shared by the terminal charts and the SVG ones:
one rule for every scale."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Series:
    """One line of a chart: its legend name and its (x, y) points."""

    name: str
    points: tuple[tuple[float, float], ...]
    labels: tuple[str, ...] = ()  # optional text above each point (a ratio, say): SVG charts only


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten) covering low..high."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return []
    if high <= low:
        high = low + (abs(low) or 1.0)
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    fraction = raw / power  # rounded to the nearest of 1, 2, 5, 10: about `count` ticks
    step = power * (1 if fraction < 1.5 else 2 if fraction < 3 else 5 if fraction < 7 else 10)
    ticks = []
    value = math.floor(low / step) * step
    while value <= high + step * 1e-9:
        ticks.append(round(value, 12))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 12))
    return ticks


def tick_text(value: float) -> str:
    """A tick label without trailing noise: 1,000 · 2.5 · 0.05."""
    if value == int(value):
        return f"{int(value):,}"
    return f"{value:g}"
