"""The bundled demo project: a seeded memory, a live training log and a recorded GPU trace."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from sessiontui.collectors.logtext import failure_signature
from sessiontui.project_memory.paths import DB_NAME, DIR_NAME
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.config import add_followed_log, config_path
from sessiontui.tui.demo_log import DEFAULT_CURVE, STYLES, Curve, TrainingLogWriter

DATA = resources.files("sessiontui.tui") / "demo_data"
HISTORY_STEPS = 600
READY = "ready"  # the job's first line once the project is built


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

        return ReplayGpuCollector(self.trace_path)


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
