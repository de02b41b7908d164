"""Milliseconds to draw the GPU pane's history charts for one sample, from the demo's GPU trace.

The newest chart column is the group of samples still filling, so the charts are drawn at every
sample. Run: `.venv/bin/python benchmarks/gpu_charts.py`.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from rich.style import Style

from sessiontui.tui.demo import planned_demo
from sessiontui.tui.widgets.gpu_pane import CHART_SAMPLES, HISTORY, GpuHistory
from sessiontui.tui.widgets.gpu_view import chart_width, gpu_charts

ROUNDS = 500
ROWS = 6  # the tallest chart form


def main() -> None:
    replay = planned_demo(Path(tempfile.mkdtemp())).gpu_collector()
    histories: dict[int, GpuHistory] = {}
    for _ in range(HISTORY):
        snapshot = replay.sample()
        for sample in snapshot.gpus:
            histories.setdefault(sample.index, GpuHistory()).add(sample)
    for width in (78, 156):
        cell = chart_width(width)
        per = -(-CHART_SAMPLES // cell)
        start = time.perf_counter()
        for n in range(ROUNDS):
            for sample in snapshot.gpus:
                series = histories[sample.index].columns(cell, per, n % per)
                gpu_charts(sample, series, 120.0, width, ROWS, lambda _name: Style())
        spent = (time.perf_counter() - start) / ROUNDS * 1000
        print(f"{len(snapshot.gpus)} GPUs, pane {width} columns: {spent:.2f} ms per sample")


if __name__ == "__main__":
    main()
