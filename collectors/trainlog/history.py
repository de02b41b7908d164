"""Bounded metric histories: a multi-day run keeps at most a few hundred points per metric."""

from __future__ import annotations

from collections.abc import Sequence

MAX_POINTS = 512


class Series:
    """(step, value) points of one metric; when full, every other point goes and spacing doubles."""

    __slots__ = ("points", "stride", "last_step", "next_step")

    def __init__(self) -> None:
        self.points: list[tuple[int, float]] = []
        self.stride = 1
        self.last_step = 1 << 62  # steps in [last_step, next_step) add nothing new
        self.next_step = -(1 << 62)

    def add(self, step: int, value: float) -> None:
        """Keep the point if it is at least one stride past the last kept one (or a restart)."""
        if self.last_step <= step < self.next_step:
            return
        self.points.append((step, value))
        self.last_step, self.next_step = step, step + self.stride
        if len(self.points) > MAX_POINTS:
            self.points = self.points[1::2]
            self.stride *= 2
            self.last_step = self.points[-1][0]
            self.next_step = self.last_step + self.stride


def history_for_chart(series: Sequence[tuple[float, float]], width: int) -> list[float]:
    """At most `width` values for a chart column each: the mean of the points that fall in it."""
    if width <= 0 or not series:
        return []
    if len(series) <= width:
        return [value for _, value in series]
    out = []
    for column in range(width):
        lo = column * len(series) // width
        hi = max(lo + 1, (column + 1) * len(series) // width)
        chunk = [value for _, value in series[lo:hi]]
        out.append(sum(chunk) / len(chunk))
    return out
