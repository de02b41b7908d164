"""The bundled demo project: a seeded memory, a live training log and a recorded GPU trace."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from sessiontui.collectors.gpu import GpuProcess, GpuSample, GpuSnapshot
from sessiontui.collectors.gpu_replay import DEMO_PROCESS
from sessiontui.collectors.logtext import failure_signature
from sessiontui.project_memory.paths import DB_NAME, DIR_NAME
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.config import add_followed_log, config_path
from sessiontui.tui.demo_log import DEFAULT_CURVE, STYLES, Curve, TrainingLogWriter

DATA = resources.files("sessiontui.tui") / "demo_data"
HISTORY_STEPS = 600
READY = "ready"  # the job's first line once the project is built
TRAIN_PIDS = (48213, 48214)  # the demo's drafter training: one rank per GPU, for the whole run
BENCH_PID_OFFSET = 52000  # the replayed GPU's processes: recorded PID + this, the same each loop
BUSY_PCT, BUSY_W = 90.0, 600.0  # a recorded sample under steady load
IDLE_W = 150.0  # below this an unloaded sample has settled (above, its power still lags a stop)


def _timestamp(now: datetime, days_ago: float) -> str:
    return (now - timedelta(days=days_ago)).isoformat(timespec="seconds")


def seed_records(now: datetime | None = None) -> list[Record]:
    """The demo memory's records from `demo_data/memory.toml`, dated relative to `now`."""
    now = now or datetime.now(UTC)
    data = tomllib.loads((DATA / "memory.toml").read_text(encoding="utf-8"))
    defaults: dict[str, Any] = data.pop("defaults", {})
    records = []
    for kind, entries in data.items():
        for entry in entries:
            fields = defaults | entry
            fields["created_at"] = _timestamp(now, fields.pop("days_ago"))
            is_crash = fields.pop("crash", False)
            record = Record(kind=kind, **fields)
            if is_crash:
                record.signature = failure_signature(record.symptom or "")
            records.append(record)
    return records


def seed_memory(store: Store, now: datetime | None = None) -> list[Record]:
    """Store the demo records through the real Store, oldest first like a real history."""
    return store.add_all(sorted(seed_records(now), key=lambda r: r.created_at))


def demo_layout(recorded: Sequence[GpuSnapshot]) -> list[GpuSnapshot]:
    """Four GPUs from a one-GPU recording, each telling one steady story: GPUs 0 and 1 run the
    drafter training (the recording's steady load, one process each that keeps its PID), GPU 2
    replays the recording as it was (loads that start and stop; the reading that lags a stop,
    0% at 404 W, at the idle power it falls to), GPU 3 stays idle."""
    samples = [frame.gpus[0] for frame in recorded if frame.gpus]
    busy = [s for s in samples if (s.util_pct or 0) >= BUSY_PCT and (s.power_w or 0) >= BUSY_W]
    idle = [s for s in samples
            if not s.util_pct and not s.processes and (s.power_w or 0) < IDLE_W]
    if not busy or not idle:
        return list(recorded)
    idle_w = min(s.power_w for s in idle if s.power_w is not None)
    floor = min(s.mem_used_mib for s in idle if s.mem_used_mib is not None)
    frames = []
    for t, frame in enumerate(recorded):
        sample = samples[t % len(samples)]
        training = [busy[(t + 11 * rank) % len(busy)] for rank in range(len(TRAIN_PIDS))]
        gpus = [
            *(_demo_gpu(s, rank, (GpuProcess(pid, f"{DEMO_PROCESS}python3 train_eagle3.py",
                                             (s.mem_used_mib or floor) - floor, s.util_pct),))
              for rank, (s, pid) in enumerate(zip(training, TRAIN_PIDS, strict=True))),
            _demo_gpu(replace(sample, power_w=sample.power_w if sample.util_pct else idle_w),
                      2, tuple(replace(p, pid=p.pid + BENCH_PID_OFFSET,
                                       name=f"{DEMO_PROCESS}{p.name} bench_serving")
                               for p in sample.processes)),
            _demo_gpu(idle[t % len(idle)], 3, ()),
        ]
        frames.append(replace(frame, gpus=tuple(gpus)))
    return frames


def _demo_gpu(sample: GpuSample, index: int, processes: tuple[GpuProcess, ...]) -> GpuSample:
    return replace(sample, index=index, uuid=f"{sample.uuid}-demo{index}", processes=processes)


