"""Following one training log for any front end: catch up, poll, keep its run records, and say each
event once with its lessons. The app, `sessiontui watch` (and `serve`) all follow logs through it."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from sessiontui.collectors.trainlog.follower import LogFollower
from sessiontui.collectors.trainlog.snapshot import TrainSnapshot

if TYPE_CHECKING:
    from sessiontui.project_memory.runs import Announcement, RunTracker
    from sessiontui.project_memory.store import Store

__all__ = ["RunWatcher", "snapshot_key"]


def snapshot_key(snapshot: TrainSnapshot, now: float | None = None) -> tuple:
    """What must differ for a training snapshot to be worth showing again (the age of the last
    step too, as the card rounds it: "stalled for 14 min" must not stay at 10)."""
    return (
        snapshot.step, snapshot.status, snapshot.loss, snapshot.last_update, snapshot.caught_up,
        len(snapshot.events), snapshot.eta_s, snapshot.run_index, snapshot.age_bucket(now),
    )


class RunWatcher:
    """One followed log: `read()` what is new, then `record()` it into the memory. Events already
    in the log's run record (from an earlier session or another follower) are not news."""

    def __init__(
        self, store: Store, path: Path | str, *, name: str | None = None, gpus: Sequence[str] = (),
        stall_after_s: float | None = None, follower: LogFollower | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.path = Path(path)
        self.follower = follower or LogFollower(self.path, stall_after_s=stall_after_s)
        self._name, self._gpus, self._clock = name, list(gpus), clock
        self._tracker: RunTracker | None = None
        self._last_key: tuple = ()

    def catch_up(self, on_progress: Callable[[float], None] | None = None,
                 *, final: bool = False) -> TrainSnapshot:
        """Read what the log holds now (`final` also takes an unterminated last line)."""
        if final:
            return self.follower.catch_up(on_progress, final=True)
        return self.follower.catch_up(on_progress)

    def read(self) -> TrainSnapshot | None:
        """Poll the log; the new snapshot when it differs from the last one shown, else None."""
        snapshot = self.follower.poll()
        if self._tracker is not None:  # numbered as the run records count the log's attempts
            snapshot = replace(snapshot, attempt=self._tracker.attempt(snapshot),
                               earlier=self._tracker.earlier)
        key = (*snapshot_key(snapshot), snapshot.attempt)
        if key == self._last_key:
            return None
        self._last_key = key
        return snapshot

    def record(self, snapshot: TrainSnapshot) -> list[Announcement]:
        """Fold a snapshot into the log's run records (the first call reads them: after the first
        snapshot is on screen); the events to announce, lessons matched once per failure."""
        if self._tracker is None:  # imported here: start-up shows the log before it keeps records
            from sessiontui.project_memory.runs import RunTracker

            self._tracker = RunTracker(self.store, self.path, name=self._name, gpus=self._gpus,
                                       clock=self._clock)
        self._tracker.update(snapshot)
        if snapshot.earlier != self._tracker.earlier:  # a restart began a record: show it again
            self._last_key = ()
        return self._tracker.take_news()

    @property
    def tracker(self) -> RunTracker | None:
        """The run records' keeper, once something was recorded."""
        return self._tracker

    def flush(self) -> None:
        """Store progress still waiting for its next write (following stops)."""
        if self._tracker is not None:
            self._tracker.flush()

    def close(self) -> None:
        """Store what is pending and let go of the file."""
        self.flush()
        self.follower.close()
