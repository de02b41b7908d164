"""Training runs remembered as they happen: one run record per log, kept up to date from snapshots."""

from __future__ import annotations

import math
import time
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sessiontui.project_memory.records import Record, now_iso
from sessiontui.project_memory.signatures import event_signature, event_text, match_lessons
from sessiontui.project_memory.specdec import accept_length
from sessiontui.project_memory.stamp import stamp
from sessiontui.project_memory.store import Store

RUN_STATUSES = ("running", "finished", "crashed", "stalled", "diverged")
FAILURES = frozenset({"crashed", "stalled", "diverged"})
MILESTONE_PCT = 5
MAX_EVENTS = 100  # a run that stalls and recovers for days keeps its latest events only
MAX_CONTEXT_LINES = 20
PROGRESS_WRITE_S = 10.0  # step, loss and ETA reach the store at most this often ...
NEWS = ("status", "name", "milestones", "events")  # ... while these are written at once
_GENERIC_STEMS = frozenset({"train", "training", "output", "log", "logs", "stdout", "console", "out"})


def run_name(log_path: Path | str) -> str:
    """A readable default name: the log's stem, prefixed with its folder when the stem is generic."""
    path = Path(log_path)
    stem = path.name.split(".")[0] or path.name
    if stem.lower() in _GENERIC_STEMS and path.parent.name:
        return f"{path.parent.name}/{stem}"
    return stem


def iso_time(unix: float | None) -> str | None:
    """A unix timestamp as the records' ISO 8601 form; None stays None."""
    if unix is None or not math.isfinite(unix):
        return None
    return datetime.fromtimestamp(unix, UTC).isoformat(timespec="seconds")


def _finite(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


def apply_snapshot(record: Record, snapshot: Any) -> None:
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


def new_milestones(record: Record, snapshot: Any) -> list[dict[str, Any]]:
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
    return event["kind"], event.get("step"), event.get("line")


def event_dict(store: Store, event: Any) -> dict[str, Any]:
    """A collector event as the run record keeps it, with the lessons that match a failure."""
    signature = event_signature(event) if event.kind in FAILURES else event.signature
    lessons = match_lessons(store, signature, event_text(event)) if signature else []
    return {
        "kind": event.kind,
        "message": event.message,
        "signature": signature,
        "line": event.line,
        "step": event.step,
        "at": iso_time(event.at),
        "context": list(event.context or ())[-MAX_CONTEXT_LINES:],
        "lessons": [lesson.id for lesson in lessons],
    }


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
    """Keeps the one run record of a log file in step with that log's training snapshots."""

    def __init__(
        self, store: Store, log_path: Path | str, *, name: str | None = None,
        gpus: Sequence[str] = (), clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self._clock = clock
        self._written_at = -math.inf
        self.log_path = str(Path(log_path).absolute())
        self.record = store.run_for_log(self.log_path) or Record(
            "run", name=name or run_name(self.log_path), log_path=self.log_path
        )
        if name:
            self.record.name = name
        self._gpus = list(gpus)
        self._seen = {_event_key(event) for event in self.record.events}
        self._stored = self._state() if self.record.id else None

    def _state(self) -> dict[str, Any]:
        state = self.record.to_dict()
        state.pop("updated_at")
        return state

    def update(self, snapshot: Any) -> Record:
        """Fold one snapshot into the run record; writes to the store only when something changed."""
        record = self.record
        if not record.id and snapshot.step is None and not snapshot.events and not snapshot.metrics:
            return record  # nothing parsed yet: no run to remember
        apply_snapshot(record, snapshot)
        if reached := new_milestones(record, snapshot):
            record.milestones = sorted(record.milestones + reached, key=_milestone_order)
        for event in snapshot.events:
            key = (event.kind, event.step, event.line)
            if key not in self._seen:  # also the events trimmed off the record: never re-added
                record.events.append(event_dict(self.store, event))
                self._seen.add(key)
        record.events = record.events[-MAX_EVENTS:]
        state = self._state()
        if state != self._stored and (
            self._stored is None or any(state[k] != self._stored[k] for k in NEWS)
            or self._clock() - self._written_at >= PROGRESS_WRITE_S
        ):
            self._write()
        return record

    def flush(self) -> Record:
        """Store progress that is still waiting for its next write (call when following stops)."""
        if self.record.id and self._state() != self._stored:
            self._write()
        return self.record

    def _store(self) -> None:
        record = self.record
        if not record.id:
            record.started_at = record.started_at or now_iso()
            self.store.add(stamp(record, gpus=self._gpus))
            return
        stored = self.store.run_for_log(self.log_path)
        if stored is not None and stored.id == record.id:
            merged = _merge(record.milestones, stored.milestones, _milestone_key)
            record.milestones = sorted(merged, key=_milestone_order)
            record.events = _merge(record.events, stored.events, _event_key)[-MAX_EVENTS:]
            self._seen.update(_event_key(event) for event in record.events)
        self.store.update(record)

    def _write(self) -> None:
        self._store()
        self._stored = self._state()
        self._written_at = self._clock()
