"""How long after a run's last step each reader calls it stalled, on the demo log and on 0.5 s-per-step
logs (time-stamped Megatron lines, and plain `step=N loss=x` lines without times or a rate).

The followers (the app, `watch`, `serve`: each polls a LogFollower through a RunWatcher) are driven
by an injected clock that advances one step interval per written step, then 0.1 s per poll after the
last step; the one-shot readers (`train status`, MCP `train_status`: `read_log`) read the finished
file as of its last write plus t, for growing t. A follower that polls every `refresh_s` (1 s by
default) says it at most that much later than printed here.
Usage: python benchmarks/stall_latency.py
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sessiontui.collectors.trainlog import LogFollower, read_log
from sessiontui.tui.demo_log import TrainingLogWriter

STEP_S = 0.1  # resolution of the search after the last step
LIMIT_S = 900.0


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def _megatron(step: int) -> str:
    return (f"2026-01-02 03:{step // 120:02d}:{step // 2 % 60:02d}.{5 * (step % 2)}00 INFO "
            f"iteration {step:8d}/{10_000:8d} | lm loss: {3 - step / 1e4:.6E} |\n")


def _plain(step: int) -> str:
    return f"step={step} loss={3 - step / 1e4:.4f}\n"


def follower_latency(path: Path, write: Callable[[int], None], steps: int, every_s: float) -> float:
    """Seconds after the last step at which a polling follower first reads `stalled`."""
    clock = Clock()
    follower = LogFollower(path, clock=clock)
    follower.catch_up()
    for step in range(1, steps + 1):
        write(step)
        clock.now += every_s
        follower.poll()
    clock.now -= every_s  # the last step was read at its own time
    last = clock.now
    while follower.poll().status != "stalled" and clock.now - last < LIMIT_S:
        clock.now += STEP_S
    follower.close()
    return clock.now - last


def one_shot_latency(path: Path) -> float:
    """Seconds after the file's last write at which `read_log` first reads `stalled`."""
    written = time.time()
    os.utime(path, (written, written))
    waited = 0.0
    while waited < LIMIT_S:
        if read_log(path, clock=lambda at=written + waited: at).status == "stalled":
            return waited
        waited += max(STEP_S, waited / 50)  # finer near the limits that matter
    return waited


def _appender(path: Path, line: Callable[[int], str]) -> Callable[[int], None]:
    def write(step: int) -> None:
        with path.open("a") as out:
            out.write(line(step))
    return write


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        demo = Path(tmp) / "demo" / "train.log"
        writer = TrainingLogWriter(demo)
        writer.write_history(0)
        rows.append(("demo log (tqdm bar, 1.5 step/s)", follower_latency(
            demo, lambda _: writer.append(1), 200, 1 / writer.steps_per_s), demo))
        for name, line in (("0.5 s/step, time-stamped", _megatron),
                           ("0.5 s/step, no times, no rate", _plain)):
            log = Path(tmp) / f"{name.split(',')[1].strip().replace(' ', '-')}.log"
            log.write_text("")
            rows.append((name, follower_latency(log, _appender(log, line), 200, 0.5), log))
        print(f"{'log':<34} {'app / watch / serve':>20} {'train status / MCP':>19}")
        for name, followed, path in rows:
            print(f"{name:<34} {followed:>18.1f} s {one_shot_latency(path):>17.1f} s")


if __name__ == "__main__":
    main()
