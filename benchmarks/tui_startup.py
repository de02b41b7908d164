"""Time from launch to the first full frame: sessiontui vs a one-Static Textual app, same method.

Each app starts in a fresh detached tmux pane (160x48 by default: the four panes side by side);
the clock runs from just before `tmux new-session` until `capture-pane` (polled every 5 ms) first
shows a frame, so tmux's own start-up counts equally for every app. For sessiontui three moments
are taken in the same launch: the first frame (tabs and key bar drawn), the full frame (the
followed run's progress shown) and all four panes filled (the GPU pane's first sample and host
line, the followed run, the memory's records, the answer pane's prompt). Each round launches
every app once; prints the median time and the median of the per-round ratios to the minimal
app's first paint. Targets: first frame <= 1.5x (issue 6), all four panes <= 2x (issue 31).
Run: `.venv/bin/python benchmarks/tui_startup.py [--size 100x30]`.
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
PANES_TARGET_RATIO = 2.0
Condition = Callable[[str], bool]


def first_frame(screen: str) -> bool:
    """The app's chrome is drawn: view tabs and the footer's key bindings."""
    return "Training" in screen and "Quit" in screen


def full_frame(screen: str) -> bool:
    """The chrome plus the followed training run's step/total."""
    return first_frame(screen) and "/12000" in screen


def all_panes(screen: str) -> bool:
    """Every pane shows its data: the GPU pane a sample and the host line (`load ...`), the
    training pane the run's step, the memory pane the demo's records (its finished run's row),
    the answer pane its prompt. In the narrow (tabbed) layout only the training pane shows."""
    gpus = "load " in screen and "waiting for the first GPU sample" not in screen
    memory = "12000/12000" in screen and "lesson" in screen
    return full_frame(screen) and gpus and memory and "ask a question" in screen


def frame_times(
    command: Sequence[str], conditions: Sequence[Condition], *, cwd: Path | None = None,
    size: tuple[int, int] = (160, 48),
) -> list[float]:
    """Seconds from launch until each condition first holds on the screen."""
    hits: list[float | None] = [None] * len(conditions)
    with TmuxSession(command, width=size[0], height=size[1], cwd=cwd) as session:
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
    parser.add_argument("--size", default="160x48", help="the tmux pane, WIDTHxHEIGHT")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.lower().split("x"))
    size = (width, height)
    wide = width >= 140  # narrower, the panes are tabs: only the training pane shows
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
                                             [first_frame, full_frame, *[all_panes][:wide]]),
            "sessiontui, new folder": ([str(SESSIONTUI)], empty, [first_frame]),
            "sessiontui demo (builds it)": ([str(SESSIONTUI), "demo"], None,
                                            [first_frame, full_frame]),
        }
        rounds: dict[str, list[list[float]]] = {label: [] for label in launches}
        for _ in range(args.runs):  # interleaved, so a slow spell of the machine hits every app
            for label, (command, cwd, conditions) in launches.items():
                rounds[label].append(frame_times(command, conditions, cwd=cwd, size=size))
    minimal = [times[0] for times in rounds.pop("minimal")]
    print(f"median of {args.runs} interleaved rounds, {args.size} tmux pane (targets: first "
          f"frame <= {TARGET_RATIO}x, all four panes <= {PANES_TARGET_RATIO}x the minimal app)")
    print(f"{'minimal app (one Static):':31} {1000 * statistics.median(minimal):6.0f} ms")
    for label, samples in rounds.items():
        parts = []
        names = ("first frame", "full frame", "all four panes")
        for name, column in zip(names, zip(*samples, strict=True), strict=False):
            ratios = [t / m for t, m in zip(column, minimal, strict=True)]
            parts.append(f"{name} {1000 * statistics.median(column):6.0f} ms "
                         f"({statistics.median(ratios):.2f}x)")
        print(f"{label + ':':31} " + ", ".join(parts))


if __name__ == "__main__":
    main()
