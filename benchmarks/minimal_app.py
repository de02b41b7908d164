"""Reference minimal Textual apps that the TUI benchmarks compare sessiontui against.

`static`: one Static (the startup reference). `sparkline`: one Static and one 200-point Sparkline
updated once a second (the CPU reference, issue 6). Run: `python benchmarks/minimal_app.py KIND`.
"""

from __future__ import annotations

import math
import sys
from collections import deque

from textual.app import App, ComposeResult
from textual.widgets import Sparkline, Static

READY_TEXT = "minimal app ready"
POINTS = 200


class StaticApp(App):
    """One Static and nothing else."""

    def compose(self) -> ComposeResult:
        yield Static(READY_TEXT)


class SparklineApp(App):
    """One Static and one Sparkline of 200 points, both updated at 1 Hz like a GPU pane."""

    def __init__(self) -> None:
        super().__init__()
        self.tick = 0
        self.values: deque[float] = deque(
            (50 + 40 * math.sin(i / 7) for i in range(POINTS)), maxlen=POINTS
        )

    def compose(self) -> ComposeResult:
        yield Static(READY_TEXT, id="status")
        yield Sparkline(list(self.values), id="spark")

    def on_mount(self) -> None:
        self.set_interval(1.0, self.update_once)

    def update_once(self) -> None:
        """Push one new point and rewrite the label, as a 1 Hz collector would."""
        self.tick += 1
        self.values.append(50 + 40 * math.sin((POINTS + self.tick) / 7))
        self.query_one("#spark", Sparkline).data = list(self.values)
        self.query_one("#status", Static).update(f"{READY_TEXT}: tick {self.tick}")


APPS = {"static": StaticApp, "sparkline": SparklineApp}

if __name__ == "__main__":
    kind = sys.argv[1] if len(sys.argv) > 1 else "sparkline"
    APPS[kind]().run()
