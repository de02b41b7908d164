"""Run records kept from training snapshots: one per log, milestones once, failures matched."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from sessiontui.collectors.logtext import abstract, failure_signature
from sessiontui.collectors.trainlog import LogFollower, TrainEvent, TrainSnapshot
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.runs import RunTracker, run_name
from sessiontui.project_memory.specdec import accept_length
from sessiontui.project_memory.store import Store
from tests.project_memory.run_fakes import OOM_LINE, oom_event, snap


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "eagle3-llama70b" / "train.log"
    path.parent.mkdir()
    path.write_text("")
    return path


def count_writes(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    writes: list[str] = []
    for name, said in (("add", "add"), ("add_run", "add"), ("update", "update")):
        original = getattr(store, name)

        def wrapped(record: Record, _original=original, _name=said) -> Record:
            writes.append(_name)
            return _original(record)

        monkeypatch.setattr(store, name, wrapped)
    return writes


def test_name_from_the_log_path() -> None:
    assert run_name("/data/runs/eagle3-llama70b/train.log") == "eagle3-llama70b/train"
    assert run_name("/data/runs/eagle3_sharegpt_lr2e-4.log") == "eagle3_sharegpt_lr2e-4"


def test_first_snapshot_creates_one_run_with_its_figures(store: Store, log: Path) -> None:
    record = RunTracker(store, log).update(snap(
        step=250, total_steps=1000, epoch=0.25, loss=2.1, lr=1e-4, acc=(0.8, 0.5), eta_s=600.0,
    ))
    stored = store.run_for_log(str(log))
    assert stored is not None and stored.id == record.id
    assert (stored.name, stored.log_path, stored.status) == ("eagle3-llama70b/train", str(log),
                                                             "running")
    assert (stored.step, stored.total_steps, stored.epoch) == (250, 1000, 0.25)
    assert (stored.loss, stored.lr, stored.acc, stored.eta_s) == (2.1, 1e-4, [0.8, 0.5], 600.0)
    assert stored.accept_length == pytest.approx(1 + 0.8 + 0.8 * 0.5)
    assert stored.started_at and stored.host
    assert stored.last_update == "2026-09-21T14:13:20+00:00"
    assert [r.id for r in store.list("run")] == [record.id]


def test_given_name_wins(store: Store, log: Path) -> None:
    record = RunTracker(store, log, name="drafter-v2").update(snap(step=1))
    assert store.get(record.id).name == "drafter-v2"


def test_nothing_parsed_yet_stores_nothing(store: Store, log: Path) -> None:
    RunTracker(store, log).update(snap(status="waiting"))
    assert store.list("run") == []


def test_writes_only_when_something_changed(
    store: Store, log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes = count_writes(store, monkeypatch)
    now = [0.0]
    tracker = RunTracker(store, log, clock=lambda: now[0])
    for _ in range(3):
        tracker.update(snap(step=10, total_steps=1000, loss=2.0))
    assert writes == ["add"]
    tracker.update(snap(step=11, total_steps=1000, loss=1.9))  # progress only: waits
    assert writes == ["add"]
    tracker.update(snap(step=11, total_steps=1000, status="stalled"))  # news: written at once
    assert writes == ["add", "update"]
    tracker.update(snap(step=12, total_steps=1000, status="stalled"))
    now[0] = 10.0
    tracker.update(snap(step=12, total_steps=1000, status="stalled"))  # the progress is due
    assert writes == ["add", "update", "update"]
    assert store.run_for_log(str(log)).step == 12
    tracker.flush()
    assert len(writes) == 3
    tracker.update(snap(step=13, total_steps=1000, status="stalled"))
    tracker.flush()
    assert len(writes) == 4 and store.run_for_log(str(log)).step == 13


def test_progress_milestones_every_five_percent_once(store: Store, log: Path) -> None:
    tracker = RunTracker(store, log)
    for step in (10, 49, 50, 51, 99, 130, 131, 260, 1000):
        tracker.update(snap(step=step, total_steps=1000, loss=3.0 - step / 1000))
    progress = [m for m in store.run_for_log(str(log)).milestones if m["kind"] == "progress"]
    assert [m["pct"] for m in progress] == list(range(5, 101, 5))
    assert len({m["pct"] for m in progress}) == len(progress)


def test_milestones_catch_up_from_history_with_their_own_figures(store: Store, log: Path) -> None:
    history = {
        "loss": tuple((s, 3.0 - s / 100) for s in range(0, 101, 2)),
        "acc_0": tuple((s, 0.5 + s / 1000) for s in range(0, 101, 2)),
        "eval_loss": ((40, 2.7), (80, 2.3)),
    }
    record = RunTracker(store, log).update(
        snap(step=100, total_steps=200, loss=2.0, acc=(0.6,), history=history)
    )
    by_pct = {m["pct"]: m for m in record.milestones if m["kind"] == "progress"}
    assert sorted(by_pct) == list(range(5, 51, 5))
    assert (by_pct[5]["step"], by_pct[5]["loss"], by_pct[5]["acc"]) == (10, 2.9, [0.51])
    assert by_pct[50]["step"] == 100 and by_pct[50]["loss"] == 2.0
    evals = [m for m in record.milestones if m["kind"] == "eval"]
    assert [(m["step"], m["metrics"]) for m in evals] == [
        (40, {"eval_loss": 2.7}), (80, {"eval_loss": 2.3}),
    ]
    steps = [m["step"] for m in record.milestones]
    assert steps == sorted(steps)


def test_a_new_tracker_on_the_same_log_adds_no_duplicates(store: Store, log: Path) -> None:
    history = {"loss": tuple((s, 1.0) for s in range(0, 401, 10)), "eval_loss": ((200, 0.9),)}
    final = snap(step=400, total_steps=1000, loss=1.0, history=history, events=(oom_event(400),))
    first = RunTracker(store, log).update(final)
    second = RunTracker(store, log).update(final)
    assert second.id == first.id
    stored = store.get(first.id)
    assert stored.milestones == first.milestones and len(stored.milestones) == 9
    assert len(stored.events) == 1
    assert len(store.list("run")) == 1


def test_two_writers_on_one_log_keep_each_others_milestones(store: Store, log: Path) -> None:
    a = RunTracker(store, log)
    a.update(snap(step=60, total_steps=1000))
    b = RunTracker(store, log)
    b.update(snap(step=120, total_steps=1000))
    a.update(snap(step=60, total_steps=1000, loss=1.0))
    pcts = [m["pct"] for m in store.run_for_log(str(log)).milestones]
    assert pcts == [5, 10]


def test_crash_event_carries_signature_line_and_matching_lessons(store: Store, log: Path) -> None:
    earlier = OOM_LINE.replace("7.82", "3.10").replace("2231907", "99")
    lesson = store.add(Record("lesson", title="OOM in cross_entropy",
                              signature=failure_signature(earlier), fix="--max-length 2048"))
    store.add(Record("lesson", title="NCCL timeout at eval", signature=failure_signature(
        "[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3, "
        "OpType=ALLREDUCE) ran for 600042 milliseconds before timing out.")))
    tracker = RunTracker(store, log)
    tracker.update(snap(step=420, status="crashed", events=(oom_event(420),)))
    record = tracker.update(snap(step=420, status="crashed", events=(oom_event(420),)))
    assert record.status == "crashed"
    [event] = store.get(record.id).events
    assert event["kind"] == "crashed" and event["step"] == 420
    assert event["line"] == OOM_LINE
    assert event["signature"].startswith("torch.OutOfMemoryError: CUDA out of memory.")
    assert event["lessons"] == [lesson.id]
    assert event["context"][-1] == OOM_LINE


def test_unmatched_failure_has_no_lessons(store: Store, log: Path) -> None:
    store.add(Record("lesson", title="OOM", signature=failure_signature(OOM_LINE)))
    line = "KeyError: 'input_ids'"
    event = TrainEvent("crashed", line, line, 1.0, 5, failure_signature(line), (line,))
    record = RunTracker(store, log).update(snap(step=5, status="crashed", events=(event,)))
    assert record.events[0]["lessons"] == []


def test_diverged_run_keeps_its_last_finite_loss(store: Store, log: Path) -> None:
    tracker = RunTracker(store, log)
    tracker.update(snap(step=10, loss=1.5))
    record = tracker.update(snap(step=11, loss=float("nan"), status="diverged"))
    assert (record.status, record.loss, record.step) == ("diverged", 1.5, 11)


def test_unusable_accuracy_gives_no_accept_length(store: Store, log: Path) -> None:
    assert accept_length([]) is None
    assert accept_length([1.7, 0.4]) is None
    tracker = RunTracker(store, log)
    assert tracker.update(snap(step=1, acc=(1.5,))).accept_length is None
    tracker.update(snap(step=2, acc=(0.5,)))
    record = tracker.update(snap(step=3, acc=(float("nan"),)))
    assert (record.acc, record.accept_length) == ([0.5], 1.5)
    tracker.flush()  # the store takes it: no nan reaches its JSON
    assert store.get(record.id).step == 3


def test_run_followed_across_log_rotation_stays_one_run(store: Store, log: Path) -> None:
    lines = [f"step {s}: {{'acc_0': 0.7, 'loss': {3 - s / 100:.2f}, 'lr': 1e-4}}\n"
             for s in range(1, 61)]
    log.write_text("".join(lines[:30]))
    follower = LogFollower(log)
    tracker = RunTracker(store, log)
    first = tracker.update(follower.catch_up())
    assert first.step == 30
    os.rename(log, log.with_suffix(".log.1"))  # logrotate: move away, start a fresh file
    log.write_text("".join(lines[30:]))
    rotated = tracker.update(follower.poll())
    assert (rotated.id, rotated.step) == (first.id, 60)
    # A later process (the TUI reopened) reading only the fresh file finds the same run.
    reread = RunTracker(store, log).update(LogFollower(log).catch_up())
    assert reread.id == first.id
    assert [r.id for r in store.list("run")] == [first.id]
    follower.close()


def test_snapshot_fields_the_tracker_reads_exist() -> None:
    names = {f.name for f in dataclasses.fields(TrainSnapshot)}
    assert {"step", "total_steps", "epoch", "loss", "lr", "acc", "metrics", "eta_s",
            "last_update", "status", "events", "history"} <= names


def test_stall_and_divergence_get_a_signature_and_their_lessons(store: Store, log: Path) -> None:
    stall_lesson = store.add(Record(
        "lesson", title="Dataloader hang at the start of an epoch", symptom="no progress",
        signature=failure_signature("no progress for 900 s at step 5000"),
    ))
    store.add(Record("lesson", title="OOM", signature=failure_signature(OOM_LINE)))
    stalled = TrainEvent("stalled", "no progress for 612 s at step 420", "", 1.0, 420,
                         abstract("no progress for 612 s at step 420"))
    diverged = TrainEvent("diverged", "loss is nan at step 421", "specforge-v3: loss=nan", 2.0, 421,
                          abstract("loss is nan at step 421"))
    record = RunTracker(store, log).update(
        snap(step=421, status="diverged", events=(stalled, diverged))
    )
    by_kind = {event["kind"]: event for event in record.events}
    assert by_kind["stalled"]["signature"] == "no progress for <n> s at step <n>"
    assert by_kind["stalled"]["lessons"] == [stall_lesson.id]
    assert by_kind["diverged"]["signature"] == "loss is nan at step <n>"
    assert by_kind["diverged"]["lessons"] == []
