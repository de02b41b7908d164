"""The comparison charts' plot: a marker per series at each data point (NO_COLOR tells series
apart), braille joins 4 dots down per cell (finer than a row per cell), labelled axes."""

from __future__ import annotations

from sessiontui.tui.axes import Series
from sessiontui.tui.widgets.line_plot import BRAILLE, DOT_BITS, MARKERS, plot_lines

RISING = Series("loss", ((0.0, 0.0), (40.0, 1.0)))
FALLING = Series("τ", ((0.0, 1.0), (20.0, 0.5), (40.0, 0.0)))


def plot(*series: Series, width: int = 60, height: int = 8) -> list[str]:
    return [line.plain for line in plot_lines(series, width, height, [])]


def dot_heights(lines: list[str]) -> set[int]:
    """Every height (in dots, from the top) at which a braille dot is drawn."""
    heights = set()
    for row, line in enumerate(lines):
        for char in line:
            bits = ord(char) - BRAILLE
            if 0 < bits <= 0xFF:
                heights |= {row * 4 + down for down, pair in enumerate(DOT_BITS)
                            if any(bits & bit for bit in pair)}
    return heights


def test_each_data_point_has_its_series_marker_without_colour() -> None:
    body = "\n".join(plot(RISING, FALLING)[:-2])  # the plot rows, not the x axis
    assert body.count(MARKERS[0]) == len(RISING.points)
    assert body.count(MARKERS[1]) == len(FALLING.points)


def test_joins_climb_in_quarter_rows() -> None:
    lines = plot(RISING)
    rows = len(lines) - 2
    assert len(dot_heights(lines[:rows])) > rows  # more heights than one per row


def test_the_axes_keep_their_round_labels() -> None:
    lines = plot(RISING)
    assert lines[0].lstrip().startswith("1 │") and lines[-3].lstrip().startswith("0 │")
    assert lines[-1].split() == ["0", "10", "20", "30", "40"]
