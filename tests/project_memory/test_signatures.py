"""Failure signatures from real crash tails, and matching them against recorded lessons."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.signatures import (
    failure_signature,
    failure_type,
    lessons_for_event,
    match_lessons,
)
from sessiontui.project_memory.store import Store

CRASH = Path(__file__).parent.parent / "fixtures" / "crash"


def crash_tail(name: str) -> str:
    """A fixture's log lines without its header comment."""
    lines = (CRASH / name).read_text().splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith("#"))


@pytest.mark.parametrize(
    ("name", "kind", "expected"),
    [
        ("cuda_oom.log", "OutOfMemoryError",
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate <size>. GPU <n> has a total "
         "capacity of <size> of which <size> is free. Process <n> has <size> memory in use."),
        ("cuda_oom_legacy.log", "OutOfMemoryError",
         "RuntimeError: CUDA out of memory. Tried to allocate <size> (GPU <n>; <size> total capacity;"),
        ("triton_shared_memory.log", "OutOfResources",
         "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: <n>, "
         "Hardware limit: <n>."),
        ("nccl_watchdog.log", "ProcessGroupNCCL",
         "ProcessGroupNCCL: Watchdog caught collective operation timeout: WorkNCCL(SeqNum=<n>, "
         "OpType=ALLREDUCE, NumelIn=<n>, NumelOut=<n>, Timeout(ms)=<n>) ran for <n> milliseconds"),
        ("killed.log", "Killed", "Killed"),
    ],
)
def test_signature_of_each_crash_tail(name: str, kind: str, expected: str) -> None:
    signature = failure_signature(crash_tail(name))
    assert signature.startswith(expected)
    assert failure_type(signature) == kind
    assert not re.search(r"\d", signature.replace("Timeout(ms)", ""))


def test_same_failure_with_other_numbers_has_the_same_signature() -> None:
    assert failure_signature(crash_tail("cuda_oom.log")) == failure_signature(
        crash_tail("cuda_oom_later.log")
    )


def test_the_failure_wins_over_the_launcher_that_reports_it() -> None:
    # torchrun's ChildFailedError comes last, but the watchdog timeout is the failure.
    assert failure_signature(crash_tail("nccl_watchdog.log")).startswith("ProcessGroupNCCL:")


def test_abstractions() -> None:
    signature = failure_signature(
        "[default3]:2026-03-01 10:11:12,345 - ERROR - FileNotFoundError: [Errno 2] No such file: "
        "'/data/shard-00017.arrow' at 0x7f3b8c5b6f86 rank 3 pid 4411 after 12:30:01"
    )
    assert signature == (
        "FileNotFoundError: [Errno <n>] No such file: '<path>' at <addr> rank <n> pid <n> "
        "after <time>"
    )


def test_prefixes_do_not_change_the_signature() -> None:
    line = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
    assert failure_signature(f"[default0]:{line}") == failure_signature(line)
    assert failure_signature(f"[rank5]: {line}") == failure_signature(line)


def test_cuda_oom_folds_old_and_new_exception_types() -> None:
    assert failure_type("torch.cuda.OutOfMemoryError: CUDA out of memory.") == "OutOfMemoryError"
    assert failure_type("RuntimeError: CUDA out of memory. Tried") == "OutOfMemoryError"
    assert failure_type("RuntimeError: Expected all tensors to be on the same device") == (
        "RuntimeError"
    )
    assert failure_type("no progress for <n> s") == ""


@settings(deadline=None)  # robustness, not speed: a loaded CI runner must not fail it
@given(st.text(max_size=2000))
def test_any_text_gives_a_one_line_signature(text: str) -> None:
    signature = failure_signature(text)
    assert "\n" not in signature and "\r" not in signature


def test_empty_text_has_no_signature_and_matches_nothing(store: Store) -> None:
    store.add(Record("lesson", title="anything", symptom="x", signature=""))
    assert failure_signature("") == ""
    assert match_lessons(store, "") == []


# -- matching lessons -------------------------------------------------------------------------


def lesson(store: Store, title: str, tail: str | None = None, **fields: str) -> Record:
    signature = failure_signature(crash_tail(tail)) if tail else None
    return store.add(Record("lesson", title=title, signature=signature, **fields))


