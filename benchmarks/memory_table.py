"""Prints what re-showing the memory table costs on the UI thread, with 20 and with 500 records.

A followed run saves its progress every 10 s, and each save has the memory pane show the memory
again (one row changed); typing in the filter does the same per key. Names share long starts, as
a sweep of configs does, so each is cut to keep what tells it apart.
Run: `.venv/bin/python benchmarks/memory_table.py`.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from sessiontui.project_memory.records import Record
from sessiontui.tui.app import SessionApp

REPEATS = 9


def records(count: int) -> list[Record]:
    """A sweep of results whose names differ only near their end, and one running run."""
    sweep = [
        Record(kind="benchmark", id=f"b-{i:06d}", engine="sglang", model="llama-3.1-8b",
               config=f"eagle3 epoch_{i // 50}_step_{i * 100} steps=5 topk=4 draft=8 tp1 c{i % 8}",
               value=100.0 + i, concurrency=1, created_at="2026-11-30T10:00:00+00:00")
        for i in range(count - 1)
    ]
    run = Record(kind="run", id="r-000001", name="train_eagle3", status="running", step=100,
                 total_steps=12000, created_at="2026-11-30T09:00:00+00:00")
    return [run, *sweep]


async def cost_ms(count: int) -> float:
    """Median time of `MemoryPane.show` after the run's step moved (the every-10-s case)."""
    with tempfile.TemporaryDirectory() as folder:
        app = SessionApp(Path(folder), store_path=Path(folder) / "memory.db", refresh_s=3600)
        async with app.run_test(size=(160, 48)) as pilot:
            shown = records(count)
            app.memory_pane.show(shown, None)
            await pilot.pause()
            times = []
            for step in range(REPEATS):
                shown = [replace(shown[0], step=200 + step), *shown[1:]]
                start = time.perf_counter()
                app.memory_pane.show(shown, None)
                times.append((time.perf_counter() - start) * 1000)
                await pilot.pause()
    return statistics.median(times)


def main() -> None:
    for count in (20, 500):
        print(f"{count:4d} records: memory table shown again in {asyncio.run(cost_ms(count)):.1f} ms "
              f"(median of {REPEATS})")


if __name__ == "__main__":
    main()
