"""SVG charts: well-formed documents with round ticks, labelled axes and a legend."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from sessiontui.tui.axes import Series, nice_ticks
from sessiontui.tui.svg_chart import Chart, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_ticks_are_round_and_cover_the_range() -> None:
    assert nice_ticks(3.713, 6.82) == [3.0, 4.0, 5.0, 6.0, 7.0]
    assert nice_ticks(0, 950) == [0, 200, 400, 600, 800, 1000]
    assert nice_ticks(0.61, 0.93) == [0.6, 0.7, 0.8, 0.9, 1.0]
    assert nice_ticks(5, 5)[0] <= 5 <= nice_ticks(5, 5)[-1]


def test_a_chart_is_valid_svg_with_its_series_axes_and_legend() -> None:
    chart = Chart("tok/s by concurrency", "concurrency", "output tok/s", (
        Series("eagle3 <tree>", ((1, 160.0), (4, 360.0), (16, 744.0)), ("1.60x", "1.20x", "0.93x")),
        Series("number to beat", ((1, 100.0), (4, 300.0), (16, 800.0))),
    ), log_x=True, y_from_zero=True)
    root = ET.fromstring(render_svg(chart))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "eagle3 <tree>" in texts and "number to beat" in texts  # legend, escaped on the way out
    assert {"1", "4", "16"} <= set(texts) and "0" in texts and "800" in texts
    assert {"1.60x", "0.93x"} <= set(texts) and "concurrency (log scale)" in texts
    lines = list(root.iter(f"{SVG}polyline"))
    assert len(lines) == 2 and lines[0].get("stroke-dasharray") is None
    assert lines[1].get("stroke-dasharray")  # told apart without colour


def test_an_empty_chart_says_so() -> None:
    root = ET.fromstring(render_svg(Chart("loss", "step", "loss", (Series("a", ()),))))
    assert "no data" in [t.text for t in root.iter(f"{SVG}text")]
