"""Matching failures to lessons written by people: the corpus figures and the rules behind them."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.project_memory.events import TrainEvent
from sessiontui.project_memory.lessons import lessons_for_event
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store

ROOT = Path(__file__).parent.parent.parent
CRASH = ROOT / "tests" / "fixtures" / "crash"


def crash(name: str) -> TrainEvent:
    """The crash event the collector reads from a real crash tail."""
    [event] = [e for e in read_log(CRASH / name).events if e.kind == "crashed"]
    return event


def lesson(store: Store, title: str, **fields: str) -> Record:
    return store.add(Record("lesson", title=title, **fields))


def ids(found: list[Record]) -> list[str]:
    return [record.id for record in found]


@pytest.mark.parametrize("lesson_set", ["notes", "terse", "quoted", "others"])
def test_the_corpus_figures_reach_the_goal(lesson_set: str) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from lesson_matching import evaluate

    figures = evaluate(lesson_set)
    assert figures.tails >= 10 and figures.lessons >= 12 and figures.wanted >= 20
    assert figures.precision >= 0.95 and figures.recall >= 0.95


def test_a_hand_written_lesson_is_found(store: Store) -> None:
    # The case: the person's words, other numbers, no signature stored.
    written = lesson(store, "Triton RMSNorm shared-memory OOM at long seq_len",
                     symptom="OutOfResources shared memory at seq_len 16384",
                     cause="block size grows with hidden size",
                     fix="train at seq_len 8192 with batch_size=8 packing")
    assert ids(lessons_for_event(store, crash("triton_shared_memory.log"))) == [written.id]


@pytest.mark.parametrize("title", ["OutOfResources in the fused kernel",
                                   "triton.runtime.errors.OutOfResources in the fused kernel"])
def test_exception_type_with_or_without_module_path(store: Store, title: str) -> None:
    written = lesson(store, title, fix="num_stages=2")
    assert ids(lessons_for_event(store, crash("triton_shared_memory.log"))) == [written.id]


def test_nccl_watchdog_never_matches_a_triton_lesson(store: Store) -> None:
    lesson(store, "Triton kernel times out of shared memory", symptom="OutOfResources, ALLREDUCE "
           "of the fused kernel's partial sums ran out of shared memory")
    assert lessons_for_event(store, crash("nccl_watchdog.log")) == []


def test_cuda_oom_never_matches_a_shared_memory_lesson(store: Store) -> None:
    lesson(store, "out of shared memory in the RMSNorm kernel", symptom="memory: Required 131104")
    lesson(store, "dataloader bus error: /dev/shm out of memory in docker")
    assert lessons_for_event(store, crash("cuda_oom.log")) == []


def test_numbers_paths_and_sizes_never_decide(store: Store) -> None:
    lesson(store, "2.00 GiB 139.81 GiB /home/ml/train.py 4229", symptom="GPU 0 rank 3 pid 40213")
    assert lessons_for_event(store, crash("cuda_oom.log")) == []


def test_rare_words_decide_common_ones_do_not(store: Store) -> None:
    pad = lesson(store, "llama tokenizer has no pad token", fix="pad_token = eos_token")
    lesson(store, "tokenizer chat template drops the system prompt", fix="newer transformers")
    assert ids(lessons_for_event(store, crash("pad_token.log"))) == [pad.id]


@pytest.mark.parametrize("name", ["segfault_core_dumped.log", "segfault_torchrun.log",
                                  "segfault_exit_139.log", "dataloader_segfault.log"])
def test_every_form_of_a_segfault_finds_the_segfault_lesson(store: Store, name: str) -> None:
    segv = lesson(store, "segfault after a few epochs", cause="opencv imported before torch")
    lesson(store, "job killed by the OOM killer", symptom="Killed, dmesg oom-kill")
    assert ids(lessons_for_event(store, crash(name))) == [segv.id]


def test_unrelated_failures_match_no_lesson(store: Store) -> None:
    lesson(store, "OOM at long context", symptom="CUDA out of memory at seq_len 16k")
    lesson(store, "NCCL watchdog timeout at the eval barrier")
    for name in ("child_failed_tokenizer.log", "keyerror_removed_column.log", "same_device_mm.log",
                 "killed.log", "illegal_memory_access.log"):
        assert lessons_for_event(store, crash(name)) == [], name


def test_stalls_match_stall_lessons_only(store: Store) -> None:
    hang = lesson(store, "eval hangs on multi-gpu", symptom="no progress after eval starts")
    lesson(store, "OOM at long context", symptom="CUDA out of memory")
    stall = TrainEvent("stalled", "no progress for 612 s at step 420", "", 1.0, 420)
    assert ids(lessons_for_event(store, stall)) == [hang.id]
    assert lessons_for_event(store, TrainEvent("finished", "training finished", "", 1.0, 9)) == []


def test_deleted_lesson_is_not_matched(store: Store) -> None:
    written = lesson(store, "NCCL watchdog timeout at the eval barrier")
    assert ids(lessons_for_event(store, crash("nccl_watchdog.log"))) == [written.id]
    store.delete(written.id)
    assert lessons_for_event(store, crash("nccl_watchdog.log")) == []


def test_a_lesson_written_after_a_match_is_found(store: Store) -> None:
    """The in-process index follows the memory: a lesson added since the last match counts."""
    lesson(store, "CUDA OOM in eval")
    assert lessons_for_event(store, crash("nccl_watchdog.log")) == []
    written = lesson(store, "NCCL watchdog timeout at the eval barrier")
    assert ids(lessons_for_event(store, crash("nccl_watchdog.log"))) == [written.id]


def test_limit_and_order(store: Store) -> None:
    for i in range(5):
        lesson(store, f"CUDA OOM number {i}")
    assert len(lessons_for_event(store, crash("cuda_oom.log"), limit=2)) == 2


@functools.cache
def first_crashes() -> tuple[tuple[str, TrainEvent], ...]:
    """Each crash tail's first crashed event, read once a worker (every lesson set ranks them)."""
    found = []
    for tail in sorted(CRASH.glob("*.log")):
        events = [e for e in read_log(tail).events if e.kind == "crashed"]
        if events:
            found.append((tail.name, events[0]))
    return tuple(found)


@pytest.mark.parametrize("lesson_set", ["notes", "terse", "quoted"])
def test_the_index_ranks_as_scoring_every_lesson_does(store: Store, lesson_set: str) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from lesson_matching import load_lessons

    from sessiontui.project_memory.lessons import _background, _index, _rank_indexed, rank

    store.add_all(load_lessons(lesson_set))
    for extra in store.list("lesson")[:3]:  # an edited and a deleted lesson: the index follows
        extra.title = f"{extra.title} (edited)"
        store.update(extra)
    store.delete(store.list("lesson")[-1].id)
    index = _index(store)  # every live lesson's terms derived, the edited ones again
    assert index is not None
    compared = 0
    for name, event in first_crashes():
        full = rank(event, store.list("lesson"), _background(store))
        assert ids(_rank_indexed(store, index, event, 3)) == ids(full), name
        compared += bool(full)
    assert compared >= 20
