"""The snapshot a follower hands to the UI thread and the CLI: immutable, JSON-ready."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from sessiontui.collectors.trainlog.events import TrainEvent
from sessiontui.project_memory.events import RunStatus

QUIET_INTERVALS = 3  # "last step N s ago" once the last step is older than this many intervals ...
QUIET_MIN_S = 10.0  # ... and than this


@dataclass(frozen=True)
class RunSegment:
    """A run that ended in a log before the job restarted in it: its final state and events."""

    index: int
    status: RunStatus
    step: int | None
    total_steps: int | None
    last_update: float | None
    started_at: float | None
    started_from: str | None
    events: tuple[TrainEvent, ...]


@dataclass(frozen=True)
class TrainSnapshot:
    """Where a training job stands, as its log says, at one moment."""

    source: str
    format: str | None
    step: int | None
    total_steps: int | None
    epoch: float | None
    loss: float | None
    lr: float | None
    grad_norm: float | None
    acc: tuple[float, ...]  # latest per-position conditional accuracies acc_0..acc_{K-1}
    metrics: Mapping[str, float]
    steps_per_s: float | None
    eta_s: float | None
    last_update: float | None
    status: RunStatus
    events: tuple[TrainEvent, ...]
    history: Mapping[str, tuple[tuple[int, float], ...]]
    caught_up: bool
    progress: float
    run_index: int = 0  # runs that started in this log before this one (restarts)
    ended_runs: tuple[RunSegment, ...] = ()  # the latest of those, as they ended
    started_at: float | None = None  # when this run began ...
    started_from: str | None = None  # ... and how that is known: log timestamps, file times, first sight
    attempt: int | None = None  # which attempt of its log, as the run records count (1, 2, ...)
    earlier: tuple[str, ...] = ()  # one line per earlier attempt of the log, oldest first
    seen_at: float | None = None  # the clock when this snapshot was taken (ages count from it)
    problem: str | None = None  # why nothing is read from the path (not a regular file)
    step_interval_s: float | None = None  # median seconds between progress lines, when known
    stall_after_s: float | None = None  # stalled once the last step is older than this

    @property
    def attempt_number(self) -> int:
        """Which attempt of its log: as the run records count, else as this follower saw."""
        return self.attempt or self.run_index + 1

    def idle_s(self, now: float | None = None) -> float | None:
        """Seconds since the last step, as of `now` (default: when the snapshot was taken)."""
        now = self.seen_at if now is None else now
        if now is None or self.last_update is None:
            return None
        return max(0.0, now - self.last_update)

    def quiet_s(self, now: float | None = None) -> float | None:
        """Seconds since the last step once that is worth saying: older than a few usual
        intervals (QUIET_INTERVALS, at least QUIET_MIN_S), or the run is no longer running."""
        idle = self.idle_s(now)
        if idle is None:
            return None
        usual = QUIET_INTERVALS * (self.step_interval_s or 0.0)
        return idle if self.status != "running" or idle >= max(usual, QUIET_MIN_S) else None

    def age_bucket(self, now: float | None = None) -> int | None:
        """The quiet time rounded as a card shows it (10 s steps, then minutes): a new bucket
        is worth drawing again, a new second is not."""
        quiet = self.quiet_s(now)
        if quiet is None:
            return None
        return int(quiet // 10) if quiet < 60 else 6 + int(quiet // 60)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (`train status --json`); non-finite numbers become strings."""
        return {
            "source": self.source, "format": self.format, "status": self.status,
            "step": self.step, "total_steps": self.total_steps, "epoch": self.epoch,
            "loss": _json_number(self.loss), "lr": self.lr, "grad_norm": _json_number(self.grad_norm),
            "acc": list(self.acc), "steps_per_s": self.steps_per_s, "eta_s": self.eta_s,
            "last_update": self.last_update,
            "metrics": {k: _json_number(v) for k, v in self.metrics.items()},
            "events": [event.to_dict() for event in self.events],
            "run_index": self.run_index, "attempt": self.attempt_number,
            "started_at": self.started_at, "started_from": self.started_from,
            "step_interval_s": self.step_interval_s,
            "stall_after_s": self.stall_after_s, "problem": self.problem,
        }


def _json_number(value: float | None) -> float | str | None:
    """JSON has no nan/inf: keep them visible as strings."""
    return value if value is None or math.isfinite(value) else str(value)


def acc_positions(metrics: Mapping[str, float]) -> tuple[float, ...]:
    """acc_0, acc_1, ... while consecutive: the per-position conditional accuracies."""
    acc: list[float] = []
    while (value := metrics.get(f"acc_{len(acc)}")) is not None:
        acc.append(value)
    return tuple(acc)