@pytest.fixture
def lessons(store: Store) -> dict[str, Record]:
    return {
        "oom": lesson(
            store, "Drafter OOM at long sequences", "cuda_oom.log",
            symptom="cross_entropy OOM after a few hundred steps",
            cause="vocab-sized logits for 7 TTT positions at once",
            fix="--max-length 2048 and chunked loss",
        ),
        "triton": lesson(
            store, "Triton kernel asks for too much shared memory", "triton_shared_memory.log",
            fix="num_stages=2 in the autotune configs",
        ),
        "nccl": lesson(
            store, "NCCL hang at the eval barrier", "nccl_watchdog.log",
            cause="rank 0 ran eval alone", fix="run eval on every rank",
        ),
    }


def test_recorded_lesson_matches_a_later_run_with_other_numbers(
    store: Store, lessons: dict[str, Record]
) -> None:
    text = crash_tail("cuda_oom_later.log")
    found = match_lessons(store, failure_signature(text), text)
    assert [r.id for r in found][:1] == [lessons["oom"].id]
    assert lessons["triton"].id not in [r.id for r in found]


def test_old_style_oom_matches_the_oom_lesson(store: Store, lessons: dict[str, Record]) -> None:
    found = match_lessons(store, failure_signature(crash_tail("cuda_oom_legacy.log")))
    assert [r.id for r in found] == [lessons["oom"].id]


@pytest.mark.parametrize(
    "text",
    [
        "KeyError: 'input_ids'",
        "ValueError: Expected input batch_size (16) to match target batch_size (32).",
        "RuntimeError: Expected all tensors to be on the same device, but found cuda:0 and cpu!",
        "Killed",
    ],
)
def test_unrelated_failure_matches_no_lesson(
    store: Store, lessons: dict[str, Record], text: str
) -> None:
    assert match_lessons(store, failure_signature(text), text) == []


def test_strong_text_match_without_a_stored_signature(store: Store) -> None:
    written = store.add(Record(
        "lesson", title="Triton OutOfResources: shared memory over the hardware limit",
        symptom="out of resource: shared memory, Required above the Hardware limit; reducing "
                "block sizes or num_stages may help", fix="num_stages=2",
    ))
    store.add(Record("lesson", title="Shared memory notes", symptom="shared memory is fast"))
    found = match_lessons(store, failure_signature(crash_tail("triton_shared_memory.log")))
    assert [r.id for r in found] == [written.id]


def test_exact_signature_ranks_before_a_near_one(store: Store) -> None:
    near = store.add(Record(
        "lesson", title="OOM in the old allocator",
        signature=failure_signature(crash_tail("cuda_oom_legacy.log")),
    ))
    exact = lesson(store, "OOM, new allocator message", "cuda_oom.log")
    found = match_lessons(store, failure_signature(crash_tail("cuda_oom_later.log")))
    assert [r.id for r in found] == [exact.id, near.id]


def test_deleted_lesson_is_not_matched(store: Store, lessons: dict[str, Record]) -> None:
    store.delete(lessons["nccl"].id)
    assert match_lessons(store, failure_signature(crash_tail("nccl_watchdog.log"))) == []


def test_limit(store: Store) -> None:
    for i in range(5):
        lesson(store, f"OOM {i}", "cuda_oom.log")
    assert len(match_lessons(store, failure_signature(crash_tail("cuda_oom.log")), limit=2)) == 2


def test_lessons_for_a_collector_event_and_a_stored_event_dict(
    store: Store, lessons: dict[str, Record]
) -> None:
    tail = crash_tail("triton_shared_memory.log").splitlines()
    event = SimpleNamespace(
        kind="crashed", message="OutOfResources", line=tail[-1], signature=None,
        context=tuple(tail[-6:]), step=60,
    )
    assert [r.id for r in lessons_for_event(store, event)][:1] == [lessons["triton"].id]
    stored = {"kind": "crashed", "message": "", "line": tail[-1],
              "signature": failure_signature(tail[-1])}
    assert [r.id for r in lessons_for_event(store, stored)][:1] == [lessons["triton"].id]
