"""Training runs remembered as they happen: one run record per run of a log, kept up to date from
the log's snapshots. A run is born when its log starts or the job restarts in it (a new record,
linked to the one before), lives, and ends (finished, crashed, stalled): its record keeps its final
state and its events, each recorded (and announced) once."""

from __future__ import annotations

import math
import time
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sessiontui.project_memory.events import (
    ENDINGS,
    FAILURES,
    RUN_STATUSES,
    TrainEvent,
    iso_time,
    unix_time,
)
from sessiontui.project_memory.lessons import lessons_for_event, stored_lessons
from sessiontui.project_memory.live import EndedRun, LiveRun
from sessiontui.project_memory.records import Record, now_iso
from sessiontui.project_memory.specdec import accept_length
from sessiontui.project_memory.stamp import stamp
from sessiontui.project_memory.store import Store, StoreError

__all__ = ["FAILURES", "RunTracker", "apply_snapshot", "attempt_name", "attempt_of", "iso_time", "run_name",
           "same_run"]

MILESTONE_PCT = 5
MAX_ATTEMPT_LINES = 5  # earlier attempts of a log a card lists
MAX_EVENTS = 100  # a run that stalls and recovers for days keeps its latest events only
MAX_CONTEXT_LINES = 20
PROGRESS_WRITE_S = 10.0  # step, loss and ETA reach the store at most this often ...
NEWS = ("status", "name", "milestones", "events")  # ... while these are written at once
_GENERIC_STEMS = frozenset({"train", "training", "output", "log", "logs", "stdout", "console", "out"})


@dataclass(frozen=True)
class Announcement:
    """An event recorded for the first time, with the lessons that match it: say it once."""

    run: Record
    event: TrainEvent
    lessons: tuple[Record, ...] = field(default=())


def run_name(log_path: Path | str) -> str:
    """A readable default name: the log's stem, prefixed with its folder when the stem is generic."""
    path = Path(log_path)
    stem = path.name.split(".")[0] or path.name
    if stem.lower() in _GENERIC_STEMS and path.parent.name:
        return f"{path.parent.name}/{stem}"
    return stem


def attempt_name(log_path: Path | str, log_run: int) -> str:
    """A run's name: its log's, with the attempt number from the second attempt on
    (`p/train`, `p/train #2`, ...): runs of one log never share a name."""
    name = run_name(log_path)
    return name if log_run == 0 else f"{name} #{log_run + 1}"


def same_run(stored: Record, run: Any) -> bool:
    """Whether a stored run record and a run read from its log now are one attempt: its step
    did not go back, a run that had ended did not go on, and the log's start time agrees."""
    if stored.step is None or run.step is None:
        return True
    if run.step < stored.step:
        return False
    if stored.status in ENDINGS and run.status != stored.status:
        return False
    began = unix_time(stored.started_at) if stored.started_from == "log timestamps" else None
    if began is not None and run.started_from == "log timestamps" and run.started_at is not None:
        return abs(run.started_at - began) < 1.0
    return True


def first_attempt(stored: Record | None, snapshot: LiveRun) -> int:
    """The attempt number (from 0) of the first run a log file holds now, given the log's latest
    stored run: the file continues that attempt when one of its runs is it, else (the log was
    rewritten: `python train.py > train.log` again) its runs are new attempts after it."""
    if stored is None:
        return 0
    latest = stored.log_run or 0
    by_index = {ended.index: ended for ended in snapshot.ended_runs}
    run = snapshot if latest == snapshot.run_index else by_index.get(latest)
    if latest <= snapshot.run_index and run is not None and same_run(stored, run):
        return 0
    if same_run(stored, snapshot):
        return max(0, latest - snapshot.run_index)
    return latest + 1


def attempt_of(store: Store, log_path: Path | str, snapshot: LiveRun) -> int:
    """Which attempt (1, 2, ...) of its log a snapshot read now is, as the run records count
    them: what `train status` says, the same number the followers give it."""
    stored = store.run_for_log(str(Path(log_path).absolute()))
    return first_attempt(stored, snapshot) + snapshot.run_index + 1


