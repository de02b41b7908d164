"""Several series on one character grid, with round ticks: the comparison screens' charts.

Each series has its own marker (● × ◆ +) as well as its own colour, so the chart reads in NO_COLOR
and on a monochrome terminal; points are joined by braille dots, 2 across and 4 down per cell, so
a line climbs in quarter rows rather than whole ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from sessiontui.tui.axes import Series, nice_ticks, tick_text

MARKERS = "●×◆+"
BRAILLE = 0x2800  # the empty braille cell; each of its 8 dots adds one bit
DOT_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [dot row][dot column]
DOTS_ACROSS, DOTS_DOWN = 2, 4


def _position(value: float, low: float, high: float, cells: int, log: bool) -> int:
    """The cell (0..cells-1) a value falls in along one axis."""
    if log:
        value, low, high = math.log2(value), math.log2(low), math.log2(high)
    if high == low:
        return 0
    return round((value - low) / (high - low) * (cells - 1))


def _usable(series: Sequence[Series], log_x: bool) -> list[list[tuple[float, float]]]:
    return [[(x, y) for x, y in s.points if math.isfinite(x) and math.isfinite(y)
             and (x > 0 or not log_x)] for s in series]


def plot_lines(series: Sequence[Series], width: int, height: int, styles: Sequence[Style],
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
    dots = _DotGrid(cols, rows)

    def dot(x: float, y: float) -> tuple[int, int]:
        """The dot (across, down from the top) a point falls on."""
        return (_position(x, x_low, x_high, cols * DOTS_ACROSS, log_x),
                rows * DOTS_DOWN - 1 - _position(y, y_ticks[0], y_ticks[-1], rows * DOTS_DOWN, False))

    placed = [[dot(x, y) for x, y in line] for line in points]
    for index, line_dots in enumerate(placed):
        for start, end in zip(line_dots, line_dots[1:], strict=False):
            dots.line(start, end, index)
    for index, line_dots in enumerate(placed):
        for across, down in line_dots:
            dots.mark(across // DOTS_ACROSS, down // DOTS_DOWN, MARKERS[index % len(MARKERS)], index)
    tick_rows = {dot(x_low, t)[1] // DOTS_DOWN: t for t in y_ticks}
    grid = dots.cells()
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
        column = _position(tick, low, high, cols * DOTS_ACROSS, log) // DOTS_ACROSS  # as the points
        start = max(0, min(column - len(label) // 2, cols - len(label)))
        if start < free_from:
            continue
        row[start:start + len(label)] = label
        free_from = start + len(label) + 1
    return "".join(row).rstrip()


class _DotGrid:
    """Braille dots per cell with the series that drew each cell first; a marker replaces them."""

    def __init__(self, cols: int, rows: int) -> None:
        self.bits = [[0] * cols for _ in range(rows)]
        self.owner: list[list[int | None]] = [[None] * cols for _ in range(rows)]
        self.markers: dict[tuple[int, int], str] = {}

    def line(self, start: tuple[int, int], end: tuple[int, int], owner: int) -> None:
        """Dots from one point to the next, one per step along the longer direction."""
        (x0, y0), (x1, y1) = start, end
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for step in range(steps + 1):
            across = round(x0 + (x1 - x0) * step / steps)
            down = round(y0 + (y1 - y0) * step / steps)
            row, col = down // DOTS_DOWN, across // DOTS_ACROSS
            self.bits[row][col] |= DOT_BITS[down % DOTS_DOWN][across % DOTS_ACROSS]
            if self.owner[row][col] is None:
                self.owner[row][col] = owner

    def mark(self, col: int, row: int, marker: str, owner: int) -> None:
        """A series' marker at a data point's cell (the last series drawn there wins)."""
        self.markers[row, col] = marker
        self.owner[row][col] = owner

    def cells(self) -> list[list[tuple[str, int | None]]]:
        """Each cell's character and owning series (None where nothing is drawn)."""
        return [[(self.markers.get((r, c)) or (chr(BRAILLE + bits) if bits else " "),
                  self.owner[r][c]) for c, bits in enumerate(row)]
                for r, row in enumerate(self.bits)]
