"""Prints what `sessiontui sync` costs without git: merging the store with the shared TOML file.

For 1,000 and 10,000 records: the first sync (writes the whole file), a sync with nothing new,
and a sync that takes in 10 records a teammate added. Run: `.venv/bin/python benchmarks/sync_cost.py`.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.sync import SYNC_FILE
from sessiontui.tui.commands.sync import merge_file


def benchmarks(count: int, start: int = 0) -> list[Record]:
    """Realistic benchmark records (conditions, figures, notes), with fixed ids and dates."""
    rng = random.Random(count + start)
    return [
        Record(kind="benchmark", id=f"b-{i:010x}", config=f"sglang eagle3 run {i}", status="ok",
               value=rng.uniform(50, 250), concurrency=rng.choice((1, 8, 64)), accept_length=2.5,
               figures={"ttft_ms": 20.0, "median_itl_ms": 4.5}, notes="warm-up 10 prompts",
               created_at=f"2026-0{1 + i % 9}-01T00:00:{i % 60:02d}+00:00")
        for i in range(start, start + count)
    ]


def timed(store: Store, path: Path) -> float:
    start = time.perf_counter()
    merge_file(store, path)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1_000, 10_000])
    for count in parser.parse_args().counts:
        folder = Path(tempfile.mkdtemp(prefix=f"sync{count}-"))
        shared = folder / SYNC_FILE
        with Store(folder / "mine" / "memory.db") as mine, Store(folder / "theirs" / "memory.db") as theirs:
            mine.add_all(benchmarks(count))
            first = timed(mine, shared)
            unchanged = timed(mine, shared)
            timed(theirs, shared)
            theirs.add_all(benchmarks(10, start=count))
            timed(theirs, shared)
            incoming = timed(mine, shared)
        size = shared.stat().st_size / 1e6
        print(f"{count:>6} records ({size:.1f} MB file): first sync {first:.2f} s, "
              f"nothing new {unchanged:.2f} s, 10 records in {incoming:.2f} s")
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
