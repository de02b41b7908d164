"""Prints what `build_speedup_report` costs with 100 and with 10,000 stored records.

The speedup answer reads every baseline, and only the newest speculative results and runs, so it
should not slow down as results pile up. (It does grow with the number of baselines: each is
loaded, as for the baseline answer.) Run: `.venv/bin/python benchmarks/speedup_report.py`.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.speedup import build_speedup_report
from sessiontui.project_memory.store import Store

RUNS = 7


def seed(path: Path, count: int) -> None:
    """Benchmarks (five baselines, most others speculative with an accept length) and runs."""
    rng = random.Random(count)
    records = []
    for i in range(count):
        when = f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T00:00:{i % 60:02d}+00:00"
        if i % 10 == 9:
            records.append(Record(kind="run", id=f"r-{i:010x}", name=f"run {i}", created_at=when,
                                  updated_at=when, acc=[0.8, 0.6, 0.5], step=i))
            continue
        spec = i % (count // 5) != 0
        records.append(Record(
            kind="benchmark", id=f"b-{i:010x}", config=f"config {i}", created_at=when,
            updated_at=when, value=rng.uniform(20, 200), baseline=not spec, engine="sglang",
            concurrency=rng.choice((1, 8, 64)), accept_length=rng.uniform(1.5, 3.5) if spec else None,
        ))
    with Store(path) as store:
        store.merge(records)


def median_ms(store: Store) -> float:
    """Median wall time of one report built from the memory alone, in milliseconds."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        build_speedup_report(store)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for count in (100, 10_000):
            path = Path(tmp) / f"m{count}.db"
            seed(path, count)
            with Store(path) as store:
                results[count] = median_ms(store)
            print(f"{count:>6} records: build_speedup_report median {results[count]:.1f} ms")
    print(f"ratio 10,000 / 100: {results[10_000] / results[100]:.2f}x")


if __name__ == "__main__":
    main()