def attempt_line(store: Store, run: Record) -> str:
    """One short line on an earlier attempt of a log: how it ended, its failure and the lesson
    that matched it (`attempt 2 crashed at step 66, CUDA OOM — seen before: ... — fix: ...`)."""
    where = f" at step {run.step}" if run.step is not None else ""
    line = f"attempt {(run.log_run or 0) + 1} {run.status or 'ended'}{where}"
    failures = [TrainEvent.from_dict(e) for e in run.events if e.get("kind") in FAILURES]
    if not failures:
        return line
    failure = failures[-1]
    line += ", " + (failure.message or failure.line).split(" at step ")[0]
    for lesson in stored_lessons(store, failure.lessons[:1]):
        line += f" — seen before: {lesson.title} — fix: {lesson.fix or 'n/a'}"
    return line


def earlier_attempts(store: Store, run: Record, limit: int = MAX_ATTEMPT_LINES) -> tuple[str, ...]:
    """Lines on the attempts of a run's log before it, oldest first (the latest `limit`)."""
    lines: list[str] = []
    previous = run.previous_run
    while previous and len(lines) < limit:
        try:
            before = store.get(previous)
        except StoreError:
            break
        lines.append(attempt_line(store, before))
        previous = before.previous_run
    return tuple(reversed(lines))


