"""The reference rule, the worked example of issue 12, and what `ask --json` promises."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from seeds import FULL_ACC, LiveSnapshot, seed  # noqa: E402

from sessiontui.project_memory.ask import ask  # noqa: E402
from sessiontui.project_memory.records import Record  # noqa: E402
from sessiontui.project_memory.reference import Conditions, number_to_beat, reference_of  # noqa: E402
from sessiontui.project_memory.specdec import tau_from_full  # noqa: E402
from sessiontui.project_memory.store import Store  # noqa: E402
from sessiontui.project_memory.understanding import understand  # noqa: E402


def bench(store: Store, config: str, value: float, **fields) -> Record:
    return store.add(Record(kind="benchmark", config=config, value=value, status="ok", **fields))


def test_two_concurrencies_and_two_engines(store: Store) -> None:
    sg1 = bench(store, "sglang c1", 50.0, baseline=True, engine="sglang", concurrency=1)
    vl1 = bench(store, "vllm c1", 40.0, baseline=True, engine="vllm", concurrency=1)
    sg32 = bench(store, "sglang c32", 1400.0, baseline=True, engine="sglang", concurrency=32)
    vl32 = bench(store, "vllm c32", 1500.0, baseline=True, engine="vllm", concurrency=32)
    spec_vllm = bench(store, "vllm eagle c1", 60.0, engine="vllm", concurrency=1, accept_length=2.0)
    spec_sg32 = bench(store, "sglang eagle c32", 1260.0, engine="sglang", concurrency=32,
                      accept_length=1.8)
    baselines = [sg1, vl1, sg32, vl32]
    assert number_to_beat(baselines, Conditions(concurrency=1)) is sg1
    assert number_to_beat(baselines, Conditions(concurrency=32)) is vl32
    assert number_to_beat(baselines, Conditions(concurrency=1, engine="vllm")) is vl1
    assert reference_of(spec_vllm, baselines) is sg1  # the engine is not a condition
    assert reference_of(spec_sg32, baselines) is vl32
    answer = ask(store, "current speedup at c=1?")
    assert answer.figures["measured_speedup"] == pytest.approx(1.2)
    assert answer.figures["own_speedup"] == pytest.approx(1.5)
    answer = ask(store, "speedup at c=32")
    assert answer.figures["reference_value"] == 1500.0
    assert answer.figures["measured_speedup"] == pytest.approx(0.84)
    assert "slower" in answer.text.lower()
    answer = ask(store, "what's the baseline at c=32?")
    assert answer.figures["reference_value"] == 1500.0
    assert "0.84x the number to beat (vllm 1,500); 0.90x sglang's own baseline" in answer.text
    answer = ask(store, "what's the vllm baseline?")  # the latest result's conditions: c=32
    assert answer.figures["reference_value"] == 1500.0
    assert ask(store, "vllm baseline single stream").figures["reference_value"] == 40.0


def test_issue_worked_example(store: Store) -> None:
    seed(store)
    answer = ask(store, "what speedup at current perf?", snapshots=(LiveSnapshot(),),
                 draft_overhead=0.15)
    first, second = answer.text.splitlines()[:2]  # the live run is newer than the last result
    assert first.startswith("Projected from the live run (conditional acc_i of training log")
    assert "step 4216" in first and "ago)" in first
    assert "calibrated 1.20x ≈ 107.7 tok/s against 90.0 tok/s; bound 2.39x" in first
    assert "your draft_overhead setting in sessiontui.toml" in first
    assert second.startswith("Measured speedup: 0.91x the number to beat (sglang 90)")
    assert "measured " in second and " ago]" in second
    assert answer.figures["accept_length"] == pytest.approx(tau_from_full(FULL_ACC))
    assert answer.figures["baseline_value"] == 90.0 and answer.figures["step"] == 4216


def test_baseline_never_leads_with_the_feature(store: Store) -> None:
    records = seed(store)
    answer = ask(store, "Remind me, what inference numbers were we getting in kimi k2.5 "
                        "inference w/o eagle3?")
    assert answer.intent == "baseline" and answer.records[0].id == records["sglang"].id
    assert answer.figures["reference_value"] == 90.0  # not the c=32 1450
    assert answer.conditions["without_feature"] is True
    assert "slower than the baseline" in answer.text


def test_json_contract(store: Store) -> None:
    seed(store)
    data = ask(store, "speedup vs the vllm baseline?").to_dict()
    assert {"intent", "text", "records", "figures", "confidence", "conditions",
            "alternatives"} <= set(data)
    assert data["intent"] == "speedup" and data["conditions"]["engine"] == "vllm"
    assert 0 <= data["confidence"] <= 1
    assert data["figures"]["reference_value"] == 90.0  # the number to beat, whatever is named


def test_unsure_questions_show_two_labelled_candidates(store: Store) -> None:
    seed(store)
    answer = ask(store, "eagle3 drafter")  # a name, no question: a run? a result? a note?
    assert answer.confidence < 0.5 and answer.alternatives
    runner_up = answer.alternatives[0]["intent"]
    assert answer.text.startswith(f"Best guess ({answer.intent}):")
    assert f"Or, if you meant {runner_up}:" in answer.text


@pytest.mark.parametrize(("question", "concurrency", "batch", "engine"), [
    ("speedup at c=8", 8, None, None),
    ("bs=4 tput on vllm", None, 4, "vllm"),
    ("single stream sglang baseline", 1, None, "sglang"),
    ("tok/s with 16 concurrent users", 16, None, None),
])
def test_conditions_are_read(question: str, concurrency, batch, engine) -> None:
    asked = understand(question).conditions.comparison
    assert (asked.concurrency, asked.batch_size, asked.engine) == (concurrency, batch, engine)


def test_a_named_engine_never_moves_the_number_to_beat(store: Store) -> None:
    seed(store)
    answer = ask(store, "speedup vs the vllm baseline?", snapshots=(LiveSnapshot(),))
    figures = answer.figures
    assert figures["reference_value"] == figures["baseline_value"] == 90.0
    assert figures["measured_speedup"] == pytest.approx(82.3 / 90.0, abs=1e-3)
    assert figures["calibrated_speedup"] == pytest.approx(107.73 / 90.0, abs=1e-3)
    assert "1.00x vllm's baseline 82.5 (the engine you named; not the number to beat)" in answer.text


def test_no_feature_result_at_the_asked_conditions_is_said_first(store: Store) -> None:
    seed(store)
    answer = ask(store, "speedup at c=32", snapshots=(LiveSnapshot(),))
    assert answer.text.startswith("No feature result at c=32")
    assert answer.figures["reference_value"] == 1450.0 and answer.figures["calibrated_value"] is None


@pytest.mark.parametrize("question, no_feature", [
    ("how high must AL be before eagle3 wins", False),  # a bar for the feature, not its absence
    ("what did we get before eagle3", True),
    ("pls tell me the throughput when we are not using the draft model", True),
])
def test_what_without_the_feature_means(question: str, no_feature: bool) -> None:
    assert understand(question).conditions.no_feature is no_feature


@pytest.mark.parametrize("word", ["until", "till"])
def test_ordinary_words_are_not_typos_of_the_lexicon(word: str) -> None:
    assert "util" not in understand(f"problems we had {word} now").words
