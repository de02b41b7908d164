"""Time from launch to the first full frame: sessiontui vs a one-Static Textual app, same method.

Each app starts in a fresh detached tmux pane; the clock runs from just before `tmux new-session`
until `capture-pane` (polled every 5 ms) first shows a frame, so tmux's own start-up counts equally
for every app. For sessiontui two moments are taken in the same launch: the first frame (tabs and
footer drawn) and the full frame (the followed run's progress shown). Prints medians.
Issue 6 target: <= 1.5x the minimal app. Run: `.venv/bin/python benchmarks/tui_startup.py`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from minimal_app import READY_TEXT
from tmux_session import TmuxSession

HERE = Path(__file__).resolve().parent
SESSIONTUI = Path(sys.executable).parent / "sessiontui"
TARGET_RATIO = 1.5
Condition = Callable[[str], bool]


def first_frame(screen: str) -> bool:
    """The app's chrome is drawn: view tabs and the footer's key bindings."""
    return "Training" in screen and "Quit" in screen


def full_frame(screen: str) -> bool:
    """The chrome plus the followed training run's step/total."""
    return first_frame(screen) and "/12000" in screen


def frame_times(
    command: Sequence[str], conditions: Sequence[Condition], *, cwd: Path | None = None
) -> list[float]:
    """Seconds from launch until each condition first holds on the screen."""
    hits: list[float | None] = [None] * len(conditions)
    with TmuxSession(command, width=100, height=30, cwd=cwd) as session:
        deadline = time.monotonic() + 120
        while None in hits:
            if time.monotonic() > deadline:
                raise SystemExit(f"{command} never showed its frames:\n{session.screen()}")
            screen = session.screen()
            now = time.perf_counter() - session.started_at
            hits = [hit if hit is not None or not cond(screen) else now
                    for hit, cond in zip(hits, conditions, strict=True)]
            time.sleep(0.005)
    return hits


def medians(runs: int, command: Sequence[str], conditions: Sequence[Condition],
            **kw) -> list[float]:
    samples = [frame_times(command, conditions, **kw) for _ in range(runs)]
    return [statistics.median(column) for column in zip(*samples, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="launches per app (median reported)")
    args = parser.parse_args()
    from tui.demo import build_demo

    (minimal,) = medians(args.runs, [sys.executable, str(HERE / "minimal_app.py"), "static"],
                         [lambda screen: READY_TEXT in screen])
    demo_first, demo_full = medians(args.runs, [str(SESSIONTUI), "demo"], [first_frame, full_frame])
    with tempfile.TemporaryDirectory(prefix="sessiontui-startup-") as folder:
        project = build_demo(Path(folder) / "project")  # the app alone, on an existing project
        app_first, app_full = medians(args.runs, [str(SESSIONTUI)], [first_frame, full_frame],
                                      cwd=project.dir)
    print(f"median of {args.runs} launches, 100x30 tmux pane (target <= {TARGET_RATIO}x)")
    print(f"minimal app (one Static):        {1000 * minimal:6.0f} ms")
    for label, first, full in (("sessiontui, existing project:", app_first, app_full),
                               ("sessiontui demo (builds it):  ", demo_first, demo_full)):
        print(f"{label}   first frame {1000 * first:6.0f} ms ({first / minimal:.2f}x), "
              f"full frame {1000 * full:6.0f} ms ({full / minimal:.2f}x)")


if __name__ == "__main__":
    main()