def _finite(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


def apply_snapshot(record: Record, snapshot: LiveRun) -> None:
    """Copy a training snapshot's progress and latest metrics onto a run record."""
    record.status = snapshot.status if snapshot.status in RUN_STATUSES else record.status or "running"
    record.step = snapshot.step if snapshot.step is not None else record.step
    record.total_steps = snapshot.total_steps or record.total_steps
    record.epoch = _finite(snapshot.epoch) if snapshot.epoch is not None else record.epoch
    # A nan/inf loss is the news of a diverged run; the record keeps the last finite value.
    record.loss = _finite(snapshot.loss) if _finite(snapshot.loss) is not None else record.loss
    record.lr = _finite(snapshot.lr) if _finite(snapshot.lr) is not None else record.lr
    finite = [_finite(a) for a in snapshot.acc]
    acc = [a for a in finite if a is not None]
    if acc and len(acc) == len(finite):  # the store keeps JSON: a nan position keeps the last good list
        record.acc = acc
        record.accept_length = accept_length(acc)
    record.eta_s = _finite(snapshot.eta_s)
    record.last_update = iso_time(snapshot.last_update) or record.last_update
    if snapshot.started_at is not None and snapshot.started_from is not None and (
            record.started_from in (None, "first sight") or not record.started_at):
        record.started_at = iso_time(snapshot.started_at)
        record.started_from = snapshot.started_from


def _apply_ended(record: Record, ended: EndedRun) -> None:
    """Give a run record the final state its run ended in; a run the job was started again over
    while it still ran (or stalled) was abandoned."""
    record.status = ended.status if ended.status in ENDINGS else "abandoned"
    record.step = ended.step if ended.step is not None else record.step
    record.total_steps = ended.total_steps or record.total_steps
    record.eta_s = None
    record.last_update = iso_time(ended.last_update) or record.last_update
    if ended.started_at is not None and ended.started_from and not record.started_at:
        record.started_at, record.started_from = iso_time(ended.started_at), ended.started_from


def _milestone(record: Record, kind: str, **extra: Any) -> dict[str, Any]:
    return {
        "kind": kind, "step": record.step, "at": record.last_update, "loss": record.loss,
        "acc": list(record.acc), "accept_length": record.accept_length, **extra,
    }


def _value_at(points: Sequence[tuple[int, float]], step: int) -> tuple[int, float] | None:
    """The first history point at or after `step`."""
    index = bisect_left(points, (step, -math.inf))
    return points[index] if index < len(points) else None


def _progress_milestone(
    record: Record, history: Mapping[str, Sequence[tuple[int, float]]], pct: int
) -> dict[str, Any]:
    """The milestone of reaching `pct`% of the steps, with the figures the history has there."""
    assert record.total_steps is not None and record.step is not None  # only asked for with both
    target = math.ceil(pct * record.total_steps / 100)
    found = _value_at(history.get("loss", ()), target)
    if found is None or found[0] >= record.step:  # the history ends here: take the latest figures
        return _milestone(record, "progress", pct=pct)
    step, loss = found
    acc: list[float] = []
    while (point := _value_at(history.get(f"acc_{len(acc)}", ()), step)) and point[0] == step \
            and _finite(point[1]) is not None:
        acc.append(point[1])
    return {
        "kind": "progress", "pct": pct, "step": step, "at": None, "loss": _finite(loss),
        "acc": acc, "accept_length": accept_length(acc),
    }


def _eval_milestones(
    history: Mapping[str, Sequence[tuple[int, float]]], seen: set[int]
) -> list[dict[str, Any]]:
    """One milestone per evaluation step in the `eval_*` histories that is not recorded yet."""
    by_step: dict[int, dict[str, float]] = {}
    for name, points in history.items():
        if name.startswith("eval"):
            for step, value in points:
                if step not in seen and _finite(value) is not None:
                    by_step.setdefault(step, {})[name] = value
    return [{"kind": "eval", "step": step, "metrics": by_step[step]} for step in sorted(by_step)]


def new_milestones(record: Record, snapshot: LiveRun) -> list[dict[str, Any]]:
    """Milestones the record lacks up to this snapshot: each evaluation, each 5% of the steps."""
    history = snapshot.history or {}
    evaluated = {m["step"] for m in record.milestones if m["kind"] == "eval"}
    found = _eval_milestones(history, evaluated)
    if record.step and record.total_steps:
        reached = {m.get("pct") for m in record.milestones if m["kind"] == "progress"}
        top = min(100, record.step * 100 // record.total_steps)
        found += [
            _progress_milestone(record, history, pct)
            for pct in range(MILESTONE_PCT, top + 1, MILESTONE_PCT) if pct not in reached
        ]
    return found


def _event_key(event: Mapping[str, Any]) -> tuple:
    return TrainEvent.from_dict(event).key


def recorded(event: TrainEvent, lessons: Sequence[Record]) -> TrainEvent:
    """The event as a run record keeps it: its excerpt bounded, the matching lessons named."""
    return TrainEvent(event.kind, event.message, event.line, event.at, event.step, event.signature,
                      tuple(event.context)[-MAX_CONTEXT_LINES:],
                      tuple(lesson.id for lesson in lessons), failure=event.failure)


def _merge(
    ours: list[dict], theirs: list[dict], key: Callable[[Mapping[str, Any]], tuple]
) -> list[dict]:
    """Ours plus what another writer stored meanwhile, each key once."""
    known = {key(item) for item in ours}
    return ours + [item for item in theirs if key(item) not in known]


def _milestone_order(milestone: Mapping[str, Any]) -> tuple:
    return milestone.get("step") or 0, milestone["kind"]


def _milestone_key(milestone: Mapping[str, Any]) -> tuple:
    return milestone["kind"], milestone.get("pct", milestone.get("step"))


class RunTracker:
    """Keeps the run records of a log file in step with that log's training snapshots."""

    def __init__(
        self, store: Store, log_path: Path | str, *, name: str | None = None,
        gpus: Sequence[str] = (), clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self._clock = clock
        self._name = name
        self._gpus = list(gpus)
        self._news: list[Announcement] = []
        self.log_path = str(Path(log_path).absolute())
        self.record = store.run_for_log(self.log_path) or self._new(0, None)
        self._base: int | None = None  # the attempt number of the log file's first run
        self._earlier: tuple[str, ...] | None = None  # lines on earlier attempts, read once
        if name:
            self.record.name = name
        self._begin()

    def _new(self, log_run: int, previous: Record | None) -> Record:
        """An unsaved record for the log's `log_run`-th run."""
        name = f"{self._name} #{log_run + 1}" if self._name and log_run else self._name
        return Record("run", name=name or attempt_name(self.log_path, log_run),
                      log_path=self.log_path, log_run=log_run,
                      previous_run=previous.id if previous else None)

    @property
    def earlier(self) -> tuple[str, ...]:
        """Lines on the log's attempts before the current one (read again at each restart)."""
        if self._earlier is None:
            self._earlier = earlier_attempts(self.store, self.record)
        return self._earlier

    def attempt(self, snapshot: LiveRun) -> int | None:
        """The snapshot's attempt number (1, 2, ...) among the log's stored runs, once known."""
        return None if self._base is None else self._base + snapshot.run_index + 1

    def _begin(self) -> None:
        """Remember what the current record already holds (its events are never told again)."""
        self._seen = {_event_key(event) for event in self.record.events}
        self._earlier = None
        self._written_at = -math.inf
        self._stored = self._state() if self.record.id else None

    def _state(self) -> dict[str, Any]:
        state = self.record.to_dict()
        state.pop("updated_at")
        return state

    def update(self, snapshot: LiveRun) -> Record:
        """Fold one snapshot into the run records (ending the run the job restarted after,
        starting the new one); writes only when something changed. The events seen for the
        first time wait in `take_news()`."""
        if self._base is None:
            if not self.record.id and snapshot.step is None and not snapshot.events:
                return self.record  # nothing parsed yet: no run to remember
            self._base = first_attempt(self.record if self.record.id else None, snapshot)
            if self._base > (self.record.log_run or 0):
                self._restart(self._base)
        for ended in snapshot.ended_runs:
            if self._base + ended.index == (self.record.log_run or 0):
                self._end(ended)
        if self._base + snapshot.run_index > (self.record.log_run or 0):
            self._restart(self._base + snapshot.run_index)
        record = self.record
        if not record.id and snapshot.step is None and not snapshot.events:
            return record  # nothing parsed yet: no run to remember
        apply_snapshot(record, snapshot)
        if reached := new_milestones(record, snapshot):
            record.milestones = sorted(record.milestones + reached, key=_milestone_order)
        self._record_events(snapshot.events)
        self._save()
        return record

    def take_news(self) -> list[Announcement]:
        """The events recorded for the first time since the last call, with their lessons: what a
        front end announces (each event once, also across restarts of the app)."""
        news, self._news = self._news, []
        return news

    def _record_events(self, events: Sequence[TrainEvent]) -> None:
        """Add the events the record lacks (also those trimmed off it: never re-added)."""
        for event in events:
            if event.key in self._seen:
                continue
            self._seen.add(event.key)
            lessons = tuple(lessons_for_event(self.store, event)) if event.is_failure else ()
            kept = recorded(event, lessons)
            self.record.events.append(kept.to_dict())
            self._news.append(Announcement(self.record, kept, lessons))
        self.record.events = self.record.events[-MAX_EVENTS:]

    def _end(self, ended: EndedRun) -> None:
        """The current run ended before the job restarted: store its final state and events."""
        _apply_ended(self.record, ended)
        self._record_events(ended.events)
        self._write()

    def _restart(self, log_run: int) -> None:
        """The job started again in the same log: a new record, linked to the one before."""
        previous = self.record if self.record.id else None
        self.record = self.store.run_for_log(self.log_path, log_run) or self._new(log_run, previous)
        self._begin()

    def _save(self) -> None:
        state = self._state()
        if state != self._stored and (
            self._stored is None or any(state[k] != self._stored[k] for k in NEWS)
            or self._clock() - self._written_at >= PROGRESS_WRITE_S
        ):
            self._write()

    def flush(self) -> Record:
        """Store progress that is still waiting for its next write (call when following stops)."""
        if self.record.id and self._state() != self._stored:
            self._write()
        return self.record

    def _store(self) -> None:
        record = self.record
        if not record.id:
            record.started_at = record.started_at or now_iso()
            record.started_from = record.started_from or "first sight"
            first = self.store.add_run(stamp(record, gpus=self._gpus))
            if first.id == record.id:
                return
            # Another follower (or process) recorded this run first: one log run, one record.
            record.id, record.created_at = first.id, first.created_at
        stored = self.store.run_for_log(self.log_path, record.log_run or 0)
        if stored is not None and stored.id == record.id:  # what another writer added meanwhile
            merged = _merge(record.milestones, stored.milestones, _milestone_key)
            record.milestones = sorted(merged, key=_milestone_order)
            record.events = _merge(record.events, stored.events, _event_key)[-MAX_EVENTS:]
            self._seen.update(_event_key(event) for event in record.events)
        self.store.update(record)

    def _write(self) -> None:
        self._store()
        self._stored = self._state()
        self._written_at = self._clock()
