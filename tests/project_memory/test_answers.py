"""Questions resolve to the right intent and figures, computed from what is stored."""

from __future__ import annotations

import pytest

from sessiontui.project_memory.ask import ask, classify
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("what's the baseline?", "baseline"),
        ("remind me what numbers we got without eagle3", "baseline"),
        ("baseline tok/s", "baseline"),
        ("current speedup?", "speedup"),
        ("what speedup at current perf?", "speedup"),
        ("what went wrong with packing?", "lessons"),
        ("OOM", "lessons"),
        ("triton shared memory", "lessons"),
        ("how far is training?", "run"),
        ("when will it finish?", "run"),
        ("llama 70b notes", "search"),
    ],
)
def test_classify(question: str, intent: str) -> None:
    assert classify(question) == intent


def add_bench(store: Store, config: str, value: float, **kw) -> Record:
    return store.add(Record(kind="benchmark", config=config, value=value, status="ok", **kw))


def test_baseline_picks_best_and_compares_latest(store: Store) -> None:
    low = add_bench(store, "SGLang baseline tp1", 48.0, baseline=True, concurrency=1)
    high = add_bench(store, "SGLang tuned baseline", 52.5, baseline=True, concurrency=1, notes="cuda graphs")
    spec = add_bench(store, "EAGLE-3 v2", 63.0, accept_length=2.1, concurrency=1)
    answer = ask(store, "what single-stream tok/s did we get without speculation?")
    assert answer.intent == "baseline"
    assert answer.figures["reference_value"] == 52.5
    assert answer.figures["reference_id"] == high.id
    assert {r.id for r in answer.records} == {low.id, high.id, spec.id}
    assert "1.20x" in answer.text and "cuda graphs" in answer.text


def test_speedup_says_plainly_when_slower(store: Store) -> None:
    add_bench(store, "baseline", 50.0, baseline=True)
    add_bench(store, "drafter v1", 40.0, accept_length=1.8)
    answer = ask(store, "current speedup?")
    assert answer.intent == "speedup"
    assert answer.figures["measured_speedup"] == pytest.approx(0.8)
    assert answer.figures["measured_value"] == 40.0
    assert answer.figures["reference_value"] == 50.0
    assert "SLOWER" in answer.text


def test_speedup_compares_at_matching_concurrency(store: Store) -> None:
    add_bench(store, "baseline c1", 50.0, baseline=True, concurrency=1)
    add_bench(store, "baseline c64", 900.0, baseline=True, concurrency=64)
    add_bench(store, "drafter c1", 75.0, concurrency=1)
    answer = ask(store, "current speedup?")
    assert answer.figures["reference_value"] == 50.0
    assert answer.figures["measured_speedup"] == pytest.approx(1.5)


def test_lessons_ranked_with_synonyms(store: Store) -> None:
    oom = store.add(Record(kind="lesson", title="Drafter OOM at seq 8k", symptom="CUDA out of memory",
                           cause="no activation checkpointing", fix="--gradient-checkpointing"))
    store.add(Record(kind="lesson", title="Packing off", symptom="slow epochs", cause="packing", fix="on"))
    answer = ask(store, "OOM")
    assert answer.intent == "lessons"
    assert answer.records[0].id == oom.id


def test_no_store_and_no_data_answers_without_figures(store: Store) -> None:
    assert ask(None, "what's the baseline?").figures == {}
    answer = ask(store, "what's the baseline?")
    assert "No baseline" in answer.text and answer.records == []


def test_speedup_adds_live_projection_calibration_and_trend(store: Store) -> None:
    add_bench(store, "baseline", 50.0, baseline=True)
    spec = add_bench(store, "drafter v1", 40.0, accept_length=1.8)
    store.add(Record(kind="run", name="drafter v2", acc=[0.8, 0.6, 0.4], step=1200, total_steps=4000,
                     created_at="2026-11-28T11:00:00+00:00", last_update="2026-11-28T11:00:00+00:00"))
    answer = ask(store, "what speedup at current perf?",
                 previous={"accept_length": 2.4, "step": 900, "at": "2026-11-28T10:00:00+00:00"})
    figures = answer.figures
    tau = 1 + 0.8 + 0.8 * 0.6 + 0.8 * 0.6 * 0.4
    assert figures["accept_length"] == pytest.approx(tau)
    assert figures["cost_factor"] == pytest.approx(2.25)
    assert figures["breakeven_accept_length"] == pytest.approx(2.25)
    assert figures["calibrated_value"] == pytest.approx(50 * tau / 2.25)
    assert figures["baseline_value"] == 50.0 and figures["measured_id"] == spec.id
    assert figures["accept_length_trend"] == pytest.approx(tau - 2.4)
    assert isinstance(figures["assumptions"], list) and figures["sources"]
    text = answer.text.splitlines()
    assert text[0].startswith("Measured speedup: 0.80x")  # a run not training now does not lead
    assert any(line.startswith("Trend: +0.072") for line in text)
    assert "above break-even" in figures["verdict"]
