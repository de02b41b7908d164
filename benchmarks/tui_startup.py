"""Time from launch to the first full frame: sessiontui vs a one-Static Textual app, same method.

Each app starts in a fresh detached tmux pane; the clock runs from just before `tmux new-session`
until `capture-pane` (polled every 5 ms) first shows a frame, so tmux's own start-up counts equally
for every app. For sessiontui two moments are taken in the same launch: the first frame (tabs and
key bar drawn) and the full frame (the followed run's progress shown). Each round launches every
app once; prints the median time and the median of the per-round ratios to the minimal app.
Issue 6 target: <= 1.5x the minimal app. Run: `.venv/bin/python benchmarks/tui_startup.py`.
"""

from __future__ import annotations

import argparse
import compileall
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


def precompile() -> None:
    """Write our packages' bytecode, as a wheel install does (an editable one under
    PYTHONDONTWRITEBYTECODE would otherwise compile every module on every launch)."""
    root = HERE.parent
    for package in ("project_memory", "collectors", "tui"):
        compileall.compile_dir(root / package, quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="rounds (median reported)")
    args = parser.parse_args()
    from sessiontui.tui.demo import build_demo

    precompile()
    with tempfile.TemporaryDirectory(prefix="sessiontui-startup-") as folder:
        project = build_demo(Path(folder) / "project")  # the app alone, on an existing project
        empty = Path(folder) / "empty"
        empty.mkdir()
        launches = {  # label: (command, cwd, frame conditions)
            "minimal": ([sys.executable, str(HERE / "minimal_app.py"), "static"], None,
                        [lambda screen: READY_TEXT in screen]),
            "sessiontui, existing project": ([str(SESSIONTUI)], project.dir,
                                             [first_frame, full_frame]),
            "sessiontui, new folder": ([str(SESSIONTUI)], empty, [first_frame]),
            "sessiontui demo (builds it)": ([str(SESSIONTUI), "demo"], None,
                                            [first_frame, full_frame]),
        }
        rounds: dict[str, list[list[float]]] = {label: [] for label in launches}
        for _ in range(args.runs):  # interleaved, so a slow spell of the machine hits every app
            for label, (command, cwd, conditions) in launches.items():
                rounds[label].append(frame_times(command, conditions, cwd=cwd))
    minimal = [times[0] for times in rounds.pop("minimal")]
    print(f"median of {args.runs} interleaved rounds, 100x30 tmux pane (target <= {TARGET_RATIO}x)")
    print(f"{'minimal app (one Static):':31} {1000 * statistics.median(minimal):6.0f} ms")
    for label, samples in rounds.items():
        parts = []
        for name, column in zip(("first frame", "full frame"), zip(*samples, strict=True), strict=False):
            ratios = [t / m for t, m in zip(column, minimal, strict=True)]
            parts.append(f"{name} {1000 * statistics.median(column):6.0f} ms "
                         f"({statistics.median(ratios):.2f}x)")
        print(f"{label + ':':31} " + ", ".join(parts))


if __name__ == "__main__":
    main()
