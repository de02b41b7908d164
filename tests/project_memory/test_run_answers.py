"""Answers about runs from stored run records and live snapshots; lesson drafts from failures."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.logtext import failure_signature
from sessiontui.project_memory.humanize import duration
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.run_answers import answer_run, lesson_draft_from_run
from sessiontui.project_memory.runs import RunTracker
from sessiontui.project_memory.store import Store, StoreError
from tests.project_memory.run_fakes import OOM_LINE, oom_event, snap


def track(store: Store, path: Path, *snapshots) -> Record:
    tracker = RunTracker(store, path)
    for snapshot in snapshots:
        record = tracker.update(snapshot)
    return record


@pytest.fixture
def runs(store: Store, tmp_path: Path) -> dict[str, Record]:
    past = track(store, tmp_path / "drafter-a.log",
                 *(snap(step=s, total_steps=100, loss=3 - s / 100, acc=(0.5 + s / 1000,),
                        last_update=1_780_000_000.0 + s) for s in (10, 50, 100)),
                 snap(step=100, total_steps=100, status="finished", last_update=1_780_000_200.0))
    live = track(store, tmp_path / "drafter-b.log",
                 snap(step=1270, total_steps=5000, loss=1.89, acc=(0.77, 0.59, 0.47), eta_s=3725.0,
                      epoch=0.25, lr=7.1e-5, last_update=1_790_000_000.0))
    return {"past": past, "live": live}


def test_latest_run_without_a_name(store: Store, runs: dict[str, Record]) -> None:
    answer = answer_run(store, "how far is training?")
    assert answer.intent == "run" and answer.records[0].id == runs["live"].id
    figures = answer.figures
    assert (figures["step"], figures["total_steps"], figures["eta_s"]) == (1270, 5000, 3725.0)
    assert figures["acc"] == [0.77, 0.59, 0.47]
    assert figures["accept_length"] == pytest.approx(1 + 0.77 + 0.77 * 0.59 + 0.77 * 0.59 * 0.47)
    assert "step 1,270 of 5,000 (25.4%)" in answer.text
    assert "ETA 1 h 02 min" in answer.text


def test_named_past_run_shows_its_milestones(store: Store, runs: dict[str, Record]) -> None:
    answer = answer_run(store, "what accuracy did drafter-a reach?")
    assert answer.records[0].id == runs["past"].id
    assert answer.figures["status"] == "finished" and answer.figures["acc"] == [0.6]
    assert answer.text.count("% at step") == 20  # every 5% milestone of a finished run
    assert "100% at step 100: loss 2.000, acc 0.600" in answer.text


def test_running_run_shows_only_its_latest_milestones(store: Store, tmp_path: Path) -> None:
    track(store, tmp_path / "r.log", *(snap(step=s, total_steps=100) for s in range(5, 60, 5)))
    assert answer_run(store, "progress?").text.count("% at step") == 3


def test_live_snapshot_is_newer_than_the_stored_run(
    store: Store, runs: dict[str, Record], tmp_path: Path
) -> None:
    live = snap(source=str(tmp_path / "drafter-b.log"), step=1300, total_steps=5000, eta_s=100.0)
    answer = answer_run(store, "when will it finish?", snapshots=[live])
    assert answer.records[0].id == runs["live"].id
    assert (answer.figures["step"], answer.figures["eta_s"]) == (1300, 100.0)
    assert store.get(runs["live"].id).step == 1270  # answering writes nothing


def test_live_snapshot_without_a_stored_run(tmp_path: Path) -> None:
    live = snap(source=str(tmp_path / "fresh.log"), step=7, total_steps=70, acc=(0.5,))
    answer = answer_run(None, "how far is training?", snapshots=[live])
    assert answer.figures["step"] == 7 and answer.figures["run_id"] == ""
    assert answer.figures["accept_length"] == 1.5


def test_no_runs_at_all(store: Store) -> None:
    answer = answer_run(store, "how far is training?")
    assert answer.records == [] and "No training run recorded yet" in answer.text


def test_failure_shows_the_matching_lessons_fix(store: Store, tmp_path: Path) -> None:
    store.add(Record("lesson", title="Drafter OOM", fix="--max-length 2048",
                     signature=failure_signature(OOM_LINE)))
    track(store, tmp_path / "c.log", snap(step=420, status="crashed", events=(oom_event(420),)))
    text = answer_run(store, "what went on with the run?").text
    assert "seen before: Drafter OOM" in text and "fix: --max-length 2048" in text


def test_lesson_draft_from_a_crashed_run(store: Store, tmp_path: Path) -> None:
    run = track(store, tmp_path / "c.log", snap(step=420, status="crashed",
                                                events=(oom_event(420),)))
    draft = lesson_draft_from_run(store, run.id)
    assert draft.kind == "lesson" and not draft.id
    assert draft.signature == failure_signature(OOM_LINE)
    assert OOM_LINE in draft.symptom and "step 420" in draft.symptom
    assert run.id in draft.notes


def test_lesson_draft_needs_a_failed_run(store: Store, runs: dict[str, Record]) -> None:
    with pytest.raises(StoreError, match="no crash"):
        lesson_draft_from_run(store, runs["past"].id)
    note = store.add(Record("note", text="hello"))
    with pytest.raises(StoreError, match="not a run"):
        lesson_draft_from_run(store, note.id)


def test_duration() -> None:
    assert [duration(s) for s in (40, 720, 3725, 90000)] == [
        "40 s", "12 min", "1 h 02 min", "25 h 00 min",
    ]
