"""Prints what proactive memory costs: RunTracker.update at 1 Hz, signatures, lesson matching.

The tracker runs once a second for every followed log, so its no-change path must be cheap; lesson
matching runs once per failure event. Run: `.venv/bin/python benchmarks/run_memory.py`.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sessiontui.collectors.logtext import failure_signature
from sessiontui.collectors.trainlog import TrainEvent, TrainSnapshot, read_log
from sessiontui.project_memory.lessons import lessons_for_event
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.runs import RunTracker
from sessiontui.project_memory.store import Store

CRASH = Path(__file__).parent.parent / "tests" / "fixtures" / "crash"


def per_call_us(fn: Callable[[], object], calls: int) -> float:
    """Median over 5 rounds of the mean time of one call, in microseconds."""
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        rounds.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(rounds)


def snapshot(step: int, events: tuple[TrainEvent, ...] = ()) -> TrainSnapshot:
    history = {"loss": tuple((s, 3 - s / 10_000) for s in range(0, step + 1, max(1, step // 512))),
               "eval_loss": tuple((s, 2.0) for s in range(0, step + 1, 1000))}
    return TrainSnapshot(
        source="train.log", format="specforge-v3", step=step, total_steps=20_000, epoch=1.0,
        loss=2.0, lr=1e-4, grad_norm=None, acc=(0.8, 0.6, 0.5, 0.4, 0.35, 0.3, 0.3), metrics={},
        steps_per_s=3.0, eta_s=100.0, last_update=1_790_000_000.0, status="running",
        events=events, history=history, caught_up=True, progress=1.0,
    )


def seed_lessons(store: Store, count: int) -> None:
    """Lessons with varied signatures and text, one third with a stored signature."""
    rng = random.Random(count)
    kinds = ["KeyError: 'x{}'", "ValueError: shape mismatch {}", "RuntimeError: CUDA error {}",
             "AssertionError: step {}", "torch.OutOfMemoryError: CUDA out of memory {} GiB"]
    lessons = []
    for i in range(count):
        text = rng.choice(kinds).format(i)
        lessons.append(Record("lesson", title=f"lesson {i} {text}", symptom=text, cause="c", fix="f",
                              signature=failure_signature(text) if i % 3 == 0 else None))
    store.add_all(lessons)  # one transaction: the fill is not what is measured


def main() -> None:
    tails = {p.name: p.read_text() for p in sorted(CRASH.glob("*.log"))}
    sig_us = statistics.mean(per_call_us(lambda t=t: failure_signature(t), 200)
                             for t in tails.values())
    print(f"failure_signature of a crash tail (mean of {len(tails)} fixtures): {sig_us:8.1f} us")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "memory.db")
        tracker = RunTracker(store, Path(tmp) / "train.log")
        tracker.update(snapshot(10_000))
        same = snapshot(10_000)
        print(f"RunTracker.update, nothing changed (the 1 Hz idle path): "
              f"{per_call_us(lambda: tracker.update(same), 200):8.1f} us")
        steps = iter(range(10_001, 20_000))
        print(f"RunTracker.update, new step (stored every 10 s):         "
              f"{per_call_us(lambda: tracker.update(snapshot(next(steps))), 20):8.1f} us")


        def step_and_store() -> None:
            tracker.update(snapshot(next(steps)))
            tracker.flush()

        print(f"RunTracker.update + flush, new step (one store write):   "
              f"{per_call_us(step_and_store, 20):8.1f} us")
        [oom] = read_log(CRASH / "cuda_oom_later.log").events
        for count in (100, 1000, 10_000):
            seed_lessons(store, count - store.count() + 1)
            found = lessons_for_event(store, oom)
            print(f"lessons_for_event, {count:6,} lessons in the memory: "
                  f"{per_call_us(lambda: lessons_for_event(store, oom), 3) / 1000:8.1f} ms "
                  f"({len(found)} matched)")
        store.close()


if __name__ == "__main__":
    main()
