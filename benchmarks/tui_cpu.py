"""Average CPU of `sessiontui demo` in tmux vs a minimal Textual app, measured alike in one run.

The minimal app is one Static and one 200-point Sparkline updated at 1 Hz (benchmarks/minimal_app.py).
CPU is the user+system time of the app's process tree (psutil) over the window, as % of one core,
leaving out the demo's simulated training job (`python -m sessiontui.tui.demo`): it stands for the user's job,
which runs beside the app, not in it.
Issue 6 target: sessiontui <= 1.4x the minimal app. Run: `.venv/bin/python benchmarks/tui_cpu.py`.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import psutil
from minimal_app import READY_TEXT
from tmux_session import TmuxSession

HERE = Path(__file__).resolve().parent
# The console script beside this interpreter (a venv), else the one on PATH (a --target install).
SESSIONTUI = Path(
    shutil.which("sessiontui", path=str(Path(sys.executable).parent))
    or shutil.which("sessiontui")
    or Path(sys.executable).parent / "sessiontui"
)
TARGET_RATIO = 1.4


def app_shown(screen: str) -> bool:
    """The demo is up: its view tabs and key bar are drawn."""
    return "Training" in screen and "Quit" in screen


def is_simulated_job(proc: psutil.Process) -> bool:
    """The demo's stand-in for the training job being watched."""
    with contextlib.suppress(psutil.Error):
        return "sessiontui.tui.demo" in proc.cmdline()  # the module argument, not `sessiontui demo`
    return False


def tree_cpu_s(pid: int) -> float:
    """User+system CPU seconds of a process and its descendants, but not the simulated job."""
    root = psutil.Process(pid)
    total = 0.0
    for proc in (root, *root.children(recursive=True)):
        if is_simulated_job(proc):
            continue
        with contextlib.suppress(psutil.NoSuchProcess):
            times = proc.cpu_times()
            total += times.user + times.system
    return total


def average_cpu_pct(
    command: Sequence[str], ready: Callable[[str], bool], *, seconds: float, warmup_s: float,
    size: tuple[int, int], cwd: Path | None = None, capture: Path | None = None,
) -> float:
    """Start `command` in tmux, wait until ready and warm, then average its CPU over `seconds`
    (and write the last screen to `capture`, if given)."""
    with TmuxSession(command, width=size[0], height=size[1], cwd=cwd) as session:
        if session.wait_for(ready, timeout_s=120) is None:
            raise SystemExit(f"{command[-1]} never showed its first screen:\n{session.screen()}")
        time.sleep(warmup_s)
        pid = session.pane_pid()
        cpu_before, wall_before = tree_cpu_s(pid), time.monotonic()
        time.sleep(seconds)
        cpu_after, wall_after = tree_cpu_s(pid), time.monotonic()
        if capture is not None:
            capture.write_text(session.screen(), encoding="utf-8")
    return 100 * (cpu_after - cpu_before) / (wall_after - wall_before)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="measurement window per app")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds ignored after start")
    parser.add_argument("--rounds", type=int, default=1,
                        help="alternate the two apps this many times (medians reported)")
    parser.add_argument("--size", default="100x30", help="tmux pane size, WxH")
    args = parser.parse_args()
    size = tuple(int(n) for n in args.size.split("x"))
    common = {"seconds": args.seconds, "warmup_s": args.warmup, "size": size}
    minimal_runs, demo_runs = [], []
    for round_number in range(1, args.rounds + 1):
        minimal_runs.append(average_cpu_pct(
            [sys.executable, str(HERE / "minimal_app.py"), "sparkline"],
            lambda screen: READY_TEXT in screen, **common,
        ))
        demo_runs.append(average_cpu_pct([str(SESSIONTUI), "demo"], app_shown, **common))
        print(f"round {round_number}: minimal {minimal_runs[-1]:.2f}%, demo {demo_runs[-1]:.2f}%")
    minimal, demo = statistics.median(minimal_runs), statistics.median(demo_runs)
    print(f"pane {args.size}, {args.seconds:.0f} s per app after {args.warmup:.0f} s warm-up, "
          f"median of {args.rounds} round(s), {psutil.cpu_count()} cores")
    print(f"minimal app (Static + 200-point Sparkline at 1 Hz): {minimal:6.2f}% of a core")
    print(f"sessiontui demo:                                    {demo:6.2f}% of a core")
    print(f"ratio: {demo / minimal:.2f}x (target <= {TARGET_RATIO}x)")


if __name__ == "__main__":
    main()