@dataclass
class Demo:
    """A demo project on disk, and the simulated training job that keeps its log growing."""

    dir: Path
    store_path: Path
    config_path: Path
    log_path: Path
    trace_path: Path
    writer: TrainingLogWriter

    @property
    def memory_dir(self) -> Path:
        return self.store_path.parent

    job: subprocess.Popen | None = field(default=None, init=False, repr=False)

    def wait_ready(self) -> None:
        """Block until the job process has built the project; ValueError with its reason if not."""
        assert self.job is not None and self.job.stdout is not None
        line = self.job.stdout.readline().strip()
        self.job.stdout.close()
        if line != READY:
            self.stop()
            raise ValueError(line or "the demo job could not build the project")

    def stop(self) -> None:
        """Stop the training job and wait for it (idempotent), so the folder can be removed."""
        if self.job is None:
            return
        self.job.terminate()
        try:
            self.job.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.job.kill()
            self.job.wait()
        self.job = None

    def gpu_collector(self) -> Any:
        """A collector replaying the recorded H200 trace (it reports itself unavailable if absent)."""
        from sessiontui.collectors.gpu_replay import ReplayGpuCollector

        return ReplayGpuCollector(self.trace_path, layout=demo_layout)


def planned_demo(
    directory: Path, *, style: str = "train_eagle3", steps_per_s: float = 1.5,
    curve: Curve = DEFAULT_CURVE,
) -> Demo:
    """Where the demo project's parts go in `directory`; nothing is written."""
    directory = Path(directory)
    writer = TrainingLogWriter(directory / "logs" / f"{style}.log", curve=curve, style=style,
                               steps_per_s=steps_per_s)
    return Demo(directory, directory / DIR_NAME / DB_NAME, config_path(directory), writer.path,
                Path(str(DATA / "gpu_trace.jsonl")), writer)


def build_demo(
    directory: Path,
    *,
    style: str = "train_eagle3",
    history_steps: int = HISTORY_STEPS,
    steps_per_s: float = 1.5,
    curve: Curve = DEFAULT_CURVE,
) -> Demo:
    """Create the demo project in `directory`: memory, settings and a log with some history.

    Raises ValueError for a folder that is not empty, so a demo never mixes with real work.
    """
    demo = planned_demo(directory, style=style, steps_per_s=steps_per_s, curve=curve)
    if demo.dir.exists() and any(demo.dir.iterdir()):
        raise ValueError(f"{demo.dir}: not empty; the demo needs a new or empty folder")
    demo.dir.mkdir(parents=True, exist_ok=True)
    with Store(demo.store_path) as store:
        seed_memory(store)
    demo.writer.write_history(history_steps)
    add_followed_log(demo.config_path, demo.log_path.relative_to(demo.dir).as_posix())
    return demo


def launch_demo(
    directory: Path, *, style: str = "train_eagle3", steps_per_s: float = 1.5,
    history_steps: int = HISTORY_STEPS,
) -> Demo:
    """Start the job process that builds the demo project and then grows its log in real time.

    It builds while this process loads the app (on another core); call `wait_ready()` before use.
    """
    demo = planned_demo(directory, style=style, steps_per_s=steps_per_s)
    command = [sys.executable, "-m", "sessiontui.tui.demo", str(demo.dir), "--style", style,
               "--steps-per-s", repr(steps_per_s), "--history-steps", str(history_steps),
               "--parent", str(os.getpid())]
    demo.job = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    return demo


def main(argv: Sequence[str] | None = None) -> None:
    """The demo's job process: build the project, say so, then play the training run until
    its last step or until the parent (the demo app) is gone."""
    parser = argparse.ArgumentParser(description="the sessiontui demo's simulated training job")
    parser.add_argument("directory", type=Path)
    parser.add_argument("--style", choices=STYLES, default="train_eagle3")
    parser.add_argument("--steps-per-s", type=float, default=1.5)
    parser.add_argument("--history-steps", type=int, default=HISTORY_STEPS)
    parser.add_argument("--parent", type=int, required=True)
    args = parser.parse_args(argv)
    try:
        demo = build_demo(args.directory, style=args.style, history_steps=args.history_steps,
                          steps_per_s=args.steps_per_s)
    except (ValueError, OSError) as exc:
        print(exc, flush=True)
        sys.exit(2)
    print(READY, flush=True)
    demo.writer.keep_growing(lambda: os.getppid() == args.parent)


if __name__ == "__main__":
    main()
