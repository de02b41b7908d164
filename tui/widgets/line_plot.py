"""Several series on one character grid, with round ticks: the comparison screens' charts.

Each series has its own marker (● × ◆ +) as well as its own colour, so the chart reads in NO_COLOR
and on a monochrome terminal; points are joined by dots at the columns between them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from sessiontui.tui.axes import nice_ticks, tick_text

MARKERS = "●×◆+"
JOIN = "·"


@dataclass(frozen=True)
class PlotSeries:
    """One line of a plot: its name and its (x, y) points in x order."""

    name: str
    points: tuple[tuple[float, float], ...]


def _position(value: float, low: float, high: float, cells: int, log: bool) -> int:
    """The cell (0..cells-1) a value falls in along one axis."""
    if log:
        value, low, high = math.log2(value), math.log2(low), math.log2(high)
    if high == low:
        return 0
    return round((value - low) / (high - low) * (cells - 1))


def _usable(series: Sequence[PlotSeries], log_x: bool) -> list[list[tuple[float, float]]]:
    return [[(x, y) for x, y in s.points if math.isfinite(x) and math.isfinite(y)
             and (x > 0 or not log_x)] for s in series]


def plot_lines(series: Sequence[PlotSeries], width: int, height: int, styles: Sequence[Style],
               *, log_x: bool = False, y_from_zero: bool = False) -> list[Text]:
    """`height` lines of `width` cells: y labels, the plot, the x axis and its labels."""
    points = _usable(series, log_x)
    flat = [p for line in points for p in line]
    if not flat or height < 4 or width < 16:
        return [Text("no figures to draw yet")]
    y_ticks = nice_ticks(0.0 if y_from_zero else min(y for _, y in flat), max(y for _, y in flat),
                         count=max(2, min(5, height // 3)))
    label_width = max(len(tick_text(t)) for t in y_ticks) + 1
    cols, rows = width - label_width - 1, height - 2
    xs = sorted({x for x, _ in flat})
    x_low, x_high = xs[0], xs[-1]
    grid: list[list[tuple[str, int | None]]] = [[(" ", None)] * cols for _ in range(rows)]

    def cell(x: float, y: float) -> tuple[int, int]:
        row = rows - 1 - _position(y, y_ticks[0], y_ticks[-1], rows, False)
        return _position(x, x_low, x_high, cols, log_x), row

    for index, line in enumerate(points):
        cells = [cell(x, y) for x, y in line]
        for (c0, r0), (c1, r1) in zip(cells, cells[1:], strict=False):
            for col in range(c0 + 1, c1):
                row = round(r0 + (r1 - r0) * (col - c0) / (c1 - c0))
                if grid[row][col][0] == " ":
                    grid[row][col] = (JOIN, index)
        for col, row in cells:
            grid[row][col] = (MARKERS[index % len(MARKERS)], index)
    tick_rows = {rows - 1 - _position(t, y_ticks[0], y_ticks[-1], rows, False): t for t in y_ticks}
    lines = []
    for row_index, cells_of_row in enumerate(grid):
        label = tick_text(tick_rows[row_index]) if row_index in tick_rows else ""
        text = Text(label.rjust(label_width - 1) + " │")
        for char, owner in cells_of_row:
            text.append(char, styles[owner % len(styles)] if owner is not None and styles else None)
        lines.append(text)
    lines.append(Text(" " * label_width + "└" + "─" * cols))
    lines.append(Text(" " * (label_width + 1) + _x_labels(xs if log_x else nice_ticks(x_low, x_high),
                                                        x_low, x_high, cols, log_x)))
    return lines


def _x_labels(ticks: Sequence[float], low: float, high: float, cols: int, log: bool) -> str:
    """Tick labels under their columns, skipping any that would overlap the one before."""
    row = [" "] * (cols + 8)
    free_from = 0
    for tick in ticks:
        if not low <= tick <= high:
            continue
        label = tick_text(tick)
        start = max(0, min(_position(tick, low, high, cols, log) - len(label) // 2, cols - len(label)))
        if start < free_from:
            continue
        row[start:start + len(label)] = label
        free_from = start + len(label) + 1
    return "".join(row).rstrip()
