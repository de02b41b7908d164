"""The bundled demo project: a seeded memory, a live training log and a recorded GPU trace."""

from __future__ import annotations

import subprocess
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from project_memory.paths import DB_NAME, DIR_NAME
from project_memory.records import Record
from project_memory.signatures import failure_signature
from project_memory.store import Store
from tui.config import add_followed_log, config_path
from tui.demo_log import DEFAULT_CURVE, Curve, TrainingLogWriter, job_command

DATA = resources.files("tui") / "demo_data"
HISTORY_STEPS = 600


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

    def start(self) -> None:
        """Let the training log grow in real time, from a job process of its own."""
        if self.job is None:
            self.job = subprocess.Popen(job_command(self.writer), stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

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
        from collectors.gpu_replay import ReplayGpuCollector

        return ReplayGpuCollector(self.trace_path)


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
    directory = Path(directory)
    if directory.exists() and any(directory.iterdir()):
        raise ValueError(f"{directory}: not empty; the demo needs a new or empty folder")
    directory.mkdir(parents=True, exist_ok=True)
    store_path = directory / DIR_NAME / DB_NAME
    with Store(store_path) as store:
        seed_memory(store)
    log_name = f"logs/{style}.log"
    log_path = directory / log_name
    writer = TrainingLogWriter(log_path, curve=curve, style=style, steps_per_s=steps_per_s)
    writer.write_history(history_steps)
    settings = config_path(directory)
    add_followed_log(settings, log_name)
    trace = Path(str(DATA / "gpu_trace.jsonl"))
    return Demo(directory, store_path, settings, log_path, trace, writer)
