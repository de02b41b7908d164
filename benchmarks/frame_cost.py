"""UI-thread CPU per GPU frame: the app headless at 160x48 with one replayed H200 GPU at a steady
load, sampled ten times a second so that drawing, not waiting, is what the UI thread does.

Resolves what a steady-state run at 1 Hz cannot (benchmarks/host_cpu.py: a clock tick of a 20 s
window is 0.05% of a core, the VM's noise ~5%): how much a layout or compositor change costs
per frame. Compare trees with PYTHONPATH, interleaved, e.g.
`for t in 1 2 3; do for v in a b; do PYTHONPATH=/tmp/$v .venv/bin/python benchmarks/frame_cost.py --name $v; done; done`.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from sessiontui.collectors.gpu import GpuSnapshot
from sessiontui.collectors.gpu_replay import ReplayGpuCollector
from sessiontui.tui.app import SessionApp
from sessiontui.tui.demo import DATA

BUSY_PCT = 90  # a recorded sample at least this busy is part of the steady load


def steady_load(recorded: Sequence[GpuSnapshot]) -> list[GpuSnapshot]:
    """The recording's first GPU, its busy samples only, one after the other."""
    busy = [frame.gpus[0] for frame in recorded
            if frame.gpus and (frame.gpus[0].util_pct or 0) >= BUSY_PCT]
    return [replace(frame, gpus=(busy[t % len(busy)],)) for t, frame in enumerate(recorded)]


async def measure(warmup_s: float, seconds: float) -> tuple[int, float, float]:
    """(frames, UI-thread CPU seconds, wall seconds) over the window."""
    folder = Path(tempfile.mkdtemp(prefix="frame-cost-"))
    gpus = ReplayGpuCollector(Path(str(DATA / "gpu_trace.jsonl")), layout=steady_load)
    app = SessionApp(folder, store_path=folder / "memory.db", gpu_collector=gpus, refresh_s=0.1)
    async with app.run_test(size=(160, 48)):
        await asyncio.sleep(warmup_s)
        frames, cpu, wall = app.gpu_pane.samples, time.thread_time(), time.monotonic()
        await asyncio.sleep(seconds)
        return (app.gpu_pane.samples - frames, time.thread_time() - cpu,
                time.monotonic() - wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", default="sessiontui", help="label for this tree's line")
    parser.add_argument("--warmup", type=float, default=4.0)
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    frames, cpu, wall = asyncio.run(measure(args.warmup, args.seconds))
    print(f"{args.name}: {frames} GPU frames, UI thread {1000 * cpu / frames:.3f} ms a frame "
          f"({100 * cpu / wall:.1f}% of a core)")


if __name__ == "__main__":
    main()
