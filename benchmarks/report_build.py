"""Prints what `build_report` (`sessiontui report`) costs with 1,000 and 4,000 baselines and as
many results, at eight concurrencies.

Every result is divided by the number to beat for its conditions: the baselines are indexed by
conditions (`reference.Benchmarks`), so the report grows with results times conditions, not
results times baselines. Run: `.venv/bin/python benchmarks/report_build.py`.
"""

from __future__ import annotations

import time

from sessiontui.project_memory.records import Record
from sessiontui.tui.report import build_report

RUNS = 3


def records(count: int) -> list[Record]:
    """`count` baselines and `count` results at concurrencies 1..128, newest first."""
    made = [Record("benchmark", id=f"b-{i}", config=f"base {i}", value=50.0 + i % 7, baseline=True,
                   concurrency=2 ** (i % 8), created_at="2026-11-01T10:00:00+00:00")
            for i in range(count)]
    made += [Record("benchmark", id=f"r-{i}", config=f"eagle {i}", value=60.0,
                    concurrency=2 ** (i % 8), created_at="2026-11-02T10:00:00+00:00")
             for i in range(count)]
    return made[::-1]


def main() -> None:
    for count in (1000, 4000):
        given = records(count)
        best = float("inf")
        for _ in range(RUNS):
            start = time.perf_counter()
            build_report(given)
            best = min(best, time.perf_counter() - start)
        print(f"{count:,} baselines + {count:,} results: build_report {best * 1000:.0f} ms (best of {RUNS})")


if __name__ == "__main__":
    main()
