"""RSS growth of the app over a simulated 24-hour session, fed at full speed.

A day at 1 Hz is 86,400 GPU samples of 8 GPUs (posted to the app the way its telemetry worker
posts them) and 200,000 training steps (appended, in step with the GPU samples, to a `specforge
train` log with per-position metrics every step, which the app's own follower worker reads).
The app runs headless under Pilot at 160x48, so every pane renders.
Issue 6 target: growth < 50 MB. Run: `.venv/bin/python benchmarks/tui_memory.py [--seconds N]`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import psutil

from sessiontui.collectors.gpu import GpuProcess, GpuSample, GpuSnapshot
from sessiontui.collectors.trainlog import LogFollower
from sessiontui.tui.app import SessionApp
from sessiontui.tui.config import Config
from sessiontui.tui.demo import build_demo
from sessiontui.tui.demo_log import Curve
from sessiontui.tui.messages import GpuSampled

DAY_S = 86_400
DAY_STEPS = 200_000
GPUS = 8
BATCH = 200  # GPU samples posted between pauses, so the UI keeps up as it would at 1 Hz
STALL_S = 60.0


class SyntheticGpus:
    """8 busy H200s whose figures move every sample (shapes as nvidia-ml-py 12.575 reports them)."""

    def __init__(self) -> None:
        self.count = 0
        self._template = tuple(
            GpuSample(
                index=i, name="NVIDIA H200", uuid=f"GPU-bench-{i}", util_pct=0.0,
                mem_util_pct=60.0, mem_used_mib=118_000.0, mem_total_mib=143_771.0, power_w=0.0,
                power_limit_w=700.0, temp_c=60.0, sm_clock_mhz=1980.0, throttle=(),
                processes=(GpuProcess(40_000 + i, "python", 117_500.0),), unavailable={},
            )
            for i in range(GPUS)
        )

    def sample(self) -> GpuSnapshot:
        """The next second of the simulated day."""
        self.count += 1
        wave = math.sin(self.count / 30)
        gpus = tuple(
            replace(g, util_pct=90 + 9 * wave, power_w=600 + 80 * wave, temp_c=60 + 5 * wave,
                    throttle=("sw_power_cap",) if self.count % 97 == 0 else ())
            for g in self._template
        )
        return GpuSnapshot(True, None, float(self.count), "570.133.20", gpus)


def rss_mb() -> float:
    gc.collect()
    return psutil.Process().memory_info().rss / 2**20


async def simulate(seconds: int, steps: int, folder: Path) -> None:
    curve = Curve(total_steps=steps, epochs=2)
    demo = build_demo(folder / "project", style="specforge", history_steps=0, curve=curve)
    gpus = SyntheticGpus()
    follower = WatchedFollower(demo.log_path)
    config = Config(refresh_s=0.01, gpu_refresh_s=float(DAY_S))  # the worker samples once
    app = SessionApp(demo.dir, store_path=demo.store_path, gpu_collector=gpus,
                     log_paths=[demo.log_path], config_path=demo.config_path, config=config,
                     follower_factory=lambda path: follower)
    async with app.run_test(size=(160, 48)) as pilot:
        await asyncio.sleep(2.0)  # first samples, memory loaded, workers running
        await pilot.pause()
        start = rss_mb()
        print(f"start: {start:7.1f} MB RSS (app mounted, first samples shown)")
        report_every = max(1, seconds // 4)
        next_report = report_every
        while gpus.count < seconds:
            for _ in range(min(BATCH, seconds - gpus.count)):
                app.post_message(GpuSampled(gpus.sample()))
            demo.writer.append(steps * gpus.count // seconds - demo.writer.step)
            await pilot.pause()
            if gpus.count >= next_report:
                next_report += report_every
                print(f"  {gpus.count:6d} GPU samples, training step {follower.step:7d}: "
                      f"{rss_mb() - start:+7.1f} MB")
        await catch_up(follower, steps)
        await pilot.pause()
        end = rss_mb()
    print(f"end:   {end:7.1f} MB RSS after {gpus.count} GPU samples x {GPUS} GPUs and "
          f"{follower.step} training steps")
    print(f"growth: {end - start:+.1f} MB (target < 50 MB)")


class WatchedFollower:
    """The app's real LogFollower, remembering the last snapshot it handed to the app."""

    def __init__(self, path: Path) -> None:
        self._follower = LogFollower(path)
        self.last: Any = None

    def catch_up(self, on_progress: Callable[[float], None]) -> Any:
        return self._follower.catch_up(on_progress)

    def poll(self) -> Any:
        self.last = self._follower.poll()
        return self.last

    @property
    def step(self) -> int:
        return (self.last.step or 0) if self.last else 0


async def catch_up(follower: WatchedFollower, steps: int) -> None:
    """Wait until the app has followed the log to its last step, or say where it got stuck."""
    last, idle_s = -1, 0.0
    while True:
        step = follower.step
        if step >= steps:
            return
        idle_s = 0.0 if step != last else idle_s + 0.5
        last = step
        if idle_s >= STALL_S:
            print(f"  the app stopped following the log at step {step} (no progress in {STALL_S}s)")
            return
        await asyncio.sleep(0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=DAY_S,
                        help="simulated seconds (GPU samples); steps scale with it")
    args = parser.parse_args()
    steps = max(1, DAY_STEPS * args.seconds // DAY_S)
    with tempfile.TemporaryDirectory(prefix="sessiontui-memory-") as folder:
        asyncio.run(simulate(args.seconds, steps, Path(folder)))


if __name__ == "__main__":
    main()
